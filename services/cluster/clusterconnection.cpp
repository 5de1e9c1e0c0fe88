#include "services/cluster/clusterconnection.h"

#include "core/domain/clock.h"
#include "core/kube/dra.h"

#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace {
const QString kDeviceClassInformer = QStringLiteral("gq-deviceclasses");
} // namespace

namespace gq {

namespace {
QString nsOfKey(const QString &key) {
    const auto slash = key.indexOf(QLatin1Char('/'));
    return slash < 0 ? QString() : key.left(slash);
}

QMap<QString, Quantity> resourceMap(const QJsonObject &map) {
    QMap<QString, Quantity> out;
    for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
        const QJsonValue v = it.value();
        const QString text = v.isString() ? v.toString() : QString::number(v.toDouble(), 'g', 17);
        if (auto q = Quantity::parse(text))
            out.insert(it.key(), *q);
    }
    return out;
}
} // namespace

QuotaUsage ClusterConnection::quotaUsageFromJson(const QJsonObject &object) {
    QuotaUsage u;
    u.name = object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    u.hard =
        resourceMap(object.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject());
    u.used =
        resourceMap(object.value(QLatin1String("status")).toObject().value(QLatin1String("used")).toObject());
    u.statusHard =
        resourceMap(object.value(QLatin1String("status")).toObject().value(QLatin1String("hard")).toObject());
    return u;
}

ClusterConnection::ClusterConnection(QObject *parent)
    : QObject(parent)
    , m_kubeconfig(new KubeconfigWatcher(this)) {
    connect(m_kubeconfig, &KubeconfigWatcher::contextsChanged, this, &ClusterConnection::contextsChanged);
    connect(m_kubeconfig, &KubeconfigWatcher::kubeconfigProblem, this, &ClusterConnection::kubeconfigProblem);
    connect(m_kubeconfig, &KubeconfigWatcher::kubeconfigOk, this, &ClusterConnection::kubeconfigOk);
    connect(m_kubeconfig, &KubeconfigWatcher::connectionChanged, this,
            &ClusterConnection::onConnectionChanged);
    connect(m_kubeconfig, &KubeconfigWatcher::unusable, this, &ClusterConnection::onUnusable);
}

ClusterConnection::~ClusterConnection() {
    stopInformers();
}

QString ClusterConnection::server() const {
    return m_client ? m_client->server() : QString();
}

bool ClusterConnection::insecure() const {
    return m_client && m_client->insecureSkipTlsVerify();
}

void ClusterConnection::setState(State s) {
    if (s == m_state)
        return;
    m_state = s;
    emit stateChanged(s);
}

void ClusterConnection::touch() {
    m_lastUpdate = Clock::system().nowUtc();
    emit lastUpdateChanged(m_lastUpdate);
}

void ClusterConnection::connectTo(const QString &kubeconfigPath, const QString &context) {
    start(kubeconfigPath, context, KubeconfigWatcher::Choice::Exactly);
}

void ClusterConnection::open(const QString &kubeconfigPath, const QString &preferred) {
    start(kubeconfigPath, preferred, KubeconfigWatcher::Choice::PreferredElseCurrent);
    m_unreadableQuiet = true;
}

void ClusterConnection::start(const QString &kubeconfigPath, const QString &context,
                              KubeconfigWatcher::Choice choice) {
    disconnectFromCluster();
    setState(State::Connecting);
    m_resolvePending = true;
    m_kubeconfig->watch(kubeconfigPath, context, choice);
}

// Nothing connected, and the kubeconfig cannot change that yet: it watches on, and a
// usable change connects.
void ClusterConnection::onUnusable(const Error &error, bool configRead) {
    const bool quiet = m_unreadableQuiet && !configRead;
    m_unreadableQuiet = false;
    if (quiet) {
        // A first run without a cluster: not a failure, a kubeconfig still to write.
        setState(State::Disconnected);
        emit kubeconfigUnreadable(error);
        return;
    }
    setState(State::Failed);
    emit errorOccurred(error);
}

