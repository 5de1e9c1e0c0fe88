// `gpuquota import` benchmark: writes usage CSVs of two shapes and times the real binary
// loading each into a fresh database, then loading it again (idempotent: every row
// unchanged), on SQLite and PostgreSQL. The shapes:
//   demo  N rows (default 1 million, ~100 MB) of the demo generator: 2,000 users, 200
//         namespaces, a year, mostly short jobs (about 3 rollup cells per row)
//   long  M rows (default 200,000) of multi-hour intervals: 2,000 users in 200 namespaces
//         over a year, each 1-12 h (uniform) on 1-8 GPUs: about 16 rollup cells per row,
//         so the rollup writes dominate
// --shape picks one (default both). Prints rows/s by wall time and by the child's CPU time (user + system;
// the database server's work is not in it), and the child's peak RSS (wait4 ru_maxrss, as /usr/bin/time -v
// reports it).
//
//   bench_import [--shape demo|long|both] [--rows N] [--long-rows M] [--csv FILE]
//                [--bin PATH/gpuquota]... [--db URL]... [--first-only]
//
// --bin defaults to the gpuquota next to this program; give several to compare builds
// side by side (e.g. one built from an older commit). --db defaults to a SQLite file in
// /tmp and, when set, GQ_TEST_PG_URL; a PostgreSQL URL gets a schema of its own per
// run (bench_import_PID_K), dropped before and after.
#include "core/usage/dburl.h"
#include "app/demo/demodata.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTextStream>

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <random>
#include <vector>

extern char **environ;

using namespace gq;

namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

QByteArray instant(qint64 t) {
    return QDateTime::fromSecsSinceEpoch(t, Qt::UTC)
               .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"))
               .toLatin1() +
           'Z';
}

// The rows of bench_usage's bulk-load figures (generateDemoUsage: 2,000 users, 200
// namespaces, a year), so the two benchmarks' rows/s compare.
qint64 writeCsv(const QString &path, qint64 rows) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    DemoSpec spec;
    spec.users = 2000;
    spec.namespaces = 200;
    spec.days = 365;
    spec.end = 1767225600; // 2026-01-01T00:00:00Z
    spec.jobsPerUserDay = double(rows) / (double(spec.users) * spec.days);
    spec.cluster = QStringLiteral("prod");
    QByteArray buf = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n";
    bool ok = true;
    const qint64 n = generateDemoUsage(spec, [&](std::vector<UsageInterval> &&chunk) {
        for (const UsageInterval &iv : chunk) {
            buf += iv.cluster.toUtf8() + ',' + iv.ns.toUtf8() + ',' + iv.user.toUtf8() + ',' +
                   iv.podUid.toUtf8() + ',' + iv.podName.toUtf8() + ',' + iv.resource.toUtf8() + ',' +
                   QByteArray::number(iv.gpus) + ',' + instant(iv.start) + ',' +
                   (iv.end ? instant(*iv.end) : QByteArray()) + '\n';
        }
        ok = ok && f.write(buf) == buf.size();
        buf.clear();
        return ok;
    });
    return ok && f.write(buf) == buf.size() ? n : -1;
}

// Multi-hour intervals (see the header): deterministic, one pod per row.
qint64 writeLongCsv(const QString &path, qint64 rows) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return -1;
    constexpr int kUsers = 2000, kNamespaces = 200;
    constexpr qint64 kEnd = 1767225600; // 2026-01-01T00:00:00Z
    constexpr qint64 kSpan = 365 * 86400;
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int> user(0, kUsers - 1), gpus(1, 8);
    std::uniform_int_distribution<qint64> start(kEnd - kSpan, kEnd - 13 * 3600), hours(3600, 12 * 3600);
    QByteArray buf = "cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n";
    for (qint64 i = 0; i < rows; ++i) {
        const int u = user(rng);
        const qint64 s = start(rng);
        const qint64 e = s + hours(rng);
        buf += "prod," + demoNamespaceName(u % kNamespaces).toUtf8() + ',' + demoUserName(u).toUtf8() +
               ",long-" + QByteArray::number(i) + ",train-" + QByteArray::number(i) + ",nvidia.com/gpu," +
               QByteArray::number(gpus(rng)) + ',' + instant(s) + ',' + instant(e) + '\n';
        if (buf.size() > (1 << 20)) {
            if (f.write(buf) != buf.size())
                return -1;
            buf.clear();
        }
    }
    return f.write(buf) == buf.size() ? rows : -1;
}

