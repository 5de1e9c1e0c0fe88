// A context resolved into a KubeConnection: certificate and key files read, PEM
// material checked, and the contradictions kubectl would reject reported by field.
#include "core/kube/kubeconfig.h"

#include "core/kube/kubeconfig_p.h"

#include <QFile>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

namespace gq {

using detail::configError;
using detail::findByName;
using detail::readFileField;

namespace detail {

Result<QByteArray> readFileField(const QString &path, const QString &field) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot read %1: %2").arg(path, f.errorString()),
                           field);
    return f.readAll();
}

} // namespace detail

namespace {

// OpenSSL reports why PEM data is unusable; we say which field it came from.
QString opensslReason() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return QStringLiteral("no PEM data found");
    char buf[256];
    ERR_error_string_n(code, buf, sizeof buf);
    return QString::fromLatin1(buf);
}

// Whether OpenSSL reads pem as one T (read is a PEM_read_bio_* function, release
// the matching *_free); the error says what is wrong and names the field.
template <typename T>
Result<void> checkPem(const QByteArray &pem, T *(*read)(BIO *, T **, pem_password_cb *, void *),
                      void (*release)(T *), const QString &problem, const QString &field) {
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    T *object = read(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!object)
        return Error::make(Error::Kind::Config, QStringLiteral("%1 (%2)").arg(problem, opensslReason()),
                           field);
    release(object);
    return {};
}

Result<void> checkCertificatePem(const QByteArray &pem, const QString &field) {
    return checkPem(pem, &PEM_read_bio_X509, &X509_free, QStringLiteral("not a PEM certificate"), field);
}

Result<void> checkKeyPem(const QByteArray &pem, const QString &field) {
    return checkPem(pem, &PEM_read_bio_PrivateKey, &EVP_PKEY_free, QStringLiteral("unreadable private key"),
                    field);
}

// The inline *-data value when there is one, else the file the path field names,
// else nothing (empty), as kubectl reads certificates and keys.
Result<QByteArray> pemMaterial(const QByteArray &inlineData, const QString &path, const QString &pathField) {
    if (!inlineData.isEmpty())
        return inlineData;
    if (path.isEmpty())
        return QByteArray();
    return readFileField(path, pathField);
}

// The cluster's certificate authority, inline or from its file, checked as PEM.
Result<void> readClusterTls(const KubeCluster &cl, KubeConnection &conn) {
    const QString cp = QStringLiteral("clusters[%1].cluster.").arg(cl.name);
    if (!cl.certificateAuthorityData.isEmpty()) {
        conn.caPem = cl.certificateAuthorityData;
        if (auto r = checkCertificatePem(conn.caPem, cp + QStringLiteral("certificate-authority-data")); !r)
            return r.error();
    } else if (!cl.certificateAuthority.isEmpty()) {
        auto data = readFileField(cl.certificateAuthority, cp + QStringLiteral("certificate-authority"));
        if (!data)
            return data.error();
        conn.caPem = *data;
        if (auto r = checkCertificatePem(conn.caPem, cp + QStringLiteral("certificate-authority")); !r)
            return r.error();
    }
    if (conn.insecureSkipTlsVerify && !conn.caPem.isEmpty())
        return configError(QStringLiteral("cluster \"%1\" sets both a certificate authority and "
                                          "insecure-skip-tls-verify; remove one")
                               .arg(cl.name),
                           cp + QStringLiteral("insecure-skip-tls-verify"));
    return {};
}