// The current context's connection is new or changed: a client for it, and list again.
void ClusterConnection::onConnectionChanged(const KubeConnection &connection) {
    m_unreadableQuiet = false;
    m_jobs.cancel();
    const bool reconnect = m_client != nullptr;
    m_client = std::make_shared<KubeClient>(connection, m_clientOptions);
    // New credentials may see more: start cluster-wide again.
    m_contextNamespace = connection.namespaceName;
    m_scope.clear();
    // New credentials may allow more or less: ask again for the namespaces asked before.
    const QList<QString> asked = m_permissions.keys();
    m_permissions.clear();
    m_rebuilding = false;
    m_pendingNamespaces.clear();
    // The old rows stay listed until the new list replaces them (as on F5).
    stopInformers();
    startInformers();
    askIdentity();
    if (m_resolvePending) {
        m_resolvePending = false;
        emit contextResolved(m_kubeconfig->context());
    }
    if (reconnect)
        for (const QString &ns : asked)
            checkPermissions(ns);
}

void ClusterConnection::askIdentity() {
    m_jobs.watch(m_client->whoAmI(), [this](const Result<UserIdentity> &who) {
        if (who) {
            m_identity = who->username;
            emit identityChanged(m_identity);
        } else if (who.error().kind != Error::Kind::Cancelled) {
            emit errorOccurred(who.error());
        }
    });
}

void ClusterConnection::disconnectFromCluster() {
    m_jobs.cancel();
    m_kubeconfig->stop();
    m_unreadableQuiet = false;
    m_resolvePending = false;
    stopInformers();
    m_client.reset();
    m_scope.clear();
    m_identity.clear();
    m_permissions.clear();
    m_syncedOnce = false;
    m_rebuilding = false;
    m_pendingNamespaces.clear();
    emit namespacesReset({});
    setState(State::Disconnected);
}

void ClusterConnection::refresh() {
    if (!m_client)
        return;
    m_jobs.cancel();
    m_permissions.clear();
    m_rebuilding = false;
    stopInformers();
    startInformers();
}

QList<Informer *> ClusterConnection::informers() const {
    QList<Informer *> all;
    for (Informer *inf :
         {static_cast<Informer *>(m_namespaces.data()), static_cast<Informer *>(m_quotas.data()),
          static_cast<Informer *>(m_limitRanges.data())})
        if (inf)
            all << inf;
    return all;
}

void ClusterConnection::retryNow() {
    for (Informer *inf : informers())
        inf->retryNow();
}

QDeadlineTimer ClusterConnection::nextAttempt() const {
    QDeadlineTimer soonest(QDeadlineTimer::Forever);
    for (const Informer *inf : informers()) {
        if (inf->state() != Informer::State::Backoff)
            continue;
        const QDeadlineTimer next = inf->nextAttempt();
        if (!next.isForever() && (soonest.isForever() || next.deadlineNSecs() < soonest.deadlineNSecs()))
            soonest = next;
    }
    return soonest;
}

