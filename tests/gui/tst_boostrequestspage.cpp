// The Boosts tab's boost requests, offscreen against a real SQLite usage database: a
// pending request is listed before a decided newer one, with the requester's usage and
// budget as the Budgets page computes them; Approve with changed hours grants the boost
// (BoostLedger::grant, the path of a grant) and audits both; Deny records the reason;
// an admin's own request is refused with a clear message, by the panel before any
// dialog and by the ledger behind it.
#include "core/usage/auditlog.h"
#include "widgets/boosts/boostdecisiondialog.h"
#include "core/usage/boostledger.h"
#include "models/boosts/boostlistmodel.h"
#include "models/boosts/boostrequestmodel.h"
#include "core/usage/boostrequests.h"
#include "widgets/boosts/boostrequestspanel.h"
#include "services/boosts/boostservice.h"
#include "widgets/boosts/boostspage.h"
#include "core/domain/clock.h"
#include "services/cluster/clusterconnection.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::test;

namespace {
const QString kAdmin = QStringLiteral("admin@example.com");
const QString kAlice = QStringLiteral("alice");
} // namespace

class TestBoostRequestsPage : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void pendingFirstWithUsageAndBudget();
    void approveWithChangedHoursGrantsAndAudits();
    void denyRecordsTheReason();
    void ownRequestIsRefused();

private:
    BoostRequest ask(const QString &requester, double hours, const QString &note);
    BoostRequestLedger ledger() { return BoostRequestLedger(*m_store, m_clock); }
    QList<AuditEntry> audit(const QString &action);

    ManualClock m_clock{utc(10, 15)};
    QTemporaryDir m_dir;
    QString m_url;
    std::unique_ptr<UsageStore> m_store;
    std::unique_ptr<BoostService> m_service;
    std::unique_ptr<BoostsPage> m_page;
    QString m_actor = kAdmin;
    qint64 m_pending = 0;
    qint64 m_decided = 0;
};

BoostRequest TestBoostRequestsPage::ask(const QString &requester, double hours, const QString &note) {
    BoostRequest r;
    r.requester = requester;
    r.scope = BudgetScope::User;
    r.subject = requester;
    r.hours = hours;
    r.until = utc(11, 15);
    r.note = note;
    return r;
}

QList<AuditEntry> TestBoostRequestsPage::audit(const QString &action) {
    AuditLog::Filter f;
    f.action = action;
    auto entries = AuditLog(*m_store).list(f);
    return entries ? *entries : QList<AuditEntry>{};
}

