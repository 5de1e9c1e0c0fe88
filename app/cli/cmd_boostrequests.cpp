// Boost requests on the command line. A user asks with their token through the
// controller (`boost request`, POST /quota/boost-requests: the identity is the token's,
// the RBAC check the controller's); an admin lists and decides in the usage database
// (`boost requests --db`, `boost approve|deny ID`), where an approval grants the boost
// through BoostLedger::grant exactly as `boost grant --budget` does.
#include "app/cli/boostcluster.h"
#include "core/usage/boostrequests.h"
#include "app/cli/boostrequestverbs.h"
#include "app/cli/controllercall.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <optional>

namespace gq::cli::boostrequests {

using namespace usageverbs;
using namespace boostcluster;

namespace {

int usage(const QString &message) {
    return fail(message, UsageError);
}

// --for D / --until T into an end: relative to `now`; `required` says one must be given.
Result<qint64> endFrom(const Args &a, qint64 now, bool required) {
    const bool f = a.has(QStringLiteral("for")), u = a.has(QStringLiteral("until"));
    if (f && u)
        return Error::make(Error::Kind::Usage, QStringLiteral("--for and --until: give one, not both"));
    if (f) {
        auto d = parseDuration(a.value(QStringLiteral("for")), QStringLiteral("for"));
        if (!d || *d <= 0)
            return Error::make(Error::Kind::Usage,
                               QStringLiteral("--for: '%1' is not a positive duration (e.g. 4h, 2d, 1h30m)")
                                   .arg(a.value(QStringLiteral("for"))));
        return now + *d;
    }
    if (u)
        return instantFlag(a, QStringLiteral("until"));
    if (required)
        return Error::make(Error::Kind::Usage, QStringLiteral("--for DURATION or --until TIME is required"));
    return qint64(0);
}

Result<double> hoursFlag(const Args &a) {
    auto h = numberFlag(a, QStringLiteral("add-hours"));
    if (!h || !(*h > 0))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--add-hours: '%1' is not a positive number of GPU-hours")
                               .arg(a.value(QStringLiteral("add-hours"))));
    return *h;
}

// "5.2 of 8 GPU-h (day)": the budget with the least left, as the console shows it.
QString usageOf(UsageStore &store, const BoostRequest &r, qint64 now) {
    auto status = store.budgetStatus(r.scope, r.subject, now);
    if (!status)
        return QStringLiteral("?");
    const Decision *least = nullptr;
    for (const Decision &d : std::as_const(*status))
        if (d.hasBudget && (!least || d.remaining < least->remaining))
            least = &d;
    if (!least)
        return QStringLiteral("no budget");
    return QStringLiteral("%1 of %2 GPU-h (%3)")
        .arg(QString::number(least->used, 'f', 1), QString::number(least->limit, 'f', 1),
             periodName(least->budget.period));
}

void printRequests(const QList<BoostRequest> &requests, UsageStore *store, qint64 now) {
    QList<QStringList> rows{{QStringLiteral("ID"), QStringLiteral("STATE"), QStringLiteral("REQUESTER"),
                             QStringLiteral("BUDGET"), QStringLiteral("HOURS"), QStringLiteral("UNTIL"),
                             QStringLiteral("USAGE"), QStringLiteral("NOTE"), QStringLiteral("DECISION")}};
    for (const BoostRequest &r : requests) {
        QString decision;
        if (r.decidedAt > 0)
            decision = QStringLiteral("%1: %2").arg(r.decidedBy, r.decisionNote);
        if (r.boostId > 0)
            decision += QStringLiteral(" (boost %1)").arg(r.boostId);
        rows << QStringList{QString::number(r.id),
                            boostRequestStateName(r.state),
                            r.requester,
                            scopeName(r.scope) + QLatin1Char(':') + r.subject,
                            QStringLiteral("+") + QString::number(r.hours, 'g', 6),
                            formatInstantUtc(r.until),
                            store && r.state == BoostRequest::State::Pending ? usageOf(*store, r, now)
                                                                             : QString(),
                            QString(r.note).replace(QLatin1Char('\n'), QLatin1Char(' ')),
                            decision.replace(QLatin1Char('\n'), QLatin1Char(' '))};
    }
    printTable(rows);
}

// The start of `approve` and `deny`: the request ID, a --note that passes and --now; an
// exit code when there is no going on.
std::optional<int> decisionArgs(const Args &a, const QString &verb, qint64 *id, qint64 *now) {
    if (!a.error.isEmpty())
        return usage(a.error);
    auto given = idArgument(a, verb, QStringLiteral("request"), QStringLiteral("boost requests"));
    if (!given)
        return failField(given.error());
    if (auto r = checkBoostNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
    if (const QString e = nowDefault(a, now); !e.isEmpty())
        return usage(e);
    *id = *given;
    return std::nullopt;
}

// --pending has no value: taken out before the flags are parsed.
bool takeSwitch(QStringList &argv, const QString &name) {
    return argv.removeAll(name) > 0;
}

} // namespace

int runRequest(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("server"), QStringLiteral("token-file"), QStringLiteral("ca-file"),
                         QStringLiteral("budget"), QStringLiteral("add-hours"), QStringLiteral("for"),
                         QStringLiteral("until"), QStringLiteral("note"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return usage(a.error);
    if (!a.positional.isEmpty())
        return usage(QStringLiteral("boost request takes no argument '%1'").arg(a.positional.first()));
    if (!a.has(QStringLiteral("server")))
        return usage(
            QStringLiteral("--server URL is required (the controller; your token says who you are)"));
    if (auto r = checkBoostNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
    if (!a.has(QStringLiteral("add-hours")))
        return usage(QStringLiteral("--add-hours H is required"));
    auto hours = hoursFlag(a);
    if (!hours)
        return failField(hours.error());
    QJsonObject body{{QStringLiteral("hours"), *hours},
                     {QStringLiteral("note"), a.value(QStringLiteral("note"))}};
    if (a.has(QStringLiteral("for")) == a.has(QStringLiteral("until")))
        return usage(QStringLiteral("--for DURATION or --until TIME: give exactly one"));
    if (a.has(QStringLiteral("for"))) {
        body.insert(QStringLiteral("for"), a.value(QStringLiteral("for")));
    } else {
        auto t = instantFlag(a, QStringLiteral("until"));
        if (!t)
            return failField(t.error());
        body.insert(QStringLiteral("until"), formatInstantUtc(*t));
    }
    QUrlQuery q;
    if (a.has(QStringLiteral("budget"))) {
        const QString spec = a.value(QStringLiteral("budget"));
        const qsizetype colon = spec.indexOf(QLatin1Char(':'));
        auto scope = colon > 0 ? parseScope(spec.left(colon)) : Result<BudgetScope>(Error{});
        if (!scope || colon + 1 >= spec.size())
            return usage(QStringLiteral("--budget: '%1' is not user:NAME or namespace:NAME").arg(spec));
        q.addQueryItem(scopeName(*scope), spec.mid(colon + 1));
    }
    auto answer = callController(a, HttpMethod::Post, QStringLiteral("quota/boost-requests"), q,
                                 QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (!answer)
        return fail(answer.error().message, answer.error().kind == Error::Kind::Usage ? UsageError : Failed);
    const QJsonObject r = answer->value(QLatin1String("request")).toObject();
    if (a.value(QStringLiteral("output")) == QLatin1String("json"))
        out() << QString::fromUtf8(QJsonDocument(r).toJson(QJsonDocument::Indented));
    else
        out() << "request " << r.value(QLatin1String("id")).toInteger() << " for "
              << r.value(QLatin1String("budget")).toString()
              << " is pending: an admin approves or denies it\n";
    return Ok;
}

int runWithdraw(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("server"), QStringLiteral("token-file"),
                                    QStringLiteral("ca-file"), QStringLiteral("note")});
    if (!a.error.isEmpty())
        return usage(a.error);
    auto id = idArgument(a, QStringLiteral("withdraw"), QStringLiteral("request"),
                         QStringLiteral("boost requests"));
    if (!id)
        return failField(id.error());
    if (auto r = checkBoostNote(a.value(QStringLiteral("note"))); !r)
        return failField(r.error());
    if (!a.has(QStringLiteral("server")))
        return usage(QStringLiteral("--server URL is required"));
    const QJsonObject body{{QStringLiteral("id"), *id},
                           {QStringLiteral("note"), a.value(QStringLiteral("note"))}};
    auto answer = callController(a, HttpMethod::Post, QStringLiteral("quota/boost-requests/withdraw"), {},
                                 QJsonDocument(body).toJson(QJsonDocument::Compact));
    if (!answer)
        return fail(answer.error().message, answer.error().kind == Error::Kind::Usage ? UsageError : Failed);
    out() << "request " << *id << " withdrawn\n";
    return Ok;
}

int runRequests(const QStringList &argv) {
    QStringList rest = argv;
    const bool pending = takeSwitch(rest, QStringLiteral("--pending"));
    const Args a =
        parseArgs(rest, {QStringLiteral("db"), QStringLiteral("server"), QStringLiteral("token-file"),
                         QStringLiteral("ca-file"), QStringLiteral("state"), QStringLiteral("output"),
                         QStringLiteral("now")});
    if (!a.error.isEmpty())
        return usage(a.error);
    if (a.has(QStringLiteral("db")) == a.has(QStringLiteral("server")))
        return usage(QStringLiteral("give --db URL (every request) or --server URL (your own), one"));
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return usage(QStringLiteral("-o must be table or json"));
    BoostRequestLedger::Filter f;
    if (pending)
        f.state = BoostRequest::State::Pending;
    if (a.has(QStringLiteral("state"))) {
        auto s = parseBoostRequestState(a.value(QStringLiteral("state")));
        if (!s || pending)
            return usage(pending ? QStringLiteral("--pending and --state: give one")
                                 : QString(QStringLiteral("--state: ") + s.error().message));
        f.state = *s;
    }
    QList<BoostRequest> requests;
    std::unique_ptr<UsageStore> store;
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return usage(e);
    ManualClock clock(now);
    if (a.has(QStringLiteral("server"))) {
        auto answer = callController(a, HttpMethod::Get, QStringLiteral("quota/boost-requests"));
        if (!answer)
            return fail(answer.error().message,
                        answer.error().kind == Error::Kind::Usage ? UsageError : Failed);
        QJsonArray mine;
        for (const QJsonValue &v : answer->value(QLatin1String("requests")).toArray())
            if (!f.state ||
                v.toObject().value(QLatin1String("state")).toString() == boostRequestStateName(*f.state))
                mine.append(v);
        if (format == QLatin1String("json")) {
            out() << QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("requests"), mine}})
                                           .toJson(QJsonDocument::Indented));
            return Ok;
        }
        for (const QJsonValue &v : std::as_const(mine)) {
            const QJsonObject o = v.toObject();
            BoostRequest r;
            r.id = o.value(QLatin1String("id")).toInteger();
            r.state = parseBoostRequestState(o.value(QLatin1String("state")).toString())
                          .value_or(BoostRequest::State::Pending);
            r.requester = o.value(QLatin1String("requester")).toString();
            const QString budget = o.value(QLatin1String("budget")).toString();
            r.scope = parseScope(budget.section(QLatin1Char(':'), 0, 0)).value_or(BudgetScope::User);
            r.subject = budget.section(QLatin1Char(':'), 1);
            r.hours = o.value(QLatin1String("hours")).toDouble();
            r.until = parseInstant(o.value(QLatin1String("until")).toString()).value_or(0);
            r.note = o.value(QLatin1String("note")).toString();
            r.decidedBy = o.value(QLatin1String("decided_by")).toString();
            r.decisionNote = o.value(QLatin1String("decision_note")).toString();
            r.decidedAt = parseInstant(o.value(QLatin1String("decided")).toString()).value_or(0);
            r.boostId = o.value(QLatin1String("boost_id")).toInteger();
            requests.append(r);
        }
        printRequests(requests, nullptr, now);
        return Ok;
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    store = std::move(*db);
    auto listed = BoostRequestLedger(*store, clock).list(f);
    if (!listed)
        return failWith(listed.error());
    if (format == QLatin1String("json")) {
        QJsonArray arr;
        for (const BoostRequest &r : std::as_const(*listed)) {
            QJsonObject o = boostRequestJson(r);
            if (r.state == BoostRequest::State::Pending)
                o.insert(QStringLiteral("usage"), usageOf(*store, r, now));
            arr.append(o);
        }
        out() << QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("requests"), arr}}).toJson());
        return Ok;
    }
    printRequests(*listed, store.get(), now);
    return Ok;
}

