// Temporary boosts on the command line: `gpuquota boost grant|list|revoke|extend`. Bad
// input exits 2 naming the flag before anything is recorded; the database record comes
// first, then the cluster (BoostReconciler), so a grant, revoke or extend whose cluster
// step fails is finished by the next `gpuquota reconcile` (cmd_reconcile.cpp). The
// audit log names the same actor for the change and its cluster step: --actor, else the
// SelfSubjectReview name when the cluster is involved (quota boosts), else the OS user.
#include "app/cli/boostcluster.h"
#include "core/usage/boostledger.h"
#include "core/boosts/boostplanner.h"
#include "app/cli/boostrequestverbs.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"
#include "core/usage/timewindow.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace gq::cli {
namespace {

using namespace usageverbs;
using namespace boostcluster;

int usage(const QString &message) {
    return fail(message, UsageError);
}

Result<qint64> durationFlag(const Args &a, const QString &name) {
    auto d = parseDuration(a.value(name), QStringLiteral("--") + name);
    if (!d || *d <= 0)
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--%1: '%2' is not a positive duration (e.g. 4h, 2d, 1h30m)")
                               .arg(name, a.value(name)));
    return *d;
}

// --start, --for / --until and the recurrence flags.
Result<BoostWhen> whenFrom(const Args &a, qint64 now, bool allowRecur) {
    BoostWhen w;
    if (a.has(QStringLiteral("start"))) {
        auto t = instantFlag(a, QStringLiteral("start"));
        if (!t)
            return t.error();
        w.start = *t;
    }
    const bool recur = a.has(QStringLiteral("recur"));
    if (recur && !allowRecur)
        return Error::make(Error::Kind::Usage, QStringLiteral("--recur: budget boosts do not recur"));
    if (a.has(QStringLiteral("for")) && a.has(QStringLiteral("until")))
        return Error::make(Error::Kind::Usage, QStringLiteral("--for and --until: give one, not both"));
    if (recur) {
        for (const char *f : {"for", "until"})
            if (a.has(QLatin1String(f)))
                return Error::make(
                    Error::Kind::Usage,
                    QStringLiteral("--%1: a recurring boost lasts its --window; end it with --recur-until")
                        .arg(QLatin1String(f)));
        // No default zone: a window of local hours read in the wrong zone is a boost at
        // the wrong time, and UTC is rarely what "nights" means.
        for (const char *f : {"window", "tz", "recur-until"})
            if (!a.has(QLatin1String(f)))
                return Error::make(
                    Error::Kind::Usage,
                    QStringLiteral("--%1 is required with --recur%2")
                        .arg(QLatin1String(f),
                             qstrcmp(f, "tz") == 0
                                 ? QStringLiteral(" (the window's time zone, e.g. Europe/Berlin or UTC)")
                                 : QString()));
        auto until = instantFlag(a, QStringLiteral("recur-until"));
        if (!until)
            return until.error();
        auto r = BoostRecurrence::make(a.value(QStringLiteral("recur")), a.value(QStringLiteral("window")),
                                       a.value(QStringLiteral("tz")), *until);
        if (!r)
            return r.error();
        w.recurrence = *r;
        return w;
    }
    for (const char *f : {"window", "tz", "recur-until"})
        if (a.has(QLatin1String(f)))
            return Error::make(Error::Kind::Usage,
                               QStringLiteral("--%1 needs --recur").arg(QLatin1String(f)));
    if (a.has(QStringLiteral("for"))) {
        auto d = durationFlag(a, QStringLiteral("for"));
        if (!d)
            return d.error();
        w.duration = *d;
    } else if (a.has(QStringLiteral("until"))) {
        auto t = instantFlag(a, QStringLiteral("until"));
        if (!t)
            return t.error();
        w.end = *t;
    } else {
        return Error::make(Error::Kind::Usage, QStringLiteral("--for DURATION or --until TIME is required"));
    }
    Q_UNUSED(now);
    return w;
}

// Where a boost ended or ends: a revoked one at its revocation (before the revoke of a
// boost that had not started, the stored expiry stays its planned end).
qint64 boostEnd(const Boost &b) {
    return b.revokedAt > 0 ? std::min(b.expiry, b.revokedAt) : b.expiry;
}

