// Usage-database benchmark: generates a year of synthetic usage (default 2,000 users,
// 200 namespaces, 10 million intervals) into SQLite and/or PostgreSQL, then times
//   * the chart query: GPU-hours per day per namespace over 90 days (rollups), and
//   * the admission check for one user (rollups + running set), cold (one round trip)
//     and from a store keeping the check inputs (Options::cacheChecks, "kept cache"),
// each against the naive approach of reading the raw rows and summing in the client.
//
//   bench_usage [--db URL]... [--users N] [--namespaces M] [--intervals K] [--days D]
//               [--seed S] [--reuse] [--iterations I] [--tz ZONE]
//
// Without --db it uses a SQLite file in the current directory and, when set,
// GQ_TEST_PG_URL (with a fresh schema). --reuse keeps an already filled database.
#include "app/demo/demodata.h"
#include "core/usage/usagestore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlQuery>
#include <QTextStream>

#include <malloc.h>

#include <algorithm>
#include <array>
#include <cstdio>

using namespace gq;

namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

struct Config {
    QStringList dbs;
    int users = 2000;
    int namespaces = 200;
    qint64 intervals = 10'000'000;
    int days = 365;
    quint64 seed = 1;
    bool reuse = false;
    int iterations = 20;
    QString tz = QStringLiteral("Europe/Berlin");
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

// Fast and naive alternate (fast, naive, fast, naive, ...), so load from other
// processes on a shared machine hits both alike; medians of each.
template <typename F, typename G>
std::pair<double, double> interleavedMedians(int fastRuns, int naiveRuns, F &&fast, G &&naive) {
    std::vector<double> a, b;
    fast(); // warm-up: statement preparation, caches
    naive();
    for (int i = 0; i < std::max(fastRuns, naiveRuns); ++i) {
        QElapsedTimer t;
        if (i < fastRuns) {
            t.start();
            fast();
            a.push_back(double(t.nsecsElapsed()) / 1e6);
            if (qEnvironmentVariableIsSet("GQ_BENCH_VERBOSE"))
                std::fprintf(stderr, "fast %.3f ms\n", a.back());
        }
        if (i < naiveRuns) {
            t.start();
            naive();
            b.push_back(double(t.nsecsElapsed()) / 1e6);
            if (qEnvironmentVariableIsSet("GQ_BENCH_VERBOSE"))
                std::fprintf(stderr, "naive %.3f ms\n", b.back());
        }
    }
    return {median(a), median(b)};
}

QString loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

qint64 databaseBytes(UsageStore &store, const QString &url) {
    if (!store.isPostgres()) {
        qint64 n = 0;
        for (const char *suffix : {"", "-wal", "-shm"})
            n += QFileInfo(store.url().path + QLatin1String(suffix)).size();
        return n;
    }
    Q_UNUSED(url);
    QSqlQuery q(store.database());
    q.exec(QStringLiteral("SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n ON "
                          "n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"));
    return q.next() ? q.value(0).toLongLong() : 0;
}

QString fmt(double v, int prec = 2) {
    return QString::number(v, 'f', prec);
}

int runOne(const Config &c, const QString &url) {
    out() << "\n== " << url.section(QLatin1Char('?'), 0, 0) << " ==\n";
    out().flush();
    UsageStore::Options options;
    options.rollupZone = c.tz; // charts and budgets in the reporting zone use daily rollups
    auto opened = UsageStore::open(url, options);
    if (!opened) {
        out() << "error: " << opened.error().toString() << '\n';
        return 1;
    }
    UsageStore &store = **opened;
    const qint64 end = *parseInstant(QStringLiteral("2026-06-01T00:00:00Z"));
    qint64 count = *store.intervalCount();
    if (count == 0 || !c.reuse) {
        if (count != 0) {
            out() << "database not empty (" << count << " rows); use --reuse or an empty database\n";
            return 1;
        }
        DemoSpec spec;
        spec.users = c.users;
        spec.namespaces = c.namespaces;
        spec.days = c.days;
        spec.seed = c.seed;
        spec.end = end;
        spec.jobsPerUserDay = double(c.intervals) / (double(c.users) * c.days);
        QElapsedTimer t;
        t.start();
        qint64 done = 0, dbNs = 0;
        Error failure;
        bool ok = true;
        // One bulk load for everything: one transaction, rollups aggregated in memory
        // across chunks, secondary indexes rebuilt at the end.
        auto load = store.beginBulk(c.intervals);
        if (!load) {
            out() << "error: " << load.error().toString() << '\n';
            return 1;
        }
        generateDemoUsage(
            spec,
            [&](std::vector<UsageInterval> &&chunk) {
                QElapsedTimer db;
                db.start();
                auto r = (*load)->add(chunk);
                dbNs += db.nsecsElapsed();
                if (!r) {
                    failure = r.error();
                    ok = false;
                    return false;
                }
                done += qint64(chunk.size());
                if (done % 1'000'000 < qint64(chunk.size()))
                    out() << "  inserted " << done << " intervals, " << fmt(t.elapsed() / 1000.0, 1)
                          << " s (load " << loadAverage() << ")\n"
                          << Qt::flush;
                return true;
            },
            100000);
        if (!ok) {
            out() << "error: " << failure.toString() << '\n';
            return 1;
        }
        QElapsedTimer fin;
        fin.start();
        auto finished = (*load)->finish();
        if (!finished) {
            out() << "error: " << finished.error().toString() << '\n';
            return 1;
        }
        const qint64 finishMs = fin.elapsed();
        dbNs += fin.nsecsElapsed();
        load->reset();
        const double secs = std::max(0.001, t.elapsed() / 1000.0);
        out() << "generated and inserted " << done << " intervals (with rollups) in " << fmt(secs, 1)
              << " s (" << qint64(double(done) / secs) << " rows/s; database work "
              << fmt(double(dbNs) / 1e9, 1)
              << " s = " << qint64(double(done) / std::max(0.001, double(dbNs) / 1e9))
              << " rows/s, of which rollup flush + index rebuild + commit " << fmt(finishMs / 1000.0, 1)
              << " s; load " << loadAverage() << ")\n";
        QElapsedTimer an;
        an.start();
        QSqlQuery q(store.database());
        q.exec(QStringLiteral("ANALYZE"));
        out() << "  ANALYZE " << fmt(an.elapsed() / 1000.0, 1) << " s\n";
        count = done;
    } else {
        out() << "reusing " << count << " intervals\n";
    }
    QSqlQuery sizes(store.database());
    for (const char *table : {"rollup_ns_hour", "rollup_user_hour", "rollup_ns_day", "rollup_user_day"}) {
        sizes.exec(QStringLiteral("SELECT COUNT(*) FROM %1").arg(QLatin1String(table)));
        sizes.next();
        out() << "  " << table << ": " << sizes.value(0).toLongLong() << " rows\n";
    }
    sizes.finish(); // an unfinished SQLite statement keeps its read snapshot open

    out() << "  database size: " << fmt(double(databaseBytes(store, url)) / (1024.0 * 1024.0 * 1024.0), 2)
          << " GiB\n";

    const QTimeZone tz = *parseZone(c.tz);
    const qint64 now = end - 1800; // half an hour before the end: some pods still running
    const qint64 to = periodContaining(now, Period::Day, tz).start;
    const qint64 from = periodContaining(to - 90 * 86400, Period::Day, tz).start;

    // Chart: GPU-hours per day per namespace over 90 days.
    size_t points = 0;
    double naiveTotal = 0;
    const auto [chartMs, chartNaiveMs] = interleavedMedians(
        c.iterations, std::max(1, std::min(3, c.iterations)),
        [&] {
            auto s = store.gpuHoursSeries(GroupBy::Namespace, Period::Day, from, to, tz, now);
            points = s ? s->size() : 0;
        },
        [&] {
            auto ivs = store.intervals(from, to, now);
            const auto m =
                gpuHoursByPeriod(*ivs, GroupBy::Namespace, from, to, Period::Day, tz, now, store.weights());
            naiveTotal = 0;
            for (const auto &b : m)
                for (double v : b)
                    naiveTotal += v;
            ivs->clear();
            ivs->shrink_to_fit();
            // Return the millions of freed row allocations now, inside the naive timing:
            // otherwise glibc consolidates them during the next (fast) run's allocations
            // and charges the naive path's cleanup to the fast path.
            malloc_trim(0);
        });
    double fastTotal = 0;
    const auto fastSeries = store.gpuHoursSeries(GroupBy::Namespace, Period::Day, from, to, tz, now);
    for (const auto &p : *fastSeries)
        fastTotal += p.gpuHours;

    // Admission check for one ordinary and one heavy user (the heaviest in the data).
    auto top = store.topUsers(periodContaining(now, Period::Month, tz).start, to, 1, now);
    const QString heavy = top && !top->empty() ? top->front().first : demoUserName(0);
    const QString ordinary = demoUserName(1) == heavy ? demoUserName(2) : demoUserName(1);
    QList<std::pair<QString, QString>> rows;
    // Each checked user gets a day and a month budget.
    const auto budgetsOf = [&c](const QString &user) {
        Budget day;
        day.subject = user;
        day.period = Period::Day;
        day.limitGpuHours = 40;
        day.tz = c.tz;
        Budget month = day;
        month.period = Period::Month;
        month.limitGpuHours = 600;
        return std::array<Budget, 2>{day, month};
    };
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 2, 4};
    // Naive: the user's rows overlapping each budget period, summed in the client.
    const auto naiveCheck = [&](const QString &user) {
        QList<Decision> ds;
        for (const Budget &b : budgetsOf(user)) {
            const TimeRange p = periodContaining(now, b.period, tz);
            ds << decide(b, p, *store.usedGpuHoursNaive(BudgetScope::User, user, p, now), 0, req);
        }
        return combine(ds, req);
    };
    for (const QString &user : {ordinary, heavy}) {
        for (const Budget &b : budgetsOf(user))
            (void)store.setBudget(b);
        Decision d;
        Decision naive;
        const auto [checkMs, naiveMs] = interleavedMedians(
            c.iterations * 5, c.iterations * 5, [&] { d = *store.check(user, {}, req, now); },
            [&] { naive = naiveCheck(user); });
        out() << "check " << user << ": " << d.message << " (naive: " << naive.message << ")\n";
        rows << std::make_pair(QStringLiteral("admission check (%1)").arg(user),
                               QStringLiteral("%1|%2|5").arg(checkMs).arg(naiveMs));
    }
    // The same checks from a long-running caller's store that keeps the check inputs
    // (Options::cacheChecks): its own connection, opened after the budgets were set;
    // every check still asks the database whether anything changed (SQLite:
    // PRAGMA data_version; PostgreSQL: a non-blocking read of pending notifications).
    {
        UsageStore::Options kept = options;
        kept.cacheChecks = true;
        auto cachedOpen = UsageStore::open(url, kept);
        if (!cachedOpen) {
            out() << "error: " << cachedOpen.error().toString() << '\n';
            return 1;
        }
        UsageStore &cachedStore = **cachedOpen;
        for (const QString &user : {ordinary, heavy}) {
            Decision d;
            Decision cold = *store.check(user, {}, req, now);
            Decision naive;
            const auto [checkMs, naiveMs] = interleavedMedians(
                c.iterations * 5, c.iterations * 5, [&] { d = *cachedStore.check(user, {}, req, now); },
                [&] { naive = naiveCheck(user); });
            const auto stats = cachedStore.checkCacheStats();
            out() << "check (kept cache) " << user << ": " << d.message << " (cold: " << cold.message
                  << "; naive: " << naive.message << "; answered from cache " << stats.fromCache << ", read "
                  << stats.reads << ", changes seen " << stats.changes << ")\n";
            rows << std::make_pair(QStringLiteral("check (kept cache) (%1)").arg(user),
                                   QStringLiteral("%1|%2|5").arg(checkMs).arg(naiveMs));
        }
    }
    out() << "chart: " << points << " points, total " << fmt(fastTotal) << " GPU-h (naive total "
          << fmt(naiveTotal) << ")\n";
    rows.prepend(std::make_pair(QStringLiteral("chart: GPU-h/day/namespace, 90 d"),
                                QStringLiteral("%1|%2|150").arg(chartMs).arg(chartNaiveMs)));

