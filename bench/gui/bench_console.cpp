// Responsiveness of the console at scale: the test cluster with N namespaces (each
// with a ResourceQuota and a LimitRange) and M pods; the real namespace panel
// (model, filter proxy, view) and cluster session, offscreen. Prints:
//   * the worst GUI-thread stall during the initial sync and under a stream of
//     watch events, measured by a 5 ms timer that records how late it fires;
//   * how long filtering and sorting the namespace list take.
//
//   bench_console [--namespaces 20000] [--pods 50000] [--events 2000] [--trace-stalls MS]
//                 [--server-nice N] [--stall-states]
//
// --trace-stalls prints every GUI-thread event delivery slower than MS with its
// receiver, wall and CPU time; the stall figures carry the GUI thread's own CPU time
// inside the worst stall, which tells work on this thread from waiting for a core.
// --server-nice runs the test cluster (the stand-in for a remote API server) at a
// lower priority, so it does not compete with the console for the same two cores.

#include "services/cluster/clusterconnection.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "tests/testclusterprocess.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>

#include <chrono>
#include <mutex>
#include <thread>

#include <csignal>

#include <execinfo.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace gq;

namespace {

// CPU time of the calling thread: a stall with little CPU in it was the scheduler
// (two shared cores), not work on this thread.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Linux: how long this thread has waited, runnable, for a core (the second field of
// /proc/thread-self/schedstat, in ns); -1 where that is not available.
double runQueueWaitMs() {
    const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY);
    if (fd < 0)
        return -1;
    char buf[128] = {};
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    unsigned long long run = 0, wait = 0;
    if (n <= 0 || std::sscanf(buf, "%llu %llu", &run, &wait) != 2)
        return -1;
    return double(wait) / 1e6;
}

// Fires every 5 ms; lateness beyond that is time the event loop could not run.
// With --stall-states: a watchdog thread samples what the GUI thread is doing
// (its scheduler state and kernel wait channel from /proc) whenever the probe's
// timer is more than 20 ms overdue, and tallies it: R is runnable (waiting for a
// core), S/D is blocked (and wchan says on what).
// The GUI thread's stack, captured by a signal the sampler sends while that thread
// is blocked: names the lock it waits for.
void *g_stack[32];
std::atomic<int> g_stackDepth{-1};
void captureStack(int) {
    g_stackDepth = backtrace(g_stack, 32);
}

