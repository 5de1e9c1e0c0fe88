#include "core/kubeconfig.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimeZone>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <yaml-cpp/yaml.h>

namespace gq {

namespace {

Error configError(QString message, QString field = {}, int line = 0) {
    Error e = Error::make(Error::Kind::Config, std::move(message), std::move(field));
    e.line = line;
    return e;
}

QString qs(const std::string &s) {
    return QString::fromStdString(s);
}

// Reads a scalar child; a non-scalar value is an error naming the field.
Result<QString> scalar(const YAML::Node &parent, const char *key, const QString &fieldPrefix) {
    const YAML::Node n = parent[key];
    if (!n || n.IsNull())
        return QString();
    if (!n.IsScalar())
        return configError(QStringLiteral("expected a string"), fieldPrefix + QLatin1String(key),
                           n.Mark().line + 1);
    return qs(n.Scalar());
}

Result<bool> boolean(const YAML::Node &parent, const char *key, const QString &fieldPrefix) {
    const YAML::Node n = parent[key];
    if (!n || n.IsNull())
        return false;
    bool value = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value))
        return configError(QStringLiteral("expected true or false, got '%1'")
                               .arg(n.IsScalar() ? qs(n.Scalar()) : QStringLiteral("a map or list")),
                           fieldPrefix + QLatin1String(key), n.Mark().line + 1);
    return value;
}

Result<QByteArray> base64Field(const YAML::Node &parent, const char *key, const QString &fieldPrefix,
                               const QString &fileName) {
    auto text = scalar(parent, key, fieldPrefix);
    if (!text)
        return text.error();
    QByteArray raw = text->toLatin1();
    raw.replace(' ', QByteArray()).replace('\n', QByteArray()).replace('\r', QByteArray());
    auto decoded = QByteArray::fromBase64Encoding(raw, QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return configError(QStringLiteral("invalid base64 data in %1").arg(fileName),
                           fieldPrefix + QLatin1String(key), parent[key].Mark().line + 1);
    return *decoded;
}

QString resolvePath(const QString &path, const QString &baseDir) {
    if (path.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    return QDir::cleanPath(QDir(baseDir).absoluteFilePath(path));
}

template <typename T> const T *findByName(const QList<T> &list, const QString &name) {
    for (const T &item : list) {
        if (item.name == name)
            return &item;
    }
    return nullptr;
}

// A named-list section ("clusters", "users", "contexts"): a sequence of {name, <key>: map}.
template <typename Fn>
Result<void> forEachNamed(const YAML::Node &root, const char *section, const char *inner, Fn &&fn) {
    const YAML::Node list = root[section];
    if (!list || list.IsNull())
        return {};
    if (!list.IsSequence())
        return configError(QStringLiteral("expected a list"), QLatin1String(section), list.Mark().line + 1);
    int index = 0;
    for (const YAML::Node &entry : list) {
        const QString where = QStringLiteral("%1[%2]").arg(QLatin1String(section)).arg(index++);
        if (!entry.IsMap())
            return configError(QStringLiteral("expected a map with name and %1").arg(QLatin1String(inner)),
                               where, entry.Mark().line + 1);
        const YAML::Node nameNode = entry["name"];
        if (!nameNode || !nameNode.IsScalar() || nameNode.Scalar().empty())
            return configError(QStringLiteral("entry has no name"), where + QStringLiteral(".name"),
                               entry.Mark().line + 1);
        const QString name = qs(nameNode.Scalar());
        YAML::Node body = entry[inner];
        if (body && !body.IsNull() && !body.IsMap())
            return configError(
                QStringLiteral("expected a map"),
                QStringLiteral("%1[%2].%3").arg(QLatin1String(section), name, QLatin1String(inner)),
                body.Mark().line + 1);
        auto r = fn(name, body ? body : YAML::Node(YAML::NodeType::Map),
                    QStringLiteral("%1[%2].%3.").arg(QLatin1String(section), name, QLatin1String(inner)));
        if (!r)
            return r;
    }
    return {};
}

Result<KubeExecConfig> parseExec(const YAML::Node &node, const QString &prefix, const QString &baseDir) {
    KubeExecConfig exec;
    exec.baseDir = baseDir;
    auto get = [&](const char *key, QString &out) -> Result<void> {
        auto v = scalar(node, key, prefix);
        if (!v)
            return v.error();
        out = *v;
        return {};
    };
    if (auto r = get("apiVersion", exec.apiVersion); !r)
        return r.error();
    if (auto r = get("command", exec.command); !r)
        return r.error();
    if (auto r = get("interactiveMode", exec.interactiveMode); !r)
        return r.error();
    if (auto r = get("installHint", exec.installHint); !r)
        return r.error();
    auto pci = boolean(node, "provideClusterInfo", prefix);
    if (!pci)
        return pci.error();
    exec.provideClusterInfo = *pci;
    if (exec.command.isEmpty())
        return configError(QStringLiteral("exec plugin has no command"), prefix + QStringLiteral("command"),
                           node.Mark().line + 1);
    static const QStringList known = {QStringLiteral("client.authentication.k8s.io/v1"),
                                      QStringLiteral("client.authentication.k8s.io/v1beta1")};
    if (!known.contains(exec.apiVersion))
        return configError(QStringLiteral("unsupported exec plugin apiVersion '%1' (supported: %2)")
                               .arg(exec.apiVersion, known.join(QStringLiteral(", "))),
                           prefix + QStringLiteral("apiVersion"), node.Mark().line + 1);
    static const QStringList modes = {QString(), QStringLiteral("Never"), QStringLiteral("IfAvailable"),
                                      QStringLiteral("Always")};
    if (!modes.contains(exec.interactiveMode))
        return configError(QStringLiteral("unknown interactiveMode '%1' (Never, IfAvailable or Always)")
                               .arg(exec.interactiveMode),
                           prefix + QStringLiteral("interactiveMode"), node.Mark().line + 1);
    if (const YAML::Node args = node["args"]; args && !args.IsNull()) {
        if (!args.IsSequence())
            return configError(QStringLiteral("expected a list of strings"), prefix + QStringLiteral("args"),
                               args.Mark().line + 1);
        for (const YAML::Node &a : args)
            exec.args << qs(a.Scalar());
    }
    if (const YAML::Node env = node["env"]; env && !env.IsNull()) {
        if (!env.IsSequence())
            return configError(QStringLiteral("expected a list of {name, value}"),
                               prefix + QStringLiteral("env"), env.Mark().line + 1);
        for (const YAML::Node &e : env) {
            if (!e.IsMap() || !e["name"])
                return configError(QStringLiteral("expected {name, value}"), prefix + QStringLiteral("env"),
                                   e.Mark().line + 1);
            exec.env.append({qs(e["name"].Scalar()), e["value"] ? qs(e["value"].Scalar()) : QString()});
        }
    }
    return exec;
}

Result<QByteArray> readFileField(const QString &path, const QString &field) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot read %1: %2").arg(path, f.errorString()),
                           field);
    return f.readAll();
}

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

