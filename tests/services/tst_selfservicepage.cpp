// The self-service page's battery under a newcomer's allowance (issue #30): an unlimited
// allowance shows what was used and "no limit", never the plain remainder nor an amber or
// red state; an x3 allowance shows the raised limit's remainder and the allowance's end.
#include "services/selfservice/selfservicepage.h"

#include <QJsonArray>
#include <QTest>

using namespace gq;

namespace {

// A /quota/status document (services/quotas/quotastatus.cpp) for one day budget of 8
// GPU-h, 7.5 used: near the plain limit.
QJsonObject status(bool unlimited, double factor) {
    const double limit = unlimited ? 8 : 8 * factor;
    const double used = 7.5;
    QJsonObject budget{{QStringLiteral("period"), QStringLiteral("day")},
                       {QStringLiteral("tz"), QStringLiteral("Asia/Shanghai")},
                       {QStringLiteral("used"), used},
                       {QStringLiteral("limit"), limit},
                       {QStringLiteral("budget_limit"), 8.0},
                       {QStringLiteral("boost"), 0.0},
                       {QStringLiteral("remaining"), limit - used},
                       {QStringLiteral("period_start"), QStringLiteral("2026-03-02T00:00:00+08:00")},
                       {QStringLiteral("period_end"), QStringLiteral("2026-03-03T00:00:00+08:00")},
                       {QStringLiteral("state"), unlimited ? QStringLiteral("near") : QStringLiteral("ok")},
                       {QStringLiteral("forecast"), QStringLiteral("nothing-running")},
                       {QStringLiteral("newcomerUntil"), QStringLiteral("2026-03-09T00:00:00+08:00")},
                       {QStringLiteral("newcomer"), QStringLiteral("newcomer allowance until 03-08")},
                       {QStringLiteral("unlimited"), unlimited}};
    QJsonObject doc = budget;
    doc.insert(QStringLiteral("scope"), QStringLiteral("user"));
    doc.insert(QStringLiteral("subject"), QStringLiteral("carol"));
    doc.insert(QStringLiteral("now"), QStringLiteral("2026-03-02T04:00:00Z"));
    doc.insert(QStringLiteral("budgets"), QJsonArray{budget});
    doc.insert(QStringLiteral("active_boosts"), QJsonArray{});
    doc.insert(QStringLiteral("history"), QJsonObject{{QStringLiteral("days"), QJsonArray{}}});
    return doc;
}

QString between(const QString &html, const QString &from, const QString &to) {
    const qsizetype i = html.indexOf(from);
    if (i < 0)
        return {};
    return html.mid(i, html.indexOf(to, i) - i);
}

} // namespace

class TestSelfServicePage : public QObject {
    Q_OBJECT

private slots:
    void unlimitedShowsNoRemainder() {
        const SelfServicePage page;
        const QJsonObject s = status(true, 0);
        QCOMPARE(page.batteryLine(s), QStringLiteral("\U0001F7E9 No limit: 7.5 GPU-h used today"));
        const QString html = page.render(s);
        const QString battery = between(html, QStringLiteral("id=\"battery\""), QStringLiteral("</div>"));
        QVERIFY2(battery.contains(QStringLiteral("No limit: 7.5 GPU-h used today")), qPrintable(battery));
        QVERIFY2(battery.contains(QStringLiteral("#2e7d32")), qPrintable(battery)); // green, not amber
        QVERIFY(!html.contains(QStringLiteral("left of")));
        QVERIFY(!html.contains(QStringLiteral("0.5 GPU-h")));
        QVERIFY(html.contains(QStringLiteral("width:100.0%;background:#2e7d32")));
        QVERIFY(html.contains(QStringLiteral("newcomer allowance until 03-08")));
    }

    void timesThreeShowsTheRaisedRemainder() {
        const SelfServicePage page;
        const QJsonObject s = status(false, 3);
        QCOMPARE(page.batteryLine(s), QStringLiteral("\U0001F7E9 16.5 GPU-h left of 24 today"));
        const QString html = page.render(s);
        QVERIFY(html.contains(QStringLiteral("16.5 GPU-h left of 24 today")));
        QVERIFY(html.contains(QStringLiteral("newcomer allowance until 03-08")));
        QVERIFY(!html.contains(QStringLiteral("No limit")));
    }

    void withoutAllowanceUnchanged() {
        const SelfServicePage page;
        QJsonObject s = status(false, 1);
        s.insert(QStringLiteral("state"), QStringLiteral("near"));
        s.insert(QStringLiteral("unlimited"), false);
        QCOMPARE(page.batteryLine(s), QStringLiteral("\U0001F7E8 0.5 GPU-h left of 8 today"));
    }
};

QTEST_GUILESS_MAIN(TestSelfServicePage)
#include "tst_selfservicepage.moc"
