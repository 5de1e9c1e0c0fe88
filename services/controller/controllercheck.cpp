#include "services/controller/controllercheck.h"

#include "core/alerts/alertchannels.h"
#include "core/domain/clock.h"
#include "services/controller/controllerruntime.h"
#include "core/httpd/httpserver.h"
#include "core/kube/kubeclient.h"
#include "core/httpd/servingcert.h"
#include "core/domain/yamldoc.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace gq {

namespace {

// A problem found after the file's keys were read (a file it names, a context, a
// secret): kind Config, placed at the key it is about.
class Problems {
public:
    explicit Problems(const YamlNode &root)
        : m_root(root) {}

    QList<Error> errors;

    void add(Error e, const QString &field) {
        e.kind = Error::Kind::Config;
        if (e.field.isEmpty() || !e.field.startsWith(field.section(QLatin1Char('.'), 0, 0)))
            e.field = field;
        if (e.message.startsWith(e.field + QLatin1String(": ")))
            e.message = e.message.mid(e.field.size() + 2); // toString() puts it in front again
        if (e.line <= 0) {
            const SourcePos pos = m_root.locate(e.field);
            e.line = pos.line;
            e.column = pos.column;
        }
        errors.append(e);
    }
    void addAll(const QList<Error> &list) {
        for (Error e : list) {
            e.kind = Error::Kind::Config;
            errors.append(e);
        }
    }

private:
    const YamlNode &m_root;
};

void checkAlerts(const YamlNode &node, ControllerSetup &setup, Problems &problems) {
    const QList<Error> found = alertConfigProblems(node);
    problems.addAll(found);
    if (!found.isEmpty())
        return;
    setup.alerts = *parseAlertConfig(node);
    const AlertConfig &a = setup.alerts;
    if (!a.recipientsFile.isEmpty()) {
        auto recipients = AlertRecipients::loadFile(a.recipientsFile);
        if (recipients) {
            setup.recipients = *recipients;
        } else {
            Error e = recipients.error();
            // The position is in the recipients file: say so in the message.
            e.message = QStringLiteral("%1%2: %3")
                            .arg(a.recipientsFile, e.line > 0 ? QStringLiteral(":%1").arg(e.line) : QString(),
                                 e.toString());
            e.line = e.column = 0;
            e.field.clear();
            problems.add(e, QStringLiteral("alerts.recipientsFile"));
        }
    }
    if (!a.enabled)
        return;
    // The secrets the alert service reads when it starts (never their values).
    const QString password = a.smtp.passwordFile.isEmpty() ? QStringLiteral("alerts.email.passwordEnv")
                                                           : QStringLiteral("alerts.email.passwordFile");
    if (auto r = readSecret(a.smtp.passwordFile, a.smtp.passwordEnv, password); !r)
        problems.add(r.error(), password);
    const QString secret = a.webhook.secretFile.isEmpty() ? QStringLiteral("alerts.webhook.secretEnv")
                                                          : QStringLiteral("alerts.webhook.secretFile");
    if (auto r = readSecret(a.webhook.secretFile, a.webhook.secretEnv, secret); !r)
        problems.add(r.error(), secret);
}

// Whether `host` is a wildcard or an address of this machine: a socket binds to it
// (port 0; nothing listens afterwards). Else why not.
std::optional<QString> notOnThisHost(const QString &host) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo *found = nullptr;
    const QByteArray name = host.toUtf8();
    if (const int rc = ::getaddrinfo(name.isEmpty() ? nullptr : name.constData(), "0", &hints, &found);
        rc != 0)
        return QStringLiteral("cannot resolve \"%1\": %2")
            .arg(host, QString::fromLocal8Bit(::gai_strerror(rc)));
    std::optional<QString> problem =
        QStringLiteral("%1 is not an address of this machine (nothing could listen there)").arg(host);
    for (addrinfo *a = found; a && problem; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0)
            continue;
        if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0)
            problem.reset();
        ::close(fd);
    }
    ::freeaddrinfo(found);
    return problem;
}

