// idle_spans behind IdleSpanStore (core/usage), on a real SQLite file or PostgreSQL:
// a span seen again or in two pieces is one row, its waste recomputed over the merged
// length at the GPU's weight; current() keeps the spans still going on that lasted long
// enough, largest waste first.

#include "core/usage/idlespanstore.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QTest>

using namespace gq;
using namespace gq::test;

class TestIdleSpanStore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void init() { m_url = m_backend.freshUrl(); }
    void cleanupTestCase() {
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
    void piecesMergeIntoOneRow();
    void currentKeepsLongFreshSpans();

private:
    static IdleSpan span(const QString &pod, const QString &key, qint64 start, qint64 end,
                         double weight = 1) {
        IdleSpan s;
        s.ns = QStringLiteral("team-a");
        s.pod = pod;
        s.node = QStringLiteral("node-1");
        s.gpuKey = key;
        s.start = start;
        s.end = end;
        s.weight = weight;
        return s;
    }

    UsageTestBackend m_backend{"gq_idlespans"};
    QString m_url;
};

void TestIdleSpanStore::piecesMergeIntoOneRow() {
    auto store = UsageStore::open(m_url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
    IdleSpanStore spans(**store);
    auto written = spans.upsert({span("p", "GPU-1", 1000, 1600, 2), span("p", "GPU-1", 1700, 2000, 2),
                                 span("p", "GPU-2", 1000, 1000)}, // empty: skipped
                                0);
    QVERIFY2(written, qPrintable(written ? QString() : written.error().message));
    QCOMPARE(*written, 2);
    auto rows = spans.current(0, 0);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 2); // 200 s apart with no tolerance: two rows

    // Seen again, covering the gap within the tolerance: the two rows become one.
    written = spans.upsert({span("p", "GPU-1", 1500, 1750, 2)}, 60);
    QVERIFY(written);
    QCOMPARE(*written, 1);
    rows = spans.current(0, 0);
    QVERIFY(rows);
    QCOMPARE(rows->size(), 1);
    const IdleSpan &one = rows->first();
    QCOMPARE(one.start, 1000);
    QCOMPARE(one.end, 2000);
    QCOMPARE(one.wastedGpuSeconds, 2000.0); // 1000 s x weight 2
    QCOMPARE(one.gpuKey, QStringLiteral("GPU-1"));
    QCOMPARE(one.pod, QStringLiteral("p"));
}

void TestIdleSpanStore::currentKeepsLongFreshSpans() {
    auto store = UsageStore::open(m_url);
    QVERIFY(store);
    IdleSpanStore spans(**store);
    QVERIFY(spans.upsert({span("old", "GPU-1", 0, 900), span("short", "GPU-2", 9900, 9960),
                          span("small", "GPU-3", 9000, 10000), span("big", "GPU-4", 9000, 10000, 4)},
                         0));
    auto rows = spans.current(9400, 300); // ended at or after 9400, at least 300 s long
    QVERIFY(rows);
    QStringList pods;
    for (const IdleSpan &s : std::as_const(*rows))
        pods << s.pod;
    QCOMPARE(pods, (QStringList{QStringLiteral("big"), QStringLiteral("small")}));
}

QTEST_GUILESS_MAIN(TestIdleSpanStore)
#include "tst_idlespanstore.moc"