QJsonObject boostJson(const Boost &b) {
    QJsonObject o{{QStringLiteral("id"), b.id},
                  {QStringLiteral("state"), boostStateName(b.state)},
                  {QStringLiteral("target"), b.target.toString()},
                  {QStringLiteral("delta"), b.delta},
                  {QStringLiteral("set"), b.setValue},
                  {QStringLiteral("base"), b.baseValue},
                  {QStringLiteral("start"), formatInstantUtc(b.start)},
                  {QStringLiteral("until"), formatInstantUtc(boostEnd(b))},
                  {QStringLiteral("actor"), b.actor},
                  {QStringLiteral("note"), b.note},
                  {QStringLiteral("created"), formatInstantUtc(b.createdAt)}};
    if (b.target.kind == BoostTarget::Kind::Quota) {
        o.insert(QStringLiteral("namespace"), b.target.subject);
        o.insert(QStringLiteral("quota"), b.target.quota);
        o.insert(QStringLiteral("resource"), b.target.resource);
    } else if (b.target.kind == BoostTarget::Kind::ClusterQueue) {
        o.insert(QStringLiteral("clusterQueue"), b.target.subject);
        o.insert(QStringLiteral("flavor"), b.target.quota);
        o.insert(QStringLiteral("field"), b.target.field);
        o.insert(QStringLiteral("resource"), b.target.resource);
    } else {
        o.insert(QStringLiteral("budget"),
                 QString(scopeName(b.target.scope) + QLatin1Char(':') + b.target.subject));
    }
    if (b.recurrence.recurs()) {
        o.insert(QStringLiteral("recur"), recurrenceKindName(b.recurrence.kind));
        o.insert(QStringLiteral("window"), b.recurrence.window());
        o.insert(QStringLiteral("tz"), b.recurrence.tz);
        o.insert(QStringLiteral("recurUntil"), formatInstantUtc(b.recurrence.until));
    }
    if (b.state == Boost::State::Failed) {
        o.insert(QStringLiteral("reason"), b.reason);
        o.insert(QStringLiteral("nextRetry"), formatInstantUtc(b.nextRetry));
        o.insert(QStringLiteral("attempts"), b.attempts);
    }
    if (b.revokedAt > 0)
        o.insert(QStringLiteral("revoked"), formatInstantUtc(b.revokedAt));
    return o;
}

const QStringList kGrantFlags{
    QStringLiteral("db"),          QStringLiteral("namespace"),    QStringLiteral("resource"),
    QStringLiteral("quota"),       QStringLiteral("add"),          QStringLiteral("set"),
    QStringLiteral("start"),       QStringLiteral("for"),          QStringLiteral("until"),
    QStringLiteral("recur"),       QStringLiteral("window"),       QStringLiteral("tz"),
    QStringLiteral("recur-until"), QStringLiteral("note"),         QStringLiteral("actor"),
    QStringLiteral("budget"),      QStringLiteral("add-hours"),    QStringLiteral("now"),
    QStringLiteral("rollup-tz"),   QStringLiteral("clusterqueue"), QStringLiteral("flavor"),
    QStringLiteral("field")};

