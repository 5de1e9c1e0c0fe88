// The console's boosts and audit trail against the real test cluster and a real usage
// database (SQLite, or PostgreSQL from GQ_TEST_PG_URL in the _postgres build): a boost
// granted from the dialog is recorded, raises the quota on the server (read back with
// the kube client) and shows in the Boosts page; a revoke with a short note is refused;
// the Audit view's filters narrow its rows, Export CSV writes what is shown, and Verify
// finds a row altered behind the log's back.
#include "widgets/editor/applyconfirmdialog.h"
#include "models/audit/auditfiltermodel.h"
#include "core/usage/auditlog.h"
#include "models/audit/auditmodel.h"
#include "widgets/audit/auditpage.h"
#include "widgets/boosts/boostchangedialog.h"
#include "widgets/boosts/boostgrantdialog.h"
#include "core/usage/boostledger.h"
#include "models/boosts/boostlistmodel.h"
#include "services/boosts/boostservice.h"
#include "widgets/boosts/boostspage.h"
#include "tests/gui/guitestutil.h"
#include "core/kube/kuberequest.h"
#include "tests/gui/pagefixture.h"
#include "widgets/quotas/quotapage.h"
#include "tests/usage/usagebackend.h"
#include "services/usage/usageservice.h"
#include "core/usage/usagestore.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

using namespace gq;
using namespace gq::test;

namespace {
const QString kNs = QStringLiteral("team-nlp");
const QString kQuota = QStringLiteral("gpu-quota");
const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");
} // namespace

class TestBoostsPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();
    void grantFromDialogRaisesQuotaAndIsListed();
    void revokeWithShortNoteIsRefused();
    void scheduledAndBudgetBoostsTouchNoCluster();
    void auditFiltersNarrowRowsAndExport();
    void verifyFindsATamperedRow();
    void budgetBoostsReconcileWithoutACluster();
    void exportCsvDefusesFormulas();
    void consoleApplyPublishesTheAuditHead();
    void queueBoostIsListedWithItsTarget();

private:
    QString serverGpus();
    qint64 grantThroughDialog(const QString &add);
    void loadAudit(UsageService &db, AuditModel &model);

    UsageTestBackend m_backend{"gq_boostsui"};
    PageFixture m_fx;
    QString m_url;
    std::unique_ptr<BoostService> m_service;
    std::unique_ptr<BoostsPage> m_page;
};

