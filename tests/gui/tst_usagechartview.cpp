// Every usage chart rendered offscreen from a real SQLite usage database: the
// dashboard's GPU-hours and GPUs-allocated charts, a namespace's chart with its
// budget line, a user's chart, and the drill-down behind a bar. Each image is not
// blank, has a segment of each expected subject in that subject's colour, and the
// value the hover reports equals the SQL sum for that bucket and subject.

#include "widgets/usage/clusterusagepage.h"
#include "widgets/usage/drilldowndialog.h"
#include "models/usage/drilldownmodel.h"
#include "widgets/usage/namespaceusagepage.h"
#include "widgets/charts/usagechart.h"
#include "models/usage/usagechartmodel.h"
#include "widgets/usage/usagechartpanel.h"
#include "services/usage/usagechartservice.h"
#include "widgets/usage/usagerangebar.h"
#include "core/usage/usagestore.h"
#include "widgets/usage/userusagedialog.h"

#include <QApplication>
#include <QDateTime>
#include <QGraphicsView>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

namespace {

// A zone where it is now about noon: the fixture's intervals end up to four and a half
// hours before now, and "Today" must hold them whenever the test runs.
QString noonZone() {
    int offset = 12 - QDateTime::currentDateTimeUtc().time().hour();
    if (offset < -11)
        offset += 24;
    if (offset == 0)
        return QStringLiteral("UTC");
    return QStringLiteral("UTC%1%2:00")
        .arg(offset < 0 ? QLatin1Char('-') : QLatin1Char('+'))
        .arg(std::abs(offset), 2, 10, QLatin1Char('0'));
}

const QString kZone = noonZone();

int distinctColors(const QImage &image) {
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3)
            colors.insert(image.pixel(x, y));
    return int(colors.size());
}

bool near(const QColor &a, const QColor &b) {
    return std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) < 40;
}

// The pixel inside `rect` (less its border) nearest its centre that has `color`, and
// the share of the rectangle's pixels that have it. A budget line may cross a segment,
// so the centre alone is not enough; most of the segment must still be its band's colour.
struct ColorProbe {
    QPoint at;
    double share = 0;
};

ColorProbe probe(const QImage &image, QRect rect, const QColor &color) {
    const int inset = std::min(2, (rect.height() - 1) / 2); // keep a row or more of a thin segment
    rect = rect.adjusted(2, inset, -2, -inset).intersected(image.rect());
    ColorProbe found;
    int matching = 0;
    qint64 best = -1;
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x) {
            if (!near(image.pixelColor(x, y), color))
                continue;
            ++matching;
            const QPoint d = QPoint(x, y) - rect.center();
            const qint64 distance = qint64(d.x()) * d.x() + qint64(d.y()) * d.y();
            if (best < 0 || distance < best)
                best = distance, found.at = QPoint(x, y);
        }
    const qint64 area = qint64(rect.width()) * rect.height();
    found.share = area > 0 ? double(matching) / double(area) : 0;
    return found;
}

} // namespace

class TestUsageChartView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void dashboard();
    void namespaceWithBudgetLine();
    void userView();
    void drillDownSumsToTheBar();

private:
    // Checks the chart's image and each band's first non-empty segment: colour at its
    // centre, hover value = `sqlSum(bucket, band)`.
    void checkSegments(UsageChart *chart, const std::function<double(int bucket, int band)> &sqlSum);
    bool waitLoaded(UsageChartModel *model);
    // The cluster dashboard over the last 7 days in kZone, shown and loaded; false when
    // it did not show or load.
    bool showWeekDashboard(ClusterUsagePage &page);

    QTemporaryDir m_dir;
    QString m_url;
    std::unique_ptr<UsageStore> m_store;
    std::unique_ptr<UsageChartService> m_service;
    qint64 m_now = 0;
};

