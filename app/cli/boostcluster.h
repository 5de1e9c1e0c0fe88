#pragma once

// What the boost verbs (cmd_boost.cpp, cmd_reconcile.cpp) share about the cluster: which
// one --kubeconfig / --context pick, who the audit log names, and a reconcile pass that
// prints its transitions.

#include "services/boosts/boostreconciler.h"
#include "app/cli/usageverbs.h"

#include <QTextStream>

#include <memory>

namespace gq {
class KubeClient;
class UsageStore;
} // namespace gq

namespace gq::cli::boostcluster {

// The cluster a command line names. Asked for explicitly (--kubeconfig or --context) it
// must load: `exitCode` is then UsageError for a context the kubeconfig does not have
// (the message names --context) and Failed for anything else. Not asked for, a missing
// or broken default kubeconfig only means no cluster (client null, `why` says so).
struct ClusterPick {
    std::shared_ptr<KubeClient> client;
    bool asked = false; // --kubeconfig or --context was given
    QString why;        // no client: why not
    int exitCode = Ok;  // asked for and unusable: how to exit (with `why`)
};
[[nodiscard]] ClusterPick pickCluster(const usageverbs::Args &a);

// Who the cluster says we are (SelfSubjectReview): the name, empty when the server does
// not say (no such API, not allowed); an error only when it could not be asked at all
// (unreachable, TLS, credentials refused).
[[nodiscard]] Result<QString> clusterUser(KubeClient &client);
// Who the audit log names for a change: --actor, else `clusterName` (from clusterUser),
// else the OS user.
[[nodiscard]] QString actorFor(const usageverbs::Args &a, const QString &clusterName);
// actorFor() asking the cluster when there is one (and --actor is not given).
[[nodiscard]] QString actorFor(const usageverbs::Args &a, const std::shared_ptr<KubeClient> &client);

// "error: --note: ..." for a core error whose field is the flag's name ("id" is the ID
// argument); exit 2 for bad input, 1 otherwise.
int failField(const Error &e);
// The one positional ID of `boost VERB ID` (`what` is "boost" or "request", `list` the
// verb that lists them), a Usage error naming that verb otherwise.
[[nodiscard]] Result<qint64> idArgument(const usageverbs::Args &a, const QString &verb,
                                        const QString &what = QStringLiteral("boost"),
                                        const QString &list = QStringLiteral("boost list"));

// Runs the reconciler for one boost (or all with id 0) and prints its lines.
ReconcileReport reconcile(UsageStore &store, std::shared_ptr<KubeClient> client, const QString &actor,
                          qint64 now, qint64 id, QTextStream &lines);

} // namespace gq::cli::boostcluster
