// `gpuquota budget newcomer ...`: the newcomer allowance (core/usage/newcomerledger.h):
// the database's policy, the allowances, an admin's add and early end, and the sweep the
// controller runs (for a database without a controller).
#include "app/cli/budgetstatus.h"
#include "core/usage/newcomerledger.h"
#include "core/usage/timewindow.h"
#include "app/cli/usageverbs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {

namespace {

using namespace usageverbs;

QString newcomerHelp() {
    return QStringLiteral(
        "Usage:\n"
        "  gpuquota budget newcomer policy --db URL [DAYSd:xFACTOR | DAYSd:unlimited | off] [--note TEXT]\n"
        "  gpuquota budget newcomer list --db URL [--now T] [-o table|json]\n"
        "  gpuquota budget newcomer add USER --db URL [--note TEXT] [--actor NAME]\n"
        "  gpuquota budget newcomer end USER --db URL --note TEXT [--actor NAME]\n"
        "  gpuquota budget newcomer sweep --db URL\n"
        "\n"
        "One policy per database, for every user budget: a user first seen (first recorded\n"
        "interval) after the policy was set, or added by an admin, has their budgets' limits x FACTOR,\n"
        "or no limit, for their first DAYS calendar days in the database's rollup zone. Starts and\n"
        "ends are audited (budget.newcomer.start / .end) once; the controller sweeps every pass.\n"
        "policy without a value prints the policy. --now (T) stands for the current time.\n");
}

QString state(const NewcomerAllowance &n, qint64 now) {
    if (n.activeAt(now))
        return QStringLiteral("active");
    if (now < n.since)
        return QStringLiteral("upcoming");
    return n.endedAt > 0 && n.endedAt < n.until ? QStringLiteral("ended-early") : QStringLiteral("ended");
}

int listAllowances(NewcomerLedger &ledger, const Args &a, qint64 now) {
    auto list = ledger.list();
    if (!list)
        return failWith(list.error());
    QList<QStringList> rows{
        {QStringLiteral("USER"), QStringLiteral("SINCE"), QStringLiteral("UNTIL"), QStringLiteral("STATE")}};
    QJsonArray json;
    for (const NewcomerAllowance &n : std::as_const(*list)) {
        rows << QStringList{n.user, formatInstantUtc(n.since), formatInstantUtc(n.end()), state(n, now)};
        json.append(QJsonObject{{QStringLiteral("user"), n.user},
                                {QStringLiteral("since"), formatInstantUtc(n.since)},
                                {QStringLiteral("until"), formatInstantUtc(n.end())},
                                {QStringLiteral("state"), state(n, now)}});
    }
    if (a.value(QStringLiteral("output")) == QLatin1String("json"))
        out() << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
    else if (list->isEmpty())
        out() << "no newcomer allowances\n";
    else
        printTable(rows);
    return Ok;
}

} // namespace

int runBudgetNewcomer(const QStringList &argv) {
    if (argv.isEmpty() || argv.contains(QLatin1String("--help")) || argv.contains(QLatin1String("-h"))) {
        out() << newcomerHelp();
        return argv.isEmpty() ? UsageError : Ok;
    }
    const QString sub = argv.first();
    const Args a =
        parseArgs(argv.mid(1), {QStringLiteral("db"), QStringLiteral("now"), QStringLiteral("output"),
                                QStringLiteral("note"), QStringLiteral("actor")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const bool needsUser = sub == QLatin1String("add") || sub == QLatin1String("end");
    const qsizetype positionals = needsUser || sub == QLatin1String("policy") ? 1 : 0;
    if (needsUser && a.positional.isEmpty())
        return fail(QStringLiteral("budget newcomer %1 needs a USER").arg(sub), UsageError);
    if (a.positional.size() > positionals)
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.last()), UsageError);
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    const ManualClock clock(now);
    const bool reads =
        sub == QLatin1String("list") || (sub == QLatin1String("policy") && a.positional.isEmpty());
    if (!reads && !needsUser && sub != QLatin1String("policy") && sub != QLatin1String("sweep"))
        return fail(QStringLiteral("unknown budget newcomer sub-command '%1' (policy, list, add, end, sweep)")
                        .arg(sub),
                    UsageError);
    auto db = openDb(a, reads ? DbAccess::ReadOnly : DbAccess::ReadWrite);
    if (!db)
        return failWith(db.error());
    NewcomerLedger ledger(**db, clock);
    if (sub == QLatin1String("list"))
        return listAllowances(ledger, a, now);
    if (sub == QLatin1String("policy")) {
        if (a.positional.isEmpty()) {
            auto p = ledger.policy();
            if (!p)
                return failWith(p.error());
            out() << p->toString() << '\n';
            return Ok;
        }
        auto p = NewcomerPolicy::parse(a.positional.first());
        if (!p)
            return fail(p.error().toString(), UsageError);
        if (auto r = ledger.setPolicy(*p, actorOf(a), a.value(QStringLiteral("note"))); !r)
            return failWith(r.error());
        out() << "newcomer policy: " << p->toString() << '\n';
        return Ok;
    }
    if (sub == QLatin1String("sweep")) {
        auto r = ledger.sweep(actorOf(a));
        if (!r)
            return failWith(r.error());
        out() << "newcomers: " << r->added << " added, " << r->started << " starts and " << r->ended
              << " ends audited\n";
        return Ok;
    }
    const QString user = a.positional.first();
    auto done = sub == QLatin1String("add") ? ledger.add(user, actorOf(a), a.value(QStringLiteral("note")))
                                            : ledger.end(user, actorOf(a), a.value(QStringLiteral("note")));
    if (!done)
        return done.error().kind == Error::Kind::Invalid ? fail(done.error().toString(), UsageError)
                                                         : failWith(done.error());
    out() << "newcomer allowance of " << done->user << (sub == QLatin1String("add") ? " from " : " ended at ")
          << formatInstantUtc(sub == QLatin1String("add") ? done->since : done->end()) << " until "
          << formatInstantUtc(done->end()) << '\n';
    return Ok;
}

} // namespace gq::cli