void TestBoostsPage::initTestCase() {
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    const QString err = m_fx.start();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

void TestBoostsPage::cleanupTestCase() {
    m_fx.stop();
}

void TestBoostsPage::init() {
    m_url = m_backend.freshUrl();
    m_service = std::make_unique<BoostService>();
    m_page = std::make_unique<BoostsPage>(m_service.get());
    m_page->setActorSource([] { return QStringLiteral("admin@example.com"); });
    m_page->setConnection(m_fx.session.get());
    m_page->setNamespace(kNs);
    new QAbstractItemModelTester(m_page->model(), QAbstractItemModelTester::FailureReportingMode::QtTest,
                                 m_page.get());
    QSignalSpy listed(m_service.get(), &BoostService::listed);
    m_service->open(m_url);
    QVERIFY(listed.wait(15000));
}

void TestBoostsPage::cleanup() {
    m_page.reset();
    m_service.reset();
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

QString TestBoostsPage::serverGpus() {
    auto f = m_fx.session->client()->get(KubeResource::resourceQuotas(), kNs, kQuota);
    f.waitForFinished();
    const auto quota = f.result();
    if (!quota)
        return QStringLiteral("ERROR ") + quota.error().message;
    return quota->value(QLatin1String("spec"))
        .toObject()
        .value(QLatin1String("hard"))
        .toObject()
        .value(kGpu)
        .toString();
}

// Opens the dialog as the quota table's "Boost this resource…" does and grants.
qint64 TestBoostsPage::grantThroughDialog(const QString &add) {
    BoostGrantDialog *d = m_page->openGrantDialog(kNs, kQuota, kGpu);
    if (!d)
        return 0;
    auto *ok = d->findChild<QPushButton *>(QStringLiteral("boostOkButton"));
    d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(add);
    d->findChild<QLineEdit *>(QStringLiteral("boostDuration"))->setText(QStringLiteral("2h"));
    auto *note = d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"));
    note->setPlainText(QStringLiteral("paper"));
    // Too short: OK is disabled and says why, but the preview is already there.
    if (ok->isEnabled() || !d->reason().contains(QLatin1String("10")))
        return -1;
    if (!d->findChild<QLabel *>(QStringLiteral("boostPreview"))->text().contains(QChar(0x2192)))
        return -2;
    note->setPlainText(QStringLiteral("paper deadline on Friday"));
    if (!ok->isEnabled())
        return -3;
    QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
    QSignalSpy changed(m_service.get(), &BoostService::changed);
    QTest::mouseClick(ok, Qt::LeftButton);
    if (!reconciled.wait(20000) || changed.isEmpty())
        return -4;
    return changed.first().at(0).value<Boost>().id;
}

void TestBoostsPage::grantFromDialogRaisesQuotaAndIsListed() {
    const QString before = serverGpus();
    QCOMPARE(before, QStringLiteral("32")); // the demo's team-nlp
    QSignalSpy listed(m_service.get(), &BoostService::listed);
    const qint64 id = grantThroughDialog(QStringLiteral("+4"));
    QVERIFY2(id > 0, qPrintable(QString::number(id)));

    // The database record, as `gpuquota boost list` reads it.
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        auto b = BoostLedger(**store).find(id);
        QVERIFY(b);
        QCOMPARE(b->state, Boost::State::Active);
        QCOMPARE(b->target, BoostTarget::quotaEntry(kNs, kQuota, kGpu));
        QCOMPARE(b->delta, QStringLiteral("4"));
        QCOMPARE(b->note, QStringLiteral("paper deadline on Friday"));
        QCOMPARE(b->actor, QStringLiteral("admin@example.com"));
        QCOMPARE(b->expiry - b->start, 7200);
    }
    // The cluster, through the kube client.
    QCOMPARE(serverGpus(), QStringLiteral("36"));
    // The page.
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->rowOf(id) >= 0 &&
                                 m_page->model()->at(m_page->model()->rowOf(id)).state ==
                                     Boost::State::Active,
                             10000);
    QCOMPARE(m_page->filter()->rowCount(), 1);
    const QModelIndex row = m_page->filter()->index(0, 0);
    QCOMPARE(row.siblingAtColumn(BoostListModel::StateColumn).data().toString(), QStringLiteral("active"));
    QCOMPARE(row.siblingAtColumn(BoostListModel::DeltaColumn).data().toString(), QStringLiteral("+4"));
    QCOMPARE(row.siblingAtColumn(BoostListModel::ActorColumn).data().toString(),
             QStringLiteral("admin@example.com"));
    // Another namespace: hidden unless "All namespaces".
    m_page->setNamespace(QStringLiteral("team-vision"));
    QCOMPARE(m_page->filter()->rowCount(), 0);
    m_page->findChild<QCheckBox *>(QStringLiteral("boostAllNamespaces"))->setChecked(true);
    QCOMPARE(m_page->filter()->rowCount(), 1);
    auto *states = m_page->findChild<QComboBox *>(QStringLiteral("boostStateFilter"));
    states->setCurrentIndex(states->findData(int(BoostFilterModel::States::Scheduled)));
    QCOMPARE(m_page->filter()->rowCount(), 0);
    states->setCurrentIndex(states->findData(int(BoostFilterModel::States::Active)));
    QCOMPARE(m_page->filter()->rowCount(), 1);

    // Taken back with a proper note: the server is back where it was.
    m_page->selectBoost(id);
    BoostChangeDialog *d = m_page->revokeSelected();
    QVERIFY(d);
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostChangeNote"))
        ->setPlainText(QStringLiteral("deadline moved, not needed"));
    QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
    QTest::mouseClick(d->findChild<QPushButton *>(QStringLiteral("boostChangeOkButton")), Qt::LeftButton);
    QVERIFY(reconciled.wait(20000));
    QCOMPARE(serverGpus(), before);
    QTRY_COMPARE_WITH_TIMEOUT(m_page->model()->at(m_page->model()->rowOf(id)).state, Boost::State::Revoked,
                              10000);
}

