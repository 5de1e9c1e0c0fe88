// GPU-hour verbs that fill and maintain the usage database: `gpuquota
// import|export|demo-data|rollup` (sqlite:///path or postgresql://user@host:port/db,
// through core's UsageStore); CSV in and out, plain text or JSON reports.
#include "app/demo/demodata.h"
#include "app/cli/usageverbs.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace gq::cli {
namespace {

using namespace usageverbs;

// --- import / export ---------------------------------------------------------------

int runImport(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("source"), QStringLiteral("rollup-tz"),
                         QStringLiteral("actor"), QStringLiteral("note"), QStringLiteral("earliest-start"),
                         QStringLiteral("max-interval")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (a.positional.size() != 1)
        return fail(QStringLiteral("import needs exactly one FILE.csv (or - for stdin)"), UsageError);
    UsageStore::ImportOptions options;
    options.source = a.value(QStringLiteral("source"), QStringLiteral("import"));
    auto earliest = instantFlag(a, QStringLiteral("earliest-start"), options.earliestStart);
    if (!earliest)
        return failWith(earliest.error());
    options.earliestStart = *earliest;
    if (a.has(QStringLiteral("max-interval"))) {
        auto d = parseDuration(a.value(QStringLiteral("max-interval")), QStringLiteral("--max-interval"));
        if (!d || *d <= 0)
            return fail(d ? QStringLiteral("--max-interval must be positive") : d.error().toString(),
                        UsageError);
        options.longestInterval = *d;
    }
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
    auto r = (*db)->importCsv(f, options);
    if (!r) {
        const Error &e = r.error();
        if (e.line > 0)
            return fail(
                QStringLiteral("%1:%2: %3 (nothing imported)").arg(path).arg(e.line).arg(e.toString()));
        return failWith(e);
    }
    // Usage decides budgets, so changing it is audited like any other change.
    if (auto au = audit(**db, a, QStringLiteral("usage.import"), QStringLiteral("usage_intervals"), {},
                        QStringLiteral("%1 rows from %2: %3 new, %4 updated, %5 unchanged")
                            .arg(r->rows)
                            .arg(path)
                            .arg(r->inserted)
                            .arg(r->updated)
                            .arg(r->unchanged));
        !au)
        return fail(QStringLiteral("imported, but the audit entry failed: %1").arg(au.error().toString()));
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
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    QFile f;
    if (!f.open(stdout, QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write stdout"));
    auto r = (*db)->exportCsv(f, from, to);
    if (!r)
        return failWith(r.error());
    // Redirected to a file on a full disk, the last buffered block fails only here.
    errno = 0;
    if (!f.flush() || f.error() != QFileDevice::NoError || std::fflush(stdout) != 0 || std::ferror(stdout))
        return fail(QStringLiteral("cannot write the CSV to standard output: %1")
                        .arg(errno ? QString::fromLocal8Bit(std::strerror(errno)) : f.errorString()));
    return Ok;
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

GQ_REGISTER_VERB(QStringLiteral("import"),
                 QStringLiteral("import --db URL [--earliest-start T] [--max-interval D] FILE.csv"),
                 QStringLiteral("import usage intervals from CSV (checked first, idempotent, all or nothing; "
                                "defaults: start from 2000-01-01T00:00:00Z, at most 366d)"),
                 60, runImport);
GQ_REGISTER_VERB(QStringLiteral("export"), QStringLiteral("export --db URL [--from T --to T]"),
                 QStringLiteral("export usage intervals as CSV"), 61, runExport);
GQ_REGISTER_VERB(QStringLiteral("demo-data"), QStringLiteral("demo-data --db URL --users N --days D"),
                 QStringLiteral("generate realistic synthetic usage"), 65, runDemoData);
GQ_REGISTER_VERB(QStringLiteral("rollup"), QStringLiteral("rollup rebuild --db URL"),
                 QStringLiteral("recompute the GPU-hour rollups from the raw intervals, report what changed"),
                 66, runRollup);

} // namespace gq::cli
