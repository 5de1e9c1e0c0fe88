// GPU-hour verbs: `gpuquota import|export|usage|check|budget|demo-data|rollup`. They work on
// the usage database (sqlite:///path or postgresql://user@host:port/db) through
// core's UsageStore; output is plain text, CSV or JSON for scripts.
#include "app/cli/verbs.h"

#include "core/demodata.h"
#include "core/usagestore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cmath>

namespace gq::cli {
namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}
QTextStream &err() {
    static QTextStream s(stderr);
    return s;
}

int fail(const QString &message, int code = Failed) {
    err() << "error: " << message << '\n';
    err().flush();
    return code;
}

int failWith(const Error &e, int code = Failed) {
    return fail(e.toString(), e.kind == Error::Kind::Usage ? UsageError : code);
}

// Flags of the form --name VALUE or --name=VALUE (and -o); anything else is positional.
struct Args {
    QHash<QString, QString> values;
    QStringList positional;
    QString error;

    [[nodiscard]] bool has(const QString &k) const { return values.contains(k); }
    [[nodiscard]] QString value(const QString &k, const QString &fallback = {}) const {
        return values.value(k, fallback);
    }
};

Args parseArgs(const QStringList &args, const QStringList &known) {
    Args a;
    static const QStringList globals{QStringLiteral("kubeconfig"), QStringLiteral("context")};
    for (qsizetype i = 0; i < args.size() && a.error.isEmpty(); ++i) {
        QString arg = args.at(i);
        if (arg == QLatin1String("-o"))
            arg = QStringLiteral("--output");
        else if (arg.startsWith(QLatin1String("-o")) && !arg.startsWith(QLatin1String("--")))
            arg = QStringLiteral("--output=") + arg.mid(2);
        if (!arg.startsWith(QLatin1String("--"))) {
            a.positional << arg;
            continue;
        }
        QString name = arg.mid(2), value;
        const qsizetype eq = name.indexOf(QLatin1Char('='));
        if (eq >= 0) {
            value = name.mid(eq + 1);
            name = name.left(eq);
        } else if (i + 1 < args.size()) {
            value = args.at(++i);
        } else {
            a.error = QStringLiteral("flag --%1 needs a value").arg(name);
            break;
        }
        if (!known.contains(name) && !globals.contains(name))
            a.error = QStringLiteral("unknown flag --%1").arg(name);
        else
            a.values.insert(name, value);
    }
    return a;
}

Result<std::unique_ptr<UsageStore>> openDb(const Args &a) {
    if (!a.has(QStringLiteral("db")))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--db URL is required (sqlite:///path/usage.db or "
                                          "postgresql://user@host:port/db)"));
    UsageStore::Options options;
    // Only used when the database is created: the zone of its daily rollups.
    if (a.has(QStringLiteral("rollup-tz"))) {
        auto tz = parseZone(a.value(QStringLiteral("rollup-tz")), QStringLiteral("--rollup-tz"));
        if (!tz) {
            Error e = tz.error();
            e.kind = Error::Kind::Usage;
            return e;
        }
        options.rollupZone = QString::fromUtf8(tz->id());
    }
    return UsageStore::open(a.value(QStringLiteral("db")), options);
}

Result<qint64> instantFlag(const Args &a, const QString &name, std::optional<qint64> fallback = {}) {
    if (!a.has(name)) {
        if (fallback)
            return *fallback;
        return Error::make(Error::Kind::Usage, QStringLiteral("--%1 TIME is required (RFC 3339)").arg(name));
    }
    auto t = parseInstant(a.value(name), QStringLiteral("--") + name);
    if (!t) {
        Error e = t.error();
        e.kind = Error::Kind::Usage;
        return e;
    }
    return *t;
}

Result<double> numberFlag(const Args &a, const QString &name) {
    if (!a.has(name))
        return Error::make(Error::Kind::Usage, QStringLiteral("--%1 is required").arg(name));
    bool ok = false;
    const double v = a.value(name).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0)
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("--%1 must be a non-negative number, got '%2'").arg(name, a.value(name)));
    return v;
}

QString nowDefault(const Args &a, qint64 *now) {
    auto t = instantFlag(a, QStringLiteral("now"), Clock::system().nowSecs());
    if (!t)
        return t.error().toString();
    *now = *t;
    return {};
}

void printTable(const QList<QStringList> &rows) {
    if (rows.isEmpty())
        return;
    QList<int> width(rows.first().size(), 0);
    for (const QStringList &r : rows)
        for (int c = 0; c < r.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], int(r[c].size()));
    for (const QStringList &r : rows) {
        QString line;
        for (int c = 0; c < r.size(); ++c)
            line += c + 1 == r.size() ? r[c] : r[c].leftJustified(width[c] + 3);
        out() << line << '\n';
    }
}

