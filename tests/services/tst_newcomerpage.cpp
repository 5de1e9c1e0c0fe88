// The self-service page's "Newcomer" row (issue #30) in headless Chromium, English and
// Chinese: the page as the controller renders it for `GET /quota` (quotaStatus() over a
// real SQLite usage database, then SelfServicePage::render() with the request's
// translator), across the autumn DST change of the budget's zone (Europe/Berlin): the
// allowance's last day is exact there, and the row is gone the first second after it. A
// brand-new user with no interval and no sweep shows the allowance too. With
// GQ_SCREENSHOT_DIR set the pages are saved as selfservice-newcomer{,-zh_CN}.png.
#include "tests/chromiumpage.h"
#include "core/usage/newcomerledger.h"
#include "services/quotas/quotastatus.h"
#include "services/selfservice/selfservicepage.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace gq;
using namespace gq::test;

namespace {
qint64 instant(const char *rfc3339) {
    return parseInstant(QString::fromLatin1(rfc3339)).value();
}
} // namespace

class TestNewcomerPage : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<UsageStore> m_store;
    QTranslator m_zh;

    QString render(const QString &user, qint64 now, const QString &lang) {
        auto doc = quotaStatus(*m_store, BudgetScope::User, user, now);
        if (!doc) {
            qWarning() << doc.error().toString();
            return {};
        }
        return SelfServicePage(lang == QLatin1String("zh_CN") ? &m_zh : nullptr, lang).render(*doc);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_zh.load(QStringLiteral(":/i18n/gpuquota_zh_CN.qm")));
        UsageStore::Options o;
        o.rollupZone = QStringLiteral("Europe/Berlin");
        auto s =
            UsageStore::open(QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db")), o);
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        m_store = std::move(*s);
        const ManualClock policyAt(instant("2026-10-19T09:00:00+02:00"));
        QVERIFY(NewcomerLedger(*m_store, policyAt)
                    .setPolicy(*NewcomerPolicy::parse(QStringLiteral("7d:x3")), QStringLiteral("admin"),
                               QStringLiteral("first week for newcomers")));
        for (const char *user : {"nina", "pia"})
            QVERIFY(m_store->setBudget(
                budget(BudgetScope::User, QLatin1String(user), 8, 0, QStringLiteral("Europe/Berlin"))));
        // nina first ran 10-20 15:00 CEST; her 7 days end at local midnight after 10-26,
        // a week that holds the 25-hour 10-25.
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), QStringLiteral("nina"), QStringLiteral("n1"), 1,
                     instant("2026-10-20T15:00:00+02:00"), instant("2026-10-20T16:00:00+02:00"))));
        QVERIFY(m_store->upsertInterval(
            interval(QStringLiteral("ml"), QStringLiteral("nina"), QStringLiteral("n2"), 2,
                     instant("2026-10-26T09:00:00+01:00"), instant("2026-10-26T11:00:00+01:00"))));
    }

    // The row as the HTML says it, before any browser: across the allowance's end.
    void rowAcrossTheEnd_data() {
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("now");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("row"); // empty: no Newcomer row
        QTest::newRow("nina, on the last day") << "nina"
                                               << "2026-10-26T12:00:00+01:00"
                                               << "en"
                                               << "<dt>Newcomer</dt><dd>newcomer allowance until 10-26</dd>";
        QTest::newRow("nina, its last second") << "nina"
                                               << "2026-10-26T23:59:59+01:00"
                                               << "en"
                                               << "<dt>Newcomer</dt><dd>newcomer allowance until 10-26</dd>";
        QTest::newRow("nina, ended by itself") << "nina"
                                               << "2026-10-27T00:00:00+01:00"
                                               << "en"
                                               << "";
        QTest::newRow("nina, in Chinese")
            << "nina"
            << "2026-10-25T12:00:00+01:00"
            << "zh_CN" << QStringLiteral("<dt>新人额度</dt><dd>新人额度至 10-26</dd>");
        QTest::newRow("pia, never seen, not swept")
            << "pia"
            << "2026-10-28T10:00:00+01:00"
            << "en"
            << "<dt>Newcomer</dt><dd>newcomer allowance until 11-03</dd>";
    }
    void rowAcrossTheEnd() {
        QFETCH(QString, user);
        QFETCH(QString, now);
        QFETCH(QString, lang);
        QFETCH(QString, row);
        const QString html = render(user, parseInstant(now).value(), lang);
        QVERIFY(html.contains(QLatin1String("<dl>")));
        if (row.isEmpty())
            QVERIFY2(!html.contains(QLatin1String("<dt>Newcomer</dt>")), qPrintable(html));
        else
            QVERIFY2(html.contains(row), qPrintable(html));
    }

    void pageInChromium_data() {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<QString>("shot");
        QTest::newRow("en") << "en"
                            << QStringList{QStringLiteral("Newcomer"),
                                           QStringLiteral("newcomer allowance until 10-26"),
                                           QStringLiteral("24 GPU-h")}
                            << QStringLiteral("selfservice-newcomer.png");
        QTest::newRow("zh_CN") << "zh_CN"
                               << QStringList{QStringLiteral("新人额度"), QStringLiteral("新人额度至 10-26"),
                                              QStringLiteral("最近 30 天")}
                               << QStringLiteral("selfservice-newcomer-zh_CN.png");
    }
    void pageInChromium() {
        QFETCH(QString, lang);
        QFETCH(QStringList, texts);
        QFETCH(QString, shot);
        const QString body = render(QStringLiteral("nina"), instant("2026-10-26T12:00:00+01:00"), lang);
        QVERIFY(!body.isEmpty());
        const ChromiumPage page = openInChromium(body.toUtf8(), shot, QSize(800, 900));
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        for (const QString &t : texts)
            QVERIFY2(page.dom.contains(t), qPrintable(t + QLatin1Char('\n') + page.dom));
        QCOMPARE(page.image.size(), QSize(800, 900));
        QVERIFY(pixelsOf(page.image, Qt::white) > 10000);               // the cards
        QVERIFY(pixelsOf(page.image, QColor(0xf4, 0xf6, 0xf8)) > 1000); // the page
    }
};

QTEST_GUILESS_MAIN(TestNewcomerPage)
#include "tst_newcomerpage.moc"
