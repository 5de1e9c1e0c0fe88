// The alert rules, messages, channels' payloads, recipients and the `alerts:` section,
// as pure functions.

#include "core/alerts/alertchannels.h"
#include "core/alerts/alertconfig.h"
#include "core/alerts/alertrecipients.h"
#include "core/alerts/alertrules.h"
#include "core/alerts/alerttext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gq;

namespace {

constexpr qint64 kDay = 1764547200; // 2025-12-01T00:00:00Z

Decision decision(BudgetScope scope, const QString &subject, double used, double limit, qint64 periodStart) {
    Decision d;
    d.hasBudget = true;
    d.budget.id = 7;
    d.budget.scope = scope;
    d.budget.subject = subject;
    d.budget.period = Period::Day;
    d.budget.limitGpuHours = limit;
    d.used = used;
    d.limit = limit;
    d.remaining = limit - used;
    d.period = {periodStart, periodStart + 86400};
    return d;
}

QStringList keys(const QList<Alert> &alerts) {
    QStringList out;
    for (const Alert &a : alerts)
        out << a.key;
    return out;
}

} // namespace

class TestAlertRules : public QObject {
    Q_OBJECT
private slots:
    void thresholds_data() {
        QTest::addColumn<double>("used");
        QTest::addColumn<QStringList>("expected");
        const QString p = QStringLiteral("budget/namespace/team-a/day/%1/").arg(kDay);
        QTest::newRow("below") << 6.3 << QStringList{};
        QTest::newRow("exactly 80%") << 6.4 << QStringList{p + QStringLiteral("80")};
        QTest::newRow("between") << 7.9 << QStringList{p + QStringLiteral("80")};
        QTest::newRow("spent") << 8.0 << QStringList{p + QStringLiteral("80"), p + QStringLiteral("100")};
        QTest::newRow("over") << 9.5 << QStringList{p + QStringLiteral("80"), p + QStringLiteral("100")};
    }
    void thresholds() {
        QFETCH(double, used);
        QFETCH(QStringList, expected);
        AlertInputs in;
        in.now = kDay + 3600;
        in.budgets << decision(BudgetScope::Namespace, QStringLiteral("team-a"), used, 8, kDay);
        const QList<Alert> alerts = evaluateAlerts(AlertRules{}, in);
        QCOMPARE(keys(alerts), expected);
        for (const Alert &a : alerts) {
            QCOMPARE(a.ns, QStringLiteral("team-a"));
            QVERIFY(a.user.isEmpty());
            QCOMPARE(a.usedGpuHours, used);
        }
    }

    // The same crossing gives the same key all period long; the next period a new one.
    void sameKeyAllPeriodNewAfterRollover() {
        AlertInputs in;
        in.now = kDay + 3600;
        in.budgets << decision(BudgetScope::User, QStringLiteral("alice"), 7, 8, kDay);
        const QStringList first = keys(evaluateAlerts(AlertRules{}, in));
        in.now = kDay + 20 * 3600;
        in.budgets[0].used = 7.5;
        QCOMPARE(keys(evaluateAlerts(AlertRules{}, in)), first);
        in.budgets[0] = decision(BudgetScope::User, QStringLiteral("alice"), 7, 8, kDay + 86400);
        const QStringList next = keys(evaluateAlerts(AlertRules{}, in));
        QCOMPARE(next.size(), 1);
        QVERIFY(next != first);
        QVERIFY(next[0].contains(QString::number(kDay + 86400)));
    }

    void perBudgetThresholds() {
        AlertRules rules;
        rules.budgetThresholds.insert(QStringLiteral("user/alice"), {100, 50});
        rules.budgetThresholds.insert(QStringLiteral("user/alice/week"), {90});
        Budget b;
        b.scope = BudgetScope::User;
        b.subject = QStringLiteral("alice");
        QCOMPARE(rules.thresholdsFor(b), (QList<int>{50, 100}));
        b.period = Period::Week;
        QCOMPARE(rules.thresholdsFor(b), (QList<int>{90}));
        b.subject = QStringLiteral("bob");
        QCOMPARE(rules.thresholdsFor(b), (QList<int>{80, 100}));
    }

    void zeroLimit() {
        AlertInputs in;
        in.now = kDay;
        in.budgets << decision(BudgetScope::User, QStringLiteral("u"), 0, 0, kDay);
        QVERIFY(evaluateAlerts(AlertRules{}, in).isEmpty());
        in.budgets[0].used = 0.01;
        QCOMPARE(evaluateAlerts(AlertRules{}, in).size(), 2);
    }

