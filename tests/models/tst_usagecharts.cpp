// The usage chart models against a real SQLite file (GQ_TEST_BACKEND=sqlite) or a
// real PostgreSQL (GQ_TEST_BACKEND=postgres, GQ_TEST_PG_URL): every bucket of the
// cluster, namespace and user charts equals the usage query for that bucket and
// subject (UsageStore::usedGpuHours) and the in-memory ledger; every drill-down sums
// to its bar (the "others" band too); days, weeks and hours across the DST shifts of
// Europe/Berlin and America/New_York are the calendar's (23 h and 25 h days), with
// rollups kept in UTC and in the zone itself; the model drops a replaced request.

#include "core/usage/usagestore.h"
#include "models/usage/stackedchart.h"
#include "models/usage/usagechartmodel.h"
#include "services/usage/usagechartservice.h"
#include "tests/usage/usagebackend.h"

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDateTime>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <random>

using namespace gq;
using namespace gq::test;

namespace {

constexpr double kEps = 1e-6;

struct Scenario {
    QString zone;
    QDate first, last; // a week around a DST shift
    QDate shiftDay;
    int shiftDayHours;
};

std::vector<UsageInterval> makeIntervals(const TimeRange &range, unsigned seed) {
    std::mt19937 rng(seed);
    const QStringList namespaces{QStringLiteral("team-a"), QStringLiteral("team-b"), QStringLiteral("team-c"),
                                 QStringLiteral("team-d"), QStringLiteral("=calc")};
    const QStringList users{QStringLiteral("ana"),  QStringLiteral("bo"),  QStringLiteral("chen"),
                            QStringLiteral("dana"), QStringLiteral("eli"), QStringLiteral("李雷")};
    std::vector<UsageInterval> out;
    for (int i = 0; i < 240; ++i) {
        UsageInterval iv;
        iv.cluster = QStringLiteral("c1");
        iv.ns = namespaces.at(int(rng() % namespaces.size()));
        iv.user = users.at(int(rng() % users.size()));
        iv.podUid = QStringLiteral("uid-%1").arg(i);
        iv.podName = QStringLiteral("job-%1").arg(i);
        iv.resource =
            i % 7 == 0 ? QStringLiteral("nvidia.com/mig-1g.10gb") : QStringLiteral("nvidia.com/gpu");
        iv.gpus = 1 + int(rng() % 4);
        // Starting a day before the range to its end; 7 min to 30 h long, at odd seconds.
        iv.start = range.start - 86400 + qint64(rng() % quint64(range.seconds() + 86400));
        iv.end = iv.start + 420 + qint64(rng() % (30 * 3600));
        iv.source = QStringLiteral("test");
        out.push_back(iv);
    }
    return out;
}

} // namespace

class TestUsageCharts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void cleanupTestCase() {
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
    void bucketsEqualTheUsageQuery_data();
    void bucketsEqualTheUsageQuery();
    void modelDropsReplacedRequests();
    void serviceAnswersOnlyTheNewestOnAChannel();
    void csvCarriesEverySubject();
    void presetsAreLocalCalendarRanges();

private:
    QString openOnAWeek(UsageChartService &service, const TimeRange &range);
    UsageTestBackend m_backend{"gq_uch"};
};

// A fresh database holding a week of intervals in `range`, and `service` opened on it:
// "" when it opened, else what went wrong.
QString TestUsageCharts::openOnAWeek(UsageChartService &service, const TimeRange &range) {
    const QString url = m_backend.freshUrl();
    {
        auto opened = UsageStore::open(url);
        if (!opened)
            return opened.error().toString();
        if (auto r = (*opened)->insertBulk(makeIntervals(range, 7)); !r)
            return r.error().toString();
    }
    QSignalSpy opened(&service, &UsageChartService::opened);
    service.open(url);
    return opened.wait(10000) ? QString() : QStringLiteral("the chart service did not open");
}

void TestUsageCharts::bucketsEqualTheUsageQuery_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QDate>("first");
    QTest::addColumn<QDate>("shift");
    QTest::addColumn<int>("shiftHours");
    QTest::addColumn<bool>("rollupsInZone");
    for (const bool inZone : {false, true}) {
        const char *suffix = inZone ? " rollups in zone" : " rollups in UTC";
        QTest::addRow("Berlin spring%s", suffix)
            << QStringLiteral("Europe/Berlin") << QDate(2026, 3, 26) << QDate(2026, 3, 29) << 23 << inZone;
        QTest::addRow("Berlin autumn%s", suffix)
            << QStringLiteral("Europe/Berlin") << QDate(2026, 10, 22) << QDate(2026, 10, 25) << 25 << inZone;
        QTest::addRow("New York spring%s", suffix)
            << QStringLiteral("America/New_York") << QDate(2026, 3, 5) << QDate(2026, 3, 8) << 23 << inZone;
        QTest::addRow("New York autumn%s", suffix)
            << QStringLiteral("America/New_York") << QDate(2026, 10, 29) << QDate(2026, 11, 1) << 25
            << inZone;
    }
}