// --- import / export ---------------------------------------------------------------

int runImport(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("source"), QStringLiteral("rollup-tz")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (a.positional.size() != 1)
        return fail(QStringLiteral("import needs exactly one FILE.csv (or - for stdin)"), UsageError);
    const QString path = a.positional.first();
    QFile f;
    if (path == QLatin1String("-")) {
        if (!f.open(stdin, QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read stdin"));
    } else {
        f.setFileName(path);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot open %1: %2").arg(path, f.errorString()));
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    auto r = (*db)->importCsv(f, a.value(QStringLiteral("source"), QStringLiteral("import")));
    if (!r) {
        const Error &e = r.error();
        if (e.line > 0)
            return fail(
                QStringLiteral("%1:%2: %3 (nothing imported)").arg(path).arg(e.line).arg(e.toString()));
        return failWith(e);
    }
    out() << "imported " << r->rows << " rows from " << path << ": " << r->inserted << " new, " << r->updated
          << " updated, " << r->unchanged << " unchanged\n";
    return Ok;
}

int runExport(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("from"), QStringLiteral("to")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    std::optional<qint64> from, to;
    if (a.has(QStringLiteral("from"))) {
        auto t = instantFlag(a, QStringLiteral("from"));
        if (!t)
            return failWith(t.error());
        from = *t;
    }
    if (a.has(QStringLiteral("to"))) {
        auto t = instantFlag(a, QStringLiteral("to"));
        if (!t)
            return failWith(t.error());
        to = *t;
    }
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    QFile f;
    if (!f.open(stdout, QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write stdout"));
    auto r = (*db)->exportCsv(f, from, to);
    if (!r)
        return failWith(r.error());
    return Ok;
}

// --- usage ---------------------------------------------------------------------------

int runUsage(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("by"), QStringLiteral("period"),
                                    QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("tz"),
                                    QStringLiteral("now"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    auto by = parseGroupBy(a.value(QStringLiteral("by"), QStringLiteral("namespace")));
    if (!by)
        return fail(by.error().message, UsageError);
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
    qint64 now = 0;
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table, csv or json"), UsageError);
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    auto series = (*db)->gpuHoursSeries(*by, *period, *from, *to, *tz, now);
    if (!series)
        return failWith(series.error());
    const QString subjectName = *by == GroupBy::User ? QStringLiteral("user") : QStringLiteral("namespace");
    if (format == QLatin1String("csv")) {
        out() << "bucket_start,subject,gpu_hours\n";
        for (const auto &p : *series)
            out() << formatInstant(p.bucketStart, *tz) << ',' << p.subject << ','
                  << QString::number(p.gpuHours, 'f', 4) << '\n';
    } else if (format == QLatin1String("json")) {
        QJsonArray rows;
        for (const auto &p : *series)
            rows.append(QJsonObject{{QStringLiteral("bucket_start"), formatInstant(p.bucketStart, *tz)},
                                    {QStringLiteral("subject"), p.subject},
                                    {QStringLiteral("gpu_hours"), p.gpuHours}});
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
    // Exit codes: 0 allowed (or allowed in grace), 1 denied, 2 any error.
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                                    QStringLiteral("gpus"), QStringLiteral("hours"), QStringLiteral("now"),
                                    QStringLiteral("resource"), QStringLiteral("output")});
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
    auto db = openDb(a);
    if (!db)
        return fail(db.error().toString(), UsageError);
    // A request for MIG slices is weighed like the usage it will produce.
    const double weight =
        (*db)->weights().weight(a.value(QStringLiteral("resource"), QStringLiteral("nvidia.com/gpu")));
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, *gpus * weight, *hours};
    auto d = (*db)->check(a.value(QStringLiteral("user")), a.value(QStringLiteral("namespace")), req, now);
    if (!d)
        return fail(d.error().toString(), UsageError);
    if (a.value(QStringLiteral("output")) == QLatin1String("json")) {
        QJsonObject o{{QStringLiteral("decision"), outcomeName(d->outcome)},
                      {QStringLiteral("message"), d->message},
                      {QStringLiteral("used"), d->used},
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
                  << ": used " << formatGpuHours(d->used) << " of " << formatGpuHours(d->limit) << " GPU-h\n";
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

int runBudget(const QStringList &argv) {
    if (argv.isEmpty() || argv.first().startsWith(QLatin1Char('-')))
        return fail(QStringLiteral("budget needs a sub-command: set, list or delete"), UsageError);
    const QString sub = argv.first();
    const Args a =
        parseArgs(argv.mid(1), {QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                                QStringLiteral("period"), QStringLiteral("limit"), QStringLiteral("grace"),
                                QStringLiteral("tz"), QStringLiteral("now"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    if (sub == QLatin1String("set")) {
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
        auto stored = (*db)->setBudget(b);
        if (!stored)
            return failWith(stored.error());
        out() << "budget set: " << scopeName(b.scope) << ' ' << b.subject << ' '
              << formatGpuHours(b.limitGpuHours) << " GPU-h per " << periodName(b.period) << " (" << b.tz
              << ", grace " << formatDuration(b.graceSeconds) << ")\n";
        return Ok;
    }
    if (sub == QLatin1String("list")) {
        qint64 now = 0;
        if (const QString e = nowDefault(a, &now); !e.isEmpty())
            return fail(e, UsageError);
        auto db = openDb(a);
        if (!db)
            return failWith(db.error());
        auto list = (*db)->budgets();
        if (!list)
            return failWith(list.error());
        QList<QStringList> rows{{QStringLiteral("SCOPE"), QStringLiteral("SUBJECT"), QStringLiteral("PERIOD"),
                                 QStringLiteral("LIMIT"), QStringLiteral("GRACE"), QStringLiteral("TZ"),
                                 QStringLiteral("USED"), QStringLiteral("REMAINING"),
                                 QStringLiteral("STATE")}};
        QJsonArray json;
        for (const Budget &b : *list) {
            auto status = (*db)->budgetStatus(b.scope, b.subject, now);
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
    if (sub == QLatin1String("delete")) {
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
        auto n = (*db)->deleteBudget(subject->first, subject->second, period);
        if (!n)
            return failWith(n.error());
        if (*n == 0)
            return fail(
                QStringLiteral("no budget for %1 %2").arg(scopeName(subject->first), subject->second));
        out() << "deleted " << *n << " budget(s) of " << scopeName(subject->first) << ' ' << subject->second
              << '\n';
        return Ok;
    }
    return fail(QStringLiteral("unknown budget sub-command '%1' (set, list, delete)").arg(sub), UsageError);
}

// --- demo-data -----------------------------------------------------------------------

int runDemoData(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("users"), QStringLiteral("namespaces"),
                         QStringLiteral("days"), QStringLiteral("seed"), QStringLiteral("end"),
                         QStringLiteral("jobs-per-user-day"), QStringLiteral("rollup-tz")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    DemoSpec spec;
    auto intFlag = [&](const QString &name, int fallback, int *into) -> bool {
        bool ok = true;
        *into = a.has(name) ? a.value(name).toInt(&ok) : fallback;
        return ok && *into > 0;
    };
    if (!intFlag(QStringLiteral("users"), 50, &spec.users) ||
        !intFlag(QStringLiteral("namespaces"), 8, &spec.namespaces) ||
        !intFlag(QStringLiteral("days"), 30, &spec.days))
        return fail(QStringLiteral("--users, --namespaces and --days must be positive whole numbers"),
                    UsageError);
    bool ok = true;
    spec.seed = a.has(QStringLiteral("seed")) ? a.value(QStringLiteral("seed")).toULongLong(&ok) : 1;
    if (!ok)
        return fail(QStringLiteral("--seed must be a whole number"), UsageError);
    if (a.has(QStringLiteral("jobs-per-user-day"))) {
        spec.jobsPerUserDay = a.value(QStringLiteral("jobs-per-user-day")).toDouble(&ok);
        if (!ok || spec.jobsPerUserDay <= 0)
            return fail(QStringLiteral("--jobs-per-user-day must be a positive number"), UsageError);
    }
    // Default end: the current hour, so the newest demo jobs are running now.
    const qint64 hourNow = Clock::system().nowSecs() / 3600 * 3600;
    auto end = instantFlag(a, QStringLiteral("end"), hourNow);
    if (!end)
        return failWith(end.error());
    spec.end = *end;
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    QElapsedTimer timer;
    timer.start();
    // One bulk load (one transaction: all of it or nothing) fed chunk by chunk, so a
    // large demo never holds all its rows in memory.
    const qint64 expected = qint64(spec.jobsPerUserDay * spec.users * spec.days);
    auto load = (*db)->beginBulk(expected);
    if (!load)
        return failWith(load.error());
    Error failure;
    bool ok2 = true;
    generateDemoUsage(spec, [&](std::vector<UsageInterval> &&chunk) {
        auto r = (*load)->add(chunk);
        if (!r) {
            failure = r.error();
            ok2 = false;
        }
        return ok2;
    });
    if (!ok2)
        return failWith(failure);
    auto n = (*load)->finish();
    if (!n)
        return failWith(n.error());
    out() << "generated " << *n << " intervals for " << spec.users << " users in " << spec.namespaces
          << " namespaces over " << spec.days << " days (seed " << spec.seed << ") in " << timer.elapsed()
          << " ms\n";
    return Ok;
}

int runRollup(const QStringList &argv) {
    if (argv.isEmpty() || argv.first() != QLatin1String("rebuild"))
        return fail(QStringLiteral("usage: gpuquota rollup rebuild --db URL [-o table|json]"), UsageError);
    const Args a = parseArgs(argv.mid(1), {QStringLiteral("db"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table or json, got '%1'").arg(format), UsageError);
    auto db = openDb(a);
    if (!db)
        return failWith(db.error());
    QElapsedTimer timer;
    timer.start();
    auto report = (*db)->rebuildRollups();
    if (!report)
        return failWith(report.error());
    if (format == QLatin1String("json")) {
        QJsonArray tables;
        for (const auto &t : std::as_const(report->tables))
            tables.append(QJsonObject{{QStringLiteral("table"), t.table},
                                      {QStringLiteral("rows_before"), t.rowsBefore},
                                      {QStringLiteral("rows_after"), t.rowsAfter},
                                      {QStringLiteral("added"), t.added},
                                      {QStringLiteral("removed"), t.removed},
                                      {QStringLiteral("changed"), t.changed},
                                      {QStringLiteral("max_diff_gpu_hours"), t.maxAbsDiffGpuHours}});
        out() << QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("intervals"), report->intervals},
                                      {QStringLiteral("changed"), report->changedAnything()},
                                      {QStringLiteral("tables"), tables}})
                .toJson(QJsonDocument::Indented));
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("TABLE"), QStringLiteral("ROWS BEFORE"),
                             QStringLiteral("ROWS AFTER"), QStringLiteral("ADDED"), QStringLiteral("REMOVED"),
                             QStringLiteral("CHANGED"), QStringLiteral("MAX DIFF GPU-H")}};
    for (const auto &t : std::as_const(report->tables))
        rows << QStringList{t.table,
                            QString::number(t.rowsBefore),
                            QString::number(t.rowsAfter),
                            QString::number(t.added),
                            QString::number(t.removed),
                            QString::number(t.changed),
                            QString::number(t.maxAbsDiffGpuHours, 'f', 4)};
    printTable(rows);
    out() << (report->changedAnything()
                  ? QStringLiteral(
                        "rollups rebuilt from %1 closed intervals; the rows above were repaired (%2 ms)\n")
                  : QStringLiteral(
                        "rollups checked against %1 closed intervals: nothing to change (%2 ms)\n"))
                 .arg(report->intervals)
                 .arg(timer.elapsed());
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("import"), QStringLiteral("import --db URL FILE.csv"),
                 QStringLiteral("import usage intervals from CSV (idempotent, all or nothing)"), 60,
                 runImport);
GQ_REGISTER_VERB(QStringLiteral("export"), QStringLiteral("export --db URL [--from T --to T]"),
                 QStringLiteral("export usage intervals as CSV"), 61, runExport);
GQ_REGISTER_VERB(
    QStringLiteral("usage"), QStringLiteral("usage --db URL --by B --period P --from T --to T"),
    QStringLiteral("GPU-hours per namespace|user per hour|day|week|month [--tz Z] [-o csv|json]"), 62,
    runUsage);
GQ_REGISTER_VERB(QStringLiteral("check"), QStringLiteral("check --db URL --user U --gpus G --hours H"),
                 QStringLiteral("may this job run? exit 0 allowed, 1 denied, 2 error"), 63, runCheck);
GQ_REGISTER_VERB(QStringLiteral("budget"), QStringLiteral("budget set|list|delete --db URL ..."),
                 QStringLiteral("manage GPU-hour budgets per user or namespace"), 64, runBudget);
GQ_REGISTER_VERB(QStringLiteral("demo-data"), QStringLiteral("demo-data --db URL --users N --days D"),
                 QStringLiteral("generate realistic synthetic usage"), 65, runDemoData);
GQ_REGISTER_VERB(QStringLiteral("rollup"), QStringLiteral("rollup rebuild --db URL"),
                 QStringLiteral("recompute the GPU-hour rollups from the raw intervals, report what changed"),
                 66, runRollup);

} // namespace gq::cli
