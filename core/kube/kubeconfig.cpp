// Reading kubeconfig files: the YAML of one file, merging several with kubectl's
// rules, finding the files to read, and looking entries up. Turning a context into a
// connection is in kubeconnection.cpp, the credentials at run time in kubecredentials.cpp.
#include "core/kube/kubeconfig.h"

#include "core/kube/kubeconfig_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <yaml-cpp/yaml.h>

namespace gq {

using detail::configError;
using detail::findByName;
using detail::resolvePath;

namespace detail {

Error configError(QString message, QString field, int line) {
    Error e = Error::make(Error::Kind::Config, std::move(message), std::move(field));
    e.line = line;
    return e;
}

QString resolvePath(const QString &path, const QString &baseDir) {
    if (path.isEmpty() || QDir::isAbsolutePath(path))
        return path;
    return QDir::cleanPath(QDir(baseDir).absoluteFilePath(path));
}

} // namespace detail

namespace {

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

// A kubeconfig holds credentials, and a value in the wrong field may be one (a token
// pasted one line off): errors name the field and the line, never the value.
const QString &valueNotShown() {
    static const QString text = QStringLiteral("(the value is not shown: the file holds credentials)");
    return text;
}

Result<bool> boolean(const YAML::Node &parent, const char *key, const QString &fieldPrefix) {
    const YAML::Node n = parent[key];
    if (!n || n.IsNull())
        return false;
    bool value = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, value))
        return configError(
            QStringLiteral("%1 must be true or false %2").arg(QLatin1String(key), valueNotShown()),
            fieldPrefix + QLatin1String(key), n.Mark().line + 1);
    return value;
}

// The first failed read among a section's fields, in the order given: a section
// reads all its fields, then reports the first error.
template <typename... Results> const Error *firstError(const Results &...results) {
    const Error *first = nullptr;
    ((first = first ? first : (results ? nullptr : &results.error())), ...);
    return first;
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
        return configError(QStringLiteral("unsupported exec plugin apiVersion; supported: %1 %2")
                               .arg(known.join(QStringLiteral(", ")), valueNotShown()),
                           prefix + QStringLiteral("apiVersion"), node.Mark().line + 1);
    static const QStringList modes = {QString(), QStringLiteral("Never"), QStringLiteral("IfAvailable"),
                                      QStringLiteral("Always")};
    if (!modes.contains(exec.interactiveMode))
        return configError(
            QStringLiteral("interactiveMode must be Never, IfAvailable or Always %1").arg(valueNotShown()),
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

// A named-list section read into `into`; within one file, as across files, the
// first entry of a name wins.
template <typename T, typename ReadFn>
Result<void> readSection(const YAML::Node &root, const char *section, const char *inner, QList<T> &into,
                         ReadFn &&read) {
    return forEachNamed(root, section, inner,
                        [&](const QString &name, const YAML::Node &n, const QString &p) -> Result<void> {
                            if (findByName(into, name))
                                return {};
                            Result<T> item = read(n, p);
                            if (!item)
                                return item.error();
                            item->name = name;
                            into.append(*item);
                            return {};
                        });
}

Result<KubeCluster> readCluster(const YAML::Node &n, const QString &p, const QString &fileName,
                                const QString &baseDir) {
    auto server = scalar(n, "server", p);
    auto ca = scalar(n, "certificate-authority", p);
    auto caData = base64Field(n, "certificate-authority-data", p, fileName);
    auto sni = scalar(n, "tls-server-name", p);
    auto proxy = scalar(n, "proxy-url", p);
    auto insecure = boolean(n, "insecure-skip-tls-verify", p);
    if (const Error *e = firstError(server, ca, caData, sni, proxy, insecure))
        return *e;
    KubeCluster c;
    c.sourceFile = fileName;
    c.server = *server;
    c.certificateAuthority = resolvePath(*ca, baseDir);
    c.certificateAuthorityData = *caData;
    c.tlsServerName = *sni;
    c.proxyUrl = *proxy;
    c.insecureSkipTlsVerify = *insecure;
    return c;
}

Result<KubeUser> readUser(const YAML::Node &n, const QString &p, const QString &fileName,
                          const QString &baseDir) {
    auto cert = scalar(n, "client-certificate", p);
    auto certData = base64Field(n, "client-certificate-data", p, fileName);
    auto key = scalar(n, "client-key", p);
    auto keyData = base64Field(n, "client-key-data", p, fileName);
    auto token = scalar(n, "token", p);
    auto tokenFile = scalar(n, "tokenFile", p);
    if (const Error *e = firstError(cert, certData, key, keyData, token, tokenFile))
        return *e;
    KubeUser u;
    u.sourceFile = fileName;
    u.clientCertificate = resolvePath(*cert, baseDir);
    u.clientCertificateData = *certData;
    u.clientKey = resolvePath(*key, baseDir);
    u.clientKeyData = *keyData;
    u.token = *token;
    u.tokenFile = resolvePath(*tokenFile, baseDir);
    if (const YAML::Node provider = n["auth-provider"]; provider && provider.IsMap())
        u.authProvider = provider["name"] ? qs(provider["name"].Scalar()) : QStringLiteral("?");
    if (const YAML::Node exec = n["exec"]; exec && !exec.IsNull()) {
        if (!exec.IsMap())
            return configError(QStringLiteral("expected a map"), p + QStringLiteral("exec"),
                               exec.Mark().line + 1);
        auto e = parseExec(exec, p + QStringLiteral("exec."), baseDir);
        if (!e)
            return e.error();
        u.exec = *e;
    }
    return u;
}

Result<KubeContext> readContext(const YAML::Node &n, const QString &p) {
    auto cluster = scalar(n, "cluster", p);
    auto user = scalar(n, "user", p);
    auto ns = scalar(n, "namespace", p);
    if (const Error *e = firstError(cluster, user, ns))
        return *e;
    KubeContext c;
    c.cluster = *cluster;
    c.user = *user;
    c.namespaceName = *ns;
    return c;
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

        const auto withFile = [&](auto read) {
            return [&, read](const YAML::Node &n, const QString &p) { return read(n, p, fileName, baseDir); };
        };
        if (auto r = readSection(root, "clusters", "cluster", cfg.m_clusters, withFile(&readCluster)); !r)
            return r.error();
        if (auto r = readSection(root, "users", "user", cfg.m_users, withFile(&readUser)); !r)
            return r.error();
        if (auto r = readSection(root, "contexts", "context", cfg.m_contexts, &readContext); !r)
            return r.error();
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

} // namespace gq