void TestUsageCharts::bucketsEqualTheUsageQuery() {
    QFETCH(QString, zone);
    QFETCH(QDate, first);
    QFETCH(QDate, shift);
    QFETCH(int, shiftHours);
    QFETCH(bool, rollupsInZone);
    const QTimeZone tz(zone.toUtf8());
    const TimeRange range = dayRange(first, first.addDays(6), tz);
    UsageStore::Options options;
    options.rollupZone = rollupsInZone ? zone : QStringLiteral("UTC");
    auto opened = UsageStore::open(m_backend.freshUrl(), options);
    QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
    UsageStore &store = **opened;
    std::vector<UsageInterval> ivs = makeIntervals(range, qHash(zone) ^ unsigned(first.month()));
    // One pod still running, started inside the range.
    UsageInterval running = ivs.front();
    running.podUid = QStringLiteral("uid-running");
    running.start = range.start + 3 * 86400 + 1234;
    running.end.reset();
    ivs.push_back(running);
    QVERIFY(store.insertBulk(ivs));
    const qint64 now = range.end - 5 * 3600 - 17;

    // The day of the shift has the calendar's length.
    const TimeRange shiftDay = dayRange(shift, shift, tz);
    QCOMPARE(shiftDay.seconds(), qint64(shiftHours) * 3600);

    for (const Period period : {Period::Hour, Period::Day, Period::Week, Period::Month}) {
        const TimeRange r = period == Period::Hour ? shiftDay : range;
        for (const ChartQuery::Kind kind :
             {ChartQuery::Kind::Cluster, ChartQuery::Kind::Namespace, ChartQuery::Kind::User}) {
            ChartQuery q{kind,
                         kind == ChartQuery::Kind::Namespace ? QStringLiteral("team-b")
                         : kind == ChartQuery::Kind::User    ? QStringLiteral("李雷")
                                                             : QString(),
                         period,
                         r,
                         zone,
                         now};
            auto chart = computeChart(store, q);
            QVERIFY2(chart, qPrintable(chart ? QString() : chart.error().toString()));
            const ChartData &d = *chart;
            QCOMPARE(qint64(d.buckets.size()), periodCount(r.start, r.end, period, tz));
            if (period == Period::Hour)
                QCOMPARE(int(d.buckets.size()), shiftHours);
            if (period == Period::Day)
                for (const TimeRange &b : d.buckets)
                    if (b.start == shiftDay.start)
                        QCOMPARE(b.seconds(), shiftDay.seconds());
            // Reference: the in-memory ledger over the subject's raw intervals.
            std::vector<UsageInterval> mine;
            for (const UsageInterval &iv : ivs)
                if (kind == ChartQuery::Kind::Cluster ||
                    (kind == ChartQuery::Kind::Namespace && iv.ns == q.subject) ||
                    (kind == ChartQuery::Kind::User && iv.user == q.subject))
                    mine.push_back(iv);
            const GroupBy by = kind == ChartQuery::Kind::Namespace ? GroupBy::User : GroupBy::Namespace;
            const auto ref = gpuHoursByPeriod(mine, by, r.start, r.end, period, tz, now, store.weights());
            double total = 0;
            for (size_t b = 0; b < d.buckets.size(); ++b) {
                const qint64 key = periodContaining(d.buckets[b].start, period, tz).start;
                for (auto it = d.values[b].cbegin(); it != d.values[b].cend(); ++it) {
                    QVERIFY2(std::abs(it.value() - ref.value(key).value(it.key())) < kEps,
                             qPrintable(QStringLiteral("%1 bucket %2: %3 vs %4")
                                            .arg(it.key())
                                            .arg(b)
                                            .arg(it.value())
                                            .arg(ref.value(key).value(it.key()))));
                    total += it.value();
                }
                for (auto it = ref.value(key).cbegin(); it != ref.value(key).cend(); ++it)
                    QVERIFY2(it.value() < 1e-9 || d.values[b].contains(it.key()), qPrintable(it.key()));
                // The cluster chart's bars against the usage query of each namespace.
                if (kind == ChartQuery::Kind::Cluster)
                    for (auto it = d.values[b].cbegin(); it != d.values[b].cend(); ++it) {
                        auto used = store.usedGpuHours(BudgetScope::Namespace, it.key(), d.buckets[b], now);
                        QVERIFY(used);
                        QVERIFY2(std::abs(*used - it.value()) < kEps, qPrintable(it.key()));
                    }
            }
            QVERIFY(std::abs(total - d.total()) < kEps);
            if (kind != ChartQuery::Kind::Cluster) {
                auto used = store.usedGpuHours(kind == ChartQuery::Kind::Namespace ? BudgetScope::Namespace
                                                                                   : BudgetScope::User,
                                               q.subject, r, now);
                QVERIFY(used);
                QVERIFY2(std::abs(*used - d.total()) < kEps,
                         qPrintable(QStringLiteral("%1 vs %2").arg(*used).arg(d.total())));
            }
            // Every segment of the stack (top 2 and others) drills down to its value.
            const StackedChart stack = stackTopN(d, 2, QStringLiteral("others"));
            QVERIFY(stack.bands.size() <= 3);
            for (int band = 0; band < stack.bands.size(); ++band)
                for (size_t b = 0; b < d.buckets.size(); ++b) {
                    const double bar = stack.bands.at(band).values.at(qsizetype(b));
                    if (period == Period::Hour && b % 4 != 0)
                        continue; // hours: a sample is enough
                    auto drill =
                        computeDrillDown(store, DrillQuery{q, d.buckets[b], stack.bands.at(band).members});
                    QVERIFY(drill);
                    QVERIFY2(std::abs(drill->total() - bar) < kEps,
                             qPrintable(QStringLiteral("band %1 bucket %2: %3 vs bar %4")
                                            .arg(stack.bands.at(band).label)
                                            .arg(b)
                                            .arg(drill->total())
                                            .arg(bar)));
                    if (bar > 0)
                        QVERIFY(!drill->rows.isEmpty());
                }
        }
    }
}