void TestBoostsPage::revokeWithShortNoteIsRefused() {
    const qint64 id = grantThroughDialog(QStringLiteral("+1"));
    QVERIFY2(id > 0, qPrintable(QString::number(id)));
    QTRY_VERIFY_WITH_TIMEOUT(m_page->model()->rowOf(id) >= 0, 10000);
    m_page->selectBoost(id);
    BoostChangeDialog *d = m_page->revokeSelected();
    QVERIFY(d);
    auto *ok = d->findChild<QPushButton *>(QStringLiteral("boostChangeOkButton"));
    QVERIFY(!ok->isEnabled());
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostChangeNote"))->setPlainText(QStringLiteral("oops"));
    QVERIFY(!ok->isEnabled());
    QVERIFY2(d->reason().contains(QLatin1String("10")), qPrintable(d->reason()));
    QTest::mouseClick(ok, Qt::LeftButton); // disabled: nothing happens
    QVERIFY(d->isVisible());
    d->reject();
    // The service refuses it too (the ledger's rule, as the CLI's): nothing written.
    QSignalSpy failed(m_service.get(), &BoostService::failed);
    m_service->revoke(id, QStringLiteral("oops"), QStringLiteral("admin@example.com"),
                      m_fx.session->client());
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().at(0).value<Error>().field, QStringLiteral("note"));
    auto store = UsageStore::open(m_url);
    QVERIFY(store);
    auto b = BoostLedger(**store).find(id);
    QVERIFY(b);
    QCOMPARE(b->state, Boost::State::Active);
    QCOMPARE(serverGpus(), QStringLiteral("33"));
    // Leave the shared cluster as it was for the next test.
    QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
    m_service->revoke(id, QStringLiteral("test cleanup, not needed"), QStringLiteral("admin@example.com"),
                      m_fx.session->client());
    QVERIFY(reconciled.wait(20000));
    QCOMPARE(serverGpus(), QStringLiteral("32"));
}

