#include "core/usage/auditlog.h"
#include "widgets/budgets/budgetdialog.h"
#include "core/usage/budgetedit.h"
#include "models/budgets/budgetlistmodel.h"
#include "services/budgets/budgetservice.h"
#include "widgets/budgets/budgetspage.h"
#include "widgets/advisor/canrunpanel.h"
#include "core/domain/clock.h"
#include "widgets/advisor/fitplandialog.h"
#include "tests/gui/guitestutil.h"
#include "models/quotas/namespacelistmodel.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::test;

// The Budgets page on a real SQLite usage database and a manual clock: batteries and
// forecasts as the admin reads them, sorting by what is left, create/edit/delete with
// the mandatory note (each an audit entry), and "Can this run?" giving the same
// decision as the store's check (what `gpuquota check` prints).
class TestBudgetsPage : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void texts();
    void listsBudgetsSortedByRemaining();
    void createEditDeleteNeedANoteAndAreAudited();
    void canThisRunAgreesWithCheck();
    void newBudgetStartsInThePreferredZone();

private:
    QList<AuditEntry> audit();
    QPushButton *okOf(BudgetDialog *d) {
        return d->findChild<QPushButton *>(QStringLiteral("budgetOkButton"));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_url;
    ManualClock m_clock{kNow.toSecsSinceEpoch()}; // 15:00 UTC
    std::unique_ptr<BudgetService> m_service;
    std::unique_ptr<BudgetsPage> m_page;
};

void TestBudgetsPage::init() {
    m_clock.set(kNow.toSecsSinceEpoch());
    m_dir = std::make_unique<QTemporaryDir>();
    m_url = QStringLiteral("sqlite://") + m_dir->filePath(QStringLiteral("usage.db"));
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        UsageStore &s = **store;
        // alice: 2 GPUs since 12:00 -> 6 used of 8 at 15:00, spent at 16:00.
        QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("alice"), QStringLiteral("a"),
                                          2, at(12), std::nullopt)));
        QVERIFY(s.setBudget(budget(BudgetScope::User, QStringLiteral("alice"), 8, 1800)));
        // bob: nothing running, 1 of 10 used.
        QVERIFY(s.upsertInterval(
            interval(QStringLiteral("ml"), QStringLiteral("bob"), QStringLiteral("b"), 1, at(9), at(10))));
        QVERIFY(s.setBudget(budget(BudgetScope::User, QStringLiteral("bob"), 10)));
        // namespace ml: 3 + 1 = 4... only alice runs; 7 used of 100 a week.
        QVERIFY(s.setBudget(budget(BudgetScope::Namespace, QStringLiteral("ml"), 100, 3600,
                                   QStringLiteral("UTC"), Period::Week)));
    }
    m_service = std::make_unique<BudgetService>();
    m_service->setClock(&m_clock);
    m_page = std::make_unique<BudgetsPage>(m_service.get());
    m_page->setActorSource([] { return QStringLiteral("admin@example.com"); });
    m_page->resize(900, 600);
    QSignalSpy loaded(m_service.get(), &BudgetService::overviewLoaded);
    m_service->open(m_url);
    m_page->show();
    QVERIFY(loaded.wait(10000));
}

void TestBudgetsPage::cleanup() {
    m_page.reset();
    m_service.reset();
    m_dir.reset();
}

QList<AuditEntry> TestBudgetsPage::audit() {
    auto store = UsageStore::open(m_url);
    if (!store)
        return {};
    AuditLog log(**store);
    return log.list().value_or(QList<AuditEntry>());
}

