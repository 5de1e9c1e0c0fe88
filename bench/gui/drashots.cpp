// The README's DRA screenshots: the demo's team-dra, whose GPUs come from ResourceClaims
// (the GPU column counts gpu.nvidia.com.deviceclass.resource.k8s.io/devices), selected on
// the quota page after one click on the GPU + button (which steps that DRA key).
//
//   xvfb-run -a -s "-screen 0 1400x900x24" dra_screenshots --out docs/screenshots [--lang zh_CN]

#include "bench/gui/democonsole.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "models/quotas/quotatablemodel.h"

#include <QApplication>
#include <QDateTime>
#include <QTabWidget>
#include <QToolButton>

using namespace gq;

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const shots::Options options(app.arguments());
    shots::DemoConsole console;
    if (!console.start())
        return 1;
    MainWindow &w = console.window();
    if (!console.seedUsage(QDateTime::currentSecsSinceEpoch(), QTimeZone::systemTimeZone()))
        return 1;
    if (!console.show())
        return 2;
    w.findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(w.quotaPage());
    w.namespacePanel()->selectNamespace(QStringLiteral("team-dra"));
    QuotaPage *page = w.quotaPage();
    const QString key = QStringLiteral("gpu.nvidia.com.deviceclass.resource.k8s.io/devices");
    shots::waitUntil([&] { return page->model()->isEditable() && page->model()->rowOf(key) >= 0; });
    shots::waitUntil([&] { return !w.session()->identity().isEmpty(); });
    w.findChild<QToolButton *>(QStringLiteral("gpuPlusButton"))->click();
    shots::waitUntil([] { return false; }, 600);
    return shots::shootScreen(options.file(QStringLiteral("dra-namespace")), 600) ? 0 : 3;
}
