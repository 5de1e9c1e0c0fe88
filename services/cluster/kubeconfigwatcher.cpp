#include "services/cluster/kubeconfigwatcher.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QTimer>

namespace gq {

QStringList kubeconfigCandidates(const QString &path) {
    if (!path.isEmpty())
        return {path};
    const QString env = qEnvironmentVariable("KUBECONFIG");
    if (!env.isEmpty())
        return env.split(QDir::listSeparator(), Qt::SkipEmptyParts);
    return {QDir::homePath() + QStringLiteral("/.kube/config")};
}

namespace {

// Everything that makes a connection what it is, hashed: the watcher keeps this, not
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

KubeconfigWatcher::Loaded KubeconfigWatcher::load(const QString &path, const QString &context,
                                                  Choice choice) {
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
    for (const KubeContext &c : cfg->contexts())
        if (auto cluster = cfg->cluster(c.cluster))
            l.servers.insert(c.name, cluster->server);
    if (choice == Choice::PreferredElseCurrent)
        l.context = !context.isEmpty() && l.contexts.contains(context) ? context : cfg->currentContext();
    else
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

KubeconfigWatcher::KubeconfigWatcher(QObject *parent)
    : QObject(parent)
    , m_watcher(new QFileSystemWatcher(this))
    , m_reloadTimer(new QTimer(this)) {
    // Editors and kubectl write in several steps (truncate + write, or temp file +
    // rename, plus lock files): read once things have settled.
    m_reloadTimer->setSingleShot(true);
    m_reloadTimer->setInterval(300);
    connect(m_reloadTimer, &QTimer::timeout, this, &KubeconfigWatcher::reload);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &KubeconfigWatcher::onWatchedPathChanged);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &KubeconfigWatcher::onWatchedPathChanged);
}

KubeconfigWatcher::~KubeconfigWatcher() = default;

void KubeconfigWatcher::watch(const QString &path, const QString &context, Choice choice) {
    stop();
    m_path = path;
    m_context = context;
    m_choice = choice;
    reload(); // the first read is a reload with nothing handed out yet
}

void KubeconfigWatcher::stop() {
    m_loads.cancel();
    m_reloadTimer->stop();
    unwatchAll();
    m_fingerprint.clear();
}

void KubeconfigWatcher::reload() {
    m_loads.cancel(); // a newer read makes any still under way stale
    m_loads.run(
        [path = m_path, context = m_context, choice = m_choice] { return load(path, context, choice); },
        [this](Loaded l) { adopt(std::move(l)); });
}

// A (re)read kubeconfig: watch what it consists of, announce its contexts, and hand
// out the current context's connection if it is new or different.
void KubeconfigWatcher::adopt(Loaded l) {
    watchFiles(l.files);
    if (l.configRead && !l.contextMissing) {
        m_context = l.context; // current-context resolved: a later edit of it does not move us
        m_choice = Choice::Exactly;
    }
    if (l.configRead) {
        m_servers = l.servers;
        emit contextsChanged(l.contexts);
    }
    if (!l.connection) {
        if (!handedOut()) {
            emit unusable(l.connection.error(), l.configRead);
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
    if (handedOut() && l.fingerprint == m_fingerprint)
        return; // an unrelated edit (another context, formatting)
    m_fingerprint = l.fingerprint;
    emit connectionChanged(*l.connection);
}

void KubeconfigWatcher::unwatchAll() {
    if (const QStringList watched = m_watcher->files() + m_watcher->directories(); !watched.isEmpty())
        m_watcher->removePaths(watched);
    m_watchedFiles.clear();
    m_fileStamps.clear();
}

void KubeconfigWatcher::watchFiles(const QStringList &files) {
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
    unwatchAll();
    m_watchedFiles = wanted;
    for (const QString &f : std::as_const(wanted)) {
        m_fileStamps.insert(f, fileStamp(f));
        if (QFileInfo::exists(f))
            m_watcher->addPath(f);
    }
    // The directory too: an editor that saves by renaming a new file over the old one
    // ends the watch on the old file, and a file that did not exist yet can appear.
    // A directory not made yet (~/.kube on a first start): its nearest existing ancestor,
    // until it appears.
    for (const QString &d : std::as_const(dirs)) {
        if (QFileInfo(d).isDir()) {
            m_watcher->addPath(d);
            continue;
        }
        for (QDir up(d); up.cdUp();)
            if (up.exists()) {
                m_watcher->addPath(up.absolutePath());
                break;
            }
    }
}

void KubeconfigWatcher::onWatchedPathChanged(const QString &path) {
    bool relevant = false;
    // An ancestor changed: the missing directory of a watched file may have been made.
    for (const QString &f : std::as_const(m_watchedFiles)) {
        const QString dir = QFileInfo(f).absolutePath();
        if (!dir.startsWith(path + QLatin1Char('/')) || !QFileInfo(dir).isDir() ||
            m_watcher->directories().contains(dir))
            continue;
        m_watcher->addPath(dir);
        if (QFileInfo::exists(f)) { // written before the directory was watched
            m_watcher->addPath(f);
            m_fileStamps.insert(f, fileStamp(f));
            relevant = true;
        }
    }
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

} // namespace gq
