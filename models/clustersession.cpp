#include "models/clustersession.h"

#include "models/futurecall.h"

#include "models/namespacelistmodel.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QJsonObject>
#include <QMetaObject>
#include <QSet>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>

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

// Runs fn on the thread pool and delivers its result to `then` on context's thread.
template <typename Fn, typename Then> void runInBackground(QObject *context, Fn fn, Then then) {
    QPointer<QObject> guard(context);
    QThreadPool::globalInstance()->start([guard, fn = std::move(fn), then = std::move(then)]() mutable {
        auto result = fn();
        if (!guard)
            return;
        QMetaObject::invokeMethod(
            guard.data(),
            [then = std::move(then), result = std::move(result)]() mutable { then(std::move(result)); },
            Qt::QueuedConnection);
    });
}
// The files KubeConfig::load would read, for watching when loading failed (so that
// fixing or creating them is noticed): the explicit path, else $KUBECONFIG, else
// ~/.kube/config.
QStringList kubeconfigCandidates(const QString &path) {
    if (!path.isEmpty())
        return {path};
    const QString env = qEnvironmentVariable("KUBECONFIG");
    if (!env.isEmpty())
        return env.split(QDir::listSeparator(), Qt::SkipEmptyParts);
    return {QDir::homePath() + QStringLiteral("/.kube/config")};
}

// Everything that makes a connection what it is, hashed: the session keeps this, not
// a second copy of the key and token, to tell whether a changed kubeconfig matters.
QByteArray fingerprintOf(const KubeConnection &c) {
    QCryptographicHash h(QCryptographicHash::Sha256);
    auto bytes = [&h](const QByteArray &b) {
        h.addData(QByteArray::number(b.size()));
        h.addData(QByteArrayView(":"));
        h.addData(b);
    };
    auto text = [&bytes](const QString &t) { bytes(t.toUtf8()); };
    for (const QString *t : {&c.contextName, &c.clusterName, &c.userName, &c.server, &c.namespaceName,
                             &c.tlsServerName, &c.proxyUrl, &c.token, &c.tokenFile})
        text(*t);
    bytes(c.caPem);
    bytes(c.clientCertPem);
    bytes(c.clientKeyPem);
    bytes(c.insecureSkipTlsVerify ? QByteArray("1") : QByteArray("0"));
    if (c.exec) {
        for (const QString *t : {&c.exec->apiVersion, &c.exec->command, &c.exec->interactiveMode,
                                 &c.exec->installHint, &c.exec->baseDir})
            text(*t);
        for (const QString &a : c.exec->args)
            text(a);
        for (const auto &kv : c.exec->env) {
            text(kv.first);
            text(kv.second);
        }
        bytes(c.exec->provideClusterInfo ? QByteArray("1") : QByteArray("0"));
    }
    return h.result();
}

// Size and modification time: enough to tell a replaced or rewritten file from a
// neighbour's change in the same directory.
QString fileStamp(const QString &path) {
    const QFileInfo fi(path);
    if (!fi.exists())
        return QStringLiteral("-");
    return QString::number(fi.size()) + QLatin1Char('@') +
           QString::number(fi.lastModified().toMSecsSinceEpoch());
}
} // namespace

struct ClusterSession::Loaded {
    Result<KubeConnection> connection = Error();
    bool configRead = false;     // the kubeconfig itself could be read
    bool contextMissing = false; // ... but it has no such context
    QString context;             // resolved name (current-context when none was asked for)
    QStringList contexts;
    QStringList files; // to watch
    QByteArray fingerprint;
};

// Worker thread: file I/O and parsing.
ClusterSession::Loaded ClusterSession::loadKubeconfig(const QString &path, const QString &context) {
    Loaded l;
    auto cfg = KubeConfig::load(path);
    if (!cfg) {
        l.files = kubeconfigCandidates(path);
        l.connection = cfg.error();
        return l;
    }
    l.configRead = true;
    l.files = cfg->files();
    l.contexts = cfg->contextNames();
    l.context = context.isEmpty() ? cfg->currentContext() : context;
    l.contextMissing = !l.context.isEmpty() && !l.contexts.contains(l.context);
    if (auto ctx = cfg->context(l.context)) {
        // A CA or certificate kept in its own file is part of the connection too.
        if (auto cluster = cfg->cluster(ctx->cluster); cluster && !cluster->certificateAuthority.isEmpty())
            l.files << cluster->certificateAuthority;
        if (auto user = cfg->user(ctx->user)) {
            for (const QString &f : {user->clientCertificate, user->clientKey})
                if (!f.isEmpty())
                    l.files << f;
        }
    }
    l.connection = cfg->connection(l.context);
    if (l.connection)
        l.fingerprint = fingerprintOf(*l.connection);
    return l;
}

