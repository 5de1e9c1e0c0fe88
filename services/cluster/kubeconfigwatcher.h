#pragma once

#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/kube/kubeconfig.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QStringList>

class QFileSystemWatcher;
class QTimer;

namespace gq {

// The files KubeConfig::load reads for `path`: the path itself, else each file of
// $KUBECONFIG, else ~/.kube/config. Watched when loading failed, so that fixing or
// creating them is noticed; the start page checks them for "no kubeconfig at all".
QStringList kubeconfigCandidates(const QString &path);

// Watches one kubeconfig (its files, and the CA / client certificate files the
// current context names) and reads it again off the GUI thread when one changes (an
// edit, or an editor renaming a new file over the old one). It decides whether the
// current context's connection (server, CA, credentials) changed: only then does
// connectionChanged() ask for a new connection. An unrelated edit (another context,
// formatting) only announces the contexts again.
//
// It keeps a hash of the connection it handed out, not a copy of the key or token.
class KubeconfigWatcher final : public QObject {
    Q_OBJECT
public:
    // How the context to follow is chosen on the first successful read.
    enum class Choice {
        Exactly,              // the given one (empty: current-context); missing is an error
        PreferredElseCurrent, // the given one if the kubeconfig has it, else current-context
    };
    Q_ENUM(Choice)

    explicit KubeconfigWatcher(QObject *parent = nullptr);
    ~KubeconfigWatcher() override;

    // Reads `path` (empty: $KUBECONFIG, else ~/.kube/config) now and whenever it
    // changes. A kubeconfig that cannot be read is watched too (missing, or broken),
    // so that creating or fixing it is noticed.
    void watch(const QString &path, const QString &context, Choice choice = Choice::Exactly);
    void stop();
    // Reads the kubeconfig again now (as if it had changed).
    void reload();

    [[nodiscard]] QString path() const { return m_path; }
    // The context followed: current-context resolved on the first read.
    [[nodiscard]] QString context() const { return m_context; }
    // The API server URL of a context of the last read kubeconfig ("" : unknown). Keeps
    // the connections of two kubeconfigs' same-named contexts apart (ContextId).
    [[nodiscard]] QString serverOf(const QString &context) const { return m_servers.value(context); }
    [[nodiscard]] QHash<QString, QString> servers() const { return m_servers; }
    // The kubeconfig files and the CA/certificate files being watched (absolute paths).
    [[nodiscard]] QStringList watchedFiles() const { return m_watchedFiles; }
    // Whether connectionChanged() was emitted since watch(): a connection is in use.
    [[nodiscard]] bool handedOut() const { return !m_fingerprint.isEmpty(); }

    // What one read found. Public for the worker that makes it and for tests.
    struct Loaded {
        Result<KubeConnection> connection = Error();
        bool configRead = false;     // the kubeconfig itself could be read
        bool contextMissing = false; // ... but it has no such context
        QString context;             // resolved name (current-context when none was asked for)
        QStringList contexts;
        QHash<QString, QString> servers; // context -> its cluster's server URL
        QStringList files;               // to watch
        QByteArray fingerprint;
    };
    // Worker thread: file I/O and parsing.
    [[nodiscard]] static Loaded load(const QString &path, const QString &context, Choice choice);

signals:
    // The kubeconfig was read: its contexts, in file order.
    void contextsChanged(const QStringList &contexts);
    // The current context's connection is new (first read) or different: connect with it.
    void connectionChanged(const gq::KubeConnection &connection);
    // Nothing is connected from this kubeconfig and this read cannot change that: it
    // could not be read (`configRead` false), or the context cannot be used.
    void unusable(const gq::Error &error, bool configRead);
    // A connection is in use and the kubeconfig changed so that it cannot be used any
    // more (broken mid-edit, context removed): the connection is kept. Cleared by
    // kubeconfigOk().
    void kubeconfigProblem(const gq::Error &error);
    void kubeconfigOk();

private:
    void adopt(Loaded loaded);
    void watchFiles(const QStringList &files);
    void unwatchAll();
    void onWatchedPathChanged(const QString &path);

    QString m_path;
    QString m_context;
    QHash<QString, QString> m_servers;
    Choice m_choice = Choice::Exactly;
    QByteArray m_fingerprint; // hash of the handed-out connection's settings and secrets
    QFileSystemWatcher *m_watcher;
    QTimer *m_reloadTimer;
    QStringList m_watchedFiles;
    QHash<QString, QString> m_fileStamps; // path -> size/mtime seen, to ignore unrelated dir changes
    JobTracker m_loads{this};
};

} // namespace gq