class StallSampler {
public:
    explicit StallSampler(std::atomic<qint64> *lastTickNs)
        : m_lastTick(lastTickNs)
        , m_tid(int(syscall(SYS_gettid))) {}
    void start() {
        void *warm[2];
        backtrace(warm, 2); // loads the unwinder now, not inside the signal handler
        std::signal(SIGUSR1, &captureStack);
        m_stop = false;
        m_thread = std::thread([this] { run(); });
    }
    void stop() {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    void print(const char *phase) {
        std::lock_guard lock(m_mutex);
        QList<QPair<int, QString>> rows;
        for (auto it = m_counts.cbegin(); it != m_counts.cend(); ++it)
            rows.append({it.value(), it.key()});
        std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
        std::printf("%s: GUI thread while stalled (2 ms samples):", phase);
        for (int i = 0; i < rows.size() && i < 6; ++i)
            std::printf(" %s x%d", qPrintable(rows.at(i).second), rows.at(i).first);
        std::printf("\n");
        for (auto it = m_where.cbegin(); it != m_where.cend(); ++it)
            std::printf("  blocked x%d in: %s\n", it.value(), qPrintable(it.key()));
        m_counts.clear();
        m_where.clear();
    }

private:
    static QByteArray slurp(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray();
    }
    void run() {
        const QString base = QStringLiteral("/proc/self/task/%1/").arg(m_tid);
        while (!m_stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
            timespec ts{};
            clock_gettime(CLOCK_MONOTONIC, &ts);
            const qint64 now = qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
            const qint64 last = m_lastTick->load();
            if (last == 0 || now - last < 25000000)
                continue;
            const QByteArray stat = slurp(base + QStringLiteral("stat"));
            const qsizetype close = stat.lastIndexOf(')');
            const QByteArray state = close > 0 ? stat.mid(close + 2, 1) : QByteArray("?");
            const QByteArray wchan = slurp(base + QStringLiteral("wchan"));
            const QString key =
                QString::fromLatin1(state) + QLatin1Char('/') +
                (wchan.isEmpty() || wchan == "0" ? QStringLiteral("-") : QString::fromLatin1(wchan));
            QString where;
            if (state == "S" && m_stacks < 40) {
                ++m_stacks;
                g_stackDepth = -1;
                syscall(SYS_tgkill, getpid(), m_tid, SIGUSR1);
                for (int i = 0; i < 50 && g_stackDepth.load() < 0; ++i)
                    std::this_thread::sleep_for(std::chrono::microseconds(200));
                const int depth = g_stackDepth.load();
                if (depth > 0) {
                    char **names = backtrace_symbols(g_stack, depth);
                    QStringList frames;
                    for (int i = 2; i < depth && frames.size() < 7; ++i) {
                        QString f = QString::fromLocal8Bit(names[i]);
                        f = f.section(QLatin1Char('('), 1).section(QLatin1Char('+'), 0, 0);
                        if (!f.isEmpty())
                            frames << f;
                    }
                    std::free(names);
                    where = frames.join(QLatin1String(" < "));
                }
            }
            std::lock_guard lock(m_mutex);
            ++m_counts[key];
            if (!where.isEmpty())
                ++m_where[where];
        }
    }
    std::atomic<qint64> *m_lastTick;
    int m_tid;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::mutex m_mutex;
    QHash<QString, int> m_counts;
    QHash<QString, int> m_where;
    int m_stacks = 0;
};

class StallProbe : public QObject {
public:
    StallProbe() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            timespec ts{};
            clock_gettime(CLOCK_MONOTONIC, &ts);
            lastTickNs = qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
            const qint64 now = m_clock.nsecsElapsed();
            const double cpu = threadCpuMs();
            const double wait = runQueueWaitMs();
            if (m_last > 0) {
                const double late = (now - m_last) / 1000000.0 - 5.0;
                if (late > m_worst) {
                    m_worst = late;
                    m_worstCpu = cpu - m_lastCpu;
                    m_worstWait = wait < 0 ? -1 : wait - m_lastWait;
                }
            }
            m_last = now;
            m_lastCpu = cpu;
            m_lastWait = wait;
        });
    }
    void start() {
        m_worst = 0;
        m_worstCpu = 0;
        m_worstWait = 0;
        m_last = 0;
        m_clock.start();
        m_timer.start();
    }
    double stop() {
        m_timer.stop();
        lastTickNs = 0; // the sampler only looks while the probe runs
        return m_worst;
    }
    // GUI-thread CPU time spent inside the worst stall's interval.
    [[nodiscard]] double worstCpu() const { return m_worstCpu; }
    std::atomic<qint64> lastTickNs{0}; // CLOCK_MONOTONIC of the last tick, for StallSampler
    // Time the GUI thread sat runnable without a core inside the worst stall (-1: unknown).
    [[nodiscard]] double worstRunQueueWait() const { return m_worstWait; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    double m_worst = 0;
    double m_lastCpu = 0;
    double m_worstCpu = 0;
    double m_lastWait = 0;
    double m_worstWait = 0;
};

// With --trace-stalls: every event delivery on the GUI thread that takes longer than
// the threshold is printed with its receiver and event type, so a stall can be pinned
// to the handler that caused it without a profiler.
class TracingApplication final : public QApplication {
public:
    using QApplication::QApplication;
    double thresholdMs = -1; // < 0: off
    bool notify(QObject *receiver, QEvent *event) override {
        if (thresholdMs < 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        QElapsedTimer t;
        t.start();
        const double cpu0 = threadCpuMs();
        const int type = int(event->type());
        const char *cls = receiver ? receiver->metaObject()->className() : "?";
        const QString name = receiver ? receiver->objectName() : QString();
        const bool r = QApplication::notify(receiver, event);
        const double ms = t.nsecsElapsed() / 1e6;
        if (ms >= thresholdMs)
            std::fprintf(stderr, "[stall] %7.1f ms (%.1f ms CPU)  event %d -> %s \"%s\"\n", ms,
                         threadCpuMs() - cpu0, type, cls, qPrintable(name));
        return r;
    }
};

void pump(int ms) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
}

