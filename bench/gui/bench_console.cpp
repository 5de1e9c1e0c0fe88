// Responsiveness of the console at scale: the test cluster with N namespaces (each
// with a ResourceQuota and a LimitRange) and M pods; the real namespace panel
// (model, filter proxy, view) and cluster session, offscreen. Prints:
//   * the worst GUI-thread stall during the initial sync and under a stream of
//     watch events, measured by a 5 ms timer that records how late it fires;
//   * how long filtering and sorting the namespace list take.
//
//   bench_console [--namespaces 20000] [--pods 50000] [--events 2000]

#include "models/clustersession.h"
#include "models/namespacelistmodel.h"
#include "testclusterprocess.h"
#include "widgets/namespacepanel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <atomic>
#include <cstdio>

using namespace gq;

namespace {

// Fires every 5 ms; lateness beyond that is time the event loop could not run.
class StallProbe : public QObject {
public:
    StallProbe() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0)
                m_worst = std::max(m_worst, (now - m_last) / 1000000.0 - 5.0);
            m_last = now;
        });
    }
    void start() {
        m_worst = 0;
        m_last = 0;
        m_clock.start();
        m_timer.start();
    }
    double stop() {
        m_timer.stop();
        return m_worst;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_worst = 0;
};

void pump(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

int argValue(const QStringList &args, const QString &name, int fallback) {
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
}

} // namespace

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen")).toUtf8());
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int namespaces = argValue(args, QStringLiteral("--namespaces"), 20000);
    const int pods = argValue(args, QStringLiteral("--pods"), 50000);
    const int events = argValue(args, QStringLiteral("--events"), 2000);

    test::TestClusterProcess::Options opts;
    opts.extraArguments = {QStringLiteral("--scale-namespaces"), QString::number(namespaces),
                           QStringLiteral("--scale-pods"), QString::number(pods)};
    opts.startTimeoutMs = 300000;
    test::TestClusterProcess cluster(opts);
    QElapsedTimer startClock;
    startClock.start();
    if (!cluster.start()) {
        std::fprintf(stderr, "test cluster: %s\n", qPrintable(cluster.errorString()));
        return 1;
    }
    std::printf("cluster: %d namespaces, %d pods, ready in %lld ms\n", namespaces, pods,
                static_cast<long long>(startClock.elapsed()));

    NamespaceListModel model;
    ClusterSession session(&model);
    NamespacePanel panel(&model);
    panel.resize(900, 700);
    panel.show();

    // How much of the worst stall is the model swap (reset + proxy sort + view layout).
    QElapsedTimer resetClock;
    double worstReset = 0;
    QObject::connect(&model, &QAbstractItemModel::modelAboutToBeReset, [&] { resetClock.start(); });
    QObject::connect(&model, &QAbstractItemModel::modelReset,
                     [&] { worstReset = std::max(worstReset, resetClock.nsecsElapsed() / 1e6); });

    StallProbe probe;
    probe.start();
    QElapsedTimer sync;
    sync.start();
    bool synced = false;
    QObject::connect(&session, &ClusterSession::synced, [&] { synced = true; });
    session.connectTo(cluster.kubeconfigPath(), QStringLiteral("admin"));
    while (!synced && sync.elapsed() < 300000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 syncMs = sync.elapsed();
    pump(500); // paint and settle after the reset
    const double syncStall = probe.stop();
    std::printf(
        "initial sync: %lld ms to a full list of %d rows; worst GUI stall %.1f ms (model reset %.1f ms)\n",
        static_cast<long long>(syncMs), model.rowCount(), syncStall, worstReset);

    // Filter as you type: each keystroke filters synchronously, then the view repaints.
    auto *filter = panel.filterEdit();
    double worstFilter = 0;
    for (const QString &text :
         {QStringLiteral("s"), QStringLiteral("sc"), QStringLiteral("scale-1"), QStringLiteral("scale-19"),
          QStringLiteral("scale-199"), QStringLiteral("scale-1"), QString()}) {
        QElapsedTimer t;
        t.start();
        filter->setText(text);
        panel.view()->viewport()->repaint();
        worstFilter = std::max(worstFilter, t.nsecsElapsed() / 1e6);
    }
    std::printf("filter: worst keystroke %.1f ms (text change + repaint, %d rows)\n", worstFilter,
                model.rowCount());

    double worstSort = 0;
    for (int col = 0; col < NamespaceListModel::ColumnCount; ++col) {
        for (Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            QElapsedTimer t;
            t.start();
            panel.view()->sortByColumn(col, order);
            panel.view()->viewport()->repaint();
            const double ms = t.nsecsElapsed() / 1e6;
            worstSort = std::max(worstSort, ms);
            std::printf("sort column %d %s: %.1f ms\n", col, order == Qt::AscendingOrder ? "asc" : "desc",
                        ms);
        }
    }
    std::printf("sort: worst %.1f ms\n", worstSort);

    // A stream of watch events: another thread rewrites quotas as fast as the
    // server accepts them while the window keeps its list current.
    std::atomic<int> written{0};
    std::atomic<bool> stop{false};
    QThread *writer = QThread::create([&] {
        auto client = KubeClient::fromKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"));
        if (!client)
            return;
        const int width = QString::number(namespaces).size();
        for (int i = 0; i < events && !stop; ++i) {
            const QString ns =
                QStringLiteral("scale-%1").arg((i * 7919) % namespaces, width, 10, QLatin1Char('0'));
            QJsonObject hard{{QStringLiteral("requests.nvidia.com/gpu"), QString::number(4 + i % 8)}};
            QJsonObject patch{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("hard"), hard}}}};
            auto f =
                (*client)->mergePatch(KubeResource::resourceQuotas(), ns, QStringLiteral("gpu-quota"), patch);
            f.waitForFinished();
            if (f.result())
                ++written;
        }
    });
    probe.start();
    QElapsedTimer stream;
    stream.start();
    writer->start();
    while (!writer->isFinished())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    pump(1000); // the last batches arrive
    const double streamStall = probe.stop();
    stop = true;
    writer->wait();
    delete writer;
    std::printf("watch stream: %d quota updates in %lld ms (%.0f/s); worst GUI stall %.1f ms\n",
                written.load(), static_cast<long long>(stream.elapsed()),
                written.load() * 1000.0 / std::max<qint64>(1, stream.elapsed()), streamStall);
    session.disconnectFromCluster();
    return 0;
}