    void boostExpiring() {
        Boost b;
        b.id = 3;
        b.state = Boost::State::Active;
        b.target = BoostTarget::quotaEntry(QStringLiteral("team-a"), QStringLiteral("q"),
                                           QStringLiteral("requests.nvidia.com/gpu"));
        b.delta = QStringLiteral("4");
        b.expiry = kDay + 7200;
        AlertInputs in;
        in.boosts << b;
        in.now = kDay + 3599; // 1 h 1 s before
        QVERIFY(evaluateAlerts(AlertRules{}, in).isEmpty());
        in.now = kDay + 3600;
        const QList<Alert> a = evaluateAlerts(AlertRules{}, in);
        QCOMPARE(keys(a), QStringList{QStringLiteral("boost/3/%1").arg(kDay + 7200)});
        QCOMPARE(a[0].ns, QStringLiteral("team-a"));
        in.now = kDay + 7200; // expired: the reconciler's business now
        QVERIFY(evaluateAlerts(AlertRules{}, in).isEmpty());
        in.now = kDay + 5000;
        in.boosts[0].state = Boost::State::Expired;
        QVERIFY(evaluateAlerts(AlertRules{}, in).isEmpty());
    }

    void clampsIdleAndDatabase() {
        AlertInputs in;
        in.now = kDay + 10000;
        in.clamps << ClampNotice{QStringLiteral("team-a"),
                                QStringLiteral("requests.nvidia.com/gpu"),
                                true,
                                kDay + 9000,
                                QStringLiteral("8"),
                                QStringLiteral("2"),
                                QStringLiteral("budget spent")};
        in.idle << IdleHold{QStringLiteral("team-a"),
                            QStringLiteral("bob"),
                            QStringLiteral("train-1"),
                            2,
                            kDay + 10000 - 2 * 3600,
                            0,
                            4}; // exactly 2 h: not more
        in.databaseDownSince = kDay + 10000 - 600;
        QCOMPARE(
            keys(evaluateAlerts(AlertRules{}, in)),
            QStringList{QStringLiteral("clamp/team-a/requests.nvidia.com/gpu/applied/%1").arg(kDay + 9000)});
        in.now += 1;
        const QList<Alert> a = evaluateAlerts(AlertRules{}, in);
        QCOMPARE(a.size(), 3);
        QCOMPARE(a[1].kind, Alert::Kind::DatabaseUnwritable);
        QCOMPARE(a[2].kind, Alert::Kind::IdleGpus);
        QCOMPARE(a[2].user, QStringLiteral("bob"));
    }

    void jsonRoundTrip() {
        AlertInputs in;
        in.now = kDay + 3600;
        in.budgets << decision(BudgetScope::User, QStringLiteral("alice"), 8, 8, kDay);
        in.clamps << ClampNotice{
            QStringLiteral("ns"), QStringLiteral("r"),       false, 5, QStringLiteral("1"),
            QStringLiteral("2"),  QStringLiteral("rollover")};
        in.idle << IdleHold{QStringLiteral("ns"), QStringLiteral("u"), QStringLiteral("p"), 1, 0, 0, 2};
        in.databaseDownSince = 0;
        for (const Alert &a : evaluateAlerts(AlertRules{}, in)) {
            auto back = alertFromJson(alertToJson(a));
            QVERIFY(back);
            QCOMPARE(*back, a);
        }
    }

    void messages() {
        AlertInputs in;
        in.now = kDay + 3600;
        in.budgets << decision(BudgetScope::Namespace, QStringLiteral("team-a"), 6.5, 8, kDay);
        const Alert a = evaluateAlerts(AlertRules{}, in).first();
        QCOMPARE(AlertText::title(a), QStringLiteral("GPU budget 80% used: namespace team-a"));
        QCOMPARE(AlertText::lines(a).first(),
                 QStringLiteral(
                     "Namespace team-a has used 6.50 of 8.00 GPU-h today (80% or more of the budget)."));
        QCOMPARE(AlertText::lines(a).at(1), QStringLiteral("1.50 GPU-h left until 2025-12-02 00:00 UTC."));
    }