void ClusterConnection::startInformers() {
    setState(State::Syncing);
    // Narrowed (see onInformerError): the context's namespace only, no namespace list.
    const QString ns = m_scope.isEmpty() ? QString() : m_scope.first();
    if (m_scope.isEmpty())
        m_namespaces = new NamespaceInformer(m_client, this);
    m_quotas = new ObjectInformer(m_client, KubeResource::resourceQuotas(), ns, this);
    m_limitRanges = new ObjectInformer(m_client, KubeResource::limitRanges(), ns, this);
    const QList<Informer *> all = informers();
    for (Informer *inf : all) {
        connect(inf, &Informer::synced, this, &ClusterConnection::onInformerSynced);
        connect(inf, &Informer::stateChanged, this, &ClusterConnection::updateState);
        connect(inf, &Informer::errorOccurred, this,
                [this, inf](const Error &error) { onInformerError(inf, error); });
        connect(inf, &Informer::nextAttemptChanged, this, &ClusterConnection::nextAttemptChanged);
    }
    if (m_namespaces)
        connect(m_namespaces, &Informer::changed, this, &ClusterConnection::onNamespaceChanged);
    connect(m_quotas, &Informer::changed, this, &ClusterConnection::onQuotaChanged);
    connect(m_limitRanges, &Informer::changed, this, &ClusterConnection::onLimitRangeChanged);
    for (Informer *inf : all)
        inf->start();
    // DRA DeviceClasses (which classes are GPUs, dra::GpuClasses): outside informers(), a
    // cluster without DRA or a user who may not list them is no connection problem.
    auto *classes = new ObjectInformer(m_client, dra::deviceClasses(), QString(), this);
    classes->setObjectName(kDeviceClassInformer);
    connect(classes, &Informer::changed, this, [this, classes] {
        QList<QJsonObject> objects;
        for (const StoredObject &o : classes->objects())
            objects << o.object;
        const dra::GpuClasses before = dra::currentGpuClasses();
        const dra::GpuClasses after = dra::GpuClasses::fromDeviceClasses(objects);
        dra::setCurrentGpuClasses(after);
        if (!m_syncedOnce || m_rebuilding || !informersRunning())
            return; // the first summary reads the new decision
        // Summarise again only when some quota key changes sides (GPU or not).
        const QHash<QString, StoredObject> quotas = m_quotas->objectMap();
        for (const StoredObject &q : quotas) {
            const QJsonObject hard =
                q.object.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
            for (auto it = hard.begin(); it != hard.end(); ++it)
                if (before.isGpuQuotaKey(it.key()) != after.isGpuQuotaKey(it.key())) {
                    rebuildAll();
                    emit quotasChanged(QString());
                    return;
                }
        }
    });
    connect(classes, &Informer::errorOccurred, this, [classes](const Error &error) {
        if (error.kind == Error::Kind::Forbidden || error.httpStatus == 404)
            classes->stop(); // the name rule decides
    });
    classes->start();
}

void ClusterConnection::stopInformers() {
    for (Informer *inf : informers()) {
        inf->disconnect(this);
        inf->stop();
        inf->deleteLater();
    }
    if (auto *classes = findChild<ObjectInformer *>(kDeviceClassInformer, Qt::FindDirectChildrenOnly)) {
        classes->disconnect(this);
        classes->stop();
        classes->setObjectName(QString());
        classes->deleteLater();
    }
    m_namespaces.clear();
    m_quotas.clear();
    m_limitRanges.clear();
}

// A user whose RBAC covers only their namespaces cannot list namespaces (or quotas)
// cluster-wide: instead of retrying a 403 for ever, watch the kubeconfig context's
// namespace and say why. Any other error is the window's to show.
void ClusterConnection::onInformerError(Informer *informer, const Error &error) {
    const bool clusterWide = informer == m_namespaces.data() || informer == m_quotas.data();
    if (error.kind != Error::Kind::Forbidden || !m_scope.isEmpty() || !clusterWide || !m_client ||
        m_contextNamespace.isEmpty()) {
        emit errorOccurred(error);
        return;
    }
    m_scope = {m_contextNamespace};
    stopInformers();
    startInformers();
    emit scopeNarrowed(m_scope, error.message);
}

bool ClusterConnection::isTerminating(const QString &ns) const {
    const auto info = namespaceInfo(ns);
    return info && info->phase == NamespaceInfo::Phase::Terminating;
}

// Narrowed, a namespace of the scope is known by its name alone (its object is not
// ours to read).
std::optional<NamespaceInfo> ClusterConnection::namespaceInfo(const QString &ns) const {
    if (m_namespaces)
        return m_namespaces->namespaceInfo(ns);
    if (!m_scope.contains(ns))
        return std::nullopt;
    NamespaceInfo info;
    info.name = ns;
    return info;
}

QHash<QString, NamespaceInfo> ClusterConnection::namespaceMap() const {
    if (m_namespaces)
        return m_namespaces->namespaceMap();
    QHash<QString, NamespaceInfo> out;
    for (const QString &ns : m_scope)
        out.insert(ns, *namespaceInfo(ns));
    return out;
}

bool ClusterConnection::informersRunning() const {
    return (m_namespaces || !m_scope.isEmpty()) && m_quotas && m_limitRanges;
}

void ClusterConnection::updateState() {
    if (!informersRunning())
        return;
    const QList<Informer *> all = informers();
    bool backoff = false, synced = true, watching = true;
    for (Informer *inf : all) {
        backoff = backoff || inf->state() == Informer::State::Backoff;
        synced = synced && inf->hasSynced();
        watching = watching && inf->state() == Informer::State::Watching;
    }
    if (backoff)
        setState(State::Reconnecting);
    else if (synced && m_syncedOnce && watching && !m_rebuilding)
        setState(State::Live);
    else
        setState(State::Syncing);
}