// A budget boost from the dialog, and a quota boost starting later: both recorded,
// neither changes the ResourceQuota now.
void TestBoostsPage::scheduledAndBudgetBoostsTouchNoCluster() {
    BoostGrantDialog *d = m_page->openGrantDialog(kNs, kQuota, kGpu);
    QVERIFY(d);
    d->findChild<QLineEdit *>(QStringLiteral("boostAdd"))->setText(QStringLiteral("+2"));
    d->findChild<QRadioButton *>(QStringLiteral("boostStartAt"))->setChecked(true);
    d->findChild<QDateTimeEdit *>(QStringLiteral("boostStart"))
        ->setDateTime(QDateTime::currentDateTime().addDays(1));
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"))
        ->setPlainText(QStringLiteral("training run tomorrow"));
    QVERIFY2(d->canGrant(), qPrintable(d->reason()));
    QSignalSpy changed(m_service.get(), &BoostService::changed);
    QSignalSpy listed(m_service.get(), &BoostService::listed);
    QTest::mouseClick(d->findChild<QPushButton *>(QStringLiteral("boostOkButton")), Qt::LeftButton);
    QVERIFY(changed.wait(10000));
    QCOMPARE(changed.first().at(0).value<Boost>().state, Boost::State::Scheduled);

    d = m_page->openGrantDialog();
    d->findChild<QRadioButton *>(QStringLiteral("boostKindBudget"))->setChecked(true);
    d->findChild<QLineEdit *>(QStringLiteral("boostBudgetSubject"))->setText(QStringLiteral("dana"));
    d->findChild<QDoubleSpinBox *>(QStringLiteral("boostHours"))->setValue(20);
    d->findChild<QPlainTextEdit *>(QStringLiteral("boostNote"))
        ->setPlainText(QStringLiteral("rerun for the paper"));
    QVERIFY2(d->canGrant(), qPrintable(d->reason()));
    QTest::mouseClick(d->findChild<QPushButton *>(QStringLiteral("boostOkButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(changed.size(), 2, 10000);
    const Boost budget = changed.at(1).at(0).value<Boost>();
    QCOMPARE(budget.target, BoostTarget::budget(BudgetScope::User, QStringLiteral("dana")));
    QCOMPARE(budget.delta, QStringLiteral("20"));
    QCOMPARE(serverGpus(), QStringLiteral("32"));
    QTRY_COMPARE_WITH_TIMEOUT(m_page->model()->rowCount(), 2, 10000);
}

void TestBoostsPage::loadAudit(UsageService &db, AuditModel &model) {
    QSignalSpy opened(&db, &UsageService::opened);
    QSignalSpy loaded(&db, &UsageService::auditLoaded);
    db.open(m_url);
    QVERIFY(opened.wait(15000));
    db.loadAudit(); // as the window does once the database is open
    QVERIFY(loaded.wait(15000));
    model.loadEntries(loaded.last().at(0).value<QList<AuditEntry>>());
    QTRY_VERIFY_WITH_TIMEOUT(model.rowCount() > 0, 10000);
}

void TestBoostsPage::auditFiltersNarrowRowsAndExport() {
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        AuditLog log(**store);
        QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("quota.apply"),
                           QStringLiteral("team-a/ResourceQuota/gpu-quota"), QStringLiteral("a"),
                           QStringLiteral("b"), QStringLiteral("more GPUs for the demo")));
        QVERIFY(log.append(QStringLiteral("bob"), QStringLiteral("quota.apply"),
                           QStringLiteral("team-b/ResourceQuota/gpu-quota"), QStringLiteral("a"),
                           QStringLiteral("b"), QStringLiteral("fewer GPUs, idle")));
        QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("limitrange.apply"),
                           QStringLiteral("team-b/LimitRange/defaults"), QStringLiteral("a"),
                           QStringLiteral("b"), QStringLiteral("bigger default memory")));
        QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("budget.set"),
                           QStringLiteral("budget/user/carol"), QString(), QStringLiteral("100"),
                           QStringLiteral("new student")));
    }
    UsageService db;
    AuditModel model;
    AuditPage page(&model);
    page.setUsageService(&db);
    page.setNamespace(QString());
    loadAudit(db, model);
    AuditFilterModel *f = page.filter();
    QCOMPARE(f->rowCount(), 4);
    auto *actor = page.findChild<QComboBox *>(QStringLiteral("auditActorFilter"));
    auto *ns = page.findChild<QComboBox *>(QStringLiteral("auditNamespaceFilter"));
    auto *action = page.findChild<QComboBox *>(QStringLiteral("auditActionFilter"));
    QVERIFY(actor->findText(QStringLiteral("bob")) >= 0); // offered from the log
    actor->setCurrentText(QStringLiteral("alice"));
    QCOMPARE(f->rowCount(), 3);
    ns->setCurrentText(QStringLiteral("team-b"));
    QCOMPARE(f->rowCount(), 1);
    ns->setCurrentText(QString());
    action->setCurrentText(QStringLiteral("quota.apply"));
    QCOMPARE(f->rowCount(), 1);
    actor->setCurrentText(QString());
    QCOMPARE(f->rowCount(), 2);
    // The namespace selected on the left narrows as well.
    page.setNamespace(QStringLiteral("team-a"));
    QCOMPARE(f->rowCount(), 1);
    page.findChild<QCheckBox *>(QStringLiteral("auditOnlyNamespace"))->setChecked(false);
    QCOMPARE(f->rowCount(), 2);
    action->setCurrentText(QString());
    // A time range after every entry: nothing; before all of them: everything.
    auto *from = page.findChild<QDateTimeEdit *>(QStringLiteral("auditFrom"));
    from->setDateTime(QDateTime::currentDateTime().addSecs(600));
    page.findChild<QCheckBox *>(QStringLiteral("auditFromEnabled"))->setChecked(true);
    QCOMPARE(f->rowCount(), 0);
    from->setDateTime(QDateTime::currentDateTime().addDays(-1));
    QCOMPARE(f->rowCount(), 4);

    // Export CSV: what is shown, oldest first, in the CLI's columns.
    action->setCurrentText(QStringLiteral("quota.apply"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.csv"));
    QSignalSpy exported(&page, &AuditPage::exported);
    page.exportCsv(path);
    QVERIFY(exported.wait(10000));
    QCOMPARE(exported.first().at(1).toString(), QString());
    QFile csv(path);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(lines.at(0), QByteArray("seq,at,actor,action,target,before,after,note,hash,mac"));
    QVERIFY2(lines.at(1).startsWith("1,") && lines.at(1).contains(",alice,quota.apply,team-a/"),
             lines.at(1).constData());
    QVERIFY2(lines.at(2).startsWith("2,") && lines.at(2).contains(",bob,"), lines.at(2).constData());
}

void TestBoostsPage::verifyFindsATamperedRow() {
    const qint64 id = grantThroughDialog(QStringLiteral("+2"));
    QVERIFY2(id > 0, qPrintable(QString::number(id)));
    UsageService db;
    AuditModel model;
    AuditPage page(&model);
    page.setUsageService(&db);
    loadAudit(db, model);
    auto *verify = page.findChild<QPushButton *>(QStringLiteral("auditVerifyButton"));
    auto *verdict = page.findChild<QLabel *>(QStringLiteral("auditVerdict"));
    QSignalSpy verified(&db, &UsageService::auditVerified);
    QTest::mouseClick(verify, Qt::LeftButton);
    QVERIFY(verified.wait(10000));
    QVERIFY2(verdict->text().startsWith(QLatin1String("Intact")), qPrintable(verdict->text()));
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        QVERIFY(test::unguardAuditLog((*store)->database()));
        QSqlQuery q((*store)->database());
        QVERIFY(q.exec(QStringLiteral("UPDATE audit_log SET note = 'nothing to see' WHERE seq = 2")));
    }
    QTRY_VERIFY(verify->isEnabled());
    QTest::mouseClick(verify, Qt::LeftButton);
    QVERIFY(verified.wait(10000));
    QVERIFY2(verdict->text().startsWith(QLatin1String("Broken at entry 2")), qPrintable(verdict->text()));
    QCOMPARE(verified.last().at(0).value<AuditChainReport>().firstBadSeq, 2);
    // The broken entry is the one selected.
    const QModelIndex current = page.view()->currentIndex();
    QVERIFY(current.isValid());
    QCOMPARE(model.at(page.filter()->mapToSource(current).row()).entry.seq, 2);
    // Take the boost back so the shared cluster is as it was.
    QSignalSpy reconciled(m_service.get(), &BoostService::reconciled);
    m_service->revoke(id, QStringLiteral("test cleanup, not needed"), QStringLiteral("admin@example.com"),
                      m_fx.session->client());
    QVERIFY(reconciled.wait(20000));
}