void TestUsageChartView::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
    auto opened = UsageStore::open(m_url);
    QVERIFY(opened);
    m_store = std::move(*opened);
    m_now = QDateTime::currentSecsSinceEpoch();
    std::vector<UsageInterval> ivs;
    const QStringList ns{QStringLiteral("team-nlp"), QStringLiteral("team-vision"),
                         QStringLiteral("research")};
    const QStringList users{QStringLiteral("ana"), QStringLiteral("bo"), QStringLiteral("chen")};
    int n = 0;
    for (int day = 0; day < 8; ++day)
        for (int i = 0; i < ns.size(); ++i)
            for (int u = 0; u < users.size(); ++u) {
                UsageInterval iv;
                iv.cluster = QStringLiteral("c");
                iv.ns = ns.at(i);
                iv.user = users.at(u);
                iv.podUid = QStringLiteral("p%1").arg(n++);
                iv.podName = QStringLiteral("%1-job-%2").arg(iv.user).arg(n);
                iv.gpus = 1 + (i + u) % 3;
                iv.start = m_now - day * 86400 - (2 + u) * 3600 - i * 600;
                iv.end = iv.start + (1 + (day + i + u) % 4) * 3600;
                if (*iv.end > m_now)
                    iv.end = m_now - 60;
                if (*iv.end > iv.start)
                    ivs.push_back(iv);
            }
    QVERIFY(m_store->insertBulk(ivs));
    Budget b;
    b.scope = BudgetScope::Namespace;
    b.subject = QStringLiteral("team-nlp");
    b.period = Period::Day;
    b.limitGpuHours = 40;
    b.tz = kZone;
    QVERIFY(m_store->setBudget(b));
    b.scope = BudgetScope::User;
    b.subject = QStringLiteral("ana");
    b.limitGpuHours = 30;
    QVERIFY(m_store->setBudget(b));
    m_service = std::make_unique<UsageChartService>();
    QSignalSpy opened2(m_service.get(), &UsageChartService::opened);
    m_service->open(m_url);
    QVERIFY(opened2.wait(10000));
}

bool TestUsageChartView::waitLoaded(UsageChartModel *model) {
    QSignalSpy loaded(model, &UsageChartModel::loaded);
    if (!model->isLoading() && model->hasData())
        return true;
    return loaded.wait(10000);
}

bool TestUsageChartView::showWeekDashboard(ClusterUsagePage &page) {
    page.rangeBar()->setZone(kZone);
    page.rangeBar()->setPreset(RangePreset::Last7Days);
    page.resize(1400, 800);
    page.show();
    if (!QTest::qWaitForWindowExposed(&page))
        return false;
    page.reload();
    return waitLoaded(page.model());
}

void TestUsageChartView::checkSegments(UsageChart *chart, const std::function<double(int, int)> &sqlSum) {
    QCoreApplication::processEvents();
    const QImage image = chart->grab().toImage();
    QVERIFY2(distinctColors(image) > 20, "the chart image is blank");
    const StackedChart &c = chart->chart();
    QVERIFY(!c.bands.isEmpty());
    auto *view = chart->findChild<QGraphicsView *>(QStringLiteral("chartView"));
    QVERIFY(view);
    for (int band = 0; band < c.bands.size(); ++band) {
        // The band's tallest segment: how tall a segment is depends on the axis, which a
        // budget line or the cumulative line may stretch.
        int bucket = -1;
        for (int b = 0; b < c.categories.size(); ++b)
            if (c.bands.at(band).values.value(b) > 0 &&
                (bucket < 0 ||
                 chart->segmentRect(b, band).height() > chart->segmentRect(bucket, band).height()))
                bucket = b;
        QVERIFY2(
            bucket >= 0 && chart->segmentRect(bucket, band).height() >= 4,
            qPrintable(QStringLiteral("%1: no segment of at least 4 pixels").arg(c.bands.at(band).label)));
        const QRect rect = chart->segmentRect(bucket, band);
        const ColorProbe found = probe(image, rect, c.bands.at(band).color);
        QVERIFY2(found.share > 0.5,
                 qPrintable(QStringLiteral("%1 in %2,%3 %4x%5: %6 of the pixels have %7 (centre: %8)")
                                .arg(c.bands.at(band).label)
                                .arg(rect.x())
                                .arg(rect.y())
                                .arg(rect.width())
                                .arg(rect.height())
                                .arg(found.share)
                                .arg(c.bands.at(band).color.name(), image.pixelColor(rect.center()).name())));
        const QPoint at = found.at;
        QSignalSpy hovered(chart, &UsageChart::segmentHovered);
        QTest::mouseMove(view->viewport(), view->viewport()->mapFrom(chart, at + QPoint(1, 0)));
        QTest::mouseMove(view->viewport(), view->viewport()->mapFrom(chart, at));
        QTRY_VERIFY(!hovered.isEmpty());
        const auto args = hovered.last();
        QCOMPARE(args.at(0).toInt(), bucket);
        QCOMPARE(args.at(1).toInt(), band);
        const double sql = sqlSum(bucket, band);
        QVERIFY2(std::abs(args.at(2).toDouble() - sql) < 1e-6,
                 qPrintable(QStringLiteral("%1: hover %2, SQL %3")
                                .arg(c.bands.at(band).label)
                                .arg(args.at(2).toDouble())
                                .arg(sql)));
        QVERIFY(chart->segmentText(bucket, band).contains(c.bands.at(band).label));
        QTest::mouseMove(view->viewport(), QPoint(2, 2));
    }
}

