// The Live GPUs page's idle list without Prometheus: what the controller's idle recorder
// wrote to the usage database (idle_spans), read back on a worker and shown with the
// recorder's rule; a database that cannot be read is said in the idle header.
#include "services/livegpus/gpumonitor.h"
#include "models/livegpus/livegpumodel.h"
#include "widgets/livegpus/livegpupage.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QLabel>
#include <QSqlError>
#include <QSqlQuery>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

class TestLiveIdleRecorded : public QObject {
    Q_OBJECT
private slots:
    void showsRecordedSpansWithoutPrometheus();
    void unreadableDatabaseIsSaid();

private:
    QTemporaryDir m_dir;
};

namespace {

// A direct-scrape source nobody answers: configured, without history.
GpuMonitor::Source deadScrape() {
    return GpuMonitor::Source::scrape(
        {metrics::ScrapeTarget{QStringLiteral("http://127.0.0.1:9/metrics"), {}, false, 500}});
}

QString idleHeader(const LiveGpuPage &page) {
    return page.findChild<QLabel *>(QStringLiteral("idleGpuHeader"))->text();
}

} // namespace

void TestLiveIdleRecorded::showsRecordedSpansWithoutPrometheus() {
    const QString url = QStringLiteral("sqlite://%1").arg(m_dir.filePath(QStringLiteral("usage.db")));
    {
        auto store = UsageStore::open(url);
        QVERIFY2(store, store ? "" : qPrintable(store.error().toString()));
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        QSqlQuery q((*store)->database());
        QVERIFY(
            q.prepare(QStringLiteral("INSERT INTO idle_spans (ns, pod_name, node, gpu_uuid, start_s, end_s, "
                                     "wasted_gpu_seconds) VALUES (?, ?, ?, ?, ?, ?, ?)")));
        struct Span {
            const char *ns, *pod, *node, *gpu;
            qint64 start, end;
            double wasted;
        };
        const Span spans[] = {
            {"team-a", "train-1", "n1", "GPU-aaa", now - 3 * 3600, now - 30, 3 * 3600.0}, // 3 GPU-h
            {"team-b", "nb-2", "n2", "#3/1", now - 2 * 3600, now - 60, 2 * 3600.0 / 7},   // a MIG slice
            {"team-c", "short", "n1", "GPU-bbb", now - 600, now - 30, 570.0},             // under 30 min
            {"team-d", "gone", "n3", "GPU-ccc", now - 9 * 3600, now - 3600, 8 * 3600.0},  // ended an hour ago
        };
        for (const Span &s : spans) {
            for (const QVariant &v :
                 {QVariant(QString::fromLatin1(s.ns)), QVariant(QString::fromLatin1(s.pod)),
                  QVariant(QString::fromLatin1(s.node)), QVariant(QString::fromLatin1(s.gpu)),
                  QVariant(s.start), QVariant(s.end), QVariant(s.wasted)})
                q.addBindValue(v);
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        }
    }
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    metrics::IdleOptions options;
    options.thresholdPct = 5;
    options.minIdleMs = 30 * 60 * 1000;
    page.setIdleOptions(options);
    monitor.setSource(deadScrape());
    // Without a database the list says it needs Prometheus.
    page.refreshHistory();
    QVERIFY2(idleHeader(page).contains(QLatin1String("needs Prometheus")), qPrintable(idleHeader(page)));

    page.setDatabaseUrl(url);
    page.refreshHistory();
    // The two spans going on that lasted 30 min, largest waste first.
    QTRY_COMPARE_WITH_TIMEOUT(page.idleModel()->rowCount(), 2, 10000);
    const IdleGpuModel &m = *page.idleModel();
    QCOMPARE(m.index(0, IdleGpuModel::NamespaceColumn).data().toString(), QStringLiteral("team-a"));
    QCOMPARE(m.index(0, IdleGpuModel::NodeColumn).data().toString(), QStringLiteral("n1"));
    QCOMPARE(m.index(0, IdleGpuModel::WasteColumn).data().toString(), QLocale().toString(3.0, 'f', 2));
    QCOMPARE(m.index(0, IdleGpuModel::MeanUtilColumn).data().toString(), QStringLiteral("not recorded"));
    QCOMPARE(m.index(1, IdleGpuModel::NamespaceColumn).data().toString(), QStringLiteral("team-b"));
    QCOMPARE(m.index(1, IdleGpuModel::IndexColumn).data().toString(), QStringLiteral("3"));
    // With GQ_SCREENSHOT_DIR set, the idle tab as a user sees it.
    if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
        page.resize(1100, 600);
        page.findChild<QTabWidget *>()->setCurrentIndex(1);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.grab().save(dir + QStringLiteral("/idle-recorded.png")));
    }
    const QString header = idleHeader(page);
    QVERIFY2(header.contains(QLatin1String("recorded in the usage database")) &&
                 header.contains(QLatin1String("Idle now: 2")),
             qPrintable(header));
}

void TestLiveIdleRecorded::unreadableDatabaseIsSaid() {
    GpuMonitor monitor;
    LiveGpuPage page(&monitor);
    monitor.setSource(deadScrape());
    // Read-only: a missing file is not created, so reading fails.
    page.setDatabaseUrl(
        QStringLiteral("sqlite://%1").arg(m_dir.filePath(QStringLiteral("missing/usage.db"))));
    page.refreshHistory();
    QTRY_VERIFY_WITH_TIMEOUT(idleHeader(page).contains(QLatin1String("Could not read them")), 10000);
    QCOMPARE(page.idleModel()->rowCount(), 0);
}

QTEST_MAIN(TestLiveIdleRecorded)
#include "tst_liveidlerecorded.moc"