// The console reconciles budget boosts on its timer without a cluster connection (they
// change no object); a due quota boost waits for one instead of failing.
void TestBoostsPage::budgetBoostsReconcileWithoutACluster() {
    ManualClock clock(QDateTime::currentSecsSinceEpoch());
    m_service->setClock(&clock);
    const auto systemClock = qScopeGuard([this] { m_service->setClock(&Clock::system()); });
    m_page->setConnection(nullptr);
    qint64 budgetId = 0, quotaId = 0;
    {
        // Granted elsewhere (the CLI): both start in a minute, for an hour.
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        BoostLedger ledger(**store, clock);
        Boost b;
        b.target = BoostTarget::budget(BudgetScope::User, QStringLiteral("dana"));
        b.delta = QStringLiteral("20");
        b.start = clock.nowSecs() + 60;
        b.expiry = b.start + 3600;
        b.note = QStringLiteral("rerun for the paper");
        b.actor = QStringLiteral("admin@example.com");
        auto budget = ledger.grant(b);
        QVERIFY(budget);
        budgetId = budget->id;
        b.target = BoostTarget::quotaEntry(kNs, kQuota, kGpu);
        b.delta = QStringLiteral("2");
        auto quota = ledger.grant(b);
        QVERIFY(quota);
        quotaId = quota->id;
    }
    auto stateOf = [this](qint64 id) {
        const int row = m_page->model()->rowOf(id);
        return row < 0 ? QStringLiteral("(not listed)") : boostStateName(m_page->model()->at(row).state);
    };
    m_page->setRefreshInterval(100);
    m_page->show();
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(budgetId), QStringLiteral("scheduled"), 10000);
    clock.advance(120);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(budgetId), QStringLiteral("active"), 10000);
    QTest::qWait(500);                                       // a few more ticks
    QCOMPARE(stateOf(quotaId), QStringLiteral("scheduled")); // no cluster: waits, not failed
    // Both windows over: the budget boost expires; the quota boost, never applied,
    // simply ends (nothing of it is on the cluster).
    clock.advance(3600);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(budgetId), QStringLiteral("expired"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(quotaId), QStringLiteral("expired"), 10000);
    QCOMPARE(serverGpus(), QStringLiteral("32"));
    auto store = UsageStore::open(m_url);
    QVERIFY(store);
    const auto entries = AuditLog(**store).list();
    QVERIFY(entries);
    QStringList actions;
    for (const AuditEntry &e : *entries)
        actions.prepend(e.action);
    const QString all = actions.join(QLatin1Char(' '));
    QVERIFY2(actions.count(QStringLiteral("boost.apply")) == 1, qPrintable(all));
    QVERIFY2(actions.count(QStringLiteral("boost.expire")) == 2, qPrintable(all));
    QVERIFY2(actions.count(QStringLiteral("boost.fail")) == 0, qPrintable(all));
    m_page->hide();
}