void TestUsageCharts::modelDropsReplacedRequests() {
    const QTimeZone tz("Europe/Berlin");
    const TimeRange range = dayRange(QDate(2026, 3, 26), QDate(2026, 4, 1), tz);
    UsageChartService service;
    const QString err = openOnAWeek(service, range);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    UsageChartModel model(QStringLiteral("t"));
    QAbstractItemModelTester tester(model.subjects());
    model.setService(&service);
    QSignalSpy loaded(&model, &UsageChartModel::loaded);
    QSignalSpy failed(&model, &UsageChartModel::failed);
    ChartQuery first{ChartQuery::Kind::Cluster,       {},       Period::Hour, range,
                     QStringLiteral("Europe/Berlin"), range.end};
    ChartQuery second = first;
    second.period = Period::Day;
    ChartQuery third = first;
    third.kind = ChartQuery::Kind::Namespace;
    third.subject = QStringLiteral("team-a");
    model.request(first);
    model.request(second);
    model.request(third);
    QVERIFY(loaded.wait(10000));
    QTest::qWait(300); // nothing older may still arrive
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(failed.size(), 0);
    QVERIFY(model.data().query == third);
    QCOMPARE(model.subjects()->rowCount(), int(model.data().totals.size()));
    QVERIFY(model.subjects()->rowCount() > 0);
    QCOMPARE(model.subjects()->columnCount(), int(RankingModel::ColumnCount)); // with budgets
    QVERIFY(!model.isLoading());
}

// The service's own rule, without a model: on a channel only the newest request is
// answered, a cancelled channel is answered no more, and channels do not touch each other.
void TestUsageCharts::serviceAnswersOnlyTheNewestOnAChannel() {
    const QTimeZone tz("Europe/Berlin");
    const TimeRange range = dayRange(QDate(2026, 3, 26), QDate(2026, 4, 1), tz);
    UsageChartService service;
    const QString err = openOnAWeek(service, range);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const ChartQuery query{ChartQuery::Kind::Cluster,       {},       Period::Hour, range,
                           QStringLiteral("Europe/Berlin"), range.end};
    QStringList answered;
    const auto answer = [&answered](const QString &name) {
        return [&answered, name](const Result<ChartData> &r) {
            answered << (r ? name : name + QStringLiteral("!"));
        };
    };
    service.chart(QStringLiteral("a"), query, answer(QStringLiteral("a1")));
    service.chart(QStringLiteral("a"), query, answer(QStringLiteral("a2")));
    service.chart(QStringLiteral("b"), query, answer(QStringLiteral("b1")));
    service.chart(QStringLiteral("c"), query, answer(QStringLiteral("c1")));
    service.cancel(QStringLiteral("c"));
    QTRY_COMPARE_WITH_TIMEOUT(answered.size(), 2, 10000);
    QTest::qWait(300); // nothing older or cancelled may still arrive
    answered.sort();
    QCOMPARE(answered, (QStringList{QStringLiteral("a2"), QStringLiteral("b1")}));
}