// --clusterqueue CQ --flavor F [--resource R] [--field nominalQuota|borrowingLimit] --add N:
// the boost planned against the queue as the cluster has it now; an exit code when not.
std::optional<int> planQueueGrant(const Args &a, const BoostWhen &when, qint64 now,
                                  std::shared_ptr<KubeClient> &client, Boost &boost) {
    for (const char *f : {"namespace", "quota", "set", "budget", "add-hours"})
        if (a.has(QLatin1String(f)))
            return usage(QStringLiteral("--%1 does not go with --clusterqueue").arg(QLatin1String(f)));
    if (!a.has(QStringLiteral("flavor")) || !a.has(QStringLiteral("add")))
        return usage(QStringLiteral("--flavor F and --add N are required with --clusterqueue"));
    const ClusterPick pick = pickCluster(a);
    if (pick.exitCode != Ok)
        return fail(pick.why, pick.exitCode);
    if (!pick.client)
        return fail(QStringLiteral("a queue boost needs the cluster (--kubeconfig, --context): ") + pick.why);
    client = pick.client;
    QueueGrantRequest req;
    req.clusterQueue = a.value(QStringLiteral("clusterqueue"));
    req.flavor = a.value(QStringLiteral("flavor"));
    req.resource = a.value(QStringLiteral("resource"), QStringLiteral("nvidia.com/gpu"));
    req.field = a.value(QStringLiteral("field"), QStringLiteral("nominalQuota"));
    req.add = a.value(QStringLiteral("add"));
    req.when = when;
    req.note = a.value(QStringLiteral("note"));
    req.actor = actorFor(a, client);
    auto version = kueue::detectVersion(*client);
    if (!version)
        return fail(version.error().message);
    auto get =
        client->get(kueue::resource(QStringLiteral("clusterqueues"), *version), QString(), req.clusterQueue);
    get.waitForFinished();
    const auto queue = get.result();
    if (!queue)
        return fail(
            QStringLiteral("reading ClusterQueue %1: %2").arg(req.clusterQueue, queue.error().message),
            queue.error().kind == Error::Kind::NotFound ? UsageError : Failed);
    auto plan = planQueueBoost(req, *queue, now);
    if (!plan)
        return failField(plan.error());
    boost = plan->boost;
    err() << "boost clusterqueue/" << req.clusterQueue << ' ' << req.flavor << ' ' << req.field << ' '
          << boost.target.resource << ": " << plan->before.toString() << " -> " << plan->during.toString()
          << " from " << formatInstantUtc(boost.start) << " until " << formatInstantUtc(boost.expiry)
          << ", then " << plan->after.toString() << " (plus whatever others change meanwhile)\n";
    return std::nullopt;
}

// The flags that go with the kind of boost (quota, budget, queue), before anything is read.
std::optional<int> checkGrantFlags(const Args &a, bool budget, bool queue) {
    if (queue) {
        // checked by planQueueGrant
    } else if (budget) {
        for (const char *f : {"namespace", "resource", "quota", "add", "set"})
            if (a.has(QLatin1String(f)))
                return usage(
                    QStringLiteral("--%1 does not go with --budget (a budget boost takes --add-hours)")
                        .arg(QLatin1String(f)));
    } else {
        if (a.has(QStringLiteral("add-hours")))
            return usage(QStringLiteral("--add-hours goes with --budget user:U|namespace:N"));
        if (!a.has(QStringLiteral("namespace")))
            return usage(QStringLiteral("--namespace is required (or --budget for a GPU-hour budget)"));
        if (!a.has(QStringLiteral("resource")))
            return usage(QStringLiteral("--resource is required (e.g. requests.nvidia.com/gpu)"));
        if (a.has(QStringLiteral("add")) == a.has(QStringLiteral("set")))
            return usage(QStringLiteral("--add Q or --set Q: give exactly one"));
    }
    return std::nullopt;
}

// `--budget user:U|namespace:N --add-hours H`: no cluster involved.
std::optional<int> planBudgetGrant(const Args &a, const BoostWhen &when, qint64 now, Boost &boost) {
    const QString spec = a.value(QStringLiteral("budget"));
    const qsizetype colon = spec.indexOf(QLatin1Char(':'));
    auto scope = colon > 0 ? parseScope(spec.left(colon)) : Result<BudgetScope>(Error{});
    if (!scope || colon + 1 >= spec.size())
        return usage(QStringLiteral("--budget: '%1' is not user:NAME or namespace:NAME").arg(spec));
    if (!a.has(QStringLiteral("add-hours")))
        return usage(QStringLiteral("--add-hours H is required with --budget"));
    auto hours = numberFlag(a, QStringLiteral("add-hours"));
    if (!hours || *hours <= 0)
        return usage(QStringLiteral("--add-hours: '%1' is not a positive number of GPU-hours")
                         .arg(a.value(QStringLiteral("add-hours"))));
    BudgetGrantRequest req;
    req.scope = *scope;
    req.subject = spec.mid(colon + 1);
    req.hours = *hours;
    req.when = when;
    req.note = a.value(QStringLiteral("note"));
    req.actor = actorOf(a);
    auto planned = planBudgetBoost(req, now);
    if (!planned)
        return failField(planned.error());
    boost = *planned;
    return std::nullopt;
}

