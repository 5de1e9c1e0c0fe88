// Temporary boosts on the command line: `gpuquota boost grant|list|revoke|extend` and
// `gpuquota reconcile`. Bad input exits 2 naming the flag before anything is recorded;
// the database record comes first, then the cluster (BoostReconciler), so a grant or
// revoke whose cluster step fails is finished by the next `reconcile`.
#include "boostledger.h"
#include "boostplanner.h"
#include "boostreconciler.h"
#include "kubeclient.h"
#include "timewindow.h"
#include "usageverbs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {
namespace {

using namespace usageverbs;

// "error: --note: ..." (the field of a core error is the flag's name; "id" is the ID argument).
int failField(const Error &e) {
    const QString where = e.field.isEmpty()                ? QString()
                          : e.field == QLatin1String("id") ? QStringLiteral("ID: ")
                                                           : QStringLiteral("--%1: ").arg(e.field);
    const bool input = e.kind == Error::Kind::Invalid || e.kind == Error::Kind::NotFound ||
                       e.kind == Error::Kind::Usage || e.kind == Error::Kind::Parse;
    return fail(where + e.message, input ? UsageError : Failed);
}

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
        for (const char *f : {"window", "recur-until"})
            if (!a.has(QLatin1String(f)))
                return Error::make(Error::Kind::Usage,
                                   QStringLiteral("--%1 is required with --recur").arg(QLatin1String(f)));
        auto until = instantFlag(a, QStringLiteral("recur-until"));
        if (!until)
            return until.error();
        auto r = BoostRecurrence::make(a.value(QStringLiteral("recur")), a.value(QStringLiteral("window")),
                                       a.value(QStringLiteral("tz"), QStringLiteral("UTC")), *until);
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

Result<std::shared_ptr<KubeClient>> cluster(const Args &a) {
    return KubeClient::fromKubeconfig(a.value(QStringLiteral("kubeconfig")),
                                      a.value(QStringLiteral("context")));
}

// --actor, else who the cluster says we are (SelfSubjectReview), else the OS user.
QString actorFor(const Args &a, const std::shared_ptr<KubeClient> &client) {
    if (!a.value(QStringLiteral("actor")).trimmed().isEmpty() || !client)
        return actorOf(a);
    auto f = client->whoAmI();
    f.waitForFinished();
    const auto who = f.result();
    return who && !who->username.isEmpty() ? who->username : actorOf(a);
}

// Runs the reconciler for one boost (or all with id 0) and prints its lines.
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

QJsonObject boostJson(const Boost &b) {
    QJsonObject o{{QStringLiteral("id"), b.id},
                  {QStringLiteral("state"), boostStateName(b.state)},
                  {QStringLiteral("target"), b.target.toString()},
                  {QStringLiteral("delta"), b.delta},
                  {QStringLiteral("set"), b.setValue},
                  {QStringLiteral("base"), b.baseValue},
                  {QStringLiteral("start"), formatInstantUtc(b.start)},
                  {QStringLiteral("until"), formatInstantUtc(b.expiry)},
                  {QStringLiteral("actor"), b.actor},
                  {QStringLiteral("note"), b.note},
                  {QStringLiteral("created"), formatInstantUtc(b.createdAt)}};
    if (b.target.kind == BoostTarget::Kind::Quota) {
        o.insert(QStringLiteral("namespace"), b.target.subject);
        o.insert(QStringLiteral("quota"), b.target.quota);
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
    QStringLiteral("db"),          QStringLiteral("namespace"), QStringLiteral("resource"),
    QStringLiteral("quota"),       QStringLiteral("add"),       QStringLiteral("set"),
    QStringLiteral("start"),       QStringLiteral("for"),       QStringLiteral("until"),
    QStringLiteral("recur"),       QStringLiteral("window"),    QStringLiteral("tz"),
    QStringLiteral("recur-until"), QStringLiteral("note"),      QStringLiteral("actor"),
    QStringLiteral("budget"),      QStringLiteral("add-hours"), QStringLiteral("now"),
    QStringLiteral("rollup-tz")};

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
    if (budget) {
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
    auto when = whenFrom(a, now, !budget);
    if (!when)
        return failField(when.error());

    Boost boost;
    std::shared_ptr<KubeClient> client;
    if (budget) {
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
        req.when = *when;
        req.note = a.value(QStringLiteral("note"));
        req.actor = actorOf(a);
        auto planned = planBudgetBoost(req, now);
        if (!planned)
            return failField(planned.error());
        boost = *planned;
    } else {
        auto c = cluster(a);
        if (!c)
            return fail(c.error().toString());
        client = *c;
        const QString ns = a.value(QStringLiteral("namespace"));
        auto list = client->list(KubeResource::resourceQuotas(), ns);
        list.waitForFinished();
        const auto quotas = list.result();
        if (!quotas)
            return fail(
                QStringLiteral("reading the ResourceQuotas of %1: %2").arg(ns, quotas.error().message));
        QuotaGrantRequest req;
        req.ns = ns;
        req.resource = a.value(QStringLiteral("resource"));
        req.quota = a.value(QStringLiteral("quota"));
        req.add = a.value(QStringLiteral("add"));
        req.set = a.value(QStringLiteral("set"));
        req.when = *when;
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
        rows << QStringList{QString::number(b.id),
                            state,
                            BoostLedger::auditTarget(b.target),
                            delta,
                            formatInstantUtc(b.start),
                            formatInstantUtc(b.expiry),
                            b.actor,
                            QString(b.note).replace(QLatin1Char('\n'), QLatin1Char(' '))};
    }
    printTable(rows);
    return Ok;
}

Result<qint64> idArgument(const Args &a, const QString &verb) {
    bool ok = false;
    const qint64 id = a.positional.size() == 1 ? a.positional.first().toLongLong(&ok) : 0;
    if (!ok || id <= 0)
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("boost %1 needs one boost ID (see `gpuquota boost list`)").arg(verb));
    return id;
}

// After a revoke or extend: let the cluster follow now when it can be reached.
void followOnCluster(UsageStore &store, const Args &a, const Boost &b, qint64 now) {
    if (b.target.kind == BoostTarget::Kind::Quota && b.isFinal())
        return;
    std::shared_ptr<KubeClient> client;
    if (b.target.kind == BoostTarget::Kind::Quota) {
        auto c = cluster(a);
        if (!c) {
            err() << "note: no cluster (" << c.error().message
                  << "); the next `gpuquota reconcile` takes it back\n";
            return;
        }
        client = *c;
    }
    const ReconcileReport r = reconcile(store, client, actorFor(a, client), now, b.id, err());
    if (!r.ok())
        err() << "note: the cluster step failed; the next `gpuquota reconcile` retries it\n";
}

int runRevoke(const QStringList &argv) {
    const Args a = parseArgs(
        argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"), QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    auto id = idArgument(a, QStringLiteral("revoke"));
    if (!id)
        return failField(id.error());
    if (auto r = BoostLedger::checkNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    ManualClock clock(now);
    BoostLedger ledger(**db, clock);
    auto b = ledger.revoke(*id, a.value(QStringLiteral("note")), actorOf(a));
    if (!b)
        return failField(b.error());
    out() << "boost " << b->id << " revoked\n";
    out().flush();
    followOnCluster(**db, a, *b, now);
    return Ok;
}

int runExtend(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"),
                                    QStringLiteral("for"), QStringLiteral("until"), QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    auto id = idArgument(a, QStringLiteral("extend"));
    if (!id)
        return failField(id.error());
    if (auto r = BoostLedger::checkNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
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
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    ManualClock clock(now);
    BoostLedger ledger(**db, clock);
    if (by > 0) { // --for: that much past the current end
        auto cur = ledger.find(*id);
        if (!cur)
            return failField(cur.error());
        until = cur->expiry + by;
    }
    auto b = ledger.extend(*id, until, a.value(QStringLiteral("note")), actorOf(a));
    if (!b) {
        Error e = b.error();
        if (e.field == QLatin1String("until") && by > 0)
            e.field = QStringLiteral("for");
        return failField(e);
    }
    out() << "boost " << b->id << " now ends " << formatInstantUtc(b->expiry) << '\n';
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
    return usage(QStringLiteral(
        "boost needs grant, list, revoke or extend\n"
        "  boost grant --db URL [--kubeconfig F --context C] --namespace N --resource R [--quota NAME] "
        "(--add Q | --set Q) [--start T] (--for DURATION | --until T) [--recur nightly|weekends|weekdays "
        "--window HH:MM-HH:MM --tz ZONE --recur-until T] --note TEXT\n"
        "  boost grant --db URL --budget user:U|namespace:N --add-hours H (--for D | --until T) --note TEXT\n"
        "  boost list --db URL [--namespace N] [--state S] [-o table|json]\n"
        "  boost revoke ID --db URL --note TEXT\n"
        "  boost extend ID --db URL (--for D | --until T) --note TEXT"));
}

int runReconcile(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("now"), QStringLiteral("actor")});
    if (!a.error.isEmpty())
        return usage(a.error);
    if (!a.positional.isEmpty())
        return usage(QStringLiteral("reconcile takes no argument '%1'").arg(a.positional.first()));
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    std::shared_ptr<KubeClient> client;
    if (auto c = cluster(a))
        client = *c;
    else
        err() << "warning: no cluster (" << c.error().message << "): only budget boosts can be reconciled\n";
    const ReconcileReport report = reconcile(**db, client, actorFor(a, client), now, 0, out());
    if (report.error)
        return fail(report.error->toString());
    return report.ok() ? Ok : Failed;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("boost"), QStringLiteral("boost grant|list|revoke|extend --db URL ..."),
                 QStringLiteral("temporary quota and budget boosts with a note, taken back on time"), 68,
                 runBoost);
GQ_REGISTER_VERB(QStringLiteral("reconcile"), QStringLiteral("reconcile --db URL [--now T]"),
                 QStringLiteral("apply due boost starts and expiries once (exit 0 done, 1 some failed)"), 69,
                 runReconcile);

} // namespace gq::cli