struct Child {
    int status = -1;
    double seconds = 0;
    double cpuSeconds = 0; // user + system: on a shared machine wall time mostly measures the others
    double peakMiB = 0;
};

Child run(const QStringList &args) {
    std::vector<QByteArray> storage;
    for (const QString &a : args)
        storage.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &s : storage)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    Child c;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        return c;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid)
        return c;
    c.seconds = double(timer.nsecsElapsed()) / 1e9;
    c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    c.peakMiB = double(usage.ru_maxrss) / 1024.0; // kilobytes on Linux
    auto secs = [](const timeval &tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
    c.cpuSeconds = secs(usage.ru_utime) + secs(usage.ru_stime);
    return c;
}

QString dropSchema(const DbUrl &url) {
    QString err;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("bench-admin"));
        db.setHostName(url.host);
        db.setPort(url.port);
        db.setUserName(url.user);
        db.setDatabaseName(url.database);
        if (!db.open()) {
            err = db.lastError().text();
        } else {
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("DROP SCHEMA IF EXISTS \"%1\" CASCADE").arg(url.schema)))
                err = q.lastError().text();
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("bench-admin"));
    return err;
}

// The rows of `csv`, written first when missing (the generator gives about the number asked for).
qint64 prepareCsv(const QString &csv, bool longShape, qint64 rows) {
    if (!QFileInfo::exists(csv)) {
        QElapsedTimer t;
        t.start();
        const qint64 written = longShape ? writeLongCsv(csv, rows) : writeCsv(csv, rows);
        if (written < 0) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(csv));
            return -1;
        }
        out() << "wrote " << written << " rows to " << csv << " (" << QFileInfo(csv).size() / 1048576
              << " MiB) in " << t.elapsed() << " ms\n";
    }
    QFile f(csv);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    qint64 lines = 0;
    while (!f.atEnd()) {
        const QByteArray block = f.read(1 << 20);
        lines += block.count('\n');
    }
    return lines - 1;
}

QString cell(const Child &c, qint64 rows) {
    if (c.seconds == 0 && c.status == 0)
        return QStringLiteral("-");
    return c.status != 0 ? QStringLiteral("FAILED (exit %1)").arg(c.status)
                         : QStringLiteral("%1 s %2k rows/s, cpu %3 s = %4k rows/s, %5 MiB")
                               .arg(c.seconds, 0, 'f', 1)
                               .arg(double(rows) / c.seconds / 1000.0, 0, 'f', 1)
                               .arg(c.cpuSeconds, 0, 'f', 1)
                               .arg(double(rows) / c.cpuSeconds / 1000.0, 0, 'f', 1)
                               .arg(c.peakMiB, 0, 'f', 0);
}