void TestUsageCharts::csvCarriesEverySubject() {
    const QTimeZone tz("America/New_York");
    const TimeRange range = dayRange(QDate(2026, 3, 5), QDate(2026, 3, 11), tz);
    auto opened = UsageStore::open(m_backend.freshUrl());
    QVERIFY(opened);
    QVERIFY((*opened)->insertBulk(makeIntervals(range, 11)));
    auto chart = computeChart(**opened, ChartQuery{ChartQuery::Kind::Cluster,
                                                   {},
                                                   Period::Day,
                                                   range,
                                                   QStringLiteral("America/New_York"),
                                                   range.end});
    QVERIFY(chart);
    const QStringList lines =
        QString::fromUtf8(chartCsv(*chart)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("bucket_start,bucket_end,subject,gpu_hours"));
    // One "others" band on the chart with a top 1, but every namespace in the CSV.
    QCOMPARE(stackTopN(*chart, 1, QStringLiteral("others")).bands.size(), 2);
    QSet<QString> subjects;
    double sum = 0;
    for (const QString &l : lines.mid(1)) {
        const QStringList f = l.split(QLatin1Char(','));
        QCOMPARE(f.size(), 4);
        subjects.insert(f.at(2));
        sum += f.at(3).toDouble();
    }
    QCOMPARE(subjects.size(), int(chart->totals.size()));
    // A formula-looking name is text: one more quote, and the cell quoted (core/domain/csvfield.h).
    QVERIFY(subjects.contains(QStringLiteral("\"'=calc\"")));
    QVERIFY(std::abs(sum - chart->total()) < 0.001 * lines.size());
    QVERIFY(lines.at(1).startsWith(QStringLiteral("2026-03-05T00:00:00-05:00,2026-03-06T00:00:00-05:00,")));
}

void TestUsageCharts::presetsAreLocalCalendarRanges() {
    // 2026-03-31 10:00 in Berlin (CEST), two days after the spring shift.
    const QTimeZone tz("Europe/Berlin");
    const qint64 now = QDateTime(QDate(2026, 3, 31), QTime(10, 0), tz).toSecsSinceEpoch();
    const auto local = [&](qint64 t) { return QDateTime::fromSecsSinceEpoch(t, tz); };
    const TimeRange today = presetRange(RangePreset::Today, now, tz);
    QCOMPARE(local(today.start), QDateTime(QDate(2026, 3, 31), QTime(0, 0), tz));
    QCOMPARE(today.seconds(), qint64(24 * 3600));
    const TimeRange week = presetRange(RangePreset::Last7Days, now, tz);
    QCOMPARE(local(week.start).date(), QDate(2026, 3, 25));
    QCOMPARE(week.end, today.end);
    QCOMPARE(week.seconds(), qint64(7 * 24 * 3600 - 3600)); // the 23-hour day is inside
    const TimeRange month = presetRange(RangePreset::ThisMonth, now, tz);
    QCOMPARE(local(month.start), QDateTime(QDate(2026, 3, 1), QTime(0, 0), tz));
    QCOMPARE(local(month.end), QDateTime(QDate(2026, 4, 1), QTime(0, 0), tz));
    const TimeRange last = presetRange(RangePreset::LastMonth, now, tz);
    QCOMPARE(local(last.start), QDateTime(QDate(2026, 2, 1), QTime(0, 0), tz));
    QCOMPARE(last.end, month.start);
    const TimeRange ninety = presetRange(RangePreset::Last90Days, now, tz);
    QCOMPARE(local(ninety.start).date(), QDate(2026, 1, 1));
    QCOMPARE(ninety.end, today.end);
    QCOMPARE(defaultPeriod(RangePreset::Today), Period::Hour);
    QCOMPARE(defaultPeriod(RangePreset::Last90Days), Period::Week);
}

QTEST_GUILESS_MAIN(TestUsageCharts)
#include "tst_usagecharts.moc"
