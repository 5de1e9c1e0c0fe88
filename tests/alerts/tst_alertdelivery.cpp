// Alerts end to end: a scripted day on a manual clock against a real SMTP server
// (aiosmtpd) and a real HTTP sink on loopback, on SQLite and PostgreSQL (the suite is
// built twice). Exactly one email and one webhook per threshold, nothing twice after a
// restart, a failed delivery retried and delivered once.

#include "core/usage/alertledger.h"
#include "services/controller/alertservice.h"
#include "tests/alerts/alertsink.h"
#include "core/net/httptransport.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using gq::test::files;
using gq::test::freePort;
using gq::test::headerOf;
using gq::test::readAll;
using gq::test::Sink;
using gq::test::subjectOf;

namespace {

constexpr qint64 kDay = 1764547200; // 2025-12-01T00:00:00Z
constexpr qint64 kHour = 3600;

// The decoded text/html part of a received message.
QString htmlPart(const QByteArray &mail) {
    return test::mailPart(mail, "text/html");
}

} // namespace

class TestAlertDelivery : public QObject {
    Q_OBJECT
    test::UsageTestBackend m_backend{"gq_alerts"};
    QString m_url;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<HttpTransport> m_transport;

    QString mailDir() const { return m_dir->filePath(QStringLiteral("mail")); }
    QString hookDir() const { return m_dir->filePath(QStringLiteral("hook")); }

    AlertConfig config(int smtpPort, int hookPort) const {
        AlertConfig c;
        c.enabled = true;
        c.smtp.url = QStringLiteral("smtp://127.0.0.1:%1").arg(smtpPort);
        c.smtp.from = QStringLiteral("gpuquota@example.org");
        c.smtp.requireTls = false;
        c.smtp.timeoutMs = 10000;
        if (hookPort) {
            c.webhook.url = QStringLiteral("http://127.0.0.1:%1/alerts").arg(hookPort);
            c.webhook.secretFile = m_dir->filePath(QStringLiteral("secret"));
        }
        return c;
    }

    static AlertRecipients recipients() {
        AlertRecipients r;
        r.setNamespaceAnnotation(QStringLiteral("team-a"), QStringLiteral("lead@example.org"));
        return r;
    }

    // A store with the namespace budget (8 GPU-h a day) and 2 GPUs running from midnight.
    std::unique_ptr<UsageStore> openStore(bool seed) {
        auto store = UsageStore::open(m_url);
        if (!store)
            qFatal("cannot open %s", qPrintable(store.error().message));
        if (seed) {
            Budget b;
            b.scope = BudgetScope::Namespace;
            b.subject = QStringLiteral("team-a");
            b.period = Period::Day;
            b.limitGpuHours = 8;
            if (!(*store)->setBudget(b))
                qFatal("setBudget");
            UsageInterval iv;
            iv.cluster = QStringLiteral("c");
            iv.ns = QStringLiteral("team-a");
            iv.user = QStringLiteral("alice");
            iv.podUid = QStringLiteral("uid-1");
            iv.podName = QStringLiteral("train-1");
            iv.gpus = 2;
            iv.start = kDay;
            if (!(*store)->upsertInterval(iv))
                qFatal("upsertInterval");
        }
        return std::move(*store);
    }