    out() << "load average now: " << loadAverage() << '\n';
    out() << QStringLiteral("%1 %2 %3 %4  %5\n")
                 .arg(QStringLiteral("query"), -42)
                 .arg(QStringLiteral("fast ms"), 10)
                 .arg(QStringLiteral("naive ms"), 10)
                 .arg(QStringLiteral("ratio"), 8)
                 .arg(QStringLiteral("goal"));
    for (const auto &[name, v] : rows) {
        const QStringList p = v.split(QLatin1Char('|'));
        const double fast = p[0].toDouble(), naive = p[1].toDouble(), goal = p[2].toDouble();
        const double ratio = naive / std::max(1e-6, fast);
        out() << QStringLiteral("%1 %2 %3 %4x  %5\n")
                     .arg(name, -42)
                     .arg(fmt(fast, 4), 10)
                     .arg(fmt(naive, 1), 10)
                     .arg(fmt(ratio, 0), 7)
                     .arg(QStringLiteral("< %1 ms %2, >= 50x %3")
                              .arg(goal)
                              .arg(fast < goal ? QStringLiteral("met") : QStringLiteral("MISSED"),
                                   ratio >= 50 ? QStringLiteral("met") : QStringLiteral("MISSED")));
    }
    out().flush();
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    Config c;
    const QStringList args = QCoreApplication::arguments().mid(1);
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        auto next = [&]() { return i + 1 < args.size() ? args[++i] : QString(); };
        if (a == QLatin1String("--db"))
            c.dbs << next();
        else if (a == QLatin1String("--users"))
            c.users = next().toInt();
        else if (a == QLatin1String("--namespaces"))
            c.namespaces = next().toInt();
        else if (a == QLatin1String("--intervals"))
            c.intervals = next().toLongLong();
        else if (a == QLatin1String("--days"))
            c.days = next().toInt();
        else if (a == QLatin1String("--seed"))
            c.seed = next().toULongLong();
        else if (a == QLatin1String("--iterations"))
            c.iterations = std::max(1, next().toInt());
        else if (a == QLatin1String("--tz"))
            c.tz = next();
        else if (a == QLatin1String("--reuse"))
            c.reuse = true;
        else {
            std::fprintf(stderr, "unknown argument %s\n", qPrintable(a));
            return 2;
        }
    }
    if (c.users <= 0 || c.namespaces <= 0 || c.intervals <= 0 || c.days <= 0) {
        std::fprintf(stderr, "sizes must be positive\n");
        return 2;
    }
    if (c.dbs.isEmpty()) {
        c.dbs << QStringLiteral("sqlite://bench-usage.db");
        const QString pg = qEnvironmentVariable("GQ_TEST_PG_URL");
        if (!pg.isEmpty())
            c.dbs << pg + QStringLiteral("?schema=bench_usage");
    }
    out() << "bench_usage: " << c.users << " users, " << c.namespaces << " namespaces, " << c.intervals
          << " intervals over " << c.days << " days (seed " << c.seed << "), zone " << c.tz << '\n';
    int rc = 0;
    for (const QString &db : std::as_const(c.dbs))
        rc |= runOne(c, db);
    return rc;
}