void TestUsageChartView::dashboard() {
    ClusterUsagePage page(m_service.get());
    QVERIFY(showWeekDashboard(page));
    const ChartData &d = page.model()->data();
    QCOMPARE(d.totals.size(), 3);
    UsageChart *chart = page.usagePanel()->chart();
    QCOMPARE(chart->chart().bands.size(), 3);
    QSet<QString> labels;
    for (const auto &b : chart->chart().bands)
        labels.insert(b.label);
    QCOMPARE(labels, (QSet<QString>{QStringLiteral("team-nlp"), QStringLiteral("team-vision"),
                                    QStringLiteral("research")}));
    checkSegments(chart, [&](int bucket, int band) {
        return *m_store->usedGpuHours(BudgetScope::Namespace, chart->chart().bands.at(band).label,
                                      d.buckets[size_t(bucket)], d.query.now);
    });
    // GPUs allocated: a line, the GPU-hours of each bucket over its hours.
    UsageChart *alloc = page.allocationPanel()->chart();
    QVERIFY(distinctColors(alloc->grab().toImage()) > 10);
    QCOMPARE(alloc->chart().lines.size(), 1);
    const size_t last = d.buckets.size() - 1;
    const double hours = double(std::min(d.buckets[last].end, d.query.now) - d.buckets[last].start) / 3600.0;
    QVERIFY(std::abs(alloc->chart().lines.first().values.at(qsizetype(last)) - d.bucketTotal(last) / hours) <
            1e-9);
    auto *users = page.findChild<QTableView *>(QStringLiteral("topUsersTable"));
    QVERIFY(users);
    QCOMPARE(users->model()->rowCount(), 3);
}

