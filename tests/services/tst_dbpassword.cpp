// The keychain's PostgreSQL password reaches every service that opens the usage
// database (usage, charts, budgets), against a real server whose role needs it
// (scripts/start-services.sh: GQ_TEST_PG_PASSWORD_URL, GQ_TEST_PG_PASSWORD).
#include "services/budgets/budgetservice.h"
#include "services/usage/usagechartservice.h"
#include "services/usage/usageservice.h"

#include <QSignalSpy>
#include <QTest>

using namespace gq;

class TestDbPassword : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void usageService();
    void chartService();
    void budgetService();

private:
    // Opens with `password` and reports whether opened() (true) or failed() came.
    template <typename Service> bool opens(Service &service, const QString &password, QString *message);

    QString m_url;
    QString m_password;
};

void TestDbPassword::initTestCase() {
    m_url = qEnvironmentVariable("GQ_TEST_PG_PASSWORD_URL");
    m_password = qEnvironmentVariable("GQ_TEST_PG_PASSWORD");
    if (m_url.isEmpty() || m_password.isEmpty()) {
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL("CI=true but GQ_TEST_PG_PASSWORD_URL / GQ_TEST_PG_PASSWORD are not set");
        QSKIP("GQ_TEST_PG_PASSWORD_URL not set (source scripts/start-services.sh)");
    }
    // libpq must not find the password elsewhere, or the test proves nothing.
    qunsetenv("PGPASSWORD");
    qputenv("PGPASSFILE", "/nonexistent/pgpass");
}

template <typename Service>
bool TestDbPassword::opens(Service &service, const QString &password, QString *message) {
    QSignalSpy opened(&service, &Service::opened);
    QSignalSpy failed(&service, &Service::failed);
    service.open(m_url, password);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty() || !failed.isEmpty(), 20000); }();
    if (!failed.isEmpty())
        *message = failed.first().first().value<Error>().message;
    return !opened.isEmpty();
}

void TestDbPassword::usageService() {
    QString message;
    {
        UsageService wrong;
        QVERIFY(!opens(wrong, QStringLiteral("not-the-password"), &message));
        QVERIFY2(message.contains(QLatin1String("password")), qPrintable(message));
        QVERIFY2(!message.contains(QLatin1String("not-the-password")), qPrintable(message));
    }
    UsageService right;
    QVERIFY2(opens(right, m_password, &message), qPrintable(message));
    QCOMPARE(right.password(), m_password);
}

void TestDbPassword::chartService() {
    QString message;
    {
        UsageChartService none;
        QVERIFY(!opens(none, QString(), &message));
    }
    UsageChartService charts;
    QVERIFY2(opens(charts, m_password, &message), qPrintable(message));
}

void TestDbPassword::budgetService() {
    QString message;
    {
        BudgetService none;
        QVERIFY(!opens(none, QString(), &message));
    }
    BudgetService budgets;
    QVERIFY2(opens(budgets, m_password, &message), qPrintable(message));
}

QTEST_GUILESS_MAIN(TestDbPassword)
#include "tst_dbpassword.moc"
