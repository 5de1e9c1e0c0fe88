// GPU-hour verbs that read the usage database: `gpuquota usage|check|budget`
// (GPU-hours per period, the admission check, budgets); plain text, CSV or JSON for
// scripts.
#include "app/cli/budgetstatus.h"
#include "app/cli/queuegrouping.h"
#include "app/cli/usageverbs.h"
#include "core/usage/boosts.h"
#include "core/usage/budgetedit.h"
#include "core/usage/usageconnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {
namespace {

using namespace usageverbs;

// --- usage ---------------------------------------------------------------------------

// Per-namespace points summed into their Kueue queues, bucket by bucket (in bucket, then
// subject order like the store's).
std::vector<UsageStore::SeriesPoint> regroupSeries(const std::vector<UsageStore::SeriesPoint> &perNamespace,
                                                   const kueue::QueueAttribution &queues,
                                                   kueue::QueueLevel level) {
    QMap<qint64, QMap<QString, double>> sums;
    for (const UsageStore::SeriesPoint &p : perNamespace)
        sums[p.bucketStart][queues.subjectOf(p.subject, level)] += p.gpuHours;
    std::vector<UsageStore::SeriesPoint> out;
    for (auto b = sums.cbegin(); b != sums.cend(); ++b)
        for (auto s = b->cbegin(); s != b->cend(); ++s)
            out.push_back(UsageStore::SeriesPoint{b.key(), s.key(), s.value()});
    return out;
}

int runUsage(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("by"), QStringLiteral("period"),
                                    QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("tz"),
                                    QStringLiteral("now"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const QString byText = a.value(QStringLiteral("by"), QStringLiteral("namespace"));
    const std::optional<kueue::QueueLevel> queueLevel = kueue::parseQueueLevel(byText);
    auto by = queueLevel ? Result<GroupBy>(GroupBy::Namespace) : parseGroupBy(byText);
    if (!by)
        return fail(by.error().message + QStringLiteral(", clusterqueue or localqueue"), UsageError);
    auto period =
        parsePeriod(a.value(QStringLiteral("period"), QStringLiteral("day")), QStringLiteral("--period"));
    if (!period)
        return fail(period.error().toString(), UsageError);
    auto tz = parseZone(a.value(QStringLiteral("tz"), QStringLiteral("UTC")), QStringLiteral("--tz"));
    if (!tz)
        return fail(tz.error().toString(), UsageError);
    auto from = instantFlag(a, QStringLiteral("from"));
    if (!from)
        return failWith(from.error());
    auto to = instantFlag(a, QStringLiteral("to"));
    if (!to)
        return failWith(to.error());
    if (*to <= *from)
        return fail(QStringLiteral("--to must be after --from"), UsageError);
    // Before opening anything: the flags alone say whether the series is too long.
    if (const qint64 n = periodCount(*from, *to, *period, *tz); n > kMaxSeriesBuckets)
        return fail(
            QStringLiteral("--from/--to span %1 %2 buckets, more than %3; choose a longer --period or "
                           "a shorter range")
                .arg(n)
                .arg(periodName(*period))
                .arg(kMaxSeriesBuckets),
            UsageError);
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table, csv or json"), UsageError);
    kueue::QueueAttribution queues;
    if (queueLevel) {
        auto read = readQueueAttribution(a);
        if (!read)
            return failWith(read.error());
        queues = std::move(*read);
    }
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    auto series = (*db)->gpuHoursSeries(*by, *period, *from, *to, *tz, now);
    if (!series)
        return failWith(series.error());
    if (queueLevel)
        *series = regroupSeries(*series, queues, *queueLevel);
    const QString subjectName = queueLevel             ? kueue::queueLevelName(*queueLevel)
                                : *by == GroupBy::User ? QStringLiteral("user")
                                                       : QStringLiteral("namespace");
    if (format == QLatin1String("csv")) {
        out() << "bucket_start,subject,gpu_hours\n";
        for (const auto &p : *series)
            out() << formatInstant(p.bucketStart, *tz) << ',' << p.subject << ','
                  << QString::number(p.gpuHours, 'f', 4) << '\n';
    } else if (format == QLatin1String("json")) {
        QJsonArray rows;
        for (const auto &p : *series) {
            QJsonObject row{{QStringLiteral("bucket_start"), formatInstant(p.bucketStart, *tz)},
                            {QStringLiteral("subject"), p.subject},
                            {QStringLiteral("gpu_hours"), p.gpuHours}};
            if (queueLevel)
                row.insert(kueue::queueLevelKey(*queueLevel), p.subject);
            rows.append(row);
        }
        const QJsonObject doc{{QStringLiteral("by"), subjectName},
                              {QStringLiteral("period"), periodName(*period)},
                              {QStringLiteral("tz"), QString::fromUtf8(tz->id())},
                              {QStringLiteral("from"), formatInstant(*from, *tz)},
                              {QStringLiteral("to"), formatInstant(*to, *tz)},
                              {QStringLiteral("now"), formatInstant(now, *tz)},
                              {QStringLiteral("rows"), rows}};
        out() << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else {
        QList<QStringList> rows{
            {QStringLiteral("BUCKET"), subjectName.toUpper(), QStringLiteral("GPU-HOURS")}};
        double total = 0;
        for (const auto &p : *series) {
            rows << QStringList{formatInstant(p.bucketStart, *tz), p.subject,
                                QString::number(p.gpuHours, 'f', 2)};
            total += p.gpuHours;
        }
        printTable(rows);
        out() << "total: " << QString::number(total, 'f', 2) << " GPU-h\n";
    }
    return Ok;
}

// --- check ---------------------------------------------------------------------------

int runCheck(const QStringList &argv) {
    // Exit codes: 0 allowed (or allowed in grace), 1 denied or no answer (the database
    // failed, e.g. a lock timeout), 2 a usage error.
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                                    QStringLiteral("gpus"), QStringLiteral("hours"), QStringLiteral("now"),
                                    QStringLiteral("resource"), QStringLiteral("output"),
                                    QStringLiteral("gpu-model"), QStringLiteral("gpu-model-weights")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.has(QStringLiteral("user")) && !a.has(QStringLiteral("namespace")))
        return fail(QStringLiteral("--user U (and/or --namespace N) is required"), UsageError);
    auto gpus = numberFlag(a, QStringLiteral("gpus"));
    if (!gpus)
        return fail(gpus.error().message, UsageError);
    auto hours = numberFlag(a, QStringLiteral("hours"));
    if (!hours)
        return fail(hours.error().message, UsageError);
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    // A database that cannot answer (unreachable, a lock timeout) is a runtime
    // failure like elsewhere, exit 1 (no "allowed"); only a bad command line exits 2.
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    // A request for MIG slices, or on a GPU model with a weight, is weighed like the
    // usage it will produce.
    const double weight =
        (*db)->weights().weight(a.value(QStringLiteral("resource"), QStringLiteral("nvidia.com/gpu"))) *
        (*db)->weights().modelWeight(a.value(QStringLiteral("gpu-model")));
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, *gpus * weight, *hours};
    auto d = (*db)->check(a.value(QStringLiteral("user")), a.value(QStringLiteral("namespace")), req, now);
    if (!d)
        return failWith(d.error());
    if (a.value(QStringLiteral("output")) == QLatin1String("json")) {
        QJsonObject o{{QStringLiteral("decision"), outcomeName(d->outcome)},
                      {QStringLiteral("message"), d->message},
                      {QStringLiteral("used"), d->used},
                      {QStringLiteral("used_raw"), d->usedRaw},
                      {QStringLiteral("required"), d->required},
                      {QStringLiteral("limit"), d->limit},
                      {QStringLiteral("remaining"), d->remaining}};
        if (d->hasBudget) {
            o.insert(QStringLiteral("scope"), scopeName(d->budget.scope));
            o.insert(QStringLiteral("subject"), d->budget.subject);
            o.insert(QStringLiteral("period"), periodName(d->budget.period));
        }
        out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        out() << d->message << '\n';
        if (d->hasBudget) {
            const QTimeZone tz = parseZone(d->budget.tz).value_or(QTimeZone(QByteArrayLiteral("UTC")));
            out() << "  " << scopeName(d->budget.scope) << ' ' << d->budget.subject << ", "
                  << periodName(d->budget.period) << " from " << formatInstant(d->period.start, tz)
                  << ": used " << formatGpuHours(d->used) << " of " << formatGpuHours(d->limit) << " GPU-h";
            if (d->weighted())
                out() << " (weighted; " << formatGpuHours(d->usedRaw) << " GPU-h raw)";
            out() << '\n';
        }
    }
    return d->allowed() ? Ok : Failed;
}

// --- budget --------------------------------------------------------------------------

Result<std::pair<BudgetScope, QString>> subjectFlags(const Args &a) {
    const bool u = a.has(QStringLiteral("user")), n = a.has(QStringLiteral("namespace"));
    if (u == n)
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("give exactly one of --user U or --namespace N"));
    return u ? std::make_pair(BudgetScope::User, a.value(QStringLiteral("user")))
             : std::make_pair(BudgetScope::Namespace, a.value(QStringLiteral("namespace")));
}