Result<void> checkCertificatePem(const QByteArray &pem, const QString &field) {
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    X509 *cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!cert)
        return Error::make(Error::Kind::Config,
                           QStringLiteral("not a PEM certificate (%1)").arg(opensslReason()), field);
    X509_free(cert);
    return {};
}

Result<void> checkKeyPem(const QByteArray &pem, const QString &field) {
    BIO *bio = BIO_new_mem_buf(pem.constData(), int(pem.size()));
    EVP_PKEY *key = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
    BIO_free(bio);
    if (!key)
        return Error::make(Error::Kind::Config,
                           QStringLiteral("unreadable private key (%1)").arg(opensslReason()), field);
    EVP_PKEY_free(key);
    return {};
}

} // namespace

Result<KubeConfig> KubeConfig::parse(const QByteArray &yaml, const QString &fileName) {
    KubeConfig cfg;
    cfg.m_files << fileName;
    const QString baseDir = QFileInfo(fileName).absolutePath();
    YAML::Node root;
    try {
        root = YAML::Load(yaml.toStdString());
    } catch (const YAML::ParserException &ex) {
        Error e = Error::make(Error::Kind::Parse, QStringLiteral("%1: %2").arg(fileName, qs(ex.msg)));
        e.line = ex.mark.line + 1;
        e.column = ex.mark.column + 1;
        return e;
    }
    if (!root || root.IsNull())
        return cfg; // an empty file is an empty config, as for kubectl
    if (!root.IsMap())
        return configError(QStringLiteral("%1 is not a kubeconfig (expected a map)").arg(fileName));

    try {
        auto cc = scalar(root, "current-context", {});
        if (!cc)
            return cc.error();
        cfg.m_currentContext = *cc;

        auto clusters = forEachNamed(
            root, "clusters", "cluster",
            [&](const QString &name, const YAML::Node &n, const QString &p) -> Result<void> {
                if (findByName(cfg.m_clusters, name))
                    return {};
                KubeCluster c;
                c.name = name;
                c.sourceFile = fileName;
                auto server = scalar(n, "server", p);
                auto ca = scalar(n, "certificate-authority", p);
                auto caData = base64Field(n, "certificate-authority-data", p, fileName);
                auto sni = scalar(n, "tls-server-name", p);
                auto proxy = scalar(n, "proxy-url", p);
                auto insecure = boolean(n, "insecure-skip-tls-verify", p);
                for (const Error *e :
                     {server ? nullptr : &server.error(), ca ? nullptr : &ca.error(),
                      caData ? nullptr : &caData.error(), sni ? nullptr : &sni.error(),
                      proxy ? nullptr : &proxy.error(), insecure ? nullptr : &insecure.error()}) {
                    if (e)
                        return *e;
                }
                c.server = *server;
                c.certificateAuthority = resolvePath(*ca, baseDir);
                c.certificateAuthorityData = *caData;
                c.tlsServerName = *sni;
                c.proxyUrl = *proxy;
                c.insecureSkipTlsVerify = *insecure;
                cfg.m_clusters.append(c);
                return {};
            });
        if (!clusters)
            return clusters.error();

        auto users = forEachNamed(
            root, "users", "user",
            [&](const QString &name, const YAML::Node &n, const QString &p) -> Result<void> {
                if (findByName(cfg.m_users, name))
                    return {};
                KubeUser u;
                u.name = name;
                u.sourceFile = fileName;
                auto cert = scalar(n, "client-certificate", p);
                auto certData = base64Field(n, "client-certificate-data", p, fileName);
                auto key = scalar(n, "client-key", p);
                auto keyData = base64Field(n, "client-key-data", p, fileName);
                auto token = scalar(n, "token", p);
                auto tokenFile = scalar(n, "tokenFile", p);
                for (const Error *e :
                     {cert ? nullptr : &cert.error(), certData ? nullptr : &certData.error(),
                      key ? nullptr : &key.error(), keyData ? nullptr : &keyData.error(),
                      token ? nullptr : &token.error(), tokenFile ? nullptr : &tokenFile.error()}) {
                    if (e)
                        return *e;
                }
                u.clientCertificate = resolvePath(*cert, baseDir);
                u.clientCertificateData = *certData;
                u.clientKey = resolvePath(*key, baseDir);
                u.clientKeyData = *keyData;
                u.token = *token;
                u.tokenFile = resolvePath(*tokenFile, baseDir);
                if (const YAML::Node exec = n["exec"]; exec && !exec.IsNull()) {
                    if (!exec.IsMap())
                        return configError(QStringLiteral("expected a map"), p + QStringLiteral("exec"),
                                           exec.Mark().line + 1);
                    auto e = parseExec(exec, p + QStringLiteral("exec."), baseDir);
                    if (!e)
                        return e.error();
                    u.exec = *e;
                }
                cfg.m_users.append(u);
                return {};
            });
        if (!users)
            return users.error();

        auto contexts = forEachNamed(
            root, "contexts", "context",
            [&](const QString &name, const YAML::Node &n, const QString &p) -> Result<void> {
                if (findByName(cfg.m_contexts, name))
                    return {};
                KubeContext c;
                c.name = name;
                auto cluster = scalar(n, "cluster", p);
                auto user = scalar(n, "user", p);
                auto ns = scalar(n, "namespace", p);
                for (const Error *e : {cluster ? nullptr : &cluster.error(), user ? nullptr : &user.error(),
                                       ns ? nullptr : &ns.error()}) {
                    if (e)
                        return *e;
                }
                c.cluster = *cluster;
                c.user = *user;
                c.namespaceName = *ns;
                cfg.m_contexts.append(c);
                return {};
            });
        if (!contexts)
            return contexts.error();
    } catch (const YAML::Exception &ex) {
        Error e = Error::make(Error::Kind::Parse, QStringLiteral("%1: %2").arg(fileName, qs(ex.msg)));
        e.line = ex.mark.line + 1;
        return e;
    }
    return cfg;
}