// Export CSV from the Audit view: a value a spreadsheet would run is written as text.
void TestBoostsPage::exportCsvDefusesFormulas() {
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        QVERIFY(AuditLog(**store).append(QStringLiteral("@evil"), QStringLiteral("quota.apply"),
                                         QStringLiteral("team-a/ResourceQuota/gpu-quota"),
                                         QStringLiteral("-1"), QStringLiteral("+1"),
                                         QStringLiteral("=HYPERLINK(\"http://x\")")));
    }
    UsageService db;
    AuditModel model;
    AuditPage page(&model);
    page.setUsageService(&db);
    loadAudit(db, model);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("audit.csv"));
    QSignalSpy exported(&page, &AuditPage::exported);
    page.exportCsv(path);
    QVERIFY(exported.wait(10000));
    QFile csv(path);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray row = csv.readAll().trimmed().split('\n').value(1);
    QVERIFY2(row.contains(",\"'@evil\",quota.apply,team-a/ResourceQuota/gpu-quota,\"'-1\",\"'+1\","
                          "\"'=HYPERLINK(\"\"http://x\"\")\","),
             row.constData());
}

// An edit applied from the Quotas tab carries the audit log's head (as the usage
// database service last saw it) onto the ResourceQuota, in the same PUT.
void TestBoostsPage::consoleApplyPublishesTheAuditHead() {
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        AuditLog log(**store);
        for (int i = 0; i < 2; ++i)
            QVERIFY(log.append(QStringLiteral("alice"), QStringLiteral("budget.set"),
                               QStringLiteral("budget/user/carol"), QString(), QString::number(i),
                               QStringLiteral("new student")));
    }
    UsageService db;
    AuditModel model;
    loadAudit(db, model);
    const AuditHead head = db.auditHead();
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        QCOMPARE(head.toText(), AuditLog(**store).head()->toText());
        QCOMPARE(head.count, qint64(2));
    }
    QuotaPage page(m_fx.drafts.get());
    page.setConnection(m_fx.session.get());
    page.setAuditHeadSource([&db] { return db.auditHead(); });
    page.resize(900, 600);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.setNamespace(kNs);
    QTRY_COMPARE(page.currentObject(), kQuota);
    auto *plus = page.findChild<QToolButton *>(QStringLiteral("gpuPlusButton"));
    auto *minus = page.findChild<QToolButton *>(QStringLiteral("gpuMinusButton"));
    QTRY_VERIFY_WITH_TIMEOUT(plus->isEnabled(), 10000);
    auto applyConfirmed = [&page] {
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("applyButton")), Qt::LeftButton);
        ApplyConfirmDialog *confirm = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((confirm = visibleDialog<ApplyConfirmDialog>()) != nullptr, 10000);
        QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                          Qt::LeftButton);
    };
    QTest::mouseClick(plus, Qt::LeftButton);
    applyConfirmed();
    QTRY_COMPARE_WITH_TIMEOUT(serverGpus(), QStringLiteral("33"), 10000);
    auto quota = m_fx.session->client()->get(KubeResource::resourceQuotas(), kNs, kQuota);
    quota.waitForFinished();
    QVERIFY(quota.result());
    const std::optional<AuditHead> published = auditHeadOf(*quota.result());
    QVERIFY(published);
    QCOMPARE(published->toText(), head.toText());
    // Back to the demo's value for the other tests.
    QTRY_VERIFY_WITH_TIMEOUT(minus->isEnabled() && !page.hasPendingEdit(), 10000);
    QTest::mouseClick(minus, Qt::LeftButton);
    applyConfirmed();
    QTRY_COMPARE_WITH_TIMEOUT(serverGpus(), QStringLiteral("32"), 10000);
}