void ClusterConnection::onInformerSynced() {
    touch();
    if (!informersRunning())
        return;
    if (sender() == m_limitRanges.data()) {
        // Limit ranges are not in the list: nothing to summarise, only pages to tell.
        if (m_syncedOnce)
            emit limitRangesChanged(QString());
        updateState();
        return;
    }
    if ((m_namespaces && !m_namespaces->hasSynced()) || !m_quotas->hasSynced())
        return;
    rebuildAll();
    // A (re)list can touch every namespace: one "all" notice, not 20,000 signals.
    emit quotasChanged(QString());
    if (m_limitRanges->hasSynced())
        emit limitRangesChanged(QString());
}

// A full list arrived: summarise every namespace on a worker, from implicitly shared
// copies of the caches (O(1) to take here), and build the name index there too, so
// this thread only hands the finished rows on.
void ClusterConnection::rebuildAll() {
    m_rebuilding = true;
    m_pendingNamespaces.clear();
    const QHash<QString, NamespaceInfo> namespaces = namespaceMap();
    const QHash<QString, StoredObject> quotas = m_quotas->objectMap();
    m_jobs.run(
        [namespaces, quotas] {
            QHash<QString, QList<const StoredObject *>> perNamespace;
            perNamespace.reserve(namespaces.size());
            for (const StoredObject &o : quotas)
                perNamespace[o.namespaceName].append(&o);
            QStringList names = namespaces.keys();
            names.sort();
            QList<NamespaceSummary> rows;
            rows.reserve(names.size());
            for (const QString &name : std::as_const(names)) {
                QList<const StoredObject *> objects = perNamespace.value(name);
                // The order objectsInNamespace() gives, so ties resolve as on a watch update.
                std::sort(objects.begin(), objects.end(),
                          [](const StoredObject *a, const StoredObject *b) { return a->name < b->name; });
                QList<QuotaUsage> usages;
                usages.reserve(objects.size());
                for (const StoredObject *o : std::as_const(objects))
                    usages.append(quotaUsageFromJson(o->object));
                rows.append(NamespaceSummary::fromQuotas(name, usages));
                rows.back().alertRecipients = namespaces.value(name).alertRecipients;
                rows.back().terminating = namespaces.value(name).phase == NamespaceInfo::Phase::Terminating;
            }
            return std::make_shared<NamespaceRows>(NamespaceRows::of(std::move(rows)));
        },
        [this](std::shared_ptr<NamespaceRows> rows) {
            emit namespacesReset(*rows);
            rows.reset(); // the subscribers hold the only copies now
            const bool first = !m_syncedOnce;
            m_syncedOnce = true;
            m_rebuilding = false;
            // What changed while the worker summarised the snapshot.
            if (!m_pendingNamespaces.isEmpty()) {
                const QStringList pending(m_pendingNamespaces.cbegin(), m_pendingNamespaces.cend());
                m_pendingNamespaces.clear();
                updateNamespaces(pending);
            }
            updateState();
            if (first)
                emit synced();
        });
}

void ClusterConnection::updateNamespaces(const QStringList &names) {
    if (m_rebuilding) {
        for (const QString &ns : names)
            m_pendingNamespaces.insert(ns);
        return;
    }
    if (!m_syncedOnce || !informersRunning())
        return;
    // A burst this large is a relist in disguise: summarise everything off-thread.
    if (names.size() > kRebuildThreshold) {
        rebuildAll();
        return;
    }
    for (const QString &ns : names) {
        const auto info = namespaceInfo(ns);
        if (!info) {
            emit namespaceRemoved(ns);
            continue;
        }
        QList<QuotaUsage> usages;
        for (const StoredObject &o : m_quotas->objectsInNamespace(ns))
            usages.append(quotaUsageFromJson(o.object));
        NamespaceSummary summary = NamespaceSummary::fromQuotas(ns, usages);
        summary.alertRecipients = info->alertRecipients;
        summary.terminating = info->phase == NamespaceInfo::Phase::Terminating;
        emit namespaceUpdated(summary);
    }
}

