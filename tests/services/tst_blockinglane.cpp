// BlockingLane, the controller's way to the usage database from its HTTP handler threads
// (admission webhook, self-service), against real SQLite files: what StoreThread did
// before it. The store is opened on the lane's thread by the first job, not before, and
// reused; a job's Database error drops it and the next job opens a new one; after a
// failed open, jobs fail at once with its error for reopenMs, then the next one retries;
// callers on plain threads (the server's workers) each get their own answers, and the
// lane runs the jobs one at a time, each caller's in order.

#include "services/usage/blockinglane.h"

#include "core/usage/usagestore.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>
#include <vector>

using namespace gq;

class TestBlockingLane : public QObject {
    Q_OBJECT
private slots:
    void init();
    void opensOnTheLaneAtFirstUseAndReuses();
    void databaseErrorDropsTheStore();
    void failedOpenFailsFastUntilReopenMs();
    void noOpenerIsAConfigError();
    void callersOnPlainThreadsGetTheirOwnAnswersInOrder();

private:
    // An opener of a SQLite file in the test's directory that counts its calls and says
    // on which thread it ran.
    StoreWorker::Opener opener() {
        return [this]() -> Result<std::unique_ptr<UsageStore>> {
            ++m_opens;
            m_openThread = QThread::currentThread();
            return UsageStore::open(QStringLiteral("sqlite://") + m_dir->filePath(QStringLiteral("u.db")));
        };
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::atomic<int> m_opens{0};
    std::atomic<QThread *> m_openThread{nullptr};
};

void TestBlockingLane::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_opens = 0;
    m_openThread = nullptr;
}

void TestBlockingLane::opensOnTheLaneAtFirstUseAndReuses() {
    BlockingLane lane(opener(), QStringLiteral("lane-x"));
    QThread::msleep(50);
    QCOMPARE(m_opens.load(), 0); // nothing opened before the first job

    QThread *ranOn = nullptr;
    const UsageStore *first = nullptr;
    auto r = lane.run<int>([&](UsageStore &store) -> Result<int> {
        ranOn = QThread::currentThread();
        first = &store;
        return 1;
    });
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(*r, 1);
    QCOMPARE(m_opens.load(), 1);
    QVERIFY(ranOn != QThread::currentThread());
    QCOMPARE(ranOn->objectName(), QStringLiteral("lane-x"));
    QCOMPARE(m_openThread.load(), ranOn); // opened on the thread that uses it

    const UsageStore *second = nullptr;
    auto again = lane.run<void>([&](UsageStore &store) -> Result<void> {
        second = &store;
        return Error::make(Error::Kind::Invalid, QStringLiteral("not the database's fault"));
    });
    QVERIFY(!again);
    QCOMPARE(again.error().kind, Error::Kind::Invalid);
    QCOMPARE(second, first);
    QVERIFY(lane.run<int>([](UsageStore &) -> Result<int> { return 2; }));
    QCOMPARE(m_opens.load(), 1); // an error that is not the database's keeps the store
}

void TestBlockingLane::databaseErrorDropsTheStore() {
    BlockingLane lane(opener(), QStringLiteral("lane-x"));
    auto lost = lane.run<void>([](UsageStore &) -> Result<void> {
        return Error::make(Error::Kind::Database, QStringLiteral("server closed the connection"));
    });
    QVERIFY(!lost);
    QCOMPARE(lost.error().message, QStringLiteral("server closed the connection"));
    QCOMPARE(m_opens.load(), 1);
    auto next = lane.run<int>([](UsageStore &) -> Result<int> { return 3; });
    QVERIFY(next);
    QCOMPARE(m_opens.load(), 2); // opened again at once: the open itself had not failed
}

void TestBlockingLane::failedOpenFailsFastUntilReopenMs() {
    std::atomic<int> tries{0};
    const int reopenMs = 400;
    BlockingLane lane(
        [&tries]() -> Result<std::unique_ptr<UsageStore>> {
            ++tries;
            return Error::make(Error::Kind::Database,
                               QStringLiteral("connection refused (try %1)").arg(tries));
        },
        QStringLiteral("lane-x"), reopenMs);
    const auto job = [](UsageStore &) -> Result<int> { return 1; };
    QElapsedTimer since;
    since.start();
    auto first = lane.run<int>(job);
    QVERIFY(!first);
    QCOMPARE(first.error().message, QStringLiteral("connection refused (try 1)"));
    auto fast = lane.run<int>(job);
    if (since.elapsed() < reopenMs) { // a loaded machine may have taken longer
        QVERIFY(!fast);
        QCOMPARE(fast.error().message, QStringLiteral("connection refused (try 1)")); // the last error
        QCOMPARE(tries.load(), 1);
    }
    QThread::msleep(reopenMs + 50);
    auto retried = lane.run<int>(job);
    QVERIFY(!retried);
    QVERIFY(tries.load() >= 2);
    QCOMPARE(retried.error().message, QStringLiteral("connection refused (try %1)").arg(tries.load()));
}

void TestBlockingLane::noOpenerIsAConfigError() {
    BlockingLane lane(StoreWorker::Opener(), QStringLiteral("lane-x"));
    auto r = lane.run<int>([](UsageStore &) -> Result<int> { return 1; });
    QVERIFY(!r);
    QCOMPARE(r.error().kind, Error::Kind::Config);
}

void TestBlockingLane::callersOnPlainThreadsGetTheirOwnAnswersInOrder() {
    BlockingLane lane(opener(), QStringLiteral("lane-x"));
    constexpr int kCallers = 4;
    constexpr int kJobs = 50;
    std::vector<std::pair<int, int>> ran; // (caller, job) in the order the lane ran them
    std::atomic<int> wrong{0};
    std::atomic<int> inside{0};
    std::atomic<int> overlapped{0};
    std::vector<std::thread> callers; // plain threads, as the HTTP server's workers are
    for (int c = 0; c < kCallers; ++c)
        callers.emplace_back([&, c] {
            for (int j = 0; j < kJobs; ++j) {
                auto r = lane.run<int>([&, c, j](UsageStore &) -> Result<int> {
                    if (inside.fetch_add(1) != 0)
                        ++overlapped;
                    ran.emplace_back(c, j); // the lane's thread only: one job at a time
                    QThread::usleep(100);
                    --inside;
                    return c * 1000 + j;
                });
                if (!r || *r != c * 1000 + j)
                    ++wrong;
            }
        });
    for (std::thread &t : callers)
        t.join();
    QCOMPARE(wrong.load(), 0);
    QCOMPARE(overlapped.load(), 0);
    QCOMPARE(int(ran.size()), kCallers * kJobs);
    std::vector<int> next(kCallers, 0);
    for (const auto &[c, j] : ran) {
        QCOMPARE(j, next[std::size_t(c)]);
        ++next[std::size_t(c)];
    }
    QCOMPARE(m_opens.load(), 1);
}

QTEST_GUILESS_MAIN(TestBlockingLane)
#include "tst_blockinglane.moc"