    // RFC 4231 test case 2, and the header's documented form.
    void signature() {
        QCOMPARE(webhookSignature("Jefe", "what do ya want for nothing?"),
                 QByteArray("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"));
        AlertInputs in;
        in.now = kDay;
        in.budgets << decision(BudgetScope::User, QStringLiteral("alice"), 8, 8, kDay);
        const QByteArray body = buildWebhookBody(evaluateAlerts(AlertRules{}, in).last());
        const HttpRequest r =
            webhookRequest(WebhookSettings{QStringLiteral("http://x/"), {}, {}, 1000}, "s", body);
        QCOMPARE(r.headers.size(), 1);
        QCOMPARE(r.headers[0].first, QByteArray("X-GpuQuota-Signature"));
        QCOMPARE(r.headers[0].second, webhookSignature("s", body));
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        QVERIFY(o.value(QStringLiteral("text"))
                    .toString()
                    .startsWith(QStringLiteral("*GPU budget spent: user alice*\n")));
        QCOMPARE(o.value(QStringLiteral("alert")).toObject().value(QStringLiteral("threshold")).toInt(), 100);
        QVERIFY(webhookRequest(WebhookSettings{QStringLiteral("http://x/"), {}, {}, 1000}, {}, body)
                    .headers.isEmpty());
    }

    void email() {
        AlertInputs in;
        in.now = kDay;
        in.budgets << decision(BudgetScope::User, QStringLiteral("alice"), 8, 8, kDay);
        const Alert a = evaluateAlerts(AlertRules{}, in).last();
        const QByteArray m =
            buildAlertEmail(a, QStringLiteral("gq@example.org"), QStringLiteral("a@example.org"), kDay);
        QVERIFY(m.contains("\r\nTo: a@example.org\r\n"));
        QVERIFY(m.contains(QByteArray("Subject: =?UTF-8?B?" +
                                      QStringLiteral("GPU budget spent: user alice").toUtf8().toBase64())));
        QVERIFY(m.contains("Content-Type: multipart/alternative; boundary="));
        QVERIFY(m.contains("Content-Type: text/plain; charset=utf-8"));
        QVERIFY(m.contains("Content-Type: text/html; charset=utf-8"));
        QVERIFY(m.contains(QByteArray("X-GpuQuota-Alert: " + a.key.toUtf8())));
        // No header injection through a recipient.
        const QByteArray evil = buildAlertEmail(a, QStringLiteral("gq@example.org"),
                                                QStringLiteral("a@example.org\r\nBcc: x@evil.example"), kDay);
        QVERIFY(!evil.contains("\r\nBcc:"));
        QVERIFY(alertHtml(a).contains(QStringLiteral("GPU budget spent: user alice")));
    }

    void recipients() {
        auto r = AlertRecipients::fromYaml(
            "users:\n  alice: alice@example.org\n  bob: [bob@example.org, b2@example.org]\n"
            "namespaces:\n  team-a: lead@example.org\nadmins: [ops@example.org]\n");
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        r->setNamespaceAnnotation(QStringLiteral("team-a"),
                                  QStringLiteral("x@example.org, lead@example.org;bad"));
        Alert a;
        a.kind = Alert::Kind::IdleGpus;
        a.user = QStringLiteral("bob");
        a.ns = QStringLiteral("team-a");
        QCOMPARE(r->forAlert(a),
                 (QStringList{QStringLiteral("b2@example.org"), QStringLiteral("bob@example.org"),
                              QStringLiteral("lead@example.org"), QStringLiteral("x@example.org")}));
        a.kind = Alert::Kind::ClampApplied;
        a.user.clear();
        QCOMPARE(r->forAlert(a),
                 (QStringList{QStringLiteral("lead@example.org"), QStringLiteral("ops@example.org"),
                              QStringLiteral("x@example.org")}));
        r->setNamespaceAnnotation(QStringLiteral("team-a"), {});
        QCOMPARE(r->forNamespace(QStringLiteral("team-a")), QStringList{QStringLiteral("lead@example.org")});
        r->setUserDomain(QStringLiteral("example.org"));
        QCOMPARE(r->forUser(QStringLiteral("carol")), QStringList{QStringLiteral("carol@example.org")});

        auto bad = AlertRecipients::fromYaml("users:\n  alice: not-an-address\n");
        QVERIFY(!bad);
        QCOMPARE(bad.error().field, QStringLiteral("users.alice"));
        QCOMPARE(bad.error().line, 2);
    }