void ClusterConnection::onNamespaceChanged(const QStringList &added, const QStringList &updated,
                                           const QStringList &deleted) {
    touch();
    if (!m_syncedOnce && !m_rebuilding)
        return; // the first full list is summarised in one go by rebuildAll()
    // Updated ones too: the list shows the phase (Terminating) and the alert recipients;
    // a row that did not change is not re-emitted by the model (upsert compares).
    updateNamespaces(added + updated + deleted);
}

void ClusterConnection::onQuotaChanged(const QStringList &added, const QStringList &updated,
                                       const QStringList &deleted) {
    touch();
    if (!m_syncedOnce && !m_rebuilding)
        return; // the first full list is summarised in one go by rebuildAll()
    QSet<QString> nss;
    for (const QStringList *l : {&added, &updated, &deleted})
        for (const QString &k : *l)
            nss.insert(nsOfKey(k));
    const QStringList list(nss.cbegin(), nss.cend());
    updateNamespaces(list);
    if (list.size() > kRebuildThreshold) {
        emit quotasChanged(QString());
        return;
    }
    for (const QString &ns : list)
        emit quotasChanged(ns);
}

void ClusterConnection::onLimitRangeChanged(const QStringList &added, const QStringList &updated,
                                            const QStringList &deleted) {
    touch();
    if (!m_syncedOnce)
        return;
    if (added.size() + updated.size() + deleted.size() > kRebuildThreshold) {
        emit limitRangesChanged(QString());
        return;
    }
    QSet<QString> nss;
    for (const QStringList *l : {&added, &updated, &deleted})
        for (const QString &k : *l)
            nss.insert(nsOfKey(k));
    for (const QString &ns : nss)
        emit limitRangesChanged(ns);
}

QList<StoredObject> ClusterConnection::quotasIn(const QString &ns) const {
    return m_quotas ? m_quotas->objectsInNamespace(ns) : QList<StoredObject>();
}

QList<StoredObject> ClusterConnection::limitRangesIn(const QString &ns) const {
    return m_limitRanges ? m_limitRanges->objectsInNamespace(ns) : QList<StoredObject>();
}

std::optional<StoredObject> ClusterConnection::quota(const QString &ns, const QString &name) const {
    return m_quotas ? m_quotas->object(ns, name) : std::nullopt;
}

std::optional<StoredObject> ClusterConnection::limitRange(const QString &ns, const QString &name) const {
    return m_limitRanges ? m_limitRanges->object(ns, name) : std::nullopt;
}

QStringList ClusterConnection::namespaceNames() const {
    if (!m_namespaces)
        return m_scope;
    QStringList out;
    for (const NamespaceInfo &n : m_namespaces->namespaces())
        out << n.name;
    return out;
}

void ClusterConnection::checkPermissions(const QString &ns) {
    if (!m_client || ns.isEmpty())
        return;
    struct Pending {
        EditPermissions p;
        int remaining = 4;
    };
    auto pending = std::make_shared<Pending>();
    auto ask = [&](const QString &verb, const QString &resource, bool EditPermissions::*field) {
        m_jobs.watch(m_client->canI(verb, resource, ns),
                     [this, ns, pending, field](const Result<AccessReview> &r) {
                         if (r) {
                             pending->p.*field = r->allowed;
                             if (!r->allowed && pending->p.reason.isEmpty())
                                 pending->p.reason = r->reason;
                         } else if (pending->p.reason.isEmpty()) {
                             pending->p.reason = r.error().message;
                         }
                         if (--pending->remaining == 0) {
                             pending->p.known = true;
                             m_permissions.insert(ns, pending->p);
                             emit permissionsChanged(ns);
                         }
                     });
    };
    ask(QStringLiteral("update"), QStringLiteral("resourcequotas"), &EditPermissions::updateQuota);
    ask(QStringLiteral("create"), QStringLiteral("resourcequotas"), &EditPermissions::createQuota);
    ask(QStringLiteral("update"), QStringLiteral("limitranges"), &EditPermissions::updateLimitRange);
    ask(QStringLiteral("create"), QStringLiteral("limitranges"), &EditPermissions::createLimitRange);
}

} // namespace gq