void KubeConfig::mergeFrom(const KubeConfig &other) {
    if (m_currentContext.isEmpty())
        m_currentContext = other.m_currentContext;
    m_files += other.m_files;
    for (const KubeCluster &c : other.m_clusters) {
        if (!findByName(m_clusters, c.name))
            m_clusters.append(c);
    }
    for (const KubeUser &u : other.m_users) {
        if (!findByName(m_users, u.name))
            m_users.append(u);
    }
    for (const KubeContext &c : other.m_contexts) {
        if (!findByName(m_contexts, c.name))
            m_contexts.append(c);
    }
}

Result<KubeConfig> KubeConfig::loadFiles(const QStringList &files) {
    KubeConfig merged;
    for (const QString &file : files) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("cannot read kubeconfig %1: %2").arg(file, f.errorString()));
        auto one = parse(f.readAll(), file);
        if (!one)
            return one.error();
        merged.mergeFrom(*one);
    }
    return merged;
}

Result<KubeConfig> KubeConfig::load(const QString &explicitPath) {
    if (!explicitPath.isEmpty()) {
        if (!QFileInfo::exists(explicitPath))
            return Error::make(Error::Kind::Io,
                               QStringLiteral("kubeconfig %1 does not exist").arg(explicitPath));
        return loadFiles({explicitPath});
    }
    const QString env = qEnvironmentVariable("KUBECONFIG");
    if (!env.isEmpty()) {
        QStringList existing;
        QStringList listed;
        for (const QString &f : env.split(QDir::listSeparator(), Qt::SkipEmptyParts)) {
            if (listed.contains(f))
                continue; // kubectl reads a file named twice only once
            listed << f;
            if (QFileInfo::exists(f))
                existing << f;
        }
        if (existing.isEmpty())
            return Error::make(Error::Kind::Io, QStringLiteral("none of the KUBECONFIG files exists: %1")
                                                    .arg(listed.join(QStringLiteral(", "))));
        return loadFiles(existing);
    }
    const QString def = QDir::homePath() + QStringLiteral("/.kube/config");
    if (!QFileInfo::exists(def))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("no kubeconfig: %1 does not exist and KUBECONFIG is not set "
                                          "(use --kubeconfig FILE)")
                               .arg(def));
    return loadFiles({def});
}