// The user's credentials: a client certificate and key (inline or from files, both or
// neither, checked as PEM), a token or token file, or an exec plugin.
Result<void> readUserCredentials(const KubeUser &u, KubeConnection &conn) {
    const QString up = QStringLiteral("users[%1].user.").arg(u.name);
    if (!u.authProvider.isEmpty() && !u.exec && u.token.isEmpty() && u.tokenFile.isEmpty() &&
        u.clientCertificate.isEmpty() && u.clientCertificateData.isEmpty())
        return configError(
            QStringLiteral("user \"%1\" signs in with the legacy auth-provider \"%2\", which is not "
                           "supported (kubectl dropped it too): use an exec credential plugin, "
                           "e.g. kubelogin (kubectl oidc-login) for OIDC")
                .arg(u.name, u.authProvider),
            up + QStringLiteral("auth-provider"));
    auto cert =
        pemMaterial(u.clientCertificateData, u.clientCertificate, up + QStringLiteral("client-certificate"));
    if (!cert)
        return cert.error();
    conn.clientCertPem = *cert;
    auto key = pemMaterial(u.clientKeyData, u.clientKey, up + QStringLiteral("client-key"));
    if (!key)
        return key.error();
    conn.clientKeyPem = *key;
    if (conn.clientCertPem.isEmpty() != conn.clientKeyPem.isEmpty())
        return configError(QStringLiteral("user \"%1\" has a client certificate without a key or a key "
                                          "without a certificate")
                               .arg(u.name),
                           up + (conn.clientCertPem.isEmpty() ? QStringLiteral("client-certificate")
                                                              : QStringLiteral("client-key")));
    if (!conn.clientCertPem.isEmpty()) {
        const QString certField =
            up + (u.clientCertificateData.isEmpty() ? QStringLiteral("client-certificate")
                                                    : QStringLiteral("client-certificate-data"));
        if (auto r = checkCertificatePem(conn.clientCertPem, certField); !r)
            return r.error();
        const QString keyField = up + (u.clientKeyData.isEmpty() ? QStringLiteral("client-key")
                                                                 : QStringLiteral("client-key-data"));
        if (auto r = checkKeyPem(conn.clientKeyPem, keyField); !r)
            return r.error();
    }
    conn.token = u.token;
    conn.tokenFile = u.tokenFile;
    conn.exec = u.exec;
    return {};
}

} // namespace

Result<KubeConnection> KubeConfig::connection(const QString &contextName) const {
    const QString name = contextName.isEmpty() ? m_currentContext : contextName;
    const QString files = m_files.join(QStringLiteral(", "));
    if (name.isEmpty())
        return configError(QStringLiteral("no current-context is set in %1; pass --context (one of: %2)")
                               .arg(files, contextNames().join(QStringLiteral(", "))),
                           QStringLiteral("current-context"));
    const KubeContext *ctx = findByName(m_contexts, name);
    if (!ctx)
        return configError(QStringLiteral("context \"%1\" not found in %2 (known contexts: %3)")
                               .arg(name, files,
                                    contextNames().isEmpty() ? QStringLiteral("none")
                                                             : contextNames().join(QStringLiteral(", "))),
                           QStringLiteral("contexts"));
    const KubeCluster *cl = findByName(m_clusters, ctx->cluster);
    if (!cl)
        return configError(QStringLiteral("context \"%1\" refers to cluster \"%2\", which is not defined")
                               .arg(name, ctx->cluster),
                           QStringLiteral("contexts[%1].context.cluster").arg(name));
    const QString cp = QStringLiteral("clusters[%1].cluster.").arg(cl->name);
    if (cl->server.isEmpty())
        return configError(QStringLiteral("cluster \"%1\" has no server").arg(cl->name),
                           cp + QStringLiteral("server"));

    KubeConnection conn;
    conn.contextName = name;
    conn.clusterName = cl->name;
    conn.userName = ctx->user;
    conn.server = cl->server;
    while (conn.server.endsWith(QLatin1Char('/')))
        conn.server.chop(1);
    conn.namespaceName = ctx->namespaceName.isEmpty() ? QStringLiteral("default") : ctx->namespaceName;
    conn.tlsServerName = cl->tlsServerName;
    conn.proxyUrl = cl->proxyUrl;
    conn.insecureSkipTlsVerify = cl->insecureSkipTlsVerify;

    if (auto r = readClusterTls(*cl, conn); !r)
        return r.error();

    if (ctx->user.isEmpty())
        return conn;
    const KubeUser *u = findByName(m_users, ctx->user);
    if (!u)
        return configError(
            QStringLiteral("context \"%1\" refers to user \"%2\", which is not defined").arg(name, ctx->user),
            QStringLiteral("contexts[%1].context.user").arg(name));
    if (auto r = readUserCredentials(*u, conn); !r)
        return r.error();
    return conn;
}

} // namespace gq