void TestBudgetsPage::texts() {
    auto row = [](double limit, double used, double gpus, qint64 grace, Period p = Period::Day) {
        Budget b = budget(BudgetScope::User, QStringLiteral("u"), limit, grace, QStringLiteral("UTC"), p);
        BudgetRow r;
        r.budget = b;
        r.decision = decide(b, periodContaining(at(15), p, *parseZone(QStringLiteral("UTC"))), used, gpus,
                            AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0});
        r.forecast = forecast(r.decision, at(15));
        r.state = budgetState(r.decision);
        r.graceEndsAt = graceEnd(r.decision, at(15));
        return r;
    };
    const BudgetRow spentBy = row(8, 5.7, 1, 0);
    QCOMPARE(BudgetListModel::batteryText(spentBy), QStringLiteral("2.3 GPU-h left of 8 today"));
    QCOMPARE(BudgetListModel::forecastText(spentBy, at(15)),
             QStringLiteral("at this rate: spent by %1 (in 2 h 18 min)")
                 .arg(NamespaceListModel::localTime(at(17, 18), at(15))));
    QCOMPARE(BudgetListModel::fractionLeft(spentBy), 2.3 / 8);
    QCOMPARE(spentBy.state, BudgetState::Ok);
    QCOMPARE(BudgetListModel::forecastText(row(8, 1, 0, 0), at(15)), QString()); // nothing runs
    QCOMPARE(BudgetListModel::forecastText(row(80, 1, 1, 0), at(15)), QStringLiteral("not at this rate"));
    const BudgetRow near = row(8, 7, 1, 0);
    QCOMPARE(near.state, BudgetState::Near);
    const BudgetRow grace = row(8, 8.5, 2, 1800);
    QCOMPARE(grace.state, BudgetState::Grace);
    QCOMPARE(BudgetListModel::batteryText(grace), QStringLiteral("0.5 GPU-h over 8 today"));
    QCOMPARE(BudgetListModel::forecastText(grace, at(15)),
             QStringLiteral("at this rate: grace ends %1 (in 15 min)")
                 .arg(NamespaceListModel::localTime(at(15, 15), at(15))));
    const BudgetRow spent = row(100, 120, 0, 0, Period::Week);
    QCOMPARE(spent.state, BudgetState::Over);
    QCOMPARE(BudgetListModel::fractionLeft(spent), 0.0);
    QCOMPARE(BudgetListModel::batteryText(spent), QStringLiteral("20 GPU-h over 100 this week"));
    QCOMPARE(BudgetListModel::forecastText(spent, at(15)), QStringLiteral("spent for this week"));
    QCOMPARE(BudgetListModel::durationText(59), QStringLiteral("less than a minute"));
    QCOMPARE(BudgetListModel::durationText(45 * 60), QStringLiteral("45 min"));
    QCOMPARE(BudgetListModel::durationText(2 * 3600 + 10 * 60), QStringLiteral("2 h 10 min"));
    QCOMPARE(BudgetListModel::durationText(13 * 3600 + 10 * 60), QStringLiteral("13 h"));
    QCOMPARE(BudgetListModel::durationText(3 * 86400 + 4 * 3600), QStringLiteral("3 d 4 h"));

    // The Alerts column: thresholds fired this period, the last alert sent.
    BudgetRow alerted = row(8, 7, 1, 0);
    QCOMPARE(BudgetListModel::alertsText(alerted), QStringLiteral("none yet this period"));
    QCOMPARE(BudgetListModel::lastAlertText(alerted, at(15)), QStringLiteral("no alert sent yet"));
    alerted.alerts.fired = {80, 100};
    alerted.alerts.lastSentAt = at(14);
    alerted.alerts.lastThreshold = 100;
    alerted.alerts.lastChannel = QStringLiteral("email");
    alerted.alerts.lastRecipient = QStringLiteral("u@example.org");
    QCOMPARE(BudgetListModel::alertsText(alerted), QStringLiteral("80% · 100% sent"));
    QCOMPARE(BudgetListModel::lastAlertText(alerted, at(15)),
             QStringLiteral("last: 100% at %1 to u@example.org")
                 .arg(NamespaceListModel::localTime(at(14), at(15))));
    alerted.alerts.failedNow = 1;
    QCOMPARE(BudgetListModel::alertsText(alerted), QStringLiteral("80% · 100% (delivery failing, retried)"));
}

