#include "app/cli/boostcluster.h"

#include "core/kube/kubeclient.h"

namespace gq::cli::boostcluster {

using namespace usageverbs;

ClusterPick pickCluster(const Args &a) {
    ClusterPick pick;
    const QString kubeconfig = a.value(QStringLiteral("kubeconfig"));
    const QString context = a.value(QStringLiteral("context"));
    pick.asked = a.has(QStringLiteral("kubeconfig")) || a.has(QStringLiteral("context"));
    auto client = KubeClient::fromKubeconfig(kubeconfig, context);
    if (client) {
        pick.client = *client;
        return pick;
    }
    const Error &e = client.error();
    pick.why = e.message;
    if (!pick.asked)
        return pick;
    // KubeConfig::connection() names the contexts list when the one asked for is not in it.
    if (!context.isEmpty() && e.kind == Error::Kind::Config && e.field == QLatin1String("contexts")) {
        pick.why = QStringLiteral("--context: ") + e.message;
        pick.exitCode = UsageError;
        return pick;
    }
    pick.why =
        QStringLiteral("cannot use the cluster of %1: %2")
            .arg(a.has(QStringLiteral("kubeconfig")) ? QStringLiteral("--kubeconfig %1").arg(kubeconfig)
                                                     : QStringLiteral("--context %1").arg(context),
                 e.toString());
    pick.exitCode = Failed;
    return pick;
}

Result<QString> clusterUser(KubeClient &client) {
    auto f = client.whoAmI();
    f.waitForFinished();
    const auto who = f.result();
    if (who)
        return who->username;
    switch (who.error().kind) {
    case Error::Kind::Network:
    case Error::Kind::Timeout:
    case Error::Kind::Tls:
    case Error::Kind::Unauthorized:
    case Error::Kind::Config: return who.error();
    default: return QString(); // it answered, just not with a name
    }
}

QString actorFor(const Args &a, const QString &clusterName) {
    if (!a.value(QStringLiteral("actor")).trimmed().isEmpty() || clusterName.isEmpty())
        return actorOf(a);
    return clusterName;
}

QString actorFor(const Args &a, const std::shared_ptr<KubeClient> &client) {
    if (!a.value(QStringLiteral("actor")).trimmed().isEmpty() || !client)
        return actorOf(a);
    return actorFor(a, clusterUser(*client).value_or(QString()));
}

ReconcileReport reconcile(UsageStore &store, std::shared_ptr<KubeClient> client, const QString &actor,
                          qint64 now, qint64 id, QTextStream &lines) {
    BoostReconciler::Options o;
    o.actor = actor;
    BoostReconciler r(store, std::move(client), o);
    const ReconcileReport report = r.runNow(now, id);
    for (const BoostTransition &t : report.transitions)
        lines << t.line() << '\n';
    lines.flush();
    return report;
}

int failField(const Error &e) {
    const QString where = e.field.isEmpty()                ? QString()
                          : e.field == QLatin1String("id") ? QStringLiteral("ID: ")
                                                           : QStringLiteral("--%1: ").arg(e.field);
    const bool input = e.kind == Error::Kind::Invalid || e.kind == Error::Kind::NotFound ||
                       e.kind == Error::Kind::Usage || e.kind == Error::Kind::Parse;
    return fail(where + e.message, input ? UsageError : Failed);
}

Result<qint64> idArgument(const usageverbs::Args &a, const QString &verb, const QString &what,
                          const QString &list) {
    bool ok = false;
    const qint64 id = a.positional.size() == 1 ? a.positional.first().toLongLong(&ok) : 0;
    if (!ok || id <= 0)
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("boost %1 needs one %2 ID (see `gpuquota %3`)").arg(verb, what, list));
    return id;
}

} // namespace gq::cli::boostcluster
