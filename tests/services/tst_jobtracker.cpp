#include "core/jobs/jobtracker.h"

#include <QElapsedTimer>
#include <QPromise>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

using namespace gq;

namespace {
// A receiver with its tracker, as in every service and page.
class Receiver : public QObject {
public:
    JobTracker jobs{this};
};

// Work that runs until its token says stop (or 20 s, so a broken token fails, not hangs).
struct LongJob {
    std::shared_ptr<std::atomic<int>> state; // 0 running, 1 saw the flag, 2 ran out of time
    int operator()(const JobToken &token) const {
        QElapsedTimer t;
        t.start();
        while (!token.isCancelled()) {
            if (t.elapsed() > 20000) {
                state->store(2);
                return 2;
            }
            QThread::msleep(1);
        }
        state->store(1);
        return 1;
    }
};
} // namespace

class TestJobTracker : public QObject {
    Q_OBJECT
private slots:
    void plainWorkStillRunsAndDelivers() {
        Receiver r;
        int got = 0;
        r.jobs.run([] { return 42; }, [&](int v) { got = v; });
        QTRY_COMPARE(got, 42);
    }

    void cancelledLongJobSeesTheFlagAndStops() {
        Receiver r;
        auto state = std::make_shared<std::atomic<int>>(0);
        bool delivered = false;
        r.jobs.run(LongJob{state}, [&](int) { delivered = true; });
        QTest::qWait(50);
        QCOMPARE(state->load(), 0); // still running: nothing told it to stop
        r.jobs.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(state->load(), 1, 5000);
        QTest::qWait(50);
        QVERIFY(!delivered); // it stopped early and its answer was dropped all the same
    }

    void lateResultIsDroppedButLaterJobsAreDelivered() {
        Receiver r;
        QSemaphore go;
        std::atomic<bool> sawCancel{false};
        int got = 0;
        r.jobs.run(
            [&](const JobToken &token) {
                go.acquire();
                sawCancel = token.isCancelled();
                return 1;
            },
            [&](int v) { got = v; });
        r.jobs.cancel();
        go.release(); // finishes after the cancel, as a slow query does
        QTRY_VERIFY(sawCancel.load());
        r.jobs.run([] { return 2; }, [&](int v) { got = v; });
        QTRY_COMPARE(got, 2);
        QTest::qWait(50);
        QCOMPARE(got, 2);
    }

    void destroyingTheTrackerCancelsItsTokens() {
        JobToken token;
        QVERIFY(!token.isCancelled()); // a default token never is
        {
            Receiver r;
            token = r.jobs.token();
            QVERIFY(!token.isCancelled());
        }
        QVERIFY(token.isCancelled());
    }

    void runOnPassesTheToken() {
        QThread worker;
        worker.start();
        QObject executor;
        executor.moveToThread(&worker);
        Receiver r;
        auto state = std::make_shared<std::atomic<int>>(0);
        r.jobs.runOn(&executor, LongJob{state}, [](int) {});
        QTest::qWait(50);
        r.jobs.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(state->load(), 1, 5000);
        worker.quit();
        worker.wait();
    }

    // A JobWait runs the deliveries of a chain of jobs without the event loop.
    void jobWaitRunsDeliveriesWithoutTheEventLoop() {
        Receiver r;
        QList<int> steps;
        bool timerFired = false;
        QTimer timer; // dies with this test, so its event cannot outlive `timerFired`
        timer.setSingleShot(true);
        connect(&timer, &QTimer::timeout, this, [&] { timerFired = true; });
        timer.start(0);
        JobWait wait;
        r.jobs.run([] { return 1; },
                   [&](int v) {
                       steps << v;
                       QPromise<int> p;
                       r.jobs.watch(p.future(), [&](int w) { steps << w; });
                       p.start();
                       p.addResult(2);
                       p.finish();
                   });
        QVERIFY(wait.until([&] { return steps.size() == 2; }, 10000));
        QCOMPARE(steps, (QList<int>{1, 2}));
        QVERIFY(!timerFired); // nothing but the deliveries ran
        r.jobs.post([&] { steps << 3; });
        QVERIFY(!wait.until([] { return false; }, 50)); // times out, having run the post
        QCOMPARE(steps.size(), 3);
    }

    void jobWaitHandsWhatItHeldToTheEventLoop() {
        Receiver r;
        int got = 0;
        {
            JobWait wait;
            r.jobs.post([&] { got = 1; });
        }
        QCOMPARE(got, 0);
        QTRY_COMPARE(got, 1);
    }

    void anInnerJobWaitHandsTheRestToTheOuterOne() {
        Receiver r;
        QList<int> got;
        JobWait outer;
        {
            JobWait inner;
            r.jobs.post([&] { got << 1; });
            QVERIFY(inner.until([&] { return !got.isEmpty(); }, 10000));
            r.jobs.post([&] { got << 2; }); // left to the outer wait
        }
        r.jobs.post([&] { got << 3; });
        QVERIFY(outer.until([&] { return got.size() == 3; }, 10000));
        QCOMPARE(got, (QList<int>{1, 2, 3}));
    }

    void jobWaitStillDropsCancelledResults() {
        Receiver r;
        int got = 0;
        JobWait wait;
        r.jobs.post([&] { got = 1; });
        r.jobs.cancel();
        r.jobs.post([&] { got = 2; });
        QVERIFY(wait.until([&] { return got != 0; }, 10000));
        QCOMPARE(got, 2);
    }
};

QTEST_GUILESS_MAIN(TestJobTracker)
#include "tst_jobtracker.moc"