// `--namespace N --resource R --add Q|--set Q`: planned against the namespace's ResourceQuotas.
std::optional<int> planQuotaGrant(const Args &a, const BoostWhen &when, qint64 now,
                                  std::shared_ptr<KubeClient> &client, Boost &boost) {
    const ClusterPick pick = pickCluster(a);
    if (pick.exitCode != Ok)
        return fail(pick.why, pick.exitCode);
    if (!pick.client)
        return fail(QStringLiteral("a quota boost needs the cluster (--kubeconfig, --context): ") + pick.why);
    client = pick.client;
    const QString ns = a.value(QStringLiteral("namespace"));
    auto list = client->list(KubeResource::resourceQuotas(), ns);
    list.waitForFinished();
    const auto quotas = list.result();
    if (!quotas)
        return fail(QStringLiteral("reading the ResourceQuotas of %1: %2").arg(ns, quotas.error().message));
    QuotaGrantRequest req;
    req.ns = ns;
    req.resource = a.value(QStringLiteral("resource"));
    req.quota = a.value(QStringLiteral("quota"));
    req.add = a.value(QStringLiteral("add"));
    req.set = a.value(QStringLiteral("set"));
    req.when = when;
    req.note = a.value(QStringLiteral("note"));
    req.actor = actorFor(a, client);
    auto plan = planQuotaBoost(req, quotas->items, now);
    if (!plan)
        return failField(plan.error());
    boost = plan->boost;
    err() << "boost " << boost.target.resource << " in " << ns << '/' << boost.target.quota << ": "
          << plan->before.toString() << " -> " << plan->during.toString() << " from "
          << formatInstantUtc(boost.start) << " until " << formatInstantUtc(boost.expiry) << ", then "
          << plan->after.toString() << " (plus whatever others change meanwhile)\n";
    return std::nullopt;
}

int runGrant(const QStringList &argv) {
    const Args a = parseArgs(argv, kGrantFlags);
    if (!a.error.isEmpty())
        return usage(a.error);
    if (!a.positional.isEmpty())
        return usage(QStringLiteral("boost grant takes no argument '%1'").arg(a.positional.first()));
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    if (!a.has(QStringLiteral("db")))
        return usage(QStringLiteral("--db URL is required"));
    if (auto r = BoostLedger::checkNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
    const bool budget = a.has(QStringLiteral("budget"));
    const bool queue = a.has(QStringLiteral("clusterqueue"));
    if (auto code = checkGrantFlags(a, budget, queue))
        return *code;
    auto when = whenFrom(a, now, !budget);
    if (!when)
        return failField(when.error());

    Boost boost;
    std::shared_ptr<KubeClient> client;
    if (budget) {
        if (auto code = planBudgetGrant(a, *when, now, boost))
            return *code;
    } else if (queue) {
        if (auto code = planQueueGrant(a, *when, now, client, boost))
            return *code;
    } else {
        if (auto code = planQuotaGrant(a, *when, now, client, boost))
            return *code;
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    ManualClock clock(now);
    BoostLedger ledger(**db, clock);
    auto granted = ledger.grant(boost);
    if (!granted)
        return failField(granted.error());
    out() << granted->id << '\n';
    out().flush();
    if (granted->start > now)
        return Ok; // scheduled: nothing touches the cluster yet
    const ReconcileReport report = reconcile(**db, client, boost.actor, now, granted->id, err());
    if (!report.ok())
        return fail(
            QStringLiteral("boost %1 is recorded but was not applied yet%2; `gpuquota reconcile` retries it")
                .arg(granted->id)
                .arg(report.error ? QStringLiteral(": ") + report.error->message : QString()));
    return Ok;
}

int runList(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("namespace"), QStringLiteral("state"),
                         QStringLiteral("output"), QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    BoostLedger::Filter f;
    f.ns = a.value(QStringLiteral("namespace"));
    if (a.has(QStringLiteral("state"))) {
        auto s = parseBoostState(a.value(QStringLiteral("state")));
        if (!s)
            return usage(QStringLiteral("--state: ") + s.error().message);
        f.state = *s;
    }
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return usage(QStringLiteral("-o must be table or json"));
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    BoostLedger ledger(**db);
    auto boosts = ledger.list(f);
    if (!boosts)
        return failWith(boosts.error());
    if (format == QLatin1String("json")) {
        QJsonArray arr;
        for (const Boost &b : *boosts)
            arr.append(boostJson(b));
        out() << QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("boosts"), arr}}).toJson());
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("ID"), QStringLiteral("STATE"), QStringLiteral("TARGET"),
                             QStringLiteral("DELTA"), QStringLiteral("FROM"), QStringLiteral("UNTIL"),
                             QStringLiteral("ACTOR"), QStringLiteral("NOTE")}};
    for (const Boost &b : *boosts) {
        QString state = boostStateName(b.state);
        if (b.state == Boost::State::Failed)
            state += QStringLiteral(" (retry %1: %2)").arg(formatInstantUtc(b.nextRetry), b.reason);
        QString delta =
            b.target.kind == BoostTarget::Kind::Budget ? b.delta + QStringLiteral(" GPU-h") : b.delta;
        if (!delta.startsWith(QLatin1Char('-')))
            delta.prepend(QLatin1Char('+'));
        if (b.recurrence.recurs())
            delta += QStringLiteral(" %1 %2 %3")
                         .arg(recurrenceKindName(b.recurrence.kind), b.recurrence.window(), b.recurrence.tz);
        rows << QStringList{
            QString::number(b.id),
            state,
            b.target.kind == BoostTarget::Kind::ClusterQueue
                ? QStringLiteral("clusterqueue/%1 %2 %3 %4")
                      .arg(b.target.subject, b.target.quota, b.target.field, b.target.resource)
                : BoostLedger::auditTarget(b.target),
            delta,
            formatInstantUtc(b.start),
            formatInstantUtc(boostEnd(b)),
            b.actor,
            QString(b.note).replace(QLatin1Char('\n'), QLatin1Char(' '))};
    }
    printTable(rows);
    return Ok;
}