QStringList KubeConfig::contextNames() const {
    QStringList names;
    for (const KubeContext &c : m_contexts)
        names << c.name;
    return names;
}

std::optional<KubeCluster> KubeConfig::cluster(const QString &name) const {
    if (const KubeCluster *c = findByName(m_clusters, name))
        return *c;
    return std::nullopt;
}

std::optional<KubeUser> KubeConfig::user(const QString &name) const {
    if (const KubeUser *u = findByName(m_users, name))
        return *u;
    return std::nullopt;
}

std::optional<KubeContext> KubeConfig::context(const QString &name) const {
    if (const KubeContext *c = findByName(m_contexts, name))
        return *c;
    return std::nullopt;
}

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

    if (!cl->certificateAuthorityData.isEmpty()) {
        conn.caPem = cl->certificateAuthorityData;
        if (auto r = checkCertificatePem(conn.caPem, cp + QStringLiteral("certificate-authority-data")); !r)
            return r.error();
    } else if (!cl->certificateAuthority.isEmpty()) {
        auto data = readFileField(cl->certificateAuthority, cp + QStringLiteral("certificate-authority"));
        if (!data)
            return data.error();
        conn.caPem = *data;
        if (auto r = checkCertificatePem(conn.caPem, cp + QStringLiteral("certificate-authority")); !r)
            return r.error();
    }
    if (conn.insecureSkipTlsVerify && !conn.caPem.isEmpty())
        return configError(QStringLiteral("cluster \"%1\" sets both a certificate authority and "
                                          "insecure-skip-tls-verify; remove one")
                               .arg(cl->name),
                           cp + QStringLiteral("insecure-skip-tls-verify"));

    if (ctx->user.isEmpty())
        return conn;
    const KubeUser *u = findByName(m_users, ctx->user);
    if (!u)
        return configError(
            QStringLiteral("context \"%1\" refers to user \"%2\", which is not defined").arg(name, ctx->user),
            QStringLiteral("contexts[%1].context.user").arg(name));
    const QString up = QStringLiteral("users[%1].user.").arg(u->name);
    if (!u->clientCertificateData.isEmpty()) {
        conn.clientCertPem = u->clientCertificateData;
    } else if (!u->clientCertificate.isEmpty()) {
        auto data = readFileField(u->clientCertificate, up + QStringLiteral("client-certificate"));
        if (!data)
            return data.error();
        conn.clientCertPem = *data;
    }
    if (!u->clientKeyData.isEmpty()) {
        conn.clientKeyPem = u->clientKeyData;
    } else if (!u->clientKey.isEmpty()) {
        auto data = readFileField(u->clientKey, up + QStringLiteral("client-key"));
        if (!data)
            return data.error();
        conn.clientKeyPem = *data;
    }
    if (conn.clientCertPem.isEmpty() != conn.clientKeyPem.isEmpty())
        return configError(QStringLiteral("user \"%1\" has a client certificate without a key or a key "
                                          "without a certificate")
                               .arg(u->name),
                           up + (conn.clientCertPem.isEmpty() ? QStringLiteral("client-certificate")
                                                              : QStringLiteral("client-key")));
    if (!conn.clientCertPem.isEmpty()) {
        const QString certField =
            up + (u->clientCertificateData.isEmpty() ? QStringLiteral("client-certificate")
                                                     : QStringLiteral("client-certificate-data"));
        if (auto r = checkCertificatePem(conn.clientCertPem, certField); !r)
            return r.error();
        const QString keyField = up + (u->clientKeyData.isEmpty() ? QStringLiteral("client-key")
                                                                  : QStringLiteral("client-key-data"));
        if (auto r = checkKeyPem(conn.clientKeyPem, keyField); !r)
            return r.error();
    }
    conn.token = u->token;
    conn.tokenFile = u->tokenFile;
    conn.exec = u->exec;
    return conn;
}

