#include "core/usage/boosts.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

// BoostTarget: the typed target of a boost and its stored text form, which existing
// databases already hold ("budget/user/alice") and which must therefore not change.
class TestBoostTarget : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void rejects_data();
    void rejects();
    void validates();
    void storedFormInTheDatabase();
    void unreadableStoredTarget();
};

void TestBoostTarget::roundTrip_data() {
    QTest::addColumn<BoostTarget>("target");
    QTest::addColumn<QString>("stored");
    QTest::newRow("user budget") << BoostTarget::budget(BudgetScope::User, QStringLiteral("alice"))
                                 << QStringLiteral("budget/user/alice");
    QTest::newRow("namespace budget") << BoostTarget::budget(BudgetScope::Namespace, QStringLiteral("team-a"))
                                      << QStringLiteral("budget/namespace/team-a");
    QTest::newRow("user with a slash") << BoostTarget::budget(BudgetScope::User, QStringLiteral("corp/alice"))
                                       << QStringLiteral("budget/user/corp/alice");
    QTest::newRow("e-mail user") << BoostTarget::budget(BudgetScope::User, QStringLiteral("bob@example.com"))
                                 << QStringLiteral("budget/user/bob@example.com");
    QTest::newRow("quota entry") << BoostTarget::quotaEntry(QStringLiteral("team-a"),
                                                            QStringLiteral("gpu-quota"),
                                                            QStringLiteral("requests.nvidia.com/gpu"))
                                 << QStringLiteral("quota/team-a/gpu-quota/requests.nvidia.com/gpu");
    QTest::newRow("quota entry, MIG")
        << BoostTarget::quotaEntry(QStringLiteral("ml"), QStringLiteral("q"),
                                   QStringLiteral("requests.nvidia.com/mig-1g.5gb"))
        << QStringLiteral("quota/ml/q/requests.nvidia.com/mig-1g.5gb");
}

void TestBoostTarget::roundTrip() {
    QFETCH(BoostTarget, target);
    QFETCH(QString, stored);
    QVERIFY(target.validate());
    QCOMPARE(target.toString(), stored);
    auto parsed = BoostTarget::parse(stored);
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    QVERIFY(*parsed == target);
    QCOMPARE(parsed->toString(), stored);
}

void TestBoostTarget::rejects_data() {
    QTest::addColumn<QString>("stored");
    QTest::newRow("empty") << QString();
    QTest::newRow("unknown kind") << QStringLiteral("limit/user/alice");
    QTest::newRow("no scope") << QStringLiteral("budget/");
    QTest::newRow("unknown scope") << QStringLiteral("budget/team/alice");
    QTest::newRow("no subject") << QStringLiteral("budget/user/");
    QTest::newRow("blank subject") << QStringLiteral("budget/namespace/  ");
    QTest::newRow("quota without resource") << QStringLiteral("quota/team-a/gpu-quota");
    QTest::newRow("quota empty resource") << QStringLiteral("quota/team-a/gpu-quota/");
    QTest::newRow("quota empty namespace") << QStringLiteral("quota//gpu-quota/requests.nvidia.com/gpu");
    QTest::newRow("quota empty name") << QStringLiteral("quota/team-a//requests.nvidia.com/gpu");
}

void TestBoostTarget::rejects() {
    QFETCH(QString, stored);
    auto parsed = BoostTarget::parse(stored);
    QVERIFY(!parsed);
    QCOMPARE(parsed.error().kind, Error::Kind::Invalid);
    QCOMPARE(parsed.error().field, QStringLiteral("target"));
}

void TestBoostTarget::validates() {
    QVERIFY(!BoostTarget{}.validate()); // no subject
    QCOMPARE(BoostTarget{}.validate().error().message, QStringLiteral("must not be empty"));
    BoostTarget budgetWithResource = BoostTarget::budget(BudgetScope::User, QStringLiteral("alice"));
    budgetWithResource.resource = QStringLiteral("nvidia.com/gpu");
    QVERIFY(!budgetWithResource.validate());
    // A '/' in the namespace or quota name would read back as a different target.
    QVERIFY(!BoostTarget::quotaEntry(QStringLiteral("a/b"), QStringLiteral("q"), QStringLiteral("cpu"))
                 .validate());
    QVERIFY(!BoostTarget::quotaEntry(QStringLiteral("a"), QStringLiteral("q/r"), QStringLiteral("cpu"))
                 .validate());
    BoostTarget userQuota =
        BoostTarget::quotaEntry(QStringLiteral("a"), QStringLiteral("q"), QStringLiteral("cpu"));
    userQuota.scope = BudgetScope::User;
    QVERIFY(!userQuota.validate());
}

void TestBoostTarget::storedFormInTheDatabase() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto store = UsageStore::open(QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db")));
    QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
    UsageStore &s = **store;
    const qint64 now = 1700000000;
    const Boost budgetBoost = gq::test::budgetBoost(BudgetScope::User, QStringLiteral("alice"),
                                                    QStringLiteral("5"), now - 60, now + 3600);
    Boost quotaBoost = budgetBoost;
    quotaBoost.target = BoostTarget::quotaEntry(QStringLiteral("team-a"), QStringLiteral("gpu-quota"),
                                                QStringLiteral("requests.nvidia.com/gpu"));
    quotaBoost.delta = QStringLiteral("2");
    auto a = s.addBoost(budgetBoost);
    auto b = s.addBoost(quotaBoost);
    QVERIFY(a && b);

    QSqlQuery q(s.database());
    QVERIFY(q.exec(QStringLiteral("SELECT target FROM boosts ORDER BY id")));
    QStringList raw;
    while (q.next())
        raw << q.value(0).toString();
    QCOMPARE(raw, (QStringList{QStringLiteral("budget/user/alice"),
                               QStringLiteral("quota/team-a/gpu-quota/requests.nvidia.com/gpu")}));

    auto all = s.boosts();
    QVERIFY(all);
    QCOMPARE(all->size(), 2);
    QVERIFY(all->at(0) == *a);
    QVERIFY(all->at(1) == *b);
    QCOMPARE(*s.activeBudgetBoost(BudgetScope::User, QStringLiteral("alice"), now), 5.0);
    QCOMPARE(*s.activeBudgetBoost(BudgetScope::Namespace, QStringLiteral("team-a"), now), 0.0);

    Boost empty = budgetBoost;
    empty.target = BoostTarget::budget(BudgetScope::Namespace, QStringLiteral(" "));
    auto refused = s.addBoost(empty);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, QStringLiteral("target"));
}

void TestBoostTarget::unreadableStoredTarget() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto store = UsageStore::open(QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db")));
    QVERIFY(store);
    QSqlQuery q((*store)->database());
    QVERIFY(q.exec(QStringLiteral("INSERT INTO boosts (target, delta, start_s, expiry_s, note, actor, state) "
                                  "VALUES ('gpu-for-alice', '1', 0, 10, '', 'admin', 'scheduled')")));
    auto all = (*store)->boosts();
    QVERIFY(!all);
    QVERIFY2(all.error().message.contains(QStringLiteral("gpu-for-alice")), qPrintable(all.error().message));
}

QTEST_GUILESS_MAIN(TestBoostTarget)
#include "tst_boosttarget.moc"