    void config() {
        auto c = parseAlertConfig(
            QByteArray("database: sqlite:///x.db\nalerts:\n  enabled: true\n  thresholds: [50, 90, 100]\n"
                       "  budgetThresholds: {namespace/team-a: [95]}\n  boostLeadTime: 30m\n"
                       "  email: {smtp: 'smtp://mail.example.org:587', from: gq@example.org,"
                       " user: gq, passwordEnv: GQ_SMTP_PASSWORD}\n"
                       "  webhook: {url: 'https://hooks.example.org/x', secretFile: /s, timeout: 45s}\n"
                       "  retry: {maxAttempts: 3, initial: 2m}\n"));
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        QVERIFY(c->enabled);
        QCOMPARE(c->rules.thresholds, (QList<int>{50, 90, 100}));
        QCOMPARE(c->rules.budgetThresholds.value(QStringLiteral("namespace/team-a")), QList<int>{95});
        QCOMPARE(c->rules.boostLeadSeconds, 1800);
        QCOMPARE(c->smtp.url, QStringLiteral("smtp://mail.example.org:587"));
        QVERIFY(c->smtp.requireTls);
        QCOMPARE(c->smtp.passwordEnv, QStringLiteral("GQ_SMTP_PASSWORD"));
        QCOMPARE(c->webhook.secretFile, QStringLiteral("/s"));
        QCOMPARE(c->webhook.timeoutMs, 45000);
        QCOMPARE(c->maxAttempts, 3);
        QCOMPARE(c->retryInitialSeconds, 120);
        QCOMPARE(c->retryMaxSeconds, 3600);

        auto defaults = parseAlertConfig(QByteArray("listen: 127.0.0.1:9464\n"));
        QVERIFY(defaults);
        QVERIFY(!defaults->enabled);
        QCOMPARE(defaults->rules.thresholds, (QList<int>{80, 100}));
        QCOMPARE(defaults->rules.boostLeadSeconds, 3600);
        QCOMPARE(defaults->webhook.timeoutMs, 30000);
    }

    void configErrors_data() {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("field");
        QTest::addColumn<int>("line");
        QTest::newRow("unknown key") << QByteArray("alerts:\n  enabled: true\n  tresholds: [1]\n")
                                     << QStringLiteral("alerts.tresholds") << 3;
        QTest::newRow("bad percent") << QByteArray("alerts:\n  thresholds: [80, lots]\n")
                                     << QStringLiteral("alerts.thresholds[1]") << 2;
        QTest::newRow("bad duration")
            << QByteArray("alerts:\n  idleAfter: soon\n") << QStringLiteral("alerts.idleAfter") << 2;
        QTest::newRow("smtp scheme") << QByteArray(
                                            "alerts:\n  email:\n    smtp: http://x\n    from: a@b.org\n")
                                     << QStringLiteral("alerts.email.smtp") << 3;
        QTest::newRow("no sender") << QByteArray("alerts:\n  email:\n    smtp: smtp://x:25\n")
                                   << QStringLiteral("alerts.email.from") << 3;
        QTest::newRow("user without password")
            << QByteArray("alerts:\n  email:\n    smtp: smtp://x:25\n    from: a@b.org\n    user: me\n")
            << QStringLiteral("alerts.email.user") << 5;
        QTest::newRow("no channel") << QByteArray("alerts:\n  enabled: true\n") << QStringLiteral("alerts")
                                    << 2;
        QTest::newRow("bad budget key") << QByteArray("alerts:\n  budgetThresholds:\n    team-a: [90]\n")
                                        << QStringLiteral("alerts.budgetThresholds.team-a") << 3;
        QTest::newRow("webhook url") << QByteArray("alerts:\n  webhook: {url: ftp://x}\n")
                                     << QStringLiteral("alerts.webhook.url") << 2;
        QTest::newRow("webhook timeout")
            << QByteArray("alerts:\n  webhook:\n    url: https://x\n    timeout: 1h\n")
            << QStringLiteral("alerts.webhook.timeout") << 4;
    }
    void configErrors() {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, field);
        QFETCH(int, line);
        auto c = parseAlertConfig(yaml);
        QVERIFY(!c);
        QCOMPARE(c.error().field, field);
        QCOMPARE(c.error().line, line);
        QVERIFY(!c.error().causes.isEmpty());
        QVERIFY(c.error().causes.first().message.startsWith(QStringLiteral("line %1: ").arg(line)));
    }

    void everyProblemListed() {
        auto c = parseAlertConfig(QByteArray("alerts:\n  language: fr\n  idleAfter: 0\n  bogus: 1\n"));
        QVERIFY(!c);
        QCOMPARE(c.error().causes.size(), 3);
        QCOMPARE(c.error().field, QStringLiteral("alerts.bogus")); // unknown keys are checked first
    }
};

QTEST_GUILESS_MAIN(TestAlertRules)
#include "tst_alertrules.moc"