// Imports `csv` with each binary into each database (fresh each time); the number of failed runs,
// or -1 when a database URL is unusable.
int runShape(const QString &csv, qint64 rows, const QStringList &bins, const QStringList &dbs,
             bool firstOnly) {
    static int k = 0;
    int failures = 0;
    for (const QString &bin : bins) {
        for (const QString &dbText : dbs) {
            auto url = DbUrl::parse(dbText);
            if (!url) {
                std::fprintf(stderr, "%s\n", qPrintable(url.error().toString()));
                return -1;
            }
            QString target = dbText;
            const bool pg = url->driver == DbUrl::Driver::Postgres;
            if (pg) {
                url->schema =
                    QStringLiteral("bench_import_%1_%2").arg(QCoreApplication::applicationPid()).arg(++k);
                target += (target.contains(QLatin1Char('?')) ? QStringLiteral("&schema=")
                                                             : QStringLiteral("?schema=")) +
                          url->schema;
                if (const QString e = dropSchema(*url); !e.isEmpty()) {
                    std::fprintf(stderr, "%s\n", qPrintable(e));
                    return -1;
                }
            } else {
                QFile::remove(url->path);
                QFile::remove(url->path + QStringLiteral("-wal"));
                QFile::remove(url->path + QStringLiteral("-shm"));
            }
            const QStringList cmd{bin, QStringLiteral("import"), QStringLiteral("--db"), target, csv};
            const Child first = run(cmd);
            const Child again = firstOnly ? Child{0, 0, 0} : run(cmd);
            failures += (first.status != 0) + (again.status != 0);
            out() << (pg ? QStringLiteral("PostgreSQL") : QStringLiteral("SQLite")).leftJustified(13)
                  << bin.right(46).leftJustified(48) << cell(first, rows).leftJustified(52) << "  "
                  << cell(again, rows) << '\n';
            out().flush();
            if (pg)
                dropSchema(*url);
            else
                QFile::remove(url->path);
        }
    }
    return failures;
}

int usage() {
    std::fprintf(stderr,
                 "usage: bench_import [--shape demo|long|both] [--rows N] [--long-rows M] [--csv FILE] "
                 "[--bin GPUQUOTA]... [--db URL]... [--first-only]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    qint64 rows = 1'000'000, longRows = 200'000;
    QString csv, shape = QStringLiteral("both");
    QStringList bins, dbs;
    QStringList args = app.arguments().mid(1);
    // --first-only: skip the re-import (an old build may take long for it).
    const bool firstOnly = args.removeAll(QStringLiteral("--first-only")) > 0;
    if (args.size() % 2)
        return usage();
    for (qsizetype i = 0; i + 1 < args.size(); i += 2) {
        const QString &k = args[i], &v = args[i + 1];
        if (k == QLatin1String("--rows"))
            rows = v.toLongLong();
        else if (k == QLatin1String("--long-rows"))
            longRows = v.toLongLong();
        else if (k == QLatin1String("--shape"))
            shape = v;
        else if (k == QLatin1String("--csv"))
            csv = v;
        else if (k == QLatin1String("--bin"))
            bins << v;
        else if (k == QLatin1String("--db"))
            dbs << v;
        else
            return usage();
    }
    const QStringList shapes{QStringLiteral("demo"), QStringLiteral("long"), QStringLiteral("both")};
    if (rows <= 0 || longRows <= 0 || !shapes.contains(shape) ||
        (shape == QLatin1String("both") && !csv.isEmpty()))
        return usage();
    if (bins.isEmpty())
        bins << app.applicationDirPath() + QStringLiteral("/gpuquota");
    if (dbs.isEmpty()) {
        dbs << QStringLiteral("sqlite:///tmp/bench_import.db");
        if (!qEnvironmentVariable("GQ_TEST_PG_URL").isEmpty())
            dbs << qEnvironmentVariable("GQ_TEST_PG_URL");
    }
    int failures = 0;
    for (const bool longShape : {false, true}) {
        if (shape != QLatin1String("both") && (shape == QLatin1String("long")) != longShape)
            continue;
        const qint64 asked = longShape ? longRows : rows;
        const QString file = !csv.isEmpty()
                                 ? csv
                                 : QStringLiteral("/tmp/bench_import_%1_%2.csv")
                                       .arg(longShape ? QStringLiteral("long") : QStringLiteral("demo"))
                                       .arg(asked);
        const qint64 n = prepareCsv(file, longShape, asked);
        if (n < 0)
            return 1;
        out() << "\nshape: " << (longShape ? "long (1-12 h intervals)" : "demo") << ", rows: " << n << '\n';
        out() << "backend      binary                                          first import (wall, child's "
                 "cpu, peak RSS)                 re-import (unchanged)\n";
        out().flush();
        const int f = runShape(file, n, bins, dbs, firstOnly);
        if (f < 0)
            return 2;
        failures += f;
    }
    return failures ? 1 : 0;
}
