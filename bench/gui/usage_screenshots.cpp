// Takes the README screenshots of the usage charts: the real console on the demo
// cluster and its seeded usage database, driven to the cluster dashboard, a
// namespace's chart with its budget line, and the drill-down behind a bar, each
// captured from the X server with ImageMagick's `import -window root`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" usage_screenshots --out docs/screenshots --lang zh_CN

#include "widgets/usage/clusterusagepage.h"
#include "bench/gui/democonsole.h"
#include "widgets/usage/drilldowndialog.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/usage/namespaceusagepage.h"
#include "widgets/charts/usagechart.h"
#include "models/usage/usagechartmodel.h"
#include "widgets/usage/usagechartpanel.h"
#include "widgets/usage/usagerangebar.h"

#include <QApplication>
#include <QDateTime>

using namespace gq;

namespace {
using shots::waitUntil;

bool shoot(const QString &file) {
    return shots::shootScreen(file, 700);
}

bool loaded(UsageChartModel *m) {
    return waitUntil([m] { return m->hasData() && !m->isLoading(); });
}
} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const shots::Options options(app.arguments());
    const QString zone = shots::arg(app.arguments(), QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"));
    shots::DemoConsole console;
    if (!console.start() || !console.seedUsage(QDateTime::currentSecsSinceEpoch(), QTimeZone(zone.toUtf8())))
        return 1;
    MainWindow &w = console.window();
    if (!console.show())
        return 2;

    // 1. The cluster dashboard: this month per day, in the demo's zone.
    auto *dashboard = w.findChild<ClusterUsagePage *>();
    console.showTab(dashboard);
    dashboard->rangeBar()->setZone(zone);
    dashboard->rangeBar()->setPreset(RangePreset::Last90Days);
    dashboard->rangeBar()->setPeriod(Period::Week);
    dashboard->reload();
    if (!loaded(dashboard->model()))
        return 3;
    shoot(options.file(QStringLiteral("usage-dashboard")));

    // 2. team-nlp today, by the hour, with its daily budget line.
    auto *nsPage = w.findChild<NamespaceUsagePage *>();
    console.showTab(nsPage);
    w.namespacePanel()->selectNamespace(QStringLiteral("team-nlp"));
    nsPage->rangeBar()->setZone(zone);
    nsPage->rangeBar()->setPreset(RangePreset::Today);
    nsPage->reload();
    if (!loaded(nsPage->model()))
        return 4;
    shoot(options.file(QStringLiteral("usage-namespace-budget")));

    // 3. The intervals behind one bar of the dashboard (this week, team-nlp).
    console.showTab(dashboard);
    dashboard->rangeBar()->setPreset(RangePreset::Last7Days);
    dashboard->reload();
    if (!loaded(dashboard->model()))
        return 5;
    const int buckets = int(dashboard->usagePanel()->chart()->chart().categories.size());
    DrillDownDialog *drill = dashboard->usagePanel()->openDrillDown(std::max(0, buckets - 2), 0);
    if (!drill || !waitUntil([drill] { return drill->isLoaded(); }))
        return 6;
    drill->setGeometry(160, 160, 1080, 380);
    shoot(options.file(QStringLiteral("usage-drilldown")));
    return 0;
}