// Whether the spool directory is one (or can be made one) the controller can write:
// else it would run with nowhere to keep intervals while the database is down.
std::optional<QString> spoolProblem(const QString &dir) {
    const QFileInfo info(dir);
    if (info.exists() && !info.isDir())
        return QStringLiteral("%1 is a file, not a directory").arg(dir);
    if (info.exists()) {
        if (::access(QFile::encodeName(dir).constData(), W_OK | X_OK) != 0)
            return QStringLiteral("%1: the directory is not writable: %2")
                .arg(dir, QString::fromLocal8Bit(strerror(errno)));
        const QString file = QDir(dir).filePath(QStringLiteral("intervals.spool"));
        if (QFileInfo::exists(file) && ::access(QFile::encodeName(file).constData(), W_OK) != 0)
            return QStringLiteral("%1 is not writable: %2")
                .arg(file, QString::fromLocal8Bit(strerror(errno)));
        return std::nullopt;
    }
    // Created at the start, under the nearest folder that exists.
    QString parent = info.absoluteFilePath();
    while (!QFileInfo::exists(parent) && QFileInfo(parent).absolutePath() != parent)
        parent = QFileInfo(parent).absolutePath();
    if (!QFileInfo(parent).isDir())
        return QStringLiteral("%1 cannot be created: %2 is a file").arg(dir, parent);
    if (::access(QFile::encodeName(parent).constData(), W_OK | X_OK) != 0)
        return QStringLiteral("%1 cannot be created in %2: %3")
            .arg(dir, parent, QString::fromLocal8Bit(strerror(errno)));
    return std::nullopt;
}

// A Lease in a namespace that does not exist can never be created: the controller
// would never lead and nothing would be recorded. A server dry run of the create (the
// permission the controller needs anyway) tells that apart from a Lease not created yet
// (201) or held (409). Bounded to a few seconds; an unreachable cluster or a refusal
// tells nothing and is left to the start.
void checkLeaseNamespace(KubeClient &client, const ControllerConfig::LeaderElection &le, Problems &problems) {
    KubeRequest req;
    req.method = HttpMethod::Post;
    req.path = QStringLiteral("/apis/coordination.k8s.io/v1/namespaces/%1/leases").arg(le.namespaceName);
    req.query = {{QStringLiteral("dryRun"), QStringLiteral("All")}};
    req.body =
        QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("coordination.k8s.io/v1")},
                                  {QStringLiteral("kind"), QStringLiteral("Lease")},
                                  {QStringLiteral("metadata"),
                                   QJsonObject{{QStringLiteral("name"), le.name},
                                               {QStringLiteral("namespace"), le.namespaceName}}}})
            .toJson(QJsonDocument::Compact);
    req.timeoutMs = 3000;
    req.maxAttempts = 1;
    QFuture<Result<KubeResponse>> f = client.send(req);
    f.waitForFinished();
    const Result<KubeResponse> r = f.result();
    if (!r && r.error().kind == Error::Kind::NotFound)
        problems.add(Error::make(Error::Kind::Config,
                                 QStringLiteral("namespace \"%1\" does not exist in the cluster: the Lease "
                                                "cannot be created, so no replica would ever lead or record")
                                     .arg(le.namespaceName)),
                     QStringLiteral("leaderElection.namespace"));
}

void checkListen(const QString &text, const QString &field, Problems &problems) {
    auto a = httpd::parseListenAddress(text, field);
    if (!a)
        problems.add(a.error(), field);
    else if (auto why = notOnThisHost(a->host))
        problems.add(Error::make(Error::Kind::Config, *why, field), field);
}

// What start() does with the file's values before it serves anything. A key the file's
// own parse found wrong is not looked at again.
void checkEnvironment(const ControllerConfig &cfg, const QList<Error> &found, Problems &problems) {
    auto wrong = [&found](const char *key) {
        return std::any_of(found.begin(), found.end(),
                           [key](const Error &e) { return e.field.startsWith(QLatin1String(key)); });
    };
    if (!wrong("listen"))
        checkListen(cfg.listen, QStringLiteral("listen"), problems);
    if (!wrong("spool") && !cfg.spool.isEmpty())
        if (auto why = spoolProblem(cfg.spool))
            problems.add(Error::make(Error::Kind::Config, *why, QStringLiteral("spool")),
                         QStringLiteral("spool"));
    if (cfg.webhook.configured && !wrong("webhook")) {
        checkListen(cfg.webhook.listen, QStringLiteral("webhook.listen"), problems);
        auto tls = httpd::TlsConfig::fromFiles(cfg.webhook.tlsCert, cfg.webhook.tlsKey);
        if (!tls)
            problems.add(tls.error(), QStringLiteral("webhook.tlsCert"));
        else if (auto v = tls->validate(); !v)
            problems.add(Error::make(Error::Kind::Config,
                                     QStringLiteral("%1 and %2: %3")
                                         .arg(cfg.webhook.tlsCert, cfg.webhook.tlsKey, v.error().message)),
                         QStringLiteral("webhook.tlsCert"));
        else if (auto c = httpd::checkServingCertificate(tls->certPem, tls->keyPem, cfg.webhook.names,
                                                         Clock::system().nowSecs());
                 !c)
            problems.add(Error::make(Error::Kind::Config,
                                     QStringLiteral("%1: %2").arg(cfg.webhook.tlsCert, c.error().message)),
                         QStringLiteral("webhook.tlsCert"));
    }
    if (wrong("cluster"))
        return;
    auto client = controllerClusterClient(cfg.cluster);
    if (!client)
        problems.add(client.error(),
                     cfg.cluster.inCluster ? QStringLiteral("cluster.inCluster") : QStringLiteral("cluster"));
    else if (cfg.leaderElection.enabled && !wrong("leaderElection") &&
             !cfg.leaderElection.namespaceName.isEmpty())
        checkLeaseNamespace(**client, cfg.leaderElection, problems);
}

} // namespace

