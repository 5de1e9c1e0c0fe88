// LedgerProbe, the LedgerWriter's watch on PostgreSQL: the first probe at once, then one
// every interval, on a thread of its own; each answer reaches the report on that thread;
// a failed probe drops its connection and the next one opens again; once the owner's
// JobTracker cancels (its token), no further probe runs, and shutDown() returns.
// Against a port nothing listens on: every probe fails at once, no server needed.

#include "services/controller/ledgerprobe.h"

#include "core/jobs/jobtracker.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace gq;

namespace {

// Port 1 of the loopback: nothing listens there, a connect is refused at once.
const QString kNobody = QStringLiteral("postgresql://gq@127.0.0.1:1/usage");

} // namespace

class TestLedgerProbe : public QObject {
    Q_OBJECT
private slots:
    void probesAtOnceThenEveryIntervalOnItsThread();
    void cancelledTokenStopsTheProbes();
};

void TestLedgerProbe::probesAtOnceThenEveryIntervalOnItsThread() {
    auto url = DbUrl::parse(kNobody);
    QVERIFY(url);
    QObject owner;
    JobTracker jobs(&owner);
    std::atomic<int> reports{0};
    std::atomic<int> failures{0};
    std::atomic<QThread *> on{nullptr};
    QElapsedTimer since;
    since.start();
    std::atomic<qint64> firstAt{-1};
    LedgerProbe probe(*url, 200, 1000);
    probe.start(jobs.token(), [&](const Result<void> &r) {
        if (reports.fetch_add(1) == 0)
            firstAt = since.elapsed();
        if (!r)
            ++failures;
        on = QThread::currentThread();
    });
    QTRY_VERIFY_WITH_TIMEOUT(reports.load() >= 3, 10000);
    QVERIFY2(firstAt.load() < 150, qPrintable(QString::number(firstAt.load()))); // at once, not after 200 ms
    QCOMPARE(failures.load(), reports.load()); // nothing listens: every probe fails
    QVERIFY(on.load() != QThread::currentThread());
    QCOMPARE(on.load()->objectName(), QStringLiteral("gq-ledger-probe"));
    jobs.cancel();
    probe.shutDown();
}

void TestLedgerProbe::cancelledTokenStopsTheProbes() {
    auto url = DbUrl::parse(kNobody);
    QVERIFY(url);
    QObject owner;
    JobTracker jobs(&owner);
    std::atomic<int> reports{0};
    LedgerProbe probe(*url, 50, 1000);
    probe.start(jobs.token(), [&](const Result<void> &) { ++reports; });
    QTRY_VERIFY_WITH_TIMEOUT(reports.load() >= 2, 10000);
    jobs.cancel();
    QThread::msleep(150); // a probe under way when cancelled may still report
    const int stopped = reports.load();
    QThread::msleep(300); // six intervals
    QCOMPARE(reports.load(), stopped);
    QElapsedTimer t;
    t.start();
    probe.shutDown();
    probe.shutDown(); // again: nothing
    QVERIFY(t.elapsed() < 2000);
}

QTEST_GUILESS_MAIN(TestLedgerProbe)
#include "tst_ledgerprobe.moc"