QuotaUsage ClusterSession::quotaUsageFromJson(const QJsonObject &object) {
    QuotaUsage u;
    u.name = object.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    u.hard =
        resourceMap(object.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject());
    u.used =
        resourceMap(object.value(QLatin1String("status")).toObject().value(QLatin1String("used")).toObject());
    return u;
}

ClusterSession::ClusterSession(NamespaceListModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_watcher(new QFileSystemWatcher(this))
    , m_reloadTimer(new QTimer(this)) {
    // Editors and kubectl write in several steps (truncate + write, or temp file +
    // rename, plus lock files): read once things have settled.
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(300);
    connect(m_reloadTimer, &QTimer::timeout, this, &ClusterSession::reloadKubeconfig);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ClusterSession::onWatchedPathChanged);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &ClusterSession::onWatchedPathChanged);
}

ClusterSession::~ClusterSession() {
    stopInformers();
}

QString ClusterSession::server() const {
    return m_client ? m_client->server() : QString();
}

bool ClusterSession::insecure() const {
    return m_client && m_client->insecureSkipTlsVerify();
}

void ClusterSession::setState(State s) {
    if (s == m_state)
        return;
    m_state = s;
    emit stateChanged(s);
}

void ClusterSession::touch() {
    m_lastUpdate = QDateTime::currentDateTimeUtc();
    emit lastUpdateChanged(m_lastUpdate);
}

void ClusterSession::connectTo(const QString &kubeconfigPath, const QString &context) {
    disconnectFromCluster();
    m_context = context;
    m_kubeconfigPath = kubeconfigPath;
    setState(State::Connecting);
    reloadKubeconfig(); // the first load is a reload with nothing connected yet
}

void ClusterSession::watchKubeconfig(const QString &kubeconfigPath, const QString &context) {
    disconnectFromCluster();
    m_kubeconfigPath = kubeconfigPath;
    m_context = context;
    watchFiles(kubeconfigCandidates(kubeconfigPath));
}

// A (re)loaded kubeconfig: watch what it consists of, announce its contexts, and
// connect if the current context's connection is new or different.
void ClusterSession::adopt(Loaded l, quint64 loadGen) {
    if (loadGen != m_loadGeneration)
        return; // a context switch or a newer reload meanwhile
    watchFiles(l.files);
    if (l.configRead && !l.contextMissing)
        m_context = l.context; // current-context resolved: a later edit of it does not move us
    if (l.configRead)
        emit contextsChanged(l.contexts);
    if (!l.connection) {
        if (!m_client) {
            setState(State::Failed);
            emit errorOccurred(l.connection.error());
            return;
        }
        // Keep a working connection over a kubeconfig caught mid-edit or a context
        // that was removed: the user decides where to go next.
        if (l.contextMissing)
            emit kubeconfigProblem(
                Error::make(Error::Kind::NotFound,
                            QStringLiteral("context \"%1\" is no longer in the kubeconfig").arg(l.context),
                            QStringLiteral("contexts")));
        else
            emit kubeconfigProblem(l.connection.error());
        return;
    }
    emit kubeconfigOk();
    if (m_client && l.fingerprint == m_fingerprint)
        return; // an unrelated edit (another context, formatting)
    m_fingerprint = l.fingerprint;
    reconnectWith(std::make_shared<KubeClient>(std::move(*l.connection), m_clientOptions));
}

void ClusterSession::reconnectWith(std::shared_ptr<KubeClient> client) {
    ++m_generation;
    const bool reconnect = m_client != nullptr;
    m_client = std::move(client);
    m_context = m_client->contextName();
    // New credentials may allow more or less: ask again for the namespaces asked before.
    const QList<QString> asked = m_permissions.keys();
    m_permissions.clear();
    m_rebuilding = false;
    m_pendingNamespaces.clear();
    // The old rows stay listed until the new list replaces them (as on F5).
    stopInformers();
    startInformers();
    askIdentity();
    if (reconnect)
        for (const QString &ns : asked)
            checkPermissions(ns);
}

void ClusterSession::askIdentity() {
    const quint64 gen = m_generation;
    whenReady(m_client->whoAmI(), this, [this, gen](const Result<UserIdentity> &who) {
        if (gen != m_generation)
            return;
        if (who) {
            m_identity = who->username;
            emit identityChanged(m_identity);
        } else if (who.error().kind != Error::Kind::Cancelled) {
            emit errorOccurred(who.error());
        }
    });
}