void TestBudgetsPage::listsBudgetsSortedByRemaining() {
    BudgetListModel *model = m_page->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 3);
    QTableView *view = m_page->view();
    auto cell = [view](int r, int c, int role = Qt::DisplayRole) {
        return view->model()->index(r, c).data(role);
    };
    // Least left first (the default sort).
    QCOMPARE(cell(0, BudgetListModel::SubjectColumn).toString(), QStringLiteral("alice"));
    QCOMPARE(cell(0, BudgetListModel::RemainingColumn).toString(), QStringLiteral("2 GPU-h left of 8 today"));
    QCOMPARE(cell(0, BudgetListModel::RemainingColumn, BudgetListModel::SecondLineRole).toString(),
             QStringLiteral("at this rate: spent by %1 (in 1 h)")
                 .arg(NamespaceListModel::localTime(at(16), at(15))));
    QCOMPARE(cell(0, BudgetListModel::SubjectColumn, BudgetListModel::SecondLineRole).toString(),
             QStringLiteral("user"));
    QCOMPARE(cell(0, BudgetListModel::LimitColumn).toString(), QStringLiteral("8 GPU-h / day"));
    QCOMPARE(cell(0, BudgetListModel::LimitColumn, BudgetListModel::SecondLineRole).toString(),
             QStringLiteral("grace 30 min · UTC"));
    QCOMPARE(cell(1, BudgetListModel::SubjectColumn).toString(), QStringLiteral("bob"));
    QCOMPARE(cell(1, BudgetListModel::RemainingColumn, BudgetListModel::SecondLineRole).toString(),
             QString());
    QCOMPARE(cell(2, BudgetListModel::SubjectColumn).toString(), QStringLiteral("ml"));
    QCOMPARE(cell(2, BudgetListModel::LimitColumn).toString(), QStringLiteral("100 GPU-h / week"));
    view->sortByColumn(BudgetListModel::RemainingColumn, Qt::DescendingOrder);
    QCOMPARE(cell(0, BudgetListModel::SubjectColumn).toString(), QStringLiteral("ml"));

    // The clock moves on: alice is in grace at 16:10 (2 GPUs x 30 min = 1 GPU-h more).
    m_clock.set(at(16, 10));
    QSignalSpy loaded(m_service.get(), &BudgetService::overviewLoaded);
    m_service->load();
    QVERIFY(loaded.wait(10000));
    const int alice = rowWithText(model, BudgetListModel::SubjectColumn, QStringLiteral("alice"));
    QCOMPARE(BudgetState(model->index(alice, 0).data(BudgetListModel::StateRole).toInt()),
             BudgetState::Grace);
    QCOMPARE(model->index(alice, BudgetListModel::RemainingColumn)
                 .data(BudgetListModel::SecondLineRole)
                 .toString(),
             QStringLiteral("at this rate: grace ends %1 (in 20 min)")
                 .arg(NamespaceListModel::localTime(at(16, 30), at(16, 10))));
}

