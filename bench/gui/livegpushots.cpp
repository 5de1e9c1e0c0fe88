// Takes the Live GPU page's README screenshots: the real page and monitor reading a real
// Prometheus (which scrapes gq-test-exporter), grabbed offscreen in three states: the
// table with sparklines and the namespace chart, the tiles, and the idle list.
//
//   livegpu_screenshots --prometheus http://127.0.0.1:9090 --out docs/screenshots [--lang zh_CN]
//                       [--idle-minutes 10]
//
// The Prometheus needs some minutes of history for the sparklines and the idle list
// (docs/screenshots/README.md says how the shots were taken).

#include "services/livegpus/gpumonitor.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "bench/gui/shotsetup.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QToolButton>

#include <cstdio>
#include <functional>

using namespace gq;

namespace {
bool waitUntil(const std::function<bool()> &done, int ms = 20000) {
    return shots::waitUntil(done, ms);
}
} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString lang = shots::arg(args, QStringLiteral("--lang"), QStringLiteral("en"));
    const QString out = shots::arg(args, QStringLiteral("--out"), QStringLiteral("docs/screenshots"));
    const QString url = shots::arg(args, QStringLiteral("--prometheus"), QString());
    if (url.isEmpty()) {
        std::fprintf(stderr, "usage: livegpu_screenshots --prometheus URL [--out DIR] [--lang zh_CN]\n");
        return 2;
    }
    shots::Language language(lang, QStringLiteral(GQ_QM_DIR));
    const QString suffix = lang == QLatin1String("en") ? QString() : QLatin1Char('-') + lang;

    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    metrics::IdleOptions idle;
    idle.minIdleMs =
        shots::arg(args, QStringLiteral("--idle-minutes"), QStringLiteral("10")).toLongLong() * 60000;
    page.setIdleOptions(idle);
    metrics::PrometheusConfig config;
    config.url = url;
    monitor.setSource(GpuMonitor::Source::prometheusAt(config));
    page.resize(1280, 820);
    page.show();
    bool history = false, idleShown = false;
    QObject::connect(&monitor, &GpuMonitor::historyAvailable, &page, [&] { history = true; });
    QObject::connect(&monitor, &GpuMonitor::idleAvailable, &page, [&] { idleShown = true; });
    monitor.start(5000);
    page.refreshHistory();
    if (!waitUntil([&] { return page.model()->rowCount() > 0 && history && idleShown; })) {
        std::fprintf(stderr, "no GPU readings, history or idle list from %s\n", qPrintable(url));
        return 1;
    }
    waitUntil([] { return false; }, 500); // the chart lays out
    auto save = [&](const QString &name) {
        const QString path = out + QLatin1Char('/') + name + suffix + QStringLiteral(".png");
        if (!page.grab().save(path)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
            return false;
        }
        std::printf("%s\n", qPrintable(path));
        return true;
    };
    bool ok = save(QStringLiteral("live-gpus"));
    page.setTileView(true);
    waitUntil([] { return false; }, 300);
    ok = save(QStringLiteral("live-gpus-tiles")) && ok;
    page.setTileView(false);
    page.findChild<QTabWidget *>(QStringLiteral("liveGpuTabs"))->setCurrentIndex(1);
    waitUntil([] { return false; }, 300);
    ok = save(QStringLiteral("idle-gpus")) && ok;
    return ok ? 0 : 1;
}
