#include "services/controller/controllerconfig.h"

#include "services/controller/configreader.h"
#include "core/usage/dburl.h"
#include "core/kube/informer.h"
#include "core/usage/timewindow.h"

#include <QFile>

namespace gq {

namespace {

// host:port with a port in 1..65535 (0 for "any free port", which tests use).
bool validListen(const QString &text) {
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0)
        return false;
    bool ok = false;
    const int port = text.mid(colon + 1).toInt(&ok);
    return ok && port >= 0 && port <= 65535;
}

// webhook.names (a list of the names the API server connects to) and
// webhook.uncheckedAfter (a duration, or 0 for off).
void readWebhookHealth(ConfigReader &c, const YamlNode &n, ControllerConfig::Webhook &webhook) {
    if (const YamlNode *v = n.find(u"names")) {
        if (!v->isSequence()) {
            c.add(QStringLiteral("webhook.names"), v->pos(),
                  QStringLiteral("must be a list of DNS names or IP addresses"));
        } else {
            for (const YamlNode &item : v->items())
                if (auto name = c.string(QStringLiteral("webhook.names"), item))
                    webhook.names << *name;
        }
    }
    if (const YamlNode *v = n.find(u"uncheckedAfter")) {
        if (v->isScalar() && v->text().trimmed() == QLatin1String("0"))
            webhook.uncheckedAfterSeconds = 0;
        else if (auto d = c.duration(QStringLiteral("webhook.uncheckedAfter"), *v,
                                     QStringLiteral("2m or 0 (off)")))
            webhook.uncheckedAfterSeconds = *d;
    }
}

// cluster: the kubeconfig and context, or inCluster.
void readCluster(ConfigReader &c, const YamlNode &n, ControllerConfig &cfg, const QString &fileName) {
    if (c.map(QStringLiteral("cluster"), n,
              {QStringLiteral("kubeconfig"), QStringLiteral("context"), QStringLiteral("inCluster")})) {
        if (const YamlNode *v = n.find(u"inCluster"))
            cfg.cluster.inCluster = c.boolean(QStringLiteral("cluster.inCluster"), *v).value_or(false);
        if (const YamlNode *v = n.find(u"kubeconfig"))
            cfg.cluster.kubeconfig =
                c.file(QStringLiteral("cluster.kubeconfig"), *v, fileName).value_or(QString());
        if (const YamlNode *v = n.find(u"context"))
            cfg.cluster.context = c.string(QStringLiteral("cluster.context"), *v).value_or(QString());
        if (cfg.cluster.inCluster && (n.find(u"kubeconfig") || n.find(u"context")))
            c.add(QStringLiteral("cluster.inCluster"), n.find(u"inCluster")->pos(),
                  QStringLiteral("inCluster: true cannot be combined with kubeconfig or context"));
    }
}

// enforce: the namespace clamp on or off, and how often.
void readEnforce(ConfigReader &c, const YamlNode &n, ControllerConfig &cfg) {
    if (c.map(QStringLiteral("enforce"), n, {QStringLiteral("enabled"), QStringLiteral("interval")})) {
        if (const YamlNode *v = n.find(u"enabled"))
            cfg.enforce.enabled = c.boolean(QStringLiteral("enforce.enabled"), *v).value_or(false);
        if (const YamlNode *v = n.find(u"interval"))
            cfg.enforce.intervalSeconds =
                c.duration(QStringLiteral("enforce.interval"), *v, QStringLiteral("10s or 1m"))
                    .value_or(cfg.enforce.intervalSeconds);
    }
}

// webhook: its listener and TLS files (all required once the section is there), names, health.
void readWebhook(ConfigReader &c, const YamlNode &n, ControllerConfig &cfg, const QString &fileName) {
    if (c.map(QStringLiteral("webhook"), n,
              {QStringLiteral("listen"), QStringLiteral("tlsCert"), QStringLiteral("tlsKey"),
               QStringLiteral("names"), QStringLiteral("uncheckedAfter")})) {
        cfg.webhook.configured = true;
        readWebhookHealth(c, n, cfg.webhook);
        for (const char *key : {"listen", "tlsCert", "tlsKey"}) {
            const QString field = QStringLiteral("webhook.") + QLatin1String(key);
            const YamlNode *v = n.find(QString::fromLatin1(key));
            if (!v) {
                c.add(field, n.pos(), QStringLiteral("required key is missing"));
                continue;
            }
            if (qstrcmp(key, "listen") == 0) {
                if (auto s = c.string(field, *v)) {
                    if (!validListen(*s))
                        c.add(field, v->pos(), QStringLiteral("must be host:port, e.g. 0.0.0.0:9443"));
                    cfg.webhook.listen = *s;
                }
            } else if (auto path = c.file(field, *v, fileName)) {
                (qstrcmp(key, "tlsCert") == 0 ? cfg.webhook.tlsCert : cfg.webhook.tlsKey) = *path;
            }
        }
    }
}

// leaderElection: the Lease.
void readLeaderElection(ConfigReader &c, const YamlNode &n, ControllerConfig &cfg) {
    if (c.map(QStringLiteral("leaderElection"), n,
              {QStringLiteral("enabled"), QStringLiteral("namespace"), QStringLiteral("name")})) {
        if (const YamlNode *v = n.find(u"enabled"))
            cfg.leaderElection.enabled =
                c.boolean(QStringLiteral("leaderElection.enabled"), *v).value_or(false);
        if (const YamlNode *v = n.find(u"namespace"))
            cfg.leaderElection.namespaceName =
                c.string(QStringLiteral("leaderElection.namespace"), *v).value_or(QString());
        if (const YamlNode *v = n.find(u"name"))
            cfg.leaderElection.name = c.string(QStringLiteral("leaderElection.name"), *v).value_or(QString());
    }
}

// gpuResources, gpuModelWeights and gpuDeviceClasses: what counts as a GPU, and its weight.
void readGpus(ConfigReader &c, const YamlNode &root, ControllerConfig &cfg) {
    if (const YamlNode *n = root.find(u"gpuResources")) {
        if (!n->isMap()) {
            c.add(QStringLiteral("gpuResources"), n->pos(), QStringLiteral("must be a map"));
        } else {
            for (const YamlNode::Entry &e : n->entries()) {
                const QString field = QStringLiteral("gpuResources[%1]").arg(e.key);
                if (!isGpuResourceName(e.key)) {
                    c.add(field, e.keyPos,
                          QStringLiteral("not a GPU resource name (nvidia.com/gpu, nvidia.com/mig-*, "
                                         "nvidia.com/gpu.shared, amd.com/gpu, gpu.intel.com/*)"));
                    continue;
                }
                if (auto w = c.positive(field, e.value))
                    cfg.weights.set(e.key, *w);
            }
        }
    }
    if (const YamlNode *n = root.find(u"gpuModelWeights")) {
        if (!n->isMap()) {
            c.add(QStringLiteral("gpuModelWeights"), n->pos(), QStringLiteral("must be a map"));
        } else {
            for (const YamlNode::Entry &e : n->entries()) {
                if (auto w = c.positive(QStringLiteral("gpuModelWeights[%1]").arg(e.key), e.value)) {
                    cfg.gpuModelWeights.insert(e.key, *w);
                    cfg.weights.setModel(e.key, *w); // stored with every interval of that model
                }
            }
        }
    }
    if (const YamlNode *n = root.find(u"gpuDeviceClasses")) {
        if (!n->isSequence()) {
            c.add(QStringLiteral("gpuDeviceClasses"), n->pos(),
                  QStringLiteral("must be a list of DeviceClass names"));
        } else {
            int i = 0;
            for (const YamlNode &item : n->items())
                if (auto s = c.string(QStringLiteral("gpuDeviceClasses[%1]").arg(i++), item))
                    cfg.gpuDeviceClasses.insert(*s);
        }
    }
}

} // namespace