void TestBudgetsPage::createEditDeleteNeedANoteAndAreAudited() {
    const qsizetype before = audit().size();
    QSignalSpy loaded(m_service.get(), &BudgetService::overviewLoaded);
    QSignalSpy changed(m_service.get(), &BudgetService::changed);
    connect(m_service.get(), &BudgetService::failed, this,
            [](const Error &e) { qWarning() << e.toString(); });

    // Create: OK stays disabled until the note says why.
    m_page->findChild<QPushButton *>(QStringLiteral("newBudgetButton"))->click();
    BudgetDialog *d = nullptr;
    QTRY_VERIFY((d = visibleDialog<BudgetDialog>(QStringLiteral("budgetDialog"))));
    d->findChild<QLineEdit *>(QStringLiteral("budgetSubjectEdit"))->setText(QStringLiteral("carol"));
    d->findChild<QDoubleSpinBox *>(QStringLiteral("budgetLimitSpin"))->setValue(12);
    d->findChild<QLineEdit *>(QStringLiteral("budgetGraceEdit"))->setText(QStringLiteral("45m"));
    QVERIFY(!okOf(d)->isEnabled());
    QTest::keyClicks(d->findChild<QPlainTextEdit *>(QStringLiteral("budgetNoteEdit")), QStringLiteral("   "));
    QVERIFY(!okOf(d)->isEnabled()); // blank is no reason
    QTest::keyClicks(d->findChild<QPlainTextEdit *>(QStringLiteral("budgetNoteEdit")),
                     QStringLiteral("new hire"));
    QVERIFY(okOf(d)->isEnabled());
    okOf(d)->click();
    QVERIFY(changed.wait(10000));
    QTRY_COMPARE(m_page->model()->rowCount(), 4);
    QList<AuditEntry> entries = audit();
    QCOMPARE(entries.size(), before + 1);
    QCOMPARE(entries.first().action, QStringLiteral("budget.set"));
    QCOMPARE(entries.first().target, QStringLiteral("budget/user/carol"));
    QCOMPARE(entries.first().actor, QStringLiteral("admin@example.com"));
    QCOMPARE(entries.first().note, QStringLiteral("new hire"));
    QCOMPARE(entries.first().before, QString());
    QCOMPARE(entries.first().after,
             budgetAuditText(budget(BudgetScope::User, QStringLiteral("carol"), 12, 2700)));

    // A bad zone is refused in the dialog, naming the field; nothing is written.
    QTableView *view = m_page->view();
    const int carol = rowWithText(view->model(), BudgetListModel::SubjectColumn, QStringLiteral("carol"));
    view->selectRow(carol);
    m_page->findChild<QPushButton *>(QStringLiteral("editBudgetButton"))->click();
    QTRY_VERIFY((d = visibleDialog<BudgetDialog>(QStringLiteral("budgetDialog"))));
    d->findChild<QComboBox *>(QStringLiteral("budgetZoneCombo"))
        ->setCurrentText(QStringLiteral("Mars/Olympus"));
    QTest::keyClicks(d->findChild<QPlainTextEdit *>(QStringLiteral("budgetNoteEdit")),
                     QStringLiteral("more"));
    okOf(d)->click();
    QVERIFY(d->isVisible());
    QVERIFY(
        d->findChild<QLabel *>(QStringLiteral("budgetErrorLabel"))->text().startsWith(QStringLiteral("tz:")));
    // Edit: the limit and a week period (the key changes: the day budget goes).
    d->findChild<QComboBox *>(QStringLiteral("budgetZoneCombo"))
        ->setCurrentText(QStringLiteral("Europe/Berlin"));
    d->findChild<QDoubleSpinBox *>(QStringLiteral("budgetLimitSpin"))->setValue(60);
    auto *period = d->findChild<QComboBox *>(QStringLiteral("budgetPeriodCombo"));
    period->setCurrentIndex(period->findData(int(Period::Week)));
    okOf(d)->click();
    QVERIFY(changed.wait(10000));
    QTRY_COMPARE(m_page->model()->rowCount(), 4);
    entries = audit();
    QCOMPARE(entries.size(), before + 2);
    QCOMPARE(entries.first().note, QStringLiteral("more"));
    QVERIFY(entries.first().before.contains(QStringLiteral("\"period\":\"day\"")));
    QVERIFY(entries.first().after.contains(QStringLiteral("\"period\":\"week\"")));
    {
        auto store = UsageStore::open(m_url);
        const auto list = (*store)->budgetsFor(BudgetScope::User, QStringLiteral("carol"));
        QCOMPARE(list->size(), 1);
        QCOMPARE(list->first().period, Period::Week);
        QCOMPARE(list->first().limitGpuHours, 60.0);
        QCOMPARE(list->first().tz, QStringLiteral("Europe/Berlin"));
    }

    // Delete: the same note rule.
    // The list shows the edit once it is read back.
    QTRY_VERIFY(rowWithText(view->model(), BudgetListModel::LimitColumn, QStringLiteral("60 GPU-h / week")) >=
                0);
    view->selectRow(rowWithText(view->model(), BudgetListModel::SubjectColumn, QStringLiteral("carol")));
    m_page->findChild<QPushButton *>(QStringLiteral("deleteBudgetButton"))->click();
    QTRY_VERIFY((d = visibleDialog<BudgetDialog>(QStringLiteral("budgetDialog"))));
    QCOMPARE(d->mode(), BudgetDialog::Mode::Delete);
    QVERIFY(!okOf(d)->isEnabled());
    QTest::keyClicks(d->findChild<QPlainTextEdit *>(QStringLiteral("budgetNoteEdit")),
                     QStringLiteral("left"));
    okOf(d)->click();
    QVERIFY(changed.wait(10000));
    QTRY_COMPARE(m_page->model()->rowCount(), 3);
    entries = audit();
    QCOMPARE(entries.size(), before + 3);
    QCOMPARE(entries.first().action, QStringLiteral("budget.delete"));
    QCOMPARE(entries.first().after, QString());
    QCOMPARE(entries.first().note, QStringLiteral("left"));
    // And the service refuses a change without a note whoever calls it.
    QSignalSpy failed(m_service.get(), &BudgetService::failed);
    m_service->remove(budget(BudgetScope::User, QStringLiteral("bob"), 10), QStringLiteral("x"),
                      QStringLiteral(" "));
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().first().value<Error>().field, QStringLiteral("note"));
    QCOMPARE(audit().size(), before + 3);
}