// ---------------------------------------------------------------------------------
// exec credential plugins

Result<ExecCredential> runExecPlugin(const KubeExecConfig &exec, const QString &server, int timeoutMs) {
    const QString what = QStringLiteral("exec plugin \"%1\"").arg(exec.command);
    if (exec.interactiveMode == QLatin1String("Always"))
        return Error::make(Error::Kind::Config,
                           what +
                               QStringLiteral(" requires an interactive terminal (interactiveMode: Always), "
                                              "but gpuquota runs it non-interactively"),
                           QStringLiteral("exec.interactiveMode"));
    QString program = exec.command;
    if (program.contains(QLatin1Char('/')))
        program = resolvePath(program, exec.baseDir);
    else {
        const QString found = QStandardPaths::findExecutable(program);
        if (found.isEmpty()) {
            QString msg = what + QStringLiteral(" not found on PATH");
            if (!exec.installHint.isEmpty())
                msg += QStringLiteral("; ") + exec.installHint.trimmed();
            return Error::make(Error::Kind::Config, msg, QStringLiteral("exec.command"));
        }
        program = found;
    }

    QJsonObject spec{{QStringLiteral("interactive"), false}};
    if (exec.provideClusterInfo)
        spec.insert(QStringLiteral("cluster"), QJsonObject{{QStringLiteral("server"), server}});
    const QJsonObject info{{QStringLiteral("apiVersion"), exec.apiVersion},
                           {QStringLiteral("kind"), QStringLiteral("ExecCredential")},
                           {QStringLiteral("spec"), spec}};

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &kv : exec.env)
        env.insert(kv.first, kv.second);
    env.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
               QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));

    QProcess proc;
    proc.setProcessEnvironment(env);
    proc.setStandardInputFile(QProcess::nullDevice());
    proc.start(program, exec.args);
    if (!proc.waitForStarted(timeoutMs)) {
        QString msg = what + QStringLiteral(" could not be started: %1").arg(proc.errorString());
        if (!exec.installHint.isEmpty())
            msg += QStringLiteral("; ") + exec.installHint.trimmed();
        return Error::make(Error::Kind::Config, msg, QStringLiteral("exec.command"));
    }
    if (!proc.waitForFinished(timeoutMs)) {
        proc.kill();
        proc.waitForFinished(1000);
        return Error::make(Error::Kind::Timeout,
                           what + QStringLiteral(" did not finish within %1 ms").arg(timeoutMs));
    }
    const QString stderrText = QString::fromLocal8Bit(proc.readAllStandardError()).trimmed();
    if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0)
        return Error::make(
            Error::Kind::Unauthorized,
            what + QStringLiteral(" failed with exit code %1: %2")
                       .arg(proc.exitCode())
                       .arg(stderrText.isEmpty() ? QStringLiteral("(no output on stderr)") : stderrText));
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(proc.readAllStandardOutput(), &perr);
    if (!doc.isObject())
        return Error::make(
            Error::Kind::Parse,
            what + QStringLiteral(" printed no ExecCredential JSON (%1)").arg(perr.errorString()));
    const QJsonObject obj = doc.object();
    if (obj.value(QLatin1String("kind")).toString() != QLatin1String("ExecCredential"))
        return Error::make(Error::Kind::Parse,
                           what + QStringLiteral(" printed an object that is not an ExecCredential"));
    if (obj.value(QLatin1String("apiVersion")).toString() != exec.apiVersion)
        return Error::make(Error::Kind::Parse,
                           what +
                               QStringLiteral(" answered apiVersion '%1', expected '%2'")
                                   .arg(obj.value(QLatin1String("apiVersion")).toString(), exec.apiVersion));
    const QJsonObject status = obj.value(QLatin1String("status")).toObject();
    ExecCredential cred;
    cred.token = status.value(QLatin1String("token")).toString();
    cred.clientCertPem = status.value(QLatin1String("clientCertificateData")).toString().toUtf8();
    cred.clientKeyPem = status.value(QLatin1String("clientKeyData")).toString().toUtf8();
    const QString exp = status.value(QLatin1String("expirationTimestamp")).toString();
    if (!exp.isEmpty()) {
        cred.expiry = QDateTime::fromString(exp, Qt::ISODate);
        if (!cred.expiry.isValid())
            return Error::make(
                Error::Kind::Parse,
                what + QStringLiteral(" returned an unreadable expirationTimestamp '%1'").arg(exp),
                QStringLiteral("status.expirationTimestamp"));
    }
    if (cred.token.isEmpty() && (cred.clientCertPem.isEmpty() || cred.clientKeyPem.isEmpty()))
        return Error::make(Error::Kind::Parse,
                           what +
                               QStringLiteral(" returned neither a token nor a client certificate and key"),
                           QStringLiteral("status"));
    return cred;
}