// A boost of a Kueue ClusterQueue flavor (granted as `gpuquota boost grant --clusterqueue`
// would) is listed under "all namespaces" with its queue, flavor and field. With
// GQ_SCREENSHOT_DIR the page is saved as boosts-queue.png (GQ_SCREENSHOT_QM: a .qm loaded
// first, GQ_SCREENSHOT_SUFFIX for the name).
void TestBoostsPage::queueBoostIsListedWithItsTarget() {
    QTranslator *translator = nullptr;
    if (const QString qm = qEnvironmentVariable("GQ_SCREENSHOT_QM"); !qm.isEmpty()) {
        translator = new QTranslator(this);
        QVERIFY2(translator->load(qm), qPrintable(qm));
        QCoreApplication::installTranslator(translator);
    }
    {
        auto store = UsageStore::open(m_url);
        QVERIFY(store);
        BoostLedger ledger(**store);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        Boost b;
        b.target = BoostTarget::queueEntry(QStringLiteral("cq-nlp"), QStringLiteral("h100"),
                                           QStringLiteral("nominalQuota"), QStringLiteral("nvidia.com/gpu"));
        b.delta = QStringLiteral("8");
        b.baseValue = QStringLiteral("16");
        b.start = now + 86400;
        b.expiry = b.start + 3 * 86400;
        b.note = QStringLiteral("NeurIPS deadline: pretraining run");
        b.actor = QStringLiteral("admin@example.com");
        QVERIFY(ledger.grant(b));
        b.target =
            BoostTarget::queueEntry(QStringLiteral("cq-genai"), QStringLiteral("l40s"),
                                    QStringLiteral("borrowingLimit"), QStringLiteral("nvidia.com/gpu"));
        b.delta = QStringLiteral("4");
        b.baseValue = QStringLiteral("8");
        b.note = QStringLiteral("more borrowing for the eval sweep");
        QVERIFY(ledger.grant(b));
    }
    // A page made after the translator, as the console makes it after loading its language.
    m_page = std::make_unique<BoostsPage>(m_service.get());
    m_page->setConnection(m_fx.session.get());
    m_page->setNamespace(kNs);
    m_page->findChild<QCheckBox *>(QStringLiteral("boostAllNamespaces"))->setChecked(true);
    QSignalSpy listed(m_service.get(), &BoostService::listed);
    m_service->load();
    QVERIFY(listed.wait(10000));
    QTRY_COMPARE_WITH_TIMEOUT(m_page->filter()->rowCount(), 2, 10000);
    QStringList texts;
    for (int r = 0; r < m_page->filter()->rowCount(); ++r)
        for (int c = 0; c < m_page->filter()->columnCount(); ++c)
            texts << m_page->filter()->index(r, c).data().toString();
    const QString all = texts.join(QLatin1Char('|'));
    QVERIFY2(all.contains(QLatin1String("ClusterQueue cq-nlp / h100")) &&
                 all.contains(QLatin1String("nominalQuota")),
             qPrintable(all));
    QVERIFY2(all.contains(QLatin1String("ClusterQueue cq-genai / l40s")), qPrintable(all));
    if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
        m_page->resize(1280, 260);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        m_page->findChild<QTableView *>(QStringLiteral("boostsTable"))->resizeColumnsToContents();
        const QString name =
            QStringLiteral("boosts-queue%1.png").arg(qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX"));
        QVERIFY(m_page->grab().save(QDir(dir).filePath(name)));
    }
    if (translator)
        QCoreApplication::removeTranslator(translator);
}

QTEST_MAIN(TestBoostsPage)
#include "tst_boostspage.moc"