// The ID operand of `boost verb`, given a --note that passes.
Result<qint64> idWithNote(const Args &a, const QString &verb) {
    auto id = idArgument(a, verb);
    if (!id)
        return id.error();
    if (auto r = BoostLedger::checkNote(a.value(QStringLiteral("note"))); !r)
        return r.error();
    return *id;
}

// Before a revoke or extend: the database with a ledger at --now, the boost, the
// cluster when it is a quota boost (budget boosts touch none; a cluster asked for and
// unusable stops here, nothing recorded), and the one actor the change and its cluster
// step are both recorded under.
struct BoostChange {
    std::unique_ptr<UsageStore> db;
    std::unique_ptr<ManualClock> clock;
    std::unique_ptr<BoostLedger> ledger;
    Boost boost;
    ClusterPick pick;
    QString actor;

    // An exit code when there is no going on.
    std::optional<int> prepare(const Args &a, qint64 id, qint64 now) {
        auto opened = openDb(a);
        if (!opened)
            return failWith(opened.error());
        db = std::move(*opened);
        clock = std::make_unique<ManualClock>(now);
        ledger = std::make_unique<BoostLedger>(*db, *clock);
        auto cur = ledger->find(id);
        if (!cur)
            return failField(cur.error());
        boost = *cur;
        if (boost.target.onCluster()) {
            pick = pickCluster(a);
            if (pick.exitCode != Ok)
                return fail(pick.why + QStringLiteral("; nothing was recorded"), pick.exitCode);
        }
        actor = actorFor(a, pick.client);
        return std::nullopt;
    }
};

// After a revoke or extend: let the cluster follow now when it can be reached.
void followOnCluster(UsageStore &store, const ClusterPick &pick, const QString &actor, const Boost &b,
                     qint64 now) {
    const bool quota = b.target.onCluster();
    if (quota && !pick.client) {
        err() << "note: no cluster (" << pick.why << "); the next `gpuquota reconcile` updates the quota\n";
        return;
    }
    const ReconcileReport r = reconcile(store, quota ? pick.client : nullptr, actor, now, b.id, err());
    if (!r.ok())
        err() << "note: the cluster step failed; the next `gpuquota reconcile` retries it\n";
}

