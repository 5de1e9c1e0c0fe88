// Takes the README screenshots of the usage charts: the real console on the demo
// cluster and its seeded usage database, driven to the cluster dashboard, a
// namespace's chart with its budget line, and the drill-down behind a bar, each
// captured from the X server with ImageMagick's `import -window root`.
//
//   xvfb-run -a -s "-screen 0 1400x900x24" usage_screenshots --out docs/screenshots --lang zh_CN

#include "clusterusagepage.h"
#include "consolesettings.h"
#include "demousage.h"
#include "draftstore.h"
#include "drilldowndialog.h"
#include "mainwindow.h"
#include "namespacepanel.h"
#include "namespaceusagepage.h"
#include "shotsetup.h"
#include "testclusterprocess.h"
#include "usagechart.h"
#include "usagechartmodel.h"
#include "usagechartpanel.h"
#include "usagerangebar.h"

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QLibraryInfo>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTranslator>

#include <cstdio>
#include <functional>

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
    const QStringList args = app.arguments();
    const QString out = shots::arg(args, QStringLiteral("--out"), QStringLiteral("."));
    const QString lang = shots::arg(args, QStringLiteral("--lang"), QStringLiteral("en"));
    const QString qmDir = shots::arg(args, QStringLiteral("--qm"), QStringLiteral(GQ_QM_DIR));
    const QString suffix = lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang;
    const QString zone = shots::arg(args, QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"));

    const shots::Language language(lang, qmDir);

    test::TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    test::TestClusterProcess cluster(opts);
    if (!cluster.start()) {
        std::fprintf(stderr, "%s\n", qPrintable(cluster.errorString()));
        return 1;
    }
    QTemporaryDir dir;
    ConsoleSettings settings(dir.filePath(QStringLiteral("s.ini")));
    DraftStore drafts(nullptr, dir.filePath(QStringLiteral("drafts")));
    MainWindow w(&settings, &drafts);
    const QString usageUrl = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
    if (auto seeded = seedDemoUsage(usageUrl, QDateTime::currentSecsSinceEpoch(), QTimeZone(zone.toUtf8()));
        !seeded) {
        std::fprintf(stderr, "demo usage: %s\n", qPrintable(seeded.error().message));
        return 1;
    }
    w.openUsageDatabase(usageUrl);
    w.openKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
    w.setGeometry(0, 0, 1400, 900);
    w.show();
    bool shown = false;
    QObject::connect(&w, &MainWindow::dataShown, [&] { shown = true; });
    if (!waitUntil([&] { return shown; }))
        return 2;
    auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));

    // 1. The cluster dashboard: this month per day, in the demo's zone.
    auto *dashboard = w.findChild<ClusterUsagePage *>();
    tabs->setCurrentWidget(dashboard);
    dashboard->rangeBar()->setZone(zone);
    dashboard->rangeBar()->setPreset(RangePreset::Last90Days);
    dashboard->rangeBar()->setPeriod(Period::Week);
    dashboard->reload();
    if (!loaded(dashboard->model()))
        return 3;
    shoot(out + QStringLiteral("/usage-dashboard") + suffix + QStringLiteral(".png"));

    // 2. team-nlp today, by the hour, with its daily budget line.
    auto *nsPage = w.findChild<NamespaceUsagePage *>();
    tabs->setCurrentWidget(nsPage);
    w.namespacePanel()->selectNamespace(QStringLiteral("team-nlp"));
    nsPage->rangeBar()->setZone(zone);
    nsPage->rangeBar()->setPreset(RangePreset::Today);
    nsPage->reload();
    if (!loaded(nsPage->model()))
        return 4;
    shoot(out + QStringLiteral("/usage-namespace-budget") + suffix + QStringLiteral(".png"));

    // 3. The intervals behind one bar of the dashboard (this week, team-nlp).
    tabs->setCurrentWidget(dashboard);
    dashboard->rangeBar()->setPreset(RangePreset::Last7Days);
    dashboard->reload();
    if (!loaded(dashboard->model()))
        return 5;
    const int buckets = int(dashboard->usagePanel()->chart()->chart().categories.size());
    DrillDownDialog *drill = dashboard->usagePanel()->openDrillDown(std::max(0, buckets - 2), 0);
    if (!drill || !waitUntil([drill] { return drill->isLoaded(); }))
        return 6;
    drill->setGeometry(160, 160, 1080, 380);
    shoot(out + QStringLiteral("/usage-drilldown") + suffix + QStringLiteral(".png"));
    return 0;
}