void TestUsageChartView::namespaceWithBudgetLine() {
    NamespaceUsagePage page(m_service.get());
    page.rangeBar()->setZone(kZone);
    page.rangeBar()->setPreset(RangePreset::Today);
    page.resize(1400, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.setNamespace(QStringLiteral("team-nlp"));
    QVERIFY(waitLoaded(page.model()));
    const ChartData &d = page.model()->data();
    QCOMPARE(d.budgets.size(), 1);
    UsageChart *chart = page.panel()->chart();
    QCOMPARE(chart->chart().lines.size(), 2); // cumulative and the budget
    QCOMPARE(chart->chart().lines.at(1).values.first(), 40.0);
    // The cumulative line ends at the bucket holding now, at the range's total.
    const QList<double> &cumulative = chart->chart().lines.at(0).values;
    int lastPoint = int(cumulative.size()) - 1;
    while (lastPoint > 0 && std::isnan(cumulative.at(lastPoint)))
        --lastPoint;
    QVERIFY(std::abs(cumulative.at(lastPoint) - d.total()) < 1e-9);
    QVERIFY(d.buckets[size_t(lastPoint)].contains(d.query.now));
    auto ivs = m_store->intervals(d.query.range.start, d.query.range.end, d.query.now);
    QVERIFY(ivs);
    checkSegments(chart, [&](int bucket, int band) {
        double s = 0;
        for (const UsageInterval &iv : *ivs)
            if (iv.ns == QLatin1String("team-nlp") && iv.user == chart->chart().bands.at(band).label)
                s += gpuSeconds(iv, d.buckets[size_t(bucket)], d.query.now) / 3600.0;
        return s;
    });
    auto *table = page.findChild<QTableView *>(QStringLiteral("namespaceUsersTable"));
    QCOMPARE(table->model()->rowCount(), 3);
    QCOMPARE(table->model()->columnCount(), 4);
}

void TestUsageChartView::userView() {
    UserUsageDialog dialog(m_service.get(), QStringLiteral("ana"));
    dialog.rangeBar()->setZone(kZone);
    dialog.rangeBar()->setPreset(RangePreset::Last7Days);
    dialog.reload();
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(waitLoaded(dialog.model()));
    const ChartData &d = dialog.model()->data();
    UsageChart *chart = dialog.panel()->chart();
    QCOMPARE(chart->chart().bands.size(), 3);
    // Last 7 days in daily bars: ana's daily budget of 30 is a line across every bar.
    QCOMPARE(d.query.period, Period::Day);
    QVERIFY(d.query.range != d.budgets.first().period);
    QCOMPARE(chart->chart().lines.size(), 1);
    QCOMPARE(chart->chart().lines.first().values, QList<double>(qsizetype(d.buckets.size()), 30.0));
    QVERIFY2(chart->chart().lines.first().label.contains(QStringLiteral("per day")),
             qPrintable(chart->chart().lines.first().label));
    checkSegments(chart, [&](int bucket, int band) {
        auto ivs =
            m_store->intervals(d.buckets[size_t(bucket)].start, d.buckets[size_t(bucket)].end, d.query.now);
        double s = 0;
        for (const UsageInterval &iv : *ivs)
            if (iv.user == QLatin1String("ana") && iv.ns == chart->chart().bands.at(band).label)
                s += gpuSeconds(iv, d.buckets[size_t(bucket)], d.query.now) / 3600.0;
        return s;
    });
}

void TestUsageChartView::drillDownSumsToTheBar() {
    ClusterUsagePage page(m_service.get());
    QVERIFY(showWeekDashboard(page));
    UsageChart *chart = page.usagePanel()->chart();
    const StackedChart &c = chart->chart();
    const int bucket = int(c.categories.size()) - 2;
    auto *view = chart->findChild<QGraphicsView *>(QStringLiteral("chartView"));
    const QPoint at = chart->segmentCenter(bucket, 0);
    QVERIFY(!at.isNull());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->viewport()->mapFrom(chart, at));
    DrillDownDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = page.findChild<DrillDownDialog *>()) != nullptr);
    QTRY_VERIFY(dialog->isLoaded());
    QVERIFY(dialog->model()->rowCount() > 0);
    QVERIFY(std::abs(dialog->model()->total() - c.bands.at(0).values.at(bucket)) < 1e-6);
    // Sorting by GPUs keeps the sum and orders the rows.
    dialog->model()->sort(DrillDownModel::GpusColumn, Qt::AscendingOrder);
    for (int r = 1; r < dialog->model()->rowCount(); ++r)
        QVERIFY(dialog->model()->index(r - 1, DrillDownModel::GpusColumn).data(Qt::UserRole).toInt() <=
                dialog->model()->index(r, DrillDownModel::GpusColumn).data(Qt::UserRole).toInt());
    QVERIFY(std::abs(dialog->model()->total() - c.bands.at(0).values.at(bucket)) < 1e-6);
    // Export: PNG and SVG files that are not empty.
    const QString png = m_dir.filePath(QStringLiteral("c.png")),
                  svg = m_dir.filePath(QStringLiteral("c.svg"));
    QCOMPARE(chart->exportPng(png), QString());
    QCOMPARE(chart->exportSvg(svg), QString());
    QImage back(png);
    QVERIFY(!back.isNull() && distinctColors(back) > 20);
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    QVERIFY(s.readAll().contains("<svg"));
}

QTEST_MAIN(TestUsageChartView)
#include "tst_usagechartview.moc"
