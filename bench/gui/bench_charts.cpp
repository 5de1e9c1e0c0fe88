// Usage charts at the benchmark's scale (a year of synthetic usage, 2,000 users,
// 200 namespaces; 10 M intervals by default): the cluster dashboard over 90 days
// per day — the chart query on the chart service's thread, then "data arrived" (the
// result reaches the GUI thread) to "chart painted" (stack, tables and a synchronous
// repaint of the page) — and the namespace tab switching between namespaces, end to
// end from setNamespace() to the painted chart. Prints figures; not a test.
//
//   QT_QPA_PLATFORM=offscreen bench_charts --db /tmp/charts-bench.db [--intervals N] [--reuse]
//       [--runs R]
//
// The database is generated on first use (the same generator and spec as bench_usage,
// ending 2026-06-01, rollups in UTC) and reused with --reuse.

#include "widgets/usage/clusterusagepage.h"
#include "app/demo/demodata.h"
#include "widgets/usage/namespaceusagepage.h"
#include "models/usage/usagechartmodel.h"
#include "services/usage/usagechartservice.h"
#include "widgets/usage/usagerangebar.h"
#include "core/usage/usagestore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTextStream>

#include <algorithm>
#include <chrono>

using namespace gq;

namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

QString loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("?");
    return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

QString stats(QList<double> v) {
    std::sort(v.begin(), v.end());
    if (v.isEmpty())
        return QStringLiteral("-");
    return QStringLiteral("median %1 ms, p90 %2 ms, max %3 ms (%4 runs)")
        .arg(v.at(v.size() / 2), 0, 'f', 1)
        .arg(v.at(std::min<qsizetype>(v.size() - 1, v.size() * 9 / 10)), 0, 'f', 1)
        .arg(v.last(), 0, 'f', 1)
        .arg(v.size());
}

double msSince(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

bool generate(const QString &url, qint64 intervals) {
    auto opened = UsageStore::open(url);
    if (!opened) {
        out() << "error: " << opened.error().toString() << '\n';
        return false;
    }
    UsageStore &store = **opened;
    if (*store.intervalCount() > 0) {
        out() << "database not empty; use --reuse\n";
        return false;
    }
    DemoSpec spec;
    spec.users = 2000;
    spec.namespaces = 200;
    spec.days = 365;
    spec.end = *parseInstant(QStringLiteral("2026-06-01T00:00:00Z"));
    spec.jobsPerUserDay = double(intervals) / (2000.0 * 365);
    QElapsedTimer t;
    t.start();
    auto load = store.beginBulk(intervals);
    if (!load)
        return false;
    bool ok = true;
    generateDemoUsage(
        spec,
        [&](std::vector<UsageInterval> &&chunk) {
            ok = bool((*load)->add(chunk));
            return ok;
        },
        100000);
    if (!ok || !(*load)->finish())
        return false;
    out() << "generated " << *store.intervalCount() << " intervals in " << t.elapsed() / 1000 << " s\n"
          << Qt::flush;
    return true;
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const auto value = [&](const QString &name, const QString &fallback) {
        const int i = args.indexOf(name);
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    const QString path = value(QStringLiteral("--db"), QStringLiteral("/tmp/charts-bench.db"));
    const qint64 intervals = value(QStringLiteral("--intervals"), QStringLiteral("10000000")).toLongLong();
    const int runs = value(QStringLiteral("--runs"), QStringLiteral("10")).toInt();
    const QString url = QStringLiteral("sqlite://") + path;
    if (!args.contains(QStringLiteral("--reuse")) && !generate(url, intervals))
        return 1;

    UsageChartService service;
    QSignalSpy opened(&service, &UsageChartService::opened);
    service.open(url);
    if (!opened.wait(60000))
        return 2;
    out() << "load " << loadAverage() << ", platform " << QApplication::platformName() << '\n';

    // 1. The dashboard, 90 days per day, every namespace (top 10 + others drawn).
    {
        ClusterUsagePage page(&service);
        page.rangeBar()->setZone(QStringLiteral("UTC"));
        page.rangeBar()->setCustomDays(QDate(2026, 3, 3), QDate(2026, 5, 31));
        page.rangeBar()->setPeriod(Period::Day);
        page.resize(1400, 860);
        page.show();
        QList<double> query, paint, total;
        for (int i = 0; i < runs + 1; ++i) {
            QSignalSpy loaded(page.model(), &UsageChartModel::loaded);
            const auto t0 = std::chrono::steady_clock::now();
            page.reload();
            if (!loaded.wait(120000))
                return 3;
            page.repaint(); // the chart painted, synchronously
            const double painted = msSince(page.model()->arrivedAt());
            if (i == 0)
                continue; // the first run warms the page cache
            query << double(page.model()->data().elapsedMs);
            paint << painted;
            total << msSince(t0);
        }
        const ChartData &d = page.model()->data();
        out() << "dashboard 90 d x " << d.totals.size() << " namespaces, " << d.buckets.size() << " buckets, "
              << d.topUsers.size() << " users\n"
              << "  query (chart service thread): " << stats(query) << '\n'
              << "  data arrived -> chart painted: " << stats(paint) << '\n'
              << "  request -> painted: " << stats(total) << '\n'
              << Qt::flush;
    }

    // 2. The namespace tab switching namespace: May per day, and its last day per hour.
    for (const bool hours : {false, true}) {
        NamespaceUsagePage page(&service);
        page.rangeBar()->setZone(QStringLiteral("UTC"));
        page.rangeBar()->setCustomDays(hours ? QDate(2026, 5, 31) : QDate(2026, 5, 1), QDate(2026, 5, 31));
        page.rangeBar()->setPeriod(hours ? Period::Hour : Period::Day);
        page.resize(1000, 800);
        page.show();
        QList<double> total, paint;
        for (int i = 0; i < runs + 1; ++i) {
            QSignalSpy loaded(page.model(), &UsageChartModel::loaded);
            const auto t0 = std::chrono::steady_clock::now();
            page.setNamespace(demoNamespaceName((i * 37) % 200));
            if (!loaded.wait(60000))
                return 4;
            page.repaint();
            if (i == 0)
                continue;
            paint << msSince(page.model()->arrivedAt());
            total << msSince(t0);
        }
        out() << "namespace tab switch (" << (hours ? "one day per hour" : "a month per day") << ", "
              << page.model()->data().totals.size() << " users in the last)\n"
              << "  setNamespace -> painted: " << stats(total) << '\n'
              << "  data arrived -> painted: " << stats(paint) << '\n'
              << Qt::flush;
    }
    out() << "load " << loadAverage() << '\n';
    return 0;
}
