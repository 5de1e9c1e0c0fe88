#include "core/report/chargebackformat.h"
#include "models/chargeback/chargebackmodel.h"
#include "widgets/chargeback/chargebackpage.h"
#include "core/report/chargebackquery.h"
#include "app/demo/demodata.h"
#include "core/report/money.h"
#include "core/usage/usagestore.h"
#include "services/chargeback/chargebackservice.h"
#include "services/usage/usagedatabase.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateEdit>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace gq;

// The Chargeback page against a real SQLite database: it shows what the core report
// says (queried off the GUI thread), follows month / per / rates changes, says what is
// wrong with a bad rates file, and its CSV export is the CLI's CSV byte for byte.
class TestChargebackPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void showsTheCoreReport();
    void readsThroughTheGivenDatabase();
    void followsTheControls();
    void badRatesFileIsNamed();
    void exportsTheCsv();
    void preferencesSetZoneRateAndCurrency();

private:
    ChargebackReport expected(GroupBy by, const RateCard &rates) const;
    QTemporaryDir m_dir;
    QString m_url;
};

void TestChargebackPage::initTestCase() {
    QVERIFY(m_dir.isValid());
    m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
    auto store = UsageStore::open(m_url);
    QVERIFY(store);
    DemoSpec spec;
    spec.users = 12;
    spec.namespaces = 5;
    spec.days = 40;
    spec.end = *parseInstant(QStringLiteral("2026-11-25T00:00:00Z"));
    generateDemoUsage(spec, [&](std::vector<UsageInterval> &&chunk) {
        for (UsageInterval &iv : chunk)
            if (!iv.end)
                iv.end = spec.end;
        return bool((*store)->insertBulk(chunk));
    });
    QVERIFY(*(*store)->intervalCount() > 0);
}

ChargebackReport TestChargebackPage::expected(GroupBy by, const RateCard &rates) const {
    UsageStore::Options o;
    o.readOnly = true;
    auto store = UsageStore::open(m_url, o);
    const auto month = parseChargebackMonth(QStringLiteral("2026-11"), QTimeZone::utc());
    return *queryChargeback(**store, by, *month, rates, QDateTime::currentSecsSinceEpoch());
}

static void setMonth(ChargebackPage &page) {
    page.findChild<QComboBox *>(QStringLiteral("chargebackZone"))->setCurrentText(QStringLiteral("UTC"));
    page.findChild<QDateEdit *>(QStringLiteral("chargebackMonth"))->setDate(QDate(2026, 11, 1));
}

void TestChargebackPage::showsTheCoreReport() {
    ChargebackPage page;
    QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    setMonth(page);
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    QVERIFY(page.isLoading()); // the query is out; the GUI thread did not wait for it
    QVERIFY(shown.wait(10000));
    QCOMPARE(shown.last().first().toString(), QString());
    const ChargebackReport want = expected(GroupBy::Namespace, RateCard::flat(2500000));
    QCOMPARE(page.model()->rowCount(), int(want.lines.size()));
    QVERIFY(want.lines.size() > 1);
    for (int r = 0; r < page.model()->rowCount(); ++r) {
        QCOMPARE(page.model()->index(r, ChargebackModel::SubjectColumn).data().toString(),
                 want.lines[r].subject);
        QCOMPARE(page.model()->index(r, ChargebackModel::CostColumn).data().toString(),
                 QString::fromUtf8(chargebackCsv(want))
                     .split(QLatin1Char('\n'))[r + 1]
                     .section(QLatin1Char(','), 3));
        QCOMPARE(page.model()->index(r, ChargebackModel::UsedColumn).data().toString(),
                 QStringLiteral("not recorded"));
    }
    const QString total = page.findChild<QLabel *>(QStringLiteral("chargebackTotal"))->text();
    QVERIFY2(total.contains(formatHoursE4(want.totalHoursE4)) && total.contains(formatCents(want.totalCents)),
             qPrintable(total));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("chargebackHeader"))
                ->text()
                .contains(QStringLiteral("2026-11")));
}

// The console's page reads through the context's service, on a lane of the context's
// one usage database: it opens none of its own.
void TestChargebackPage::readsThroughTheGivenDatabase() {
    UsageDatabase database;
    ChargebackService service(&database);
    ChargebackPage page(&service);
    setMonth(page);
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    QVERIFY(shown.wait(10000));
    QCOMPARE(shown.last().first().toString(), QString());
    QCOMPARE(page.model()->rowCount(),
             int(expected(GroupBy::Namespace, RateCard::flat(2500000)).lines.size()));
    QCOMPARE(database.url(), m_url);
    QVERIFY(page.findChildren<UsageDatabase *>().isEmpty());
}

void TestChargebackPage::followsTheControls() {
    ChargebackPage page;
    setMonth(page);
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    QVERIFY(shown.wait(10000));
    // Two changes in a row: only the last one's answer is shown (the first is dropped).
    shown.clear();
    auto *by = page.findChild<QComboBox *>(QStringLiteral("chargebackBy"));
    by->setCurrentIndex(1);
    const QString rates = m_dir.filePath(QStringLiteral("rates.yaml"));
    QFile f(rates);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("default: 3\nresources:\n  nvidia.com/mig-1g.10gb: 1\n");
    f.close();
    auto *edit = page.findChild<QLineEdit *>(QStringLiteral("chargebackRatesFile"));
    edit->setText(rates);
    emit edit->editingFinished();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isLoading(), 10000);
    QTest::qWait(200);
    QCOMPARE(shown.size(), 1);
    const ChargebackReport want = expected(GroupBy::User, *loadRateCard(rates));
    QCOMPARE(page.model()->report().by, GroupBy::User);
    QCOMPARE(page.model()->rowCount(), int(want.lines.size()));
    QCOMPARE(page.model()->report().totalCents, want.totalCents);
    QCOMPARE(page.model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("User"));
}