ControllerConfigResult parseControllerConfig(const QByteArray &text, const QString &fileName) {
    ControllerConfigResult out;
    auto root = parseYamlNode(text);
    if (!root) {
        out.errors.append(root.error());
        return out;
    }
    ConfigReader c;
    ControllerConfig cfg;
    static const QStringList topKeys = {QStringLiteral("cluster"),         QStringLiteral("clusterName"),
                                        QStringLiteral("database"),        QStringLiteral("listen"),
                                        QStringLiteral("userLabel"),       QStringLiteral("gpuResources"),
                                        QStringLiteral("gpuModelWeights"), QStringLiteral("timeZone"),
                                        QStringLiteral("enforce"),         QStringLiteral("webhook"),
                                        QStringLiteral("spool"),           QStringLiteral("leaderElection"),
                                        QStringLiteral("alerts"),          QStringLiteral("selfService"),
                                        QStringLiteral("metrics"),         QStringLiteral("idle"),
                                        QStringLiteral("identity"),        QStringLiteral("trust"),
                                        QStringLiteral("gpuDeviceClasses")};
    if (root->isNull()) {
        c.add({}, SourcePos{1, 1, 0}, QStringLiteral("the file is empty"));
        out.errors = c.errors;
        return out;
    }
    if (!c.map({}, *root, topKeys, SourcePos{1, 1, 0})) {
        out.errors = c.errors;
        return out;
    }
    auto required = [&](const char *key) -> const YamlNode * {
        const YamlNode *n = root->find(QString::fromLatin1(key));
        if (!n)
            c.add(QLatin1String(key), SourcePos{1, 1, 0}, QStringLiteral("required key is missing"));
        return n;
    };

    if (const YamlNode *n = required("cluster"))
        readCluster(c, *n, cfg, fileName);
    if (const YamlNode *n = root->find(u"clusterName"))
        cfg.clusterName = c.string(QStringLiteral("clusterName"), *n).value_or(QString());
    if (cfg.clusterName.isEmpty())
        cfg.clusterName = cfg.cluster.inCluster ? QStringLiteral("in-cluster") : cfg.cluster.context;

    if (const YamlNode *n = required("database")) {
        if (auto s = c.string(QStringLiteral("database"), *n)) {
            if (auto url = DbUrl::parse(*s); !url)
                c.add(QStringLiteral("database"), n->pos(), url.error().message);
            else
                cfg.database = *s;
        }
    }
    if (const YamlNode *n = root->find(u"listen")) {
        if (auto s = c.string(QStringLiteral("listen"), *n)) {
            if (!validListen(*s))
                c.add(QStringLiteral("listen"), n->pos(),
                      QStringLiteral("must be host:port, e.g. 127.0.0.1:9464 (got \"%1\")").arg(elided(*s)));
            cfg.listen = *s;
        }
    }
    if (const YamlNode *n = root->find(u"userLabel"))
        cfg.userLabel = c.string(QStringLiteral("userLabel"), *n).value_or(cfg.userLabel);
    readGpus(c, *root, cfg);
    if (const YamlNode *n = root->find(u"timeZone")) {
        if (auto s = c.string(QStringLiteral("timeZone"), *n)) {
            if (auto z = parseZone(*s, QStringLiteral("timeZone")); !z)
                c.add(QStringLiteral("timeZone"), n->pos(), z.error().message);
            else
                cfg.timeZone = *s;
        }
    }
    if (const YamlNode *n = root->find(u"enforce"))
        readEnforce(c, *n, cfg);
    if (const YamlNode *n = root->find(u"webhook"))
        readWebhook(c, *n, cfg, fileName);
    if (const YamlNode *n = required("spool")) {
        if (auto s = c.string(QStringLiteral("spool"), *n))
            cfg.spool = ConfigReader::resolvePath(*s, fileName);
    }
    if (const YamlNode *n = root->find(u"leaderElection"))
        readLeaderElection(c, *n, cfg);
    if (const YamlNode *n = root->find(u"identity"))
        cfg.identity = parseIdentityRules(*n, &c.errors);
    if (const YamlNode *n = root->find(u"trust"))
        cfg.trust = parseTrustRules(*n, &c.errors);
    if (const YamlNode *n = root->find(u"alerts"))
        cfg.alerts = *n;
    if (const YamlNode *n = root->find(u"selfService"))
        cfg.selfService = *n;
    if (const YamlNode *n = root->find(u"metrics"))
        cfg.metrics = *n;
    if (const YamlNode *n = root->find(u"idle"))
        cfg.idle = *n;
    cfg.fileName = fileName;

    out.errors = c.errors;
    out.read = cfg;
    if (out.errors.isEmpty())
        out.config = std::move(cfg);
    return out;
}

ControllerConfigResult loadControllerConfig(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        ControllerConfigResult out;
        out.errors.append(Error::make(Error::Kind::Io,
                                      QStringLiteral("cannot read %1: %2").arg(path, f.errorString()),
                                      QStringLiteral("--config")));
        return out;
    }
    return parseControllerConfig(f.readAll(), path);
}

QString formatConfigError(const QString &fileName, const Error &error) {
    QString where = fileName;
    if (error.line > 0)
        where += QStringLiteral(":%1:%2").arg(error.line).arg(error.column);
    return where + QStringLiteral(": ") + error.toString();
}

} // namespace gq