QString budgetsText(const QList<Budget> &list, std::optional<Period> period) {
    QStringList parts;
    for (const Budget &b : list)
        if (!period || b.period == *period)
            parts << budgetAuditText(b);
    return parts.join(QLatin1Char('\n'));
}

// Runs `change` and appends its audit entry in one transaction: a change that cannot
// be audited is not made.
template <typename Change>
int auditedBudgetChange(UsageStore &store, const Args &a, BudgetScope scope, const QString &subject,
                        std::optional<Period> period, const QString &action, Change change) {
    UsageTx tx = store.transaction();
    if (auto r = tx.begin(); !r)
        return failWith(r.error());
    auto before = store.budgetsFor(scope, subject);
    if (!before)
        return failWith(before.error());
    if (const int code = change(); code != Ok)
        return code;
    auto after = store.budgetsFor(scope, subject);
    if (!after)
        return failWith(after.error());
    if (auto r = audit(store, a, action, BoostTarget::budget(scope, subject).toString(),
                       budgetsText(*before, period), budgetsText(*after, period));
        !r)
        return failWith(r.error());
    if (auto r = tx.commit(); !r)
        return failWith(r.error());
    return Ok;
}

// gpuquota budget set --user U|--namespace N --limit H [--period P] [--grace D] [--tz Z]
int budgetSet(const Args &a) {
    auto subject = subjectFlags(a);
    if (!subject)
        return failWith(subject.error());
    Budget b;
    b.scope = subject->first;
    b.subject = subject->second;
    auto period =
        parsePeriod(a.value(QStringLiteral("period"), QStringLiteral("day")), QStringLiteral("--period"));
    if (!period)
        return fail(period.error().toString(), UsageError);
    b.period = *period;
    auto limit = numberFlag(a, QStringLiteral("limit"));
    if (!limit)
        return fail(limit.error().message, UsageError);
    b.limitGpuHours = *limit;
    auto grace =
        parseDuration(a.value(QStringLiteral("grace"), QStringLiteral("0")), QStringLiteral("--grace"));
    if (!grace)
        return fail(grace.error().toString(), UsageError);
    b.graceSeconds = *grace;
    b.tz = a.value(QStringLiteral("tz"), QStringLiteral("UTC"));
    if (auto v = validateBudget(b); !v)
        return fail(v.error().toString(), UsageError);
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    const int code =
        auditedBudgetChange(**db, a, b.scope, b.subject, b.period, QStringLiteral("budget.set"), [&] {
            auto stored = (*db)->setBudget(b);
            return stored ? Ok : failWith(stored.error());
        });
    if (code != Ok)
        return code;
    out() << "budget set: " << scopeName(b.scope) << ' ' << b.subject << ' '
          << formatGpuHours(b.limitGpuHours) << " GPU-h per " << periodName(b.period) << " (" << b.tz
          << ", grace " << formatDuration(b.graceSeconds) << ")\n";
    return Ok;
}