void TestBoostRequestsPage::init() {
    QVERIFY(m_dir.isValid());
    static int n = 0;
    m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage-%1.db").arg(++n));
    auto store = UsageStore::open(m_url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    m_store = std::move(*store);
    // alice: 8 GPU-h a day, 2 GPUs for the hour before 14:30 used (2 GPU-h).
    QVERIFY(m_store->setBudget(budget(BudgetScope::User, kAlice, 8)));
    QVERIFY(m_store->upsertInterval(interval(QStringLiteral("team-nlp"), kAlice, QStringLiteral("train"), 2,
                                             utc(10, 13, 30), utc(10, 14, 30))));
    QVERIFY(m_store->setBudget(budget(BudgetScope::User, QStringLiteral("bob"), 4)));
    auto pending = ledger().submit(ask(kAlice, 4, QStringLiteral("paper deadline on Friday")));
    QVERIFY2(pending, qPrintable(pending ? QString() : pending.error().toString()));
    m_pending = pending->id;
    // A newer request, already denied: listed after the pending one.
    auto decided = ledger().submit(ask(QStringLiteral("bob"), 2, QStringLiteral("sweep over the weekend")));
    QVERIFY(decided);
    QVERIFY(ledger().deny(decided->id, QStringLiteral("the cluster is full this week"), kAdmin));
    m_decided = decided->id;

    m_service = std::make_unique<BoostService>();
    m_service->setClock(&m_clock);
    m_page = std::make_unique<BoostsPage>(m_service.get());
    m_page->setActorSource([this] { return m_actor; });
    QSignalSpy listed(m_service.get(), &BoostService::requestsListed);
    m_service->open(m_url);
    QVERIFY(listed.wait(15000));
}

void TestBoostRequestsPage::cleanup() {
    m_page.reset();
    m_service.reset();
    m_store.reset();
    m_actor = kAdmin;
}

void TestBoostRequestsPage::pendingFirstWithUsageAndBudget() {
    BoostRequestModel *model = m_page->requests()->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->at(0).request.id, m_pending);
    QCOMPARE(model->at(1).request.id, m_decided);
    QVERIFY(m_decided > m_pending);
    QCOMPARE(model->pendingCount(), 1);
    QVERIFY(!m_page->requests()->isHidden());
    const auto text = [model](int row, int column) {
        return model->data(model->index(row, column)).toString();
    };
    QCOMPARE(text(0, BoostRequestModel::StateColumn), QStringLiteral("pending"));
    QCOMPARE(text(0, BoostRequestModel::RequesterColumn), kAlice);
    QVERIFY2(text(0, BoostRequestModel::AskedColumn).startsWith(QLatin1String("+4 GPU-h until 2026-03-11")),
             qPrintable(text(0, BoostRequestModel::AskedColumn)));
    // The Budgets page's own words for alice's budget: 2 of 8 used.
    auto status = m_store->budgetStatus(BudgetScope::User, kAlice, m_clock.nowSecs());
    QVERIFY(status && status->size() == 1);
    QCOMPARE(status->first().used, 2.0);
    QCOMPARE(text(0, BoostRequestModel::UsageColumn), QStringLiteral("6 GPU-h left of 8 today; 2 used"));
    QCOMPARE(text(1, BoostRequestModel::StateColumn), QStringLiteral("denied"));
    QVERIFY(text(1, BoostRequestModel::DecisionColumn).contains(QLatin1String("the cluster is full")));
    QCOMPARE(text(1, BoostRequestModel::UsageColumn), QStringLiteral("4 GPU-h left of 4 today; 0 used"));
    // The pending request is selected and can be decided; the denied one cannot.
    auto *approve = m_page->findChild<QPushButton *>(QStringLiteral("approveRequestButton"));
    QVERIFY(approve->isEnabled());
    m_page->requests()->selectRequest(m_decided);
    QVERIFY(!approve->isEnabled());
}

void TestBoostRequestsPage::approveWithChangedHoursGrantsAndAudits() {
    m_page->requests()->selectRequest(m_pending);
    BoostDecisionDialog *d = m_page->requests()->approveSelected();
    QVERIFY(d);
    auto *ok = d->findChild<QPushButton *>(QStringLiteral("boostDecisionOkButton"));
    auto *note = d->findChild<QPlainTextEdit *>(QStringLiteral("boostDecisionNote"));
    QVERIFY(!ok->isEnabled()); // the admin's own note is required
    note->setPlainText(QStringLiteral("ok"));
    QVERIFY(!ok->isEnabled());
    QVERIFY(d->reason().contains(QLatin1String("10")));
    d->findChild<QDoubleSpinBox *>(QStringLiteral("boostDecisionHours"))->setValue(3);
    note->setPlainText(QStringLiteral("three hours is enough for the rebuttal"));
    QVERIFY(ok->isEnabled());
    QSignalSpy decided(m_service.get(), &BoostService::requestDecided);
    QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
    QSignalSpy listed(m_service.get(), &BoostService::requestsListed);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(decided.wait(15000));
    const auto r = decided.first().first().value<BoostRequest>();
    QCOMPARE(r.state, BoostRequest::State::Approved);
    QCOMPARE(r.hours, 3.0);
    QVERIFY(r.boostId > 0);
    QVERIFY(reconciled.count() > 0 || reconciled.wait(15000));
    QTRY_VERIFY_WITH_TIMEOUT(!listed.isEmpty(), 15000);

    // In the database: the request approved, the boost granted by the admin with their
    // note, the budget raised by 3 (not 4), and both steps in the audit chain.
    auto stored = ledger().find(m_pending);
    QVERIFY(stored);
    QCOMPARE(stored->state, BoostRequest::State::Approved);
    QCOMPARE(stored->decidedBy, kAdmin);
    auto boosts = BoostLedger(*m_store, m_clock).list({});
    QVERIFY(boosts && boosts->size() == 1);
    QCOMPARE(boosts->first().id, r.boostId);
    QCOMPARE(boosts->first().delta, QStringLiteral("3"));
    QCOMPARE(boosts->first().actor, kAdmin);
    QCOMPARE(boosts->first().note, QStringLiteral("three hours is enough for the rebuttal"));
    auto status = m_store->budgetStatus(BudgetScope::User, kAlice, m_clock.nowSecs());
    QVERIFY(status && !status->isEmpty());
    QCOMPARE(status->first().limit, 11.0);
    const QList<AuditEntry> approvals = audit(QStringLiteral("boost.request.approve"));
    QCOMPARE(approvals.size(), 1);
    QCOMPARE(approvals.first().actor, kAdmin);
    QCOMPARE(approvals.first().note, QStringLiteral("three hours is enough for the rebuttal"));
    QCOMPARE(audit(QStringLiteral("boost.grant")).size(), 1);
    auto chain = AuditLog(*m_store).verifyChain();
    QVERIFY(chain && chain->ok);
    // The list follows: the request now approved, the boost in the boosts table.
    QTRY_COMPARE_WITH_TIMEOUT(m_page->requests()->model()->pendingCount(), 0, 15000);
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->rowOf(r.boostId) >= 0, 15000);
}

