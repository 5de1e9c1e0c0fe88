#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>
#include <optional>

namespace gq {

// An exec credential plugin (users[].user.exec), as written in the kubeconfig.
struct KubeExecConfig {
    QString apiVersion; // client.authentication.k8s.io/v1 or /v1beta1
    QString command;    // as written; a relative path containing '/' is resolved at use
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString interactiveMode; // Never, IfAvailable, Always (empty: IfAvailable)
    bool provideClusterInfo = false;
    QString installHint;
    QString baseDir; // directory of the kubeconfig file that defined it
};

struct KubeCluster {
    QString name;
    QString server;
    QString certificateAuthority;        // path, already resolved against the file's dir
    QByteArray certificateAuthorityData; // decoded PEM
    QString tlsServerName;
    QString proxyUrl;
    bool insecureSkipTlsVerify = false;
    QString sourceFile;
};

struct KubeUser {
    QString name;
    QString clientCertificate;        // path, resolved
    QByteArray clientCertificateData; // decoded PEM
    QString clientKey;                // path, resolved
    QByteArray clientKeyData;         // decoded PEM
    QString token;
    QString tokenFile; // path, resolved
    std::optional<KubeExecConfig> exec;
    // The legacy `auth-provider` (e.g. oidc, gcp, azure): not supported; its name is kept
    // so a connection using this user says so instead of going out anonymous.
    QString authProvider;
    QString sourceFile;
};

struct KubeContext {
    QString name;
    QString cluster;
    QString user;
    QString namespaceName;
};

// Everything a KubeClient needs to talk to one context, with files read and base64
// decoded. Holds secrets: never log or persist it.
struct KubeConnection {
    QString contextName;
    QString clusterName;
    QString userName;
    QString server;        // https://host:port (no trailing slash)
    QString namespaceName; // the context's namespace, "default" when unset
    QByteArray caPem;      // empty: system trust store
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QString tlsServerName;
    QString proxyUrl;
    bool insecureSkipTlsVerify = false;
    QString token;     // static bearer token
    QString tokenFile; // re-read on use (projected tokens rotate)
    std::optional<KubeExecConfig> exec;
};

// A kubeconfig, possibly merged from several files with kubectl's rules: for the
// clusters / users / contexts maps the first file that defines a name wins, and
// current-context comes from the first file that sets one. Relative paths are
// resolved against the directory of the file they appear in.
class KubeConfig {
public:
    // explicitPath (--kubeconfig) if given, else $KUBECONFIG (':'-separated), else
    // ~/.kube/config. An explicit path or the default file that does not exist is an
    // error; files listed in KUBECONFIG that do not exist are skipped like kubectl
    // does, unless none exists.
    static Result<KubeConfig> load(const QString &explicitPath = {});
    static Result<KubeConfig> loadFiles(const QStringList &files);
    // One document; fileName names it in errors and anchors relative paths.
    static Result<KubeConfig> parse(const QByteArray &yaml, const QString &fileName);

    [[nodiscard]] QString currentContext() const { return m_currentContext; }
    [[nodiscard]] QStringList files() const { return m_files; }
    [[nodiscard]] const QList<KubeCluster> &clusters() const { return m_clusters; }
    [[nodiscard]] const QList<KubeUser> &users() const { return m_users; }
    [[nodiscard]] const QList<KubeContext> &contexts() const { return m_contexts; }
    [[nodiscard]] QStringList contextNames() const;

    [[nodiscard]] std::optional<KubeCluster> cluster(const QString &name) const;
    [[nodiscard]] std::optional<KubeUser> user(const QString &name) const;
    [[nodiscard]] std::optional<KubeContext> context(const QString &name) const;

    // Resolves a context (empty: current-context): reads CA / certificate / key files.
    // Errors (kind Config or Io) name the context, cluster or user and the field.
    [[nodiscard]] Result<KubeConnection> connection(const QString &contextName = {}) const;

private:
    void mergeFrom(const KubeConfig &other);

    QString m_currentContext;
    QStringList m_files;
    QList<KubeCluster> m_clusters;
    QList<KubeUser> m_users;
    QList<KubeContext> m_contexts;
};

// The credential an exec plugin returned.
struct ExecCredential {
    QString token;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QDateTime expiry; // invalid: never expires
};

// Runs an exec credential plugin (non-interactively: interactiveMode Always is an
// error), parsing its ExecCredential; a failing plugin's stderr is in the Error.
// Blocks up to timeoutMs: call it off the GUI thread.
[[nodiscard]] Result<ExecCredential> runExecPlugin(const KubeExecConfig &exec, const QString &server,
                                                   int timeoutMs = 30000);
// How long a plugin may run: 30 s, or 5 minutes for one that may be interactive
// (interactiveMode IfAvailable or Always: a browser login takes longer than 30 s).
[[nodiscard]] int execPluginTimeoutMs(const KubeExecConfig &exec);

// The credentials of one connection, shared by every request: static token,
// token file (re-read), or exec plugin output cached until its expirationTimestamp.
// Thread-safe. Never logs what it holds.
class KubeCredentials {
public:
    explicit KubeCredentials(KubeConnection connection);

    struct Material {
        QString bearerToken; // empty: none
        QByteArray clientCertPem;
        QByteArray clientKeyPem;
    };
    // May run the exec plugin (blocking): call it off the GUI thread.
    [[nodiscard]] Result<Material> current();
    // Drops a cached exec credential (after a 401) so the next call re-runs the plugin.
    void invalidate();
    // How many times the exec plugin ran (tests check caching).
    [[nodiscard]] int execRuns() const;

private:
    KubeConnection m_conn;
    mutable std::mutex m_mutex;
    std::optional<ExecCredential> m_cached;
    int m_execRuns = 0;
};

} // namespace gq