void TestBudgetsPage::canThisRunAgreesWithCheck() {
    auto *panel = m_page->findChild<CanRunPanel *>(QStringLiteral("canRunPanel"));
    QVERIFY(panel);
    m_page->setNamespace(QStringLiteral("ml"));
    QCOMPARE(panel->findChild<QLineEdit *>(QStringLiteral("canRunNamespaceEdit"))->text(),
             QStringLiteral("ml"));
    panel->findChild<QLineEdit *>(QStringLiteral("canRunUserEdit"))->setText(QStringLiteral("alice"));
    panel->findChild<QDoubleSpinBox *>(QStringLiteral("canRunGpusSpin"))->setValue(1);
    panel->findChild<QDoubleSpinBox *>(QStringLiteral("canRunHoursSpin"))->setValue(3);
    QSignalSpy answered(m_service.get(), &BudgetService::answered);
    panel->findChild<QPushButton *>(QStringLiteral("canRunCheckButton"))->click();
    QVERIFY(answered.wait(10000));
    const auto answer = answered.first().first().value<AdmissionAnswer>();
    auto store = UsageStore::open(m_url);
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 3};
    const auto expected =
        (*store)->check(QStringLiteral("alice"), QStringLiteral("ml"), req, m_clock.nowSecs());
    QVERIFY(expected);
    QCOMPARE(answer.decision.outcome, expected->outcome);
    QCOMPARE(answer.decision.used, expected->used);
    QCOMPARE(answer.decision.remaining, expected->remaining);
    QCOMPARE(answer.decision.outcome, Decision::Outcome::Denied); // 3 needed, 2 left
    const QString verdict = panel->findChild<QLabel *>(QStringLiteral("canRunVerdictLabel"))->text();
    QVERIFY2(verdict.contains(
                 QStringLiteral("No: it needs 3.00 GPU-h, only 2.00 are left (limit 8.00 per day of alice)")),
             qPrintable(verdict));
    const QString details = panel->findChild<QLabel *>(QStringLiteral("canRunDetailsLabel"))->text();
    QVERIFY2(details.contains(QStringLiteral(
                 "user alice, per day: 6.00 used + 3.00 needed of 8.00 GPU-h (2.00 left): denied")),
             qPrintable(details));
    QVERIFY2(details.contains(QStringLiteral("namespace ml, per week: ")), qPrintable(details));

    // Two hours fit.
    panel->findChild<QDoubleSpinBox *>(QStringLiteral("canRunHoursSpin"))->setValue(2);
    panel->findChild<QPushButton *>(QStringLiteral("canRunCheckButton"))->click();
    QVERIFY(answered.wait(10000));
    QTRY_VERIFY(panel->findChild<QLabel *>(QStringLiteral("canRunVerdictLabel"))
                    ->text()
                    .contains(QStringLiteral("Yes: 2.00 GPU-h fit in the 2.00 GPU-h left.")));

    // "Plan a fine-tune…" takes the panel's user and namespace; the dialog asks the same
    // check for its recommendation's GPUs and hours and shows the decision's words.
    QSignalSpy plan(m_page.get(), &BudgetsPage::planRequested);
    panel->findChild<QPushButton *>(QStringLiteral("canRunPlanButton"))->click();
    QCOMPARE(plan.size(), 1);
    QCOMPARE(plan.first().at(0).toString(), QStringLiteral("alice"));
    QCOMPARE(plan.first().at(1).toString(), QStringLiteral("ml"));
    FitPlanDialog dialog(nullptr, m_service.get());
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("fitHoursSpin"))->setValue(2);
    dialog.setNamespace(QStringLiteral("ml"));
    dialog.setUser(QStringLiteral("alice"));
    const AdmissionRequest planned{AdmissionRequest::Kind::NewJob, double(dialog.advice().chosen.gpus), 2};
    const auto decision =
        (*store)->check(QStringLiteral("alice"), QStringLiteral("ml"), planned, m_clock.nowSecs());
    QVERIFY(decision);
    QTRY_COMPARE(dialog.findChild<QLabel *>(QStringLiteral("fitBudgetLabel"))->text(),
                 QStringLiteral("Budget: ") + decision->message);
}

// A new budget's zone is the Preferences' zone (UTC before any is set).
void TestBudgetsPage::newBudgetStartsInThePreferredZone() {
    const auto zoneOfNewBudget = [this] {
        m_page->findChild<QPushButton *>(QStringLiteral("newBudgetButton"))->click();
        BudgetDialog *d = nullptr;
        if (!QTest::qWaitFor(
                [&] { return (d = visibleDialog<BudgetDialog>(QStringLiteral("budgetDialog"))); }))
            return QString();
        const QString zone = d->findChild<QComboBox *>(QStringLiteral("budgetZoneCombo"))->currentText();
        const QPointer<BudgetDialog> open = d;
        d->reject();
        (void)QTest::qWaitFor([&open] { return !open || !open->isVisible(); });
        return zone;
    };
    QCOMPARE(zoneOfNewBudget(), QStringLiteral("UTC"));
    PagePreferences prefs;
    prefs.timeZone = QStringLiteral("Europe/Berlin");
    m_page->setPreferences(prefs);
    QCOMPARE(zoneOfNewBudget(), QStringLiteral("Europe/Berlin"));
}

QTEST_MAIN(TestBudgetsPage)
#include "tst_budgetspage.moc"
