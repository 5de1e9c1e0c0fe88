// The Budgets tab's newcomer allowance (issue #30), offscreen, on a real SQLite usage
// database with the policy "7d:x3": a newcomer's Limit cell shows the allowance's limit
// and its last day ("24 GPU-h / day · newcomer allowance until 03-15"), a brand-new user
// with no interval and no sweep shows it from now, a user seen before the policy shows the
// plain budget, and the row is plain again once the allowance has ended. In English and
// in Chinese (the real catalogue); with GQ_SCREENSHOT_DIR set the tab is saved as
// budgets-newcomer{,-zh_CN}.png.
#include "models/budgets/budgetlistmodel.h"
#include "services/budgets/budgetservice.h"
#include "widgets/budgets/budgetspage.h"
#include "core/domain/clock.h"
#include "tests/gui/guitestutil.h"
#include "core/usage/newcomerledger.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QDir>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace gq;
using namespace gq::test;

class TestBudgetsNewcomer : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_url;
    ManualClock m_clock{kNow.toSecsSinceEpoch()}; // 03-10 15:00 UTC

    QString limitOf(const BudgetsPage &page, const char *user) {
        const BudgetListModel *model = page.model();
        const int row = rowWithText(model, BudgetListModel::SubjectColumn, QLatin1String(user));
        return row < 0 ? QStringLiteral("(no row)")
                       : model->index(row, BudgetListModel::LimitColumn).data().toString();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db"));
        auto store = UsageStore::open(m_url);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
        UsageStore &s = **store;
        // olga ran before the policy was set (03-01 00:00); nina first ran 03-09 09:00;
        // pia has a budget and nothing else.
        QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("olga"), QStringLiteral("o1"),
                                          1, utc(1, 0) - 7200, utc(1, 0) - 3600)));
        const ManualClock policyAt(utc(1, 0));
        QVERIFY(NewcomerLedger(s, policyAt)
                    .setPolicy(*NewcomerPolicy::parse(QStringLiteral("7d:x3")), QStringLiteral("admin"),
                               QStringLiteral("first week for newcomers")));
        QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("nina"), QStringLiteral("n1"),
                                          2, utc(9, 9), utc(9, 10))));
        QVERIFY(s.upsertInterval(interval(QStringLiteral("ml"), QStringLiteral("olga"), QStringLiteral("o2"),
                                          1, utc(10, 9), utc(10, 11))));
        for (const char *user : {"nina", "pia", "olga"})
            QVERIFY(s.setBudget(budget(BudgetScope::User, QLatin1String(user), 8)));
    }

    void limitColumn_data() {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("now");
        QTest::addColumn<QString>("nina");
        QTest::addColumn<QString>("pia");
        QTest::addColumn<QString>("olga");
        QTest::newRow("en") << "en"
                            << "2026-03-10T15:00:00Z"
                            << "24 GPU-h / day · newcomer allowance until 03-15"
                            << "24 GPU-h / day · newcomer allowance until 03-16"
                            << "8 GPU-h / day";
        QTest::newRow("zh_CN") << "zh_CN"
                               << "2026-03-10T15:00:00Z"
                               << QStringLiteral("24 GPU 小时 / 天 · 新人额度至 03-15")
                               << QStringLiteral("24 GPU 小时 / 天 · 新人额度至 03-16")
                               << QStringLiteral("8 GPU 小时 / 天");
        // nina's 7 days (03-09 ... 03-15) are over; pia, first seen now, starts hers now.
        QTest::newRow("en, nina's ended") << "en"
                                          << "2026-03-16T00:00:00Z"
                                          << "8 GPU-h / day"
                                          << "24 GPU-h / day · newcomer allowance until 03-22"
                                          << "8 GPU-h / day";
    }
    void limitColumn() {
        QFETCH(QString, lang);
        QFETCH(QString, now);
        QFETCH(QString, nina);
        QFETCH(QString, pia);
        QFETCH(QString, olga);
        QTranslator zh;
        if (lang == QLatin1String("zh_CN")) {
            QVERIFY(zh.load(QStringLiteral(":/i18n/gpuquota_zh_CN.qm")));
            QCoreApplication::installTranslator(&zh);
        }
        m_clock.set(parseInstant(now).value());
        // Made after the translator, as the console makes its tabs after loading its language.
        BudgetService service;
        service.setClock(&m_clock);
        BudgetsPage page(&service);
        page.resize(1000, 400);
        QSignalSpy loaded(&service, &BudgetService::overviewLoaded);
        service.open(m_url);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(loaded.wait(10000));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, 10000);
        QCOMPARE(limitOf(page, "nina"), nina);
        QCOMPARE(limitOf(page, "pia"), pia);
        QCOMPARE(limitOf(page, "olga"), olga);
        const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR");
        if (!dir.isEmpty() && QTest::currentDataTag() != QLatin1String("en, nina's ended")) {
            page.view()->resizeColumnsToContents();
            const QString name = lang == QLatin1String("zh_CN") ? QStringLiteral("budgets-newcomer-zh_CN.png")
                                                                : QStringLiteral("budgets-newcomer.png");
            QVERIFY(page.grab().save(QDir(dir).filePath(name)));
        }
        QCoreApplication::removeTranslator(&zh);
    }
};

QTEST_MAIN(TestBudgetsNewcomer)
#include "tst_budgetsnewcomer.moc"