// gpuquota budget list [-o json]: every budget with what it has used this period.
int budgetList(const Args &a) {
    qint64 now = 0;
    std::unique_ptr<UsageStore> db;
    if (auto code = openForReading(a, now, db))
        return *code;
    auto list = db->budgets();
    if (!list)
        return failWith(list.error());
    QList<QStringList> rows{{QStringLiteral("SCOPE"), QStringLiteral("SUBJECT"), QStringLiteral("PERIOD"),
                             QStringLiteral("LIMIT"), QStringLiteral("GRACE"), QStringLiteral("TZ"),
                             QStringLiteral("USED"), QStringLiteral("REMAINING"), QStringLiteral("STATE")}};
    QJsonArray json;
    for (const Budget &b : *list) {
        auto status = db->budgetStatus(b.scope, b.subject, now);
        if (!status)
            return failWith(status.error());
        const Decision *d = nullptr;
        for (const Decision &x : *status)
            if (x.budget.period == b.period)
                d = &x;
        const double used = d ? d->used : 0, remaining = d ? d->remaining : b.limitGpuHours;
        const QString state = d ? outcomeName(d->outcome) : QString();
        rows << QStringList{scopeName(b.scope),
                            b.subject,
                            periodName(b.period),
                            formatGpuHours(b.limitGpuHours),
                            formatDuration(b.graceSeconds),
                            b.tz,
                            formatGpuHours(used),
                            formatGpuHours(remaining),
                            state};
        json.append(QJsonObject{{QStringLiteral("scope"), scopeName(b.scope)},
                                {QStringLiteral("subject"), b.subject},
                                {QStringLiteral("period"), periodName(b.period)},
                                {QStringLiteral("limit"), b.limitGpuHours},
                                {QStringLiteral("grace_seconds"), double(b.graceSeconds)},
                                {QStringLiteral("tz"), b.tz},
                                {QStringLiteral("used"), used},
                                {QStringLiteral("remaining"), remaining},
                                {QStringLiteral("state"), state}});
    }
    if (a.value(QStringLiteral("output")) == QLatin1String("json"))
        out() << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
    else if (list->isEmpty())
        out() << "no budgets\n";
    else
        printTable(rows);
    return Ok;
}