QList<Error> readSelfService(const YamlNode &node, bool *perUserMetrics, QStringList *boostRequestGroups) {
    *perUserMetrics = false;
    if (boostRequestGroups)
        boostRequestGroups->clear();
    QList<Error> out;
    if (node.isNull())
        return out;
    auto problem = [&out](const QString &field, const QString &message, const SourcePos &at) {
        addConfigError(&out, field, at, message);
    };
    if (!node.isMap()) {
        problem(QStringLiteral("selfService"), QStringLiteral("must be a map, e.g. {perUserMetrics: false}"),
                node.pos());
        return out;
    }
    for (const YamlNode::Entry &entry : node.entries()) {
        if (entry.key == QLatin1String("boostRequestGroups")) {
            bool ok = entry.value.isSequence();
            for (const YamlNode &g : entry.value.items())
                ok = ok && g.isScalar() && !g.text().trimmed().isEmpty();
            if (!ok) {
                problem(QStringLiteral("selfService.boostRequestGroups"),
                        QStringLiteral("must be a list of group names"), entry.value.pos());
                continue;
            }
            for (const YamlNode &g : entry.value.items())
                if (boostRequestGroups)
                    boostRequestGroups->append(g.text().trimmed());
            continue;
        }
        if (entry.key != QLatin1String("perUserMetrics")) {
            problem(QStringLiteral("selfService.") + entry.key,
                    QStringLiteral("unknown key (known: perUserMetrics, boostRequestGroups)"), entry.keyPos);
            continue;
        }
        const QString v = entry.value.text();
        if (!entry.value.isScalar() || (v != QLatin1String("true") && v != QLatin1String("false")))
            problem(QStringLiteral("selfService.perUserMetrics"), QStringLiteral("must be true or false"),
                    entry.value.pos());
        else
            *perUserMetrics = v == QLatin1String("true");
    }
    return out;
}

ControllerCheckResult checkControllerConfig(const QString &path) {
    ControllerCheckResult out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.errors.append(Error::make(Error::Kind::Io,
                                      QStringLiteral("cannot read %1: %2").arg(path, f.errorString()),
                                      QStringLiteral("--config")));
        return out;
    }
    const QByteArray text = f.readAll();
    ControllerConfigResult base = parseControllerConfig(text, path);
    out.errors = base.errors;
    auto root = parseYamlNode(text);
    if (!root || !root->isMap())
        return out; // the file's own parse said why

    ControllerSetup setup;
    Problems problems(*root);
    if (const YamlNode *alerts = root->find(u"alerts"))
        checkAlerts(*alerts, setup, problems);
    if (const YamlNode *self = root->find(u"selfService"))
        problems.addAll(readSelfService(*self, &setup.perUserMetrics, &setup.boostRequestGroups));
    if (base.config) {
        auto idle = parseIdleRecorderConfig(base.config->metrics, base.config->idle, path);
        if (idle) {
            setup.idle = *idle;
        } else {
            // One Error for both sections: the first problem placed, every one in causes.
            const Error &e = idle.error();
            problems.add(e, e.field.isEmpty() ? QStringLiteral("metrics") : e.field);
            for (qsizetype i = 1; i < e.causes.size(); ++i) {
                const Error::Cause &c = e.causes[i];
                // "line N: message": the line is found again from the key.
                const QString message = c.message.startsWith(QLatin1String("line "))
                                            ? c.message.section(QLatin1String(": "), 1)
                                            : c.message;
                problems.add(Error::make(Error::Kind::Config, message, c.field), c.field);
            }
        }
    }
    checkEnvironment(base.read, base.errors, problems);
    out.errors += problems.errors;
    // In file order, so the output reads like the file; problems without a line last.
    std::stable_sort(out.errors.begin(), out.errors.end(), [](const Error &a, const Error &b) {
        const int la = a.line > 0 ? a.line : INT_MAX;
        const int lb = b.line > 0 ? b.line : INT_MAX;
        return la != lb ? la < lb : a.column < b.column;
    });
    if (out.errors.isEmpty() && base.config) {
        setup.config = std::move(*base.config);
        out.setup = std::move(setup);
    }
    return out;
}

} // namespace gq
