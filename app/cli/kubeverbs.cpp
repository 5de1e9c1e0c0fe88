#include "app/cli/kubeverbs.h"

#include "app/cli/cliargs.h"
#include "app/cli/clioutput.h"
#include "app/cli/usageverbs.h"

#include "core/kube/requesttimeout.h"
#include "core/domain/yamldoc.h"

#include <QJsonDocument>

namespace gq::cli::kubeverbs {

ClusterArgs parseClusterArgs(const QStringList &args) {
    const Args p = parseFlags(
        args, {valueFlag(QStringLiteral("namespace"), u'n'), valueFlag(QStringLiteral("output"), u'o'),
               valueFlag(QStringLiteral("filename"), u'f'), valueFlag(QStringLiteral("request-timeout")),
               valueFlag(QStringLiteral("db")), valueFlag(QStringLiteral("note")),
               valueFlag(QStringLiteral("actor")), switchFlag(QStringLiteral("all-namespaces"), u'A'),
               switchFlag(QStringLiteral("dry-run"), {}, QStringLiteral("server"), true),
               switchFlag(QStringLiteral("force"))});
    ClusterArgs a;
    a.usageError = p.error;
    a.kubeconfig = p.value(QStringLiteral("kubeconfig"));
    a.context = p.value(QStringLiteral("context"));
    a.ns = p.value(QStringLiteral("namespace"));
    a.allNamespaces = p.has(QStringLiteral("all-namespaces"));
    a.output = p.value(QStringLiteral("output"));
    a.file = p.value(QStringLiteral("filename"));
    a.dryRun = p.value(QStringLiteral("dry-run"));
    a.requestTimeout = p.value(QStringLiteral("request-timeout"));
    a.db = p.value(QStringLiteral("db"));
    a.note = p.value(QStringLiteral("note"));
    a.actor = p.value(QStringLiteral("actor"));
    a.force = p.has(QStringLiteral("force"));
    a.positional = p.positional;
    if (a.usageError.isEmpty() && p.has(QStringLiteral("request-timeout"))) {
        if (auto t = parseRequestTimeout(a.requestTimeout); !t)
            a.usageError = t.error().message;
    }
    return a;
}

namespace {

// --request-timeout as kubectl means it: how long one server request may take. Our
// retries happen inside that time, so it is the total for the request too.
KubeClientOptions clientOptions(const ClusterArgs &a) {
    KubeClientOptions o;
    if (!a.requestTimeout.isEmpty()) {
        const int ms = parseRequestTimeout(a.requestTimeout).value_or(0);
        o.requestTimeoutMs = ms;
        o.totalTimeoutMs = ms;
    }
    return o;
}

} // namespace

QString requestFailure(const ClusterArgs &a, const Error &e) {
    if (e.kind != Error::Kind::Timeout)
        return e.message;
    const KubeClientOptions defaults;
    return e.message + (a.requestTimeout.isEmpty()
                            ? QStringLiteral(" (--request-timeout sets how long to wait; default: %1 s per "
                                             "attempt, %2 s in all)")
                                  .arg(defaults.requestTimeoutMs / 1000)
                                  .arg(defaults.totalTimeoutMs / 1000)
                            : QStringLiteral(" (--request-timeout=%1)").arg(a.requestTimeout));
}

Result<std::shared_ptr<KubeClient>> connect(const ClusterArgs &a) {
    auto client = KubeClient::fromKubeconfig(a.kubeconfig, a.context, clientOptions(a));
    static bool warned = false;
    if (client && !warned) {
        warned = true;
        if ((*client)->insecureSkipTlsVerify())
            err() << "warning: TLS certificate verification is disabled for this cluster "
                     "(insecure-skip-tls-verify)\n";
        if (const QString clear = (*client)->clearTextWarning(); !clear.isEmpty())
            err() << clear << '\n';
        err().flush();
    }
    return client;
}

void printTable(const QStringList &header, const QList<QStringList> &rows) {
    usageverbs::printTable(QList<QStringList>{header} + rows);
}

void printDocument(const QJsonObject &doc, const QString &format) {
    if (format == QLatin1String("json")) {
        out() << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else {
        out() << QString::fromUtf8(emitYaml(YamlNode::fromJson(doc)));
    }
}

} // namespace gq::cli::kubeverbs