// gpuquota budget delete --user U|--namespace N [--period P]
int budgetDelete(const Args &a) {
    auto subject = subjectFlags(a);
    if (!subject)
        return failWith(subject.error());
    std::optional<Period> period;
    if (a.has(QStringLiteral("period"))) {
        auto p = parsePeriod(a.value(QStringLiteral("period")), QStringLiteral("--period"));
        if (!p)
            return fail(p.error().toString(), UsageError);
        period = *p;
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    int deleted = 0;
    const int code = auditedBudgetChange(
        **db, a, subject->first, subject->second, period, QStringLiteral("budget.delete"), [&] {
            auto n = (*db)->deleteBudget(subject->first, subject->second, period);
            if (!n)
                return failWith(n.error());
            if (*n == 0) // nothing changed: nothing to audit, and the transaction rolls back
                return fail(
                    QStringLiteral("no budget for %1 %2").arg(scopeName(subject->first), subject->second));
            deleted = *n;
            return int(Ok);
        });
    if (code != Ok)
        return code;
    out() << "deleted " << deleted << " budget(s) of " << scopeName(subject->first) << ' ' << subject->second
          << '\n';
    return Ok;
}

int runBudget(const QStringList &argv) {
    if (!argv.isEmpty() && (argv.first() == QLatin1String("--help") || argv.first() == QLatin1String("-h") ||
                            argv.first() == QLatin1String("help"))) {
        out() << budgetHelp();
        return Ok;
    }
    if (argv.isEmpty() || argv.first().startsWith(QLatin1Char('-')))
        return fail(QStringLiteral("budget needs a sub-command: set, list, delete or status (see gpuquota "
                                   "budget --help)"),
                    UsageError);
    const QString sub = argv.first();
    if (sub == QLatin1String("status"))
        return runBudgetStatus(argv.mid(1));
    if (sub == QLatin1String("newcomer"))
        return runBudgetNewcomer(argv.mid(1));
    const Args a =
        parseArgs(argv.mid(1), {QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                                QStringLiteral("period"), QStringLiteral("limit"), QStringLiteral("grace"),
                                QStringLiteral("tz"), QStringLiteral("now"), QStringLiteral("output"),
                                QStringLiteral("actor"), QStringLiteral("note")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    if (sub == QLatin1String("set"))
        return budgetSet(a);
    if (sub == QLatin1String("list"))
        return budgetList(a);
    if (sub == QLatin1String("delete"))
        return budgetDelete(a);
    return fail(QStringLiteral("unknown budget sub-command '%1' (set, list, delete, status)").arg(sub),
                UsageError);
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("usage"), QStringLiteral("usage --db URL --by B --period P --from T --to T"),
    QStringLiteral("GPU-hours per namespace|user|clusterqueue|localqueue per hour|day|week|month [--tz Z] "
                   "[-o csv|json]"),
    62, runUsage);
GQ_REGISTER_VERB(QStringLiteral("check"), QStringLiteral("check --db URL --user U --gpus G --hours H"),
                 QStringLiteral("may this job run? exit 0 allowed, 1 denied or no answer, 2 usage error"), 63,
                 runCheck);
GQ_REGISTER_VERB(QStringLiteral("budget"), QStringLiteral("budget set|list|delete|status --db URL ..."),
                 QStringLiteral("manage GPU-hour budgets per user or namespace; status: used, left, forecast "
                                "(budget --help)"),
                 64, runBudget, {}, budgetHelp());

} // namespace gq::cli