    static AlertTickReport tick(AlertService &service, qint64 now) {
        QSignalSpy spy(&service, &AlertService::tickFinished);
        service.tick(now);
        if (spy.isEmpty() && !spy.wait(30000))
            qFatal("no tickFinished");
        return spy.first().first().value<AlertTickReport>();
    }

private slots:
    void initTestCase() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        qRegisterMetaType<AlertTickReport>();
        qRegisterMetaType<AlertDelivery>();
    }
    void init() {
        m_url = m_backend.freshUrl();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(mailDir()) && QDir().mkpath(hookDir()));
        QFile secret(m_dir->filePath(QStringLiteral("secret")));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("hook-secret-1\n");
        m_transport = std::make_shared<HttpTransport>();
    }
    void cleanup() {
        m_transport.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    // 2 GPUs from midnight against 8 GPU-h: 80% at 03:12, 100% at 04:00.
    void scriptedDay() {
        const int smtpPort = freePort();
        const int hookPort = freePort();
        Sink smtp(QStringLiteral("smtp"), smtpPort, mailDir());
        Sink hook(QStringLiteral("http"), hookPort, hookDir());
        QVERIFY(smtp.waitReady());
        QVERIFY(hook.waitReady());

        auto store = openStore(true);
        auto service =
            std::make_unique<AlertService>(*store, m_transport, config(smtpPort, hookPort), recipients());
        QVERIFY(service->loadSecrets());

        AlertTickReport r = tick(*service, kDay + 3 * kHour); // 6 GPU-h: 75%
        QVERIFY(r.ok());
        QCOMPARE(r.raised, 0);
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 0);

        r = tick(*service, kDay + 3 * kHour + 15 * 60); // 6.5 GPU-h: 81%
        QVERIFY2(r.ok(), qPrintable(r.error ? r.error->message : QString()));
        QCOMPARE(r.raised, 1);
        QCOMPARE(r.sent, 2); // one email, one webhook
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 1);
        QCOMPARE(files(hookDir(), QStringLiteral("*.body")).size(), 1);

        r = tick(*service, kDay + 3 * kHour + 30 * 60); // still between: nothing new
        QCOMPARE(r.raised, 0);
        QCOMPARE(r.attempted, 0);

        // A controller restart: a new store connection and a new service on the same database.
        service.reset();
        store.reset();
        store = openStore(false);
        service =
            std::make_unique<AlertService>(*store, m_transport, config(smtpPort, hookPort), recipients());
        QVERIFY(service->loadSecrets());
        r = tick(*service, kDay + 3 * kHour + 45 * 60);
        QCOMPARE(r.raised, 0);
        QCOMPARE(r.attempted, 0);
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 1);

        r = tick(*service, kDay + 4 * kHour); // 8 GPU-h: spent
        QVERIFY(r.ok());
        QCOMPARE(r.raised, 1);
        QCOMPARE(r.sent, 2);
        for (qint64 t = kDay + 5 * kHour; t < kDay + 24 * kHour; t += 4 * kHour)
            QCOMPARE(tick(*service, t).attempted, 0); // the rest of the day: nothing more

        const QStringList mails = files(mailDir(), QStringLiteral("*.eml"));
        QCOMPARE(mails.size(), 2);
        const QByteArray first = readAll(mails[0]);
        const QByteArray second = readAll(mails[1]);
        QCOMPARE(subjectOf(first), QStringLiteral("GPU budget 80% used: namespace team-a"));
        QCOMPARE(subjectOf(second), QStringLiteral("GPU budget spent: namespace team-a"));
        QCOMPARE(headerOf(first, "From"), QStringLiteral("gpuquota@example.org"));
        QCOMPARE(headerOf(first, "To"), QStringLiteral("lead@example.org"));
        QCOMPARE(headerOf(first, "X-GpuQuota-Alert"),
                 QStringLiteral("budget/namespace/team-a/day/%1/80").arg(kDay));
        const QJsonObject envelope =
            QJsonDocument::fromJson(
                readAll(QString(mails[0]).replace(QLatin1String(".eml"), QLatin1String(".json"))))
                .object();
        QCOMPARE(envelope.value(QStringLiteral("from")).toString(), QStringLiteral("gpuquota@example.org"));
        QCOMPARE(envelope.value(QStringLiteral("to")).toArray().size(), 1);
        const QString html = htmlPart(second);
        QVERIFY(html.contains(QStringLiteral("Namespace team-a has used 8.00 of 8.00 GPU-h today")));
        // The first mail as received, for docs/screenshots/alert-email.png: its headers
        // above its HTML part (README, "Alerts").
        QFile shot(QStringLiteral(GQ_BINARY_DIR "/alert-email.html"));
        if (shot.open(QIODevice::WriteOnly)) {
            QString head;
            for (const auto &[name, value] :
                 {std::pair{"From", headerOf(first, "From")}, std::pair{"To", headerOf(first, "To")},
                  std::pair{"Subject", subjectOf(first)}, std::pair{"Date", headerOf(first, "Date")}})
                head +=
                    QStringLiteral("<div><b style=\"display:inline-block;width:70px;color:#616161\">%1:</b>"
                                   "%2</div>")
                        .arg(QLatin1String(name), value.toHtmlEscaped());
            QString page = htmlPart(first);
            page.replace(QStringLiteral("<body style=\""),
                         QStringLiteral(
                             "<body style=\"margin:0;padding:0;\"><div style=\"font-family:'DejaVu Sans',"
                             "sans-serif;font-size:14px;padding:14px 24px;background:#fff;border-bottom:1px "
                             "solid #ddd\">%1</div><div style=\"")
                             .arg(head));
            page.replace(QStringLiteral("</body>"), QStringLiteral("</div></body>"));
            shot.write(page.toUtf8());
        }

        // The webhooks: Slack-compatible text, the structured alert, a valid signature.
        const QStringList posts = files(hookDir(), QStringLiteral("*.body"));
        QCOMPARE(posts.size(), 2);
        QList<int> thresholds;
        for (const QString &p : posts) {
            const QByteArray body = readAll(p);
            const QJsonObject meta =
                QJsonDocument::fromJson(
                    readAll(QString(p).replace(QLatin1String(".body"), QLatin1String(".json"))))
                    .object();
            QCOMPARE(meta.value(QStringLiteral("path")).toString(), QStringLiteral("/alerts"));
            const QJsonObject headers = meta.value(QStringLiteral("headers")).toObject();
            QCOMPARE(headers.value(QStringLiteral("content-type")).toString(),
                     QStringLiteral("application/json"));
            const QByteArray expected =
                "sha256=" +
                QMessageAuthenticationCode::hash(body, "hook-secret-1", QCryptographicHash::Sha256).toHex();
            QCOMPARE(headers.value(QStringLiteral("x-gpuquota-signature")).toString().toLatin1(), expected);
            const QJsonObject o = QJsonDocument::fromJson(body).object();
            QVERIFY(o.value(QStringLiteral("text")).toString().contains(QStringLiteral("namespace team-a")));
            thresholds
                << o.value(QStringLiteral("alert")).toObject().value(QStringLiteral("threshold")).toInt();
        }
        std::sort(thresholds.begin(), thresholds.end());
        QCOMPARE(thresholds, (QList<int>{80, 100}));

        // The ledger: four deliveries, all sent once; the Budgets page's view of it.
        AlertLedger ledger(*store);
        auto all = ledger.deliveries();
        QVERIFY(all);
        QCOMPARE(all->size(), 4);
        for (const AlertDelivery &d : *all) {
            QCOMPARE(d.state, AlertDelivery::State::Sent);
            QCOMPARE(d.attempts, 1);
        }
        auto budgets = store->budgets();
        QVERIFY(budgets);
        auto state = ledger.budgetState(budgets->first().id, kDay);
        QVERIFY(state);
        QCOMPARE(state->fired, (QList<int>{80, 100}));
        QCOMPARE(state->lastThreshold, 100);
        QCOMPARE(state->lastSentAt, kDay + 4 * kHour);

        // The next day: the period rolls over and 80% fires again (once).
        r = tick(*service, kDay + 24 * kHour + 3 * kHour + 15 * 60);
        QCOMPARE(r.raised, 1);
        QCOMPARE(r.sent, 2);
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 3);
        auto next = ledger.budgetState(budgets->first().id, kDay + 24 * kHour);
        QVERIFY(next);
        QCOMPARE(next->fired, QList<int>{80});
    }

    // SMTP down: recorded failed with the error and a retry time, not retried early,
    // then delivered once when the server is back.
    void smtpDownThenBack() {
        const int smtpPort = freePort(); // nothing listens yet
        auto store = openStore(true);
        AlertConfig c = config(smtpPort, 0);
        c.retryInitialSeconds = 300;
        AlertService service(*store, m_transport, c, recipients());
        QVERIFY(service.loadSecrets());
        const qint64 t0 = kDay + 3 * kHour + 15 * 60;
        AlertTickReport r = tick(service, t0);
        QCOMPARE(r.raised, 1);
        QCOMPARE(r.attempted, 1);
        QCOMPARE(r.failed, 1);
        AlertLedger ledger(*store);
        auto rows = ledger.deliveries();
        QVERIFY(rows);
        QCOMPARE(rows->size(), 1);
        QCOMPARE(rows->first().state, AlertDelivery::State::Failed);
        QCOMPARE(rows->first().attempts, 1);
        QCOMPARE(rows->first().nextRetry, t0 + 300);
        QVERIFY2(!rows->first().lastError.isEmpty(), "the error is recorded");

        QCOMPARE(tick(service, t0 + 299).attempted, 0); // not yet

        Sink smtp(QStringLiteral("smtp"), smtpPort, mailDir());
        QVERIFY(smtp.waitReady());
        r = tick(service, t0 + 300);
        QCOMPARE(r.attempted, 1);
        QCOMPARE(r.sent, 1);
        QCOMPARE(tick(service, t0 + 1800).attempted, 0); // 7.5 GPU-h: below 100%
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 1);
        rows = ledger.deliveries();
        QCOMPARE(rows->first().state, AlertDelivery::State::Sent);
        QCOMPARE(rows->first().attempts, 2);
        QCOMPARE(rows->first().sentAt, t0 + 300);
        auto counts = ledger.stateCounts();
        QVERIFY(counts);
        QCOMPARE(counts->value(QStringLiteral("sent")), 1);
        QCOMPARE(counts->value(QStringLiteral("failed")), 0);
    }

    // A receiver slower than alerts.webhook.timeout: the attempt is recorded as failed
    // (never left 'sending'), retried by the ledger's backoff, and every POST carries
    // the alert's key in Idempotency-Key, so the receiver (which did get them all) can
    // keep one.
    void slowWebhookIsRecordedAndKeyed() {
        const int hookPort = freePort();
        Sink hook(QStringLiteral("http"), hookPort, hookDir(),
                  {QStringLiteral("--delay"), QStringLiteral("4")});
        QVERIFY(hook.waitReady());
        auto store = openStore(true);
        AlertConfig c = config(freePort(), hookPort);
        c.smtp = SmtpSettings{}; // the webhook alone
        c.webhook.timeoutMs = 2000;
        c.retryInitialSeconds = 60;
        AlertService service(*store, m_transport, c, recipients());
        QVERIFY(service.loadSecrets());
        const qint64 t0 = kDay + 3 * kHour + 15 * 60; // 80 %
        AlertTickReport r = tick(service, t0);
        QCOMPARE(r.attempted, 1);
        QCOMPARE(r.failed, 1);
        AlertLedger ledger(*store);
        auto rows = ledger.deliveries();
        QVERIFY(rows);
        QCOMPARE(rows->size(), 1);
        QCOMPARE(rows->first().state, AlertDelivery::State::Failed);
        QCOMPARE(rows->first().nextRetry, t0 + 60);
        QVERIFY2(!rows->first().lastError.isEmpty(), "the timeout is recorded");
        r = tick(service, t0 + 60);
        QCOMPARE(r.attempted, 1);
        QTRY_COMPARE_WITH_TIMEOUT(files(hookDir(), QStringLiteral("post-*.json")).size(), 2, 10000);
        for (const QString &f : files(hookDir(), QStringLiteral("post-*.json"))) {
            const QJsonObject headers =
                QJsonDocument::fromJson(readAll(f)).object().value(QLatin1String("headers")).toObject();
            QCOMPARE(headers.value(QLatin1String("idempotency-key")).toString(), rows->first().alertKey);
        }
        rows = ledger.deliveries();
        QCOMPARE(rows->first().state, AlertDelivery::State::Failed);
        QCOMPARE(rows->first().attempts, 2);
    }

    // Give up after maxAttempts: failed with no retry time, never tried again.
    void givesUp() {
        auto store = openStore(true);
        AlertConfig c = config(freePort(), 0);
        c.maxAttempts = 2;
        c.retryInitialSeconds = 60;
        AlertService service(*store, m_transport, c, recipients());
        const qint64 t0 = kDay + 4 * kHour;
        QCOMPARE(tick(service, t0).failed, 2); // 80% and 100% at once
        QCOMPARE(tick(service, t0 + 60).failed, 2);
        QCOMPARE(tick(service, t0 + 7200).attempted, 0);
        auto rows = AlertLedger(*store).deliveries();
        QVERIFY(rows);
        for (const AlertDelivery &d : *rows) {
            QCOMPARE(d.state, AlertDelivery::State::Failed);
            QCOMPARE(d.attempts, 2);
            QCOMPARE(d.nextRetry, 0);
        }
    }

    // Two services (two replicas) on one database tick at the same instant: each alert
    // is raised by one of them and every delivery is claimed once.
    void twoReplicas() {
        const int smtpPort = freePort();
        Sink smtp(QStringLiteral("smtp"), smtpPort, mailDir());
        QVERIFY(smtp.waitReady());
        auto a = openStore(true);
        auto b = openStore(false);
        AlertService one(*a, m_transport, config(smtpPort, 0), recipients());
        AlertService two(*b, m_transport, config(smtpPort, 0), recipients());
        QSignalSpy spyOne(&one, &AlertService::tickFinished);
        QSignalSpy spyTwo(&two, &AlertService::tickFinished);
        one.tick(kDay + 4 * kHour);
        two.tick(kDay + 4 * kHour);
        QTRY_COMPARE_WITH_TIMEOUT(spyOne.size() + spyTwo.size(), 2, 30000);
        const auto r1 = spyOne.first().first().value<AlertTickReport>();
        const auto r2 = spyTwo.first().first().value<AlertTickReport>();
        QCOMPARE(r1.raised + r2.raised, 2);
        QCOMPARE(r1.sent + r2.sent, 2);
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 2);
    }

    // STARTTLS required and AUTH with a password from the environment; a server without
    // STARTTLS gets nothing.
    void starttlsAndAuth() {
        const QString cert = m_dir->filePath(QStringLiteral("cert.pem"));
        const QString key = m_dir->filePath(QStringLiteral("key.pem"));
        QProcess openssl;
        openssl.start(QStringLiteral("openssl"),
                      {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                       QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-days"),
                       QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                       QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1"),
                       QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert});
        QVERIFY(openssl.waitForFinished(30000) && openssl.exitCode() == 0);

        const int plainPort = freePort();
        Sink plain(QStringLiteral("smtp"), plainPort, mailDir());
        const int tlsPort = freePort();
        Sink tls(
            QStringLiteral("smtp"), tlsPort, mailDir(),
            {QStringLiteral("--tls"), cert, key, QStringLiteral("--auth"), QStringLiteral("gq:s3cret-pw")});
        QVERIFY(plain.waitReady());
        QVERIFY(tls.waitReady());
        qputenv("GQ_TEST_SMTP_PASSWORD", "s3cret-pw");

        auto store = openStore(true);
        AlertConfig c = config(plainPort, 0);
        c.smtp.requireTls = true;
        AlertService refused(*store, m_transport, c, recipients());
        AlertTickReport r = tick(refused, kDay + 3 * kHour + 15 * 60);
        QCOMPARE(r.failed, 1);
        QCOMPARE(files(mailDir(), QStringLiteral("*.eml")).size(), 0);

        c.smtp.url = QStringLiteral("smtp://127.0.0.1:%1").arg(tlsPort);
        c.smtp.user = QStringLiteral("gq");
        c.smtp.passwordEnv = QStringLiteral("GQ_TEST_SMTP_PASSWORD");
        c.smtp.caPem = readAll(cert);
        AlertService service(*store, m_transport, c, recipients());
        QVERIFY(service.loadSecrets());
        r = tick(service, kDay + 3 * kHour + 15 * 60 + c.retryInitialSeconds);
        QVERIFY2(r.ok(), qPrintable(AlertLedger(*store).deliveries()->first().lastError));
        QCOMPARE(r.sent, 1);
        const QStringList meta = files(mailDir(), QStringLiteral("*.json"));
        QCOMPARE(meta.size(), 1);
        QCOMPARE(QJsonDocument::fromJson(readAll(meta[0])).object().value(QStringLiteral("auth")).toString(),
                 QStringLiteral("gq"));
        auto rows = AlertLedger(*store).deliveries();
        for (const AlertDelivery &d : *rows)
            QVERIFY(!d.lastError.contains(QStringLiteral("s3cret-pw")));

        AlertConfig missing = c;
        missing.smtp.passwordEnv = QStringLiteral("GQ_TEST_NO_SUCH_VARIABLE");
        AlertService broken(*store, m_transport, missing, recipients());
        auto loaded = broken.loadSecrets();
        QVERIFY(!loaded);
        QCOMPARE(loaded.error().field, QStringLiteral("alerts.email.passwordEnv"));
    }
};

QTEST_GUILESS_MAIN(TestAlertDelivery)
#include "tst_alertdelivery.moc"
