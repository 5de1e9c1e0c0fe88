#include "services/livegpus/claimpods.h"

#include "core/kube/dra.h"
#include "core/kube/kubeclient.h"

#include <QSet>

namespace gq {

QHash<QString, QStringList> claimPods(const QHash<QString, StoredObject> &claims, const QStringList &wanted) {
    QHash<QString, QStringList> out;
    for (const QString &key : wanted)
        if (const auto it = claims.constFind(key); it != claims.constEnd())
            out.insert(key, dra::reservedPods(it->object));
    return out;
}

Result<QHash<QString, QStringList>> readClaimPods(KubeClient &client, const QStringList &wanted) {
    QHash<QString, StoredObject> claims;
    auto take = [&claims](const QList<QJsonObject> &items) {
        for (const QJsonObject &o : items) {
            const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
            StoredObject s;
            s.namespaceName = meta.value(QLatin1String("namespace")).toString();
            s.name = meta.value(QLatin1String("name")).toString();
            s.object = o;
            claims.insert(s.key(), s);
        }
    };
    auto all = client.list(dra::resourceClaims(), QString()).result();
    if (all) {
        take(all->items);
        return claimPods(claims, wanted);
    }
    if (all.error().kind != Error::Kind::Forbidden)
        return all.error();
    // Allowed in some namespaces only: those of the claims.
    QSet<QString> namespaces;
    for (const QString &key : wanted)
        namespaces.insert(key.section(QLatin1Char('/'), 0, 0));
    for (const QString &ns : std::as_const(namespaces)) {
        auto some = client.list(dra::resourceClaims(), ns).result();
        if (!some)
            return some.error();
        take(some->items);
    }
    return claimPods(claims, wanted);
}

ClaimPodsWatch::ClaimPodsWatch(QObject *parent)
    : QObject(parent) {}

ClaimPodsWatch::~ClaimPodsWatch() {
    stop();
}

void ClaimPodsWatch::follow(const std::shared_ptr<KubeClient> &client) {
    if (client == m_client)
        return;
    stop();
    m_client = client;
    if (!m_client)
        return;
    m_informer = new ObjectInformer(m_client, dra::resourceClaims(), QString(), this);
    m_informer->setBatchInterval(1000); // a refresh of the page, not one per claim event
    connect(m_informer, &Informer::changed, this, &ClaimPodsWatch::changed);
    connect(m_informer, &Informer::synced, this, &ClaimPodsWatch::changed);
    connect(m_informer, &Informer::errorOccurred, this, [informer = m_informer](const Error &error) {
        if (error.kind == Error::Kind::Forbidden || error.httpStatus == 404)
            informer->stop(); // claims stay unnamed for this client
    });
    m_informer->start();
}

void ClaimPodsWatch::stop() {
    if (m_informer) {
        m_informer->disconnect(this);
        m_informer->stop();
        m_informer->deleteLater();
    }
    m_informer.clear();
    m_client.reset();
}

bool ClaimPodsWatch::ready() const {
    return m_informer && m_informer->hasSynced();
}

QHash<QString, QStringList> ClaimPodsWatch::podsFor(const QStringList &claims) const {
    return ready() ? claimPods(m_informer->objectMap(), claims) : QHash<QString, QStringList>();
}

} // namespace gq