int runRevoke(const QStringList &argv) {
    const Args a = parseArgs(
        argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"), QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    auto id = idWithNote(a, QStringLiteral("revoke"));
    if (!id)
        return failField(id.error());
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    BoostChange change;
    if (auto code = change.prepare(a, *id, now))
        return *code;
    auto b = change.ledger->revoke(*id, a.value(QStringLiteral("note")), change.actor);
    if (!b)
        return failField(b.error());
    out() << "boost " << b->id << " revoked\n";
    out().flush();
    // A boost revoked in the second it started ends a second after its start (the
    // ledger keeps expiry > start): judged at that end, so it is taken back now.
    if (!(b->target.onCluster() && b->isFinal()))
        followOnCluster(*change.db, change.pick, change.actor, *b, std::max(now, b->expiry));
    return Ok;
}

int runExtend(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"),
                                    QStringLiteral("for"), QStringLiteral("until"), QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    auto id = idWithNote(a, QStringLiteral("extend"));
    if (!id)
        return failField(id.error());
    if (a.has(QStringLiteral("for")) == a.has(QStringLiteral("until")))
        return usage(QStringLiteral("--for DURATION or --until TIME: give exactly one"));
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    qint64 by = 0, until = 0;
    if (a.has(QStringLiteral("for"))) {
        auto d = durationFlag(a, QStringLiteral("for"));
        if (!d)
            return failField(d.error());
        by = *d;
    } else {
        auto t = instantFlag(a, QStringLiteral("until"));
        if (!t)
            return failField(t.error());
        until = *t;
    }
    BoostChange change;
    if (auto code = change.prepare(a, *id, now))
        return *code;
    if (by > 0) // --for: that much past the current end
        until = change.boost.expiry + by;
    auto b = change.ledger->extend(*id, until, a.value(QStringLiteral("note")), change.actor);
    if (!b) {
        Error e = b.error();
        if (e.field == QLatin1String("until") && by > 0)
            e.field = QStringLiteral("for");
        return failField(e);
    }
    out() << "boost " << b->id << " now ends " << formatInstantUtc(b->expiry) << '\n';
    out().flush();
    // Applied: the quota's gpuquota.io/boosts annotation gets the new end.
    if (b->retryOp == QLatin1String(Boost::kAnnotateOp))
        followOnCluster(*change.db, change.pick, change.actor, *b, now);
    return Ok;
}

int runBoost(const QStringList &argv) {
    QStringList rest = argv;
    const QString sub = takeSubcommand(rest);
    if (sub == QLatin1String("grant"))
        return runGrant(rest);
    if (sub == QLatin1String("list"))
        return runList(rest);
    if (sub == QLatin1String("revoke"))
        return runRevoke(rest);
    if (sub == QLatin1String("extend"))
        return runExtend(rest);
    if (sub == QLatin1String("request"))
        return boostrequests::runRequest(rest);
    if (sub == QLatin1String("withdraw"))
        return boostrequests::runWithdraw(rest);
    if (sub == QLatin1String("requests"))
        return boostrequests::runRequests(rest);
    if (sub == QLatin1String("approve"))
        return boostrequests::runApprove(rest);
    if (sub == QLatin1String("deny"))
        return boostrequests::runDeny(rest);
    return usage(QStringLiteral(
        "boost needs grant, list, revoke, extend, request, withdraw, requests, approve or deny\n"
        "  boost grant --db URL [--kubeconfig F --context C] --namespace N --resource R [--quota NAME] "
        "(--add Q | --set Q) [--start T] (--for DURATION | --until T) [--recur nightly|weekends|weekdays "
        "--window HH:MM-HH:MM --tz ZONE --recur-until T] --note TEXT\n"
        "  boost grant --db URL --clusterqueue CQ --flavor F [--resource nvidia.com/gpu] "
        "[--field nominalQuota|borrowingLimit] --add N [--start T] (--for D | --until T) [--recur ...] "
        "--note TEXT\n"
        "  boost grant --db URL --budget user:U|namespace:N --add-hours H (--for D | --until T) --note TEXT\n"
        "  boost list --db URL [--namespace N] [--state S] [-o table|json]\n"
        "  boost revoke ID --db URL --note TEXT\n"
        "  boost extend ID --db URL (--for D | --until T) --note TEXT\n"
        "  boost request --server URL --token-file F [--budget user:U|namespace:N] --add-hours H "
        "(--for D | --until T) --note TEXT\n"
        "  boost withdraw ID --server URL --token-file F --note TEXT\n"
        "  boost requests (--db URL | --server URL --token-file F) [--pending | --state S] [-o table|json]\n"
        "  boost approve ID --db URL [--add-hours H] [--for D | --until T] --note TEXT\n"
        "  boost deny ID --db URL --note TEXT"));
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("boost"),
                 QStringLiteral("boost grant|list|revoke|extend|request|requests|approve|deny ..."),
                 QStringLiteral("temporary quota and budget boosts with a note, taken back on time"), 68,
                 runBoost);
} // namespace gq::cli