void ClusterSession::watchFiles(const QStringList &files) {
    QStringList wanted;
    for (const QString &f : files) {
        const QString abs = QFileInfo(f).absoluteFilePath();
        if (!wanted.contains(abs))
            wanted << abs;
    }
    QStringList dirs;
    for (const QString &f : std::as_const(wanted)) {
        const QString dir = QFileInfo(f).absolutePath();
        if (!dirs.contains(dir))
            dirs << dir;
    }
    const QStringList old = m_watcher->files() + m_watcher->directories();
    if (!old.isEmpty())
        m_watcher->removePaths(old);
    m_watchedFiles = wanted;
    m_fileStamps.clear();
    for (const QString &f : std::as_const(wanted)) {
        m_fileStamps.insert(f, fileStamp(f));
        if (QFileInfo::exists(f))
            m_watcher->addPath(f);
    }
    // The directory too: an editor that saves by renaming a new file over the old one
    // ends the watch on the old file, and a file that did not exist yet can appear.
    for (const QString &d : std::as_const(dirs))
        if (QFileInfo(d).isDir())
            m_watcher->addPath(d);
}

void ClusterSession::onWatchedPathChanged(const QString &path) {
    bool relevant = false;
    for (const QString &f : std::as_const(m_watchedFiles)) {
        if (f != path && QFileInfo(f).absolutePath() != path)
            continue;
        // A replaced file is a new inode: watch it again.
        if (QFileInfo::exists(f) && !m_watcher->files().contains(f))
            m_watcher->addPath(f);
        const QString stamp = fileStamp(f);
        if (f == path || stamp != m_fileStamps.value(f)) {
            m_fileStamps.insert(f, stamp);
            relevant = true;
        }
    }
    if (relevant)
        m_reloadTimer->start();
}

void ClusterSession::reloadKubeconfig() {
    const quint64 loadGen = ++m_loadGeneration;
    runInBackground(
        this, [path = m_kubeconfigPath, context = m_context] { return loadKubeconfig(path, context); },
        [this, loadGen](Loaded l) { adopt(std::move(l), loadGen); });
}

void ClusterSession::disconnectFromCluster() {
    ++m_generation;
    ++m_loadGeneration;
    m_reloadTimer->stop();
    if (const QStringList watched = m_watcher->files() + m_watcher->directories(); !watched.isEmpty())
        m_watcher->removePaths(watched);
    m_watchedFiles.clear();
    m_fileStamps.clear();
    m_fingerprint.clear();
    stopInformers();
    m_client.reset();
    m_identity.clear();
    m_permissions.clear();
    m_syncedOnce = false;
    m_rebuilding = false;
    m_pendingNamespaces.clear();
    if (m_model)
        m_model->resetAll({});
    setState(State::Disconnected);
}

void ClusterSession::refresh() {
    if (!m_client)
        return;
    ++m_generation;
    m_permissions.clear();
    m_rebuilding = false;
    stopInformers();
    startInformers();
}

QList<Informer *> ClusterSession::informers() const {
    QList<Informer *> all;
    for (Informer *inf :
         {static_cast<Informer *>(m_namespaces.data()), static_cast<Informer *>(m_quotas.data()),
          static_cast<Informer *>(m_limitRanges.data())})
        if (inf)
            all << inf;
    return all;
}

void ClusterSession::retryNow() {
    for (Informer *inf : informers())
        inf->retryNow();
}

