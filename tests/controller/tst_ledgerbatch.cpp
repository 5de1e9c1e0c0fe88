// The recorder's start at scale (#31 item 8): the first sync is compared with the open
// rows once and only what differs is written, as one batch on a thread of its own, while
// the event loop goes on; states submitted meanwhile wait behind the batch, in order; a
// writer destroyed mid-batch spools what it did not write. Real SQLite, the real test
// cluster with scaled pods.
#include "tests/kube/kubeclienttestutil.h"
#include "services/controller/ledgerwriter.h"
#include "tests/testclusterprocess.h"
#include "services/controller/usagerecorder.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

UsageInterval openState(int i) {
    UsageInterval iv;
    iv.cluster = QStringLiteral("c1");
    iv.ns = QStringLiteral("ml");
    iv.user = QStringLiteral("alice");
    iv.podUid = QStringLiteral("uid-%1").arg(i);
    iv.podName = QStringLiteral("pod-%1").arg(i);
    iv.resource = QStringLiteral("nvidia.com/gpu");
    iv.gpus = 1;
    iv.start = 1'700'000'000 + i;
    iv.source = QStringLiteral("controller");
    iv.seen = iv.start + 10;
    return iv;
}

std::optional<UsageInterval> findOpen(const std::vector<UsageInterval> &rows, const QString &uid) {
    for (const UsageInterval &iv : rows)
        if (iv.podUid == uid)
            return iv;
    return std::nullopt;
}

} // namespace

class TestLedgerBatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // endBatch() returns at once; what is submitted after it lands after the batch.
    void theBatchIsWrittenOffTheLoopAndWhatFollowsWaitsBehindIt() {
        QTemporaryDir dir;
        const QString db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        LedgerWriter writer(db, UsageStore::Options{}, dir.filePath(QStringLiteral("spool")));
        writer.start(50);
        QTRY_VERIFY(writer.databaseAvailable());
        const int n = 3000;
        writer.beginBatch();
        for (int i = 0; i < n; ++i)
            writer.submit(openState(i));
        writer.endBatch();
        UsageInterval closed = openState(7);
        closed.end = closed.start + 100;
        writer.close(closed);        // the batch's row 7, closed after it
        writer.submit(openState(n)); // a new one
        writer.markSeen(QStringLiteral("c1"), QStringLiteral("controller"), 1'800'000'000); // skipped
        QVERIFY(writer.batchPending() >= 2); // the two above wait until the loop runs again
        QTRY_COMPARE_WITH_TIMEOUT(writer.batchPending(), qint64(0), 60000);
        QCOMPARE(writer.written(), qint64(n + 2));
        QCOMPARE(writer.spoolDepth(), qint64(0));
        auto open = writer.openIntervals(QStringLiteral("c1"), QStringLiteral("controller"));
        QVERIFY(open);
        QCOMPARE(open->size(), size_t(n)); // n + 1 written, one closed
        QVERIFY(!findOpen(*open, QStringLiteral("uid-7")));
        QVERIFY(findOpen(*open, QStringLiteral("uid-%1").arg(n)));
        // The heartbeat waited for nothing: it was not written over the batch's rows.
        QCOMPARE(findOpen(*open, QStringLiteral("uid-0"))->seen, openState(0).seen);
    }

    // Stopped before the batch is written: nothing is lost, the spool holds the rest in
    // order and the next start replays it.
    void aWriterDestroyedMidBatchSpoolsWhatItDidNotWrite() {
        QTemporaryDir dir;
        const QString db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        const QString spool = dir.filePath(QStringLiteral("spool"));
        const int n = 20000;
        {
            LedgerWriter writer(db, UsageStore::Options{}, spool);
            writer.start(50);
            QTRY_VERIFY(writer.databaseAvailable());
            writer.beginBatch();
            for (int i = 0; i < n; ++i)
                writer.submit(openState(i));
            writer.endBatch();
            UsageInterval closed = openState(n - 1); // the batch's last row
            closed.end = closed.start + 100;
            writer.close(closed);
        }
        LedgerWriter again(db, UsageStore::Options{}, spool);
        again.start(50);
        QTRY_VERIFY(again.databaseAvailable());
        QCOMPARE(again.spoolDepth(), qint64(0));
        auto open = again.openIntervals(QStringLiteral("c1"), QStringLiteral("controller"));
        QVERIFY(open);
        QCOMPARE(open->size(), size_t(n - 1));
        QVERIFY(!findOpen(*open, QStringLiteral("uid-%1").arg(n - 1)));
    }

    // A restart with every row already there writes nothing (it wrote each pod in a
    // transaction of its own before the first sync: 50,000 commits at scale).
    void aRestartWithTheSameRowsWritesNothing() {
        TestClusterProcess::Options options;
        options.extraArguments = {QStringLiteral("--scale-namespaces"), QStringLiteral("20"),
                                  QStringLiteral("--scale-pods"), QStringLiteral("400")};
        TestClusterProcess cluster(options);
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto client = adminClient(cluster);
        QVERIFY(client);
        QTemporaryDir dir;
        const QString db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        UsageRecorder::Options ro;
        ro.cluster = QStringLiteral("bench");
        ro.watchClaims = false;
        qint64 firstWritten = 0;
        for (int run = 0; run < 2; ++run) {
            LedgerWriter writer(db, UsageStore::Options{}, dir.filePath(QStringLiteral("spool")));
            writer.start(50);
            QTRY_VERIFY(writer.databaseAvailable());
            UsageRecorder recorder(*client, ro, writer);
            recorder.start();
            QTRY_VERIFY_WITH_TIMEOUT(recorder.synced(), 60000);
            QTRY_VERIFY_WITH_TIMEOUT(recorder.reconciled(), 60000);
            QTRY_COMPARE_WITH_TIMEOUT(writer.batchPending(), qint64(0), 60000);
            QCOMPARE(recorder.openIntervals(), qint64(400));
            if (run == 0) {
                firstWritten = writer.written();
                QCOMPARE(firstWritten, qint64(400));
            } else {
                QCOMPARE(writer.written(), qint64(0));
            }
            auto open = writer.openIntervals(ro.cluster, ro.source);
            QVERIFY(open);
            QCOMPARE(open->size(), size_t(400));
            recorder.stop();
        }
    }
};

QTEST_GUILESS_MAIN(TestLedgerBatch)
#include "tst_ledgerbatch.moc"