int runApprove(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"),
                                    QStringLiteral("add-hours"), QStringLiteral("for"),
                                    QStringLiteral("until"), QStringLiteral("now")});
    qint64 id = 0, now = 0;
    if (auto code = decisionArgs(a, QStringLiteral("approve"), &id, &now))
        return *code;
    BoostRequestLedger::Decision d;
    d.note = a.value(QStringLiteral("note"));
    d.actor = actorOf(a);
    if (a.has(QStringLiteral("add-hours"))) {
        auto h = hoursFlag(a);
        if (!h)
            return failField(h.error());
        d.hours = *h;
    }
    auto end = endFrom(a, now, false);
    if (!end)
        return failField(end.error());
    d.until = *end;
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    ManualClock clock(now);
    auto done = BoostRequestLedger(**db, clock).approve(id, d);
    if (!done)
        return failField(done.error());
    out() << "request " << done->id << " approved: boost " << done->boostId << " adds " << done->hours
          << " GPU-h to " << scopeName(done->scope) << ':' << done->subject << " until "
          << formatInstantUtc(done->until) << '\n';
    out().flush();
    // A budget boost touches no cluster: the reconciler only marks it active.
    const ReconcileReport report = reconcile(**db, nullptr, d.actor, now, done->boostId, err());
    if (!report.ok())
        return fail(QStringLiteral("boost %1 is recorded but not active yet; `gpuquota reconcile` retries it")
                        .arg(done->boostId));
    return Ok;
}

int runDeny(const QStringList &argv) {
    const Args a = parseArgs(
        argv, {QStringLiteral("db"), QStringLiteral("note"), QStringLiteral("actor"), QStringLiteral("now")});
    qint64 id = 0, now = 0;
    if (auto code = decisionArgs(a, QStringLiteral("deny"), &id, &now))
        return *code;
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    ManualClock clock(now);
    auto done = BoostRequestLedger(**db, clock).deny(id, a.value(QStringLiteral("note")), actorOf(a));
    if (!done)
        return failField(done.error());
    out() << "request " << done->id << " denied\n";
    return Ok;
}

} // namespace gq::cli::boostrequests