QDeadlineTimer ClusterSession::nextAttempt() const {
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

void ClusterSession::startInformers() {
    setState(State::Syncing);
    m_namespaces = new NamespaceInformer(m_client, this);
    m_quotas = new ObjectInformer(m_client, KubeResource::resourceQuotas(), {}, this);
    m_limitRanges = new ObjectInformer(m_client, KubeResource::limitRanges(), {}, this);
    const QList<Informer *> all = informers();
    for (Informer *inf : all) {
        connect(inf, &Informer::synced, this, &ClusterSession::onInformerSynced);
        connect(inf, &Informer::stateChanged, this, &ClusterSession::updateState);
        connect(inf, &Informer::errorOccurred, this, &ClusterSession::errorOccurred);
        connect(inf, &Informer::nextAttemptChanged, this, &ClusterSession::nextAttemptChanged);
    }
    connect(m_namespaces, &Informer::changed, this, &ClusterSession::onNamespaceChanged);
    connect(m_quotas, &Informer::changed, this, &ClusterSession::onQuotaChanged);
    connect(m_limitRanges, &Informer::changed, this, &ClusterSession::onLimitRangeChanged);
    for (Informer *inf : all)
        inf->start();
}

void ClusterSession::stopInformers() {
    for (Informer *inf : informers()) {
        inf->disconnect(this);
        inf->stop();
        inf->deleteLater();
    }
    m_namespaces.clear();
    m_quotas.clear();
    m_limitRanges.clear();
}

void ClusterSession::updateState() {
    if (!m_namespaces || !m_quotas || !m_limitRanges)
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

void ClusterSession::onInformerSynced() {
    touch();
    if (!m_namespaces || !m_quotas || !m_limitRanges)
        return;
    if (sender() == m_limitRanges.data()) {
        // Limit ranges are not in the list: nothing to summarise, only pages to tell.
        if (m_syncedOnce)
            emit limitRangesChanged(QString());
        updateState();
        return;
    }
    if (!m_namespaces->hasSynced() || !m_quotas->hasSynced())
        return;
    rebuildAll();
    // A (re)list can touch every namespace: one "all" notice, not 20,000 signals.
    emit quotasChanged(QString());
    if (m_limitRanges->hasSynced())
        emit limitRangesChanged(QString());
}

// A full list arrived: summarise every namespace on a worker, from implicitly shared
// copies of the caches (O(1) to take here), and prepare the model's index and sort
// keys there too, so this thread only swaps the finished rows in.
void ClusterSession::rebuildAll() {
    const quint64 gen = m_generation;
    m_rebuilding = true;
    m_pendingNamespaces.clear();
    const QHash<QString, NamespaceInfo> namespaces = m_namespaces->namespaceMap();
    const QHash<QString, StoredObject> quotas = m_quotas->objectMap();
    runInBackground(
        this,
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
            }
            return std::make_shared<NamespaceListModel::Prepared>(
                NamespaceListModel::prepare(std::move(rows)));
        },
        [this, gen](std::shared_ptr<NamespaceListModel::Prepared> prepared) {
            if (gen != m_generation)
                return;
            if (m_model)
                m_model->resetPrepared(std::move(*prepared));
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

void ClusterSession::updateNamespaces(const QStringList &names) {
    if (m_rebuilding) {
        for (const QString &ns : names)
            m_pendingNamespaces.insert(ns);
        return;
    }
    if (!m_model || !m_syncedOnce || !m_namespaces || !m_quotas)
        return;
    // A burst this large is a relist in disguise: summarise everything off-thread.
    if (names.size() > kRebuildThreshold) {
        rebuildAll();
        return;
    }
    for (const QString &ns : names) {
        if (!m_namespaces->namespaceInfo(ns)) {
            m_model->remove(ns);
            continue;
        }
        QList<QuotaUsage> usages;
        for (const StoredObject &o : m_quotas->objectsInNamespace(ns))
            usages.append(quotaUsageFromJson(o.object));
        m_model->upsert(NamespaceSummary::fromQuotas(ns, usages));
    }
}

void ClusterSession::onNamespaceChanged(const QStringList &added, const QStringList &updated,
                                        const QStringList &deleted) {
    touch();
    if (!m_syncedOnce && !m_rebuilding)
        return; // the first full list is summarised in one go by rebuildAll()
    updateNamespaces(added + deleted);
    Q_UNUSED(updated) // labels or phase: nothing the list shows
}

void ClusterSession::onQuotaChanged(const QStringList &added, const QStringList &updated,
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

void ClusterSession::onLimitRangeChanged(const QStringList &added, const QStringList &updated,
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

QList<StoredObject> ClusterSession::quotasIn(const QString &ns) const {
    return m_quotas ? m_quotas->objectsInNamespace(ns) : QList<StoredObject>();
}

QList<StoredObject> ClusterSession::limitRangesIn(const QString &ns) const {
    return m_limitRanges ? m_limitRanges->objectsInNamespace(ns) : QList<StoredObject>();
}

std::optional<StoredObject> ClusterSession::quota(const QString &ns, const QString &name) const {
    return m_quotas ? m_quotas->object(ns, name) : std::nullopt;
}

std::optional<StoredObject> ClusterSession::limitRange(const QString &ns, const QString &name) const {
    return m_limitRanges ? m_limitRanges->object(ns, name) : std::nullopt;
}

QStringList ClusterSession::namespaceNames() const {
    QStringList out;
    if (m_namespaces)
        for (const NamespaceInfo &n : m_namespaces->namespaces())
            out << n.name;
    return out;
}

void ClusterSession::checkPermissions(const QString &ns) {
    if (!m_client || ns.isEmpty())
        return;
    const quint64 gen = m_generation;
    struct Pending {
        EditPermissions p;
        int remaining = 4;
    };
    auto pending = std::make_shared<Pending>();
    auto ask = [&](const QString &verb, const QString &resource, bool EditPermissions::*field) {
        whenReady(m_client->canI(verb, resource, ns), this,
                  [this, gen, ns, pending, field](const Result<AccessReview> &r) {
                      if (gen != m_generation)
                          return;
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