KubeCredentials::KubeCredentials(KubeConnection connection)
    : m_conn(std::move(connection)) {}

Result<KubeCredentials::Material> KubeCredentials::current() {
    Material m;
    m.clientCertPem = m_conn.clientCertPem;
    m.clientKeyPem = m_conn.clientKeyPem;
    if (!m_conn.token.isEmpty()) {
        m.bearerToken = m_conn.token;
        return m;
    }
    if (!m_conn.tokenFile.isEmpty()) {
        auto data =
            readFileField(m_conn.tokenFile, QStringLiteral("users[%1].user.tokenFile").arg(m_conn.userName));
        if (!data)
            return data.error();
        m.bearerToken = QString::fromUtf8(data->trimmed());
        return m;
    }
    if (!m_conn.exec)
        return m;
    std::lock_guard lock(m_mutex);
    // A little margin so a token does not expire between check and use.
    const QDateTime now = QDateTime::currentDateTimeUtc().addSecs(10);
    if (!m_cached || (m_cached->expiry.isValid() && m_cached->expiry <= now)) {
        m_cached.reset();
        ++m_execRuns;
        auto cred = runExecPlugin(*m_conn.exec, m_conn.server);
        if (!cred) {
            Error e = cred.error();
            e.field = QStringLiteral("users[%1].user.%2")
                          .arg(m_conn.userName, e.field.isEmpty() ? QStringLiteral("exec") : e.field);
            return e;
        }
        m_cached = *cred;
    }
    m.bearerToken = m_cached->token;
    if (!m_cached->clientCertPem.isEmpty()) {
        m.clientCertPem = m_cached->clientCertPem;
        m.clientKeyPem = m_cached->clientKeyPem;
    }
    return m;
}

void KubeCredentials::invalidate() {
    std::lock_guard lock(m_mutex);
    m_cached.reset();
}

int KubeCredentials::execRuns() const {
    std::lock_guard lock(m_mutex);
    return m_execRuns;
}

} // namespace gq
