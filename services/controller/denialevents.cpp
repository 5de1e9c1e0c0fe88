#include "services/controller/denialevents.h"

#include "core/kube/kubeclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcDenialEvents, "gq.controller.webhook")

namespace gq {

std::optional<PodOwner> PodOwner::of(const QJsonObject &pod, const QString &ns) {
    const QJsonArray refs =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("ownerReferences")).toArray();
    if (refs.isEmpty())
        return std::nullopt;
    QJsonObject chosen = refs.first().toObject();
    for (const QJsonValue &r : refs)
        if (r.toObject().value(QLatin1String("controller")).toBool()) {
            chosen = r.toObject();
            break;
        }
    PodOwner o;
    o.apiVersion = chosen.value(QLatin1String("apiVersion")).toString();
    o.kind = chosen.value(QLatin1String("kind")).toString();
    o.name = chosen.value(QLatin1String("name")).toString();
    o.uid = chosen.value(QLatin1String("uid")).toString();
    o.ns = ns;
    if (o.kind.isEmpty() || o.name.isEmpty())
        return std::nullopt;
    return o;
}

DenialEvents::DenialEvents(std::shared_ptr<KubeClient> client, const Clock &clock, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_clock(clock) {}

DenialEvents::~DenialEvents() = default;

void DenialEvents::report(const PodOwner &owner, const QString &message) {
    QMetaObject::invokeMethod(
        this, [this, owner, message] { record(owner, message); }, Qt::QueuedConnection);
}

QJsonObject DenialEvents::eventFor(const PodOwner &owner, const QString &message, qint64 now) {
    const QString stamp = QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate);
    // As client-go's recorder names them: <involved object>.<time in hex>.
    const QString name = QStringLiteral("%1.%2").arg(owner.name).arg(quint64(now) * 1000000000ULL, 0, 16);
    return QJsonObject{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("Event")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), owner.ns}}},
        {QStringLiteral("involvedObject"), QJsonObject{{QStringLiteral("apiVersion"), owner.apiVersion},
                                                       {QStringLiteral("kind"), owner.kind},
                                                       {QStringLiteral("name"), owner.name},
                                                       {QStringLiteral("namespace"), owner.ns},
                                                       {QStringLiteral("uid"), owner.uid}}},
        {QStringLiteral("type"), QStringLiteral("Warning")},
        {QStringLiteral("reason"), kReason},
        {QStringLiteral("message"), message},
        {QStringLiteral("source"),
         QJsonObject{{QStringLiteral("component"), QStringLiteral("gpuquota-controller")}}},
        {QStringLiteral("firstTimestamp"), stamp},
        {QStringLiteral("lastTimestamp"), stamp},
        {QStringLiteral("count"), 1},
    };
}

void DenialEvents::record(const PodOwner &owner, const QString &message) {
    const qint64 now = m_clock.nowSecs();
    const QString key =
        owner.uid.isEmpty() ? QStringLiteral("%1/%2/%3").arg(owner.kind, owner.ns, owner.name) : owner.uid;
    if (!due(m_last.value(key), now))
        return;
    m_last.insert(key, now);
    // A minute later an entry can only allow again: keep the table to the owners seen lately.
    for (auto it = m_last.begin(); it != m_last.end();)
        it = now - it.value() >= kMinIntervalSecs && it.key() != key ? m_last.erase(it) : std::next(it);
    m_jobs.watch(m_client->create(KubeResource::events(), owner.ns, eventFor(owner, message, now)),
                 [this, owner](const Result<QJsonObject> &r) {
                     if (!r) {
                         qCWarning(lcDenialEvents).noquote()
                             << QStringLiteral("%1/%2 %3: event %4 not recorded: %5")
                                    .arg(owner.ns, owner.kind, owner.name, kReason, r.error().message);
                         return;
                     }
                     emit recorded(*r);
                 });
}

} // namespace gq