// Lowers the priority of every thread of our child processes (the test cluster,
// which stands in for an API server that would run on another machine, not on the
// admin's desktop next to the console).
int reniceChildren(int niceness) {
    int threads = 0;
    const QString self = QString::number(getpid());
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'.
        const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || QString::fromLatin1(fields.at(1)) != self)
            continue;
        for (const QString &tid : QDir(QStringLiteral("/proc/%1/task").arg(pid)).entryList(QDir::Dirs)) {
            if (tid.startsWith(QLatin1Char('.')))
                continue;
            if (setpriority(PRIO_PROCESS, id_t(tid.toInt()), niceness) == 0)
                ++threads;
        }
    }
    return threads;
}

int argValue(const QStringList &args, const QString &name, int fallback) {
    const int i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1).toInt() : fallback;
}

} // namespace

int main(int argc, char **argv) {
    qputenv("QT_QPA_PLATFORM", qEnvironmentVariable("QT_QPA_PLATFORM", QStringLiteral("offscreen")).toUtf8());
    TracingApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (const int i = args.indexOf(QStringLiteral("--trace-stalls")); i >= 0)
        app.thresholdMs = i + 1 < args.size() ? args.at(i + 1).toDouble() : 20.0;
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
    if (const int nice = argValue(args, QStringLiteral("--server-nice"), 0); nice > 0)
        std::printf("test cluster reniced to %d (%d threads)\n", nice, reniceChildren(nice));

    NamespaceListModel model;
    ClusterConnection session;
    model.follow(&session);
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
    StallSampler sampler(&probe.lastTickNs);
    const bool sampleStates = args.contains(QStringLiteral("--stall-states"));
    if (sampleStates)
        sampler.start();
    probe.start();
    QElapsedTimer sync;
    sync.start();
    bool synced = false;
    QObject::connect(&session, &ClusterConnection::synced, [&] { synced = true; });
    session.connectTo(cluster.kubeconfigPath(), QStringLiteral("admin"));
    while (!synced && sync.elapsed() < 300000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    const qint64 syncMs = sync.elapsed();
    pump(500); // paint and settle after the reset
    const double syncStall = probe.stop();
    if (sampleStates)
        sampler.print("initial sync");
    std::printf("initial sync: %lld ms to a full list of %d rows; worst GUI stall %.1f ms (in it: GUI-thread "
                "CPU %.1f ms, waiting for a core %.1f ms; model reset %.1f ms)\n",
                static_cast<long long>(syncMs), model.rowCount(), syncStall, probe.worstCpu(),
                probe.worstRunQueueWait(), worstReset);

    // Refresh (F5): every informer lists again from scratch while the old rows stay
    // on screen; the same path as a relist after a 410 or a reconnect.
    {
        worstReset = 0;
        int resets = 0;
        auto counter = QObject::connect(&model, &QAbstractItemModel::modelReset, [&] { ++resets; });
        probe.start();
        QElapsedTimer relist;
        relist.start();
        session.refresh();
        while ((resets == 0 || session.state() != ClusterConnection::State::Live) &&
               relist.elapsed() < 300000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        const qint64 relistMs = relist.elapsed();
        pump(500);
        const double relistStall = probe.stop();
        QObject::disconnect(counter);
        std::printf(
            "refresh (full relist): %lld ms until live again with %d rows; worst GUI stall %.1f ms (in it: "
            "GUI-thread CPU %.1f ms, waiting for a core %.1f ms; model reset %.1f ms)\n",
            static_cast<long long>(relistMs), model.rowCount(), relistStall, probe.worstCpu(),
            probe.worstRunQueueWait(), worstReset);
    }

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
    if (sampleStates) {
        sampler.stop();
        sampler.print("watch stream");
    }
    stop = true;
    writer->wait();
    delete writer;
    std::printf(
        "watch stream: %d quota updates in %lld ms (%.0f/s); worst GUI stall %.1f ms (in it: GUI-thread "
        "CPU %.1f ms, waiting for a core %.1f ms)\n",
        written.load(), static_cast<long long>(stream.elapsed()),
        written.load() * 1000.0 / std::max<qint64>(1, stream.elapsed()), streamStall, probe.worstCpu(),
        probe.worstRunQueueWait());
    session.disconnectFromCluster();
    return 0;
}
