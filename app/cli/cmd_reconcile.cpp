// `gpuquota reconcile`: applies due boost starts and expiries once and exits (the
// CronJob's command; the controller runs the same reconciler on a timer). A cluster
// asked for with --kubeconfig / --context must be usable, or nothing is done: exit 2
// for a context the kubeconfig does not have, 1 when it cannot be loaded or reached.
// Without one, budget boosts are reconciled and due quota boosts wait (exit 1).
#include "app/cli/boostcluster.h"
#include "core/kube/kubeclient.h"

namespace gq::cli {
namespace {

using namespace usageverbs;
using namespace boostcluster;

int runReconcile(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("now"), QStringLiteral("actor")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("reconcile takes no argument '%1'").arg(a.positional.first()), UsageError);
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    // The cluster first: a bad choice stops the run before the database is touched.
    const ClusterPick pick = pickCluster(a);
    if (pick.exitCode != Ok)
        return fail(pick.why + QStringLiteral("; nothing was reconciled"), pick.exitCode);
    QString clusterName;
    if (pick.client) {
        auto user = clusterUser(*pick.client);
        if (!user && pick.asked)
            return fail(
                QStringLiteral("cannot reach the cluster at %1 (--kubeconfig, --context): %2; nothing "
                               "was reconciled")
                    .arg(pick.client->server(), user.error().message));
        clusterName = user.value_or(QString());
    } else {
        err() << "warning: no cluster (" << pick.why
              << "): only budget boosts are reconciled; give --kubeconfig and --context for quota boosts\n";
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    const ReconcileReport report = reconcile(**db, pick.client, actorFor(a, clusterName), now, 0, out());
    if (report.error)
        return fail(report.error->toString());
    if (report.waiting > 0)
        err() << "warning: " << report.waiting
              << (report.waiting == 1 ? " quota boost is" : " quota boosts are")
              << " due and left for a run with a cluster (--kubeconfig, --context)\n";
    return report.ok() && report.waiting == 0 ? Ok : Failed;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("reconcile"), QStringLiteral("reconcile --db URL [--now T]"),
                 QStringLiteral("apply due boost starts and expiries once (exit 0 done, 1 some failed)"), 69,
                 runReconcile);

} // namespace gq::cli