void TestChargebackPage::badRatesFileIsNamed() {
    ChargebackPage page;
    setMonth(page);
    const QString bad = m_dir.filePath(QStringLiteral("bad.yaml"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("default: 2\nresources:\n  nvidia.com/gpu: lots\n");
    f.close();
    page.findChild<QLineEdit *>(QStringLiteral("chargebackRatesFile"))->setText(bad);
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    QVERIFY(shown.wait(10000));
    const QString error = shown.last().first().toString();
    QVERIFY2(error.contains(QStringLiteral("bad.yaml:3")) &&
                 error.contains(QStringLiteral("resources.nvidia.com/gpu")),
             qPrintable(error));
    QCOMPARE(page.model()->rowCount(), 0);
    QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("chargebackExportCsv"))->isEnabled());
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("chargebackStatus"))
                ->text()
                .contains(QStringLiteral("bad.yaml:3")));
}

void TestChargebackPage::exportsTheCsv() {
    ChargebackPage page;
    setMonth(page);
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    QVERIFY(shown.wait(10000));
    QSignalSpy done(&page, &ChargebackPage::exportFinished);
    const QString path = m_dir.filePath(QStringLiteral("out.csv"));
    page.exportCsv(path);
    QVERIFY(done.wait(10000));
    QCOMPARE(done.last().at(1).toString(), QString());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), chargebackCsv(expected(GroupBy::Namespace, RateCard::flat(2500000))));
}

// The Preferences' zone, rate and currency: the month in that zone, charged at that rate,
// the currency in the table's header, the total and the PDF (read back with pdftotext);
// a rates file's own currency wins.
void TestChargebackPage::preferencesSetZoneRateAndCurrency() {
    ChargebackPage page;
    QSignalSpy shown(&page, &ChargebackPage::reportShown);
    page.setDatabaseUrl(m_url);
    page.findChild<QDateEdit *>(QStringLiteral("chargebackMonth"))->setDate(QDate(2026, 11, 1));
    QVERIFY(shown.wait(10000));
    shown.clear();
    PagePreferences prefs;
    prefs.timeZone = QStringLiteral("America/New_York");
    prefs.chargebackRateMicros = 4000000;
    prefs.currency = QStringLiteral("EUR");
    page.setPreferences(prefs);
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !page.isLoading(), 10000);
    QTest::qWait(100);
    QCOMPARE(shown.size(), 1); // one query for the three changes
    const ChargebackReport &r = page.model()->report();
    QCOMPARE(QString::fromUtf8(r.month.tz.id()), QStringLiteral("America/New_York"));
    QCOMPARE(r.rates.defaultMicros, qint64(4000000));
    QCOMPARE(r.rates.currency, QStringLiteral("EUR"));
    UsageStore::Options o;
    o.readOnly = true;
    auto store = UsageStore::open(m_url, o);
    QVERIFY(store);
    const auto month =
        parseChargebackMonth(QStringLiteral("2026-11"), *parseZone(QStringLiteral("America/New_York")));
    const auto want = queryChargeback(**store, GroupBy::Namespace, *month, RateCard::flat(4000000),
                                      QDateTime::currentSecsSinceEpoch());
    QVERIFY(want);
    QCOMPARE(r.totalCents, want->totalCents);
    QCOMPARE(page.model()->headerData(ChargebackModel::CostColumn, Qt::Horizontal).toString(),
             QStringLiteral("Cost (EUR)"));
    QVERIFY(
        page.findChild<QLabel *>(QStringLiteral("chargebackTotal"))->text().endsWith(QStringLiteral(" EUR")));
    QVERIFY(page.findChild<QLabel *>(QStringLiteral("chargebackHeader"))
                ->text()
                .contains(QStringLiteral("4.00 EUR")));

    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    QVERIFY2(!pdftotext.isEmpty(), "poppler-utils (scripts/install-deps.sh) is needed");
    QSignalSpy done(&page, &ChargebackPage::exportFinished);
    const QString pdf = m_dir.filePath(QStringLiteral("prefs.pdf"));
    page.exportPdf(pdf);
    QVERIFY(done.wait(20000));
    QCOMPARE(done.last().at(1).toString(), QString());
    QProcess text;
    text.start(pdftotext, {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    const QString body = QString::fromUtf8(text.readAllStandardOutput());
    QVERIFY2(body.contains(QStringLiteral("Cost (EUR)")) &&
                 body.contains(QStringLiteral("4.00 EUR per GPU-hour")) &&
                 body.contains(QStringLiteral("America/New_York")),
             qPrintable(body));

    // A rates file that names its currency keeps it.
    const QString rates = m_dir.filePath(QStringLiteral("usd.yaml"));
    QFile f(rates);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("currency: USD\ndefault: 1\n");
    f.close();
    shown.clear();
    auto *edit = page.findChild<QLineEdit *>(QStringLiteral("chargebackRatesFile"));
    edit->setText(rates);
    emit edit->editingFinished();
    QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() && !page.isLoading(), 10000);
    QCOMPARE(page.model()->report().rates.currency, QStringLiteral("USD"));
    // While the file applies, the one rate (in the Preferences' EUR) is not shown next
    // to it; clearing the file brings it back.
    auto *rate = page.findChild<QDoubleSpinBox *>(QStringLiteral("chargebackRate"));
    QVERIFY(rate->isHidden());
    edit->clear();
    QVERIFY(!rate->isHidden());
    QVERIFY(rate->isEnabled());
}

QTEST_MAIN(TestChargebackPage)
#include "tst_chargebackpage.moc"