void TestBoostRequestsPage::denyRecordsTheReason() {
    m_page->requests()->selectRequest(m_pending);
    BoostDecisionDialog *d = m_page->requests()->denySelected();
    QVERIFY(d);
    QCOMPARE(d->objectName(), QStringLiteral("boostDenyDialog"));
    QVERIFY(!d->findChild<QDoubleSpinBox *>(QStringLiteral("boostDecisionHours")));
    auto *ok = d->findChild<QPushButton *>(QStringLiteral("boostDecisionOkButton"));
    QVERIFY(!ok->isEnabled()); // a reason is required
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostDecisionNote"))
        ->setPlainText(QStringLiteral("use the spot queue for this"));
    QSignalSpy decided(m_service.get(), &BoostService::requestDecided);
    QTest::mouseClick(ok, Qt::LeftButton);
    QVERIFY(decided.wait(15000));
    auto stored = ledger().find(m_pending);
    QVERIFY(stored);
    QCOMPARE(stored->state, BoostRequest::State::Denied);
    QCOMPARE(stored->decisionNote, QStringLiteral("use the spot queue for this"));
    QCOMPARE(stored->boostId, 0);
    auto boosts = BoostLedger(*m_store, m_clock).list({});
    QVERIFY(boosts && boosts->isEmpty());
    bool found = false;
    for (const AuditEntry &e : audit(QStringLiteral("boost.request.deny")))
        found |= e.note == QLatin1String("use the spot queue for this") && e.actor == kAdmin;
    QVERIFY(found);
    QTRY_COMPARE_WITH_TIMEOUT(m_page->requests()->model()->pendingCount(), 0, 15000);
}

void TestBoostRequestsPage::ownRequestIsRefused() {
    m_actor = kAlice;
    m_page->requests()->selectRequest(m_pending);
    QVERIFY(!m_page->requests()->approveSelected());
    QVERIFY(!m_page->requests()->denySelected());
    QLabel *error = m_page->requests()->errorLabel();
    QVERIFY(!error->isHidden());
    QCOMPARE(error->text(),
             QStringLiteral("Request %1 is your own (alice): another admin must approve or deny it.")
                 .arg(m_pending));
    // Behind the panel, the ledger refuses it too: nothing is granted.
    QSignalSpy failed(m_service.get(), &BoostService::failed);
    m_service->approveRequest(m_pending, {kAlice, QStringLiteral("approving my own request"), 0, 0}, nullptr);
    QVERIFY(failed.wait(15000));
    const auto e = failed.first().first().value<Error>();
    QCOMPARE(e.kind, Error::Kind::Forbidden);
    QVERIFY(e.message.contains(QLatin1String("own request")));
    auto stored = ledger().find(m_pending);
    QVERIFY(stored && stored->state == BoostRequest::State::Pending);
    auto boosts = BoostLedger(*m_store, m_clock).list({});
    QVERIFY(boosts && boosts->isEmpty());
    auto *label = m_page->findChild<QLabel *>(QStringLiteral("boostsErrorLabel"));
    QTRY_VERIFY(!label->isHidden());
    QVERIFY(label->text().contains(QLatin1String("may not decide their own request")));
}

QTEST_MAIN(TestBoostRequestsPage)
#include "tst_boostrequestspage.moc"
