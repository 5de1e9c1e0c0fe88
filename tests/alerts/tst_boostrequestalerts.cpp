// A boost request's decision reaches its requester through the alert channels: a real
// SMTP server (aiosmtpd) and a real HTTP sink on loopback. An approval and a denial
// each send one email to the requester (the recipients' user mapping) and one webhook,
// once whatever the number of ticks; a decision older than the look-back is not sent.

#include "services/controller/alertservice.h"
#include "tests/alerts/alertsink.h"
#include "core/usage/boostrequests.h"
#include "core/domain/clock.h"
#include "core/net/httptransport.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using gq::test::files;
using gq::test::freePort;
using gq::test::readAll;
using gq::test::Sink;
using gq::test::subjectOf;

namespace {

constexpr qint64 kT0 = 1764547200; // 2025-12-01T00:00:00Z
constexpr qint64 kDay = 24 * 3600;

QString toOf(const QByteArray &mail) {
    return test::headerOf(mail, "To");
}

QString plainPart(const QByteArray &mail) {
    return test::mailPart(mail, "text/plain");
}

} // namespace

class TestBoostRequestAlerts : public QObject {
    Q_OBJECT
    test::UsageTestBackend m_backend{"gq_reqalerts"};
    std::unique_ptr<QTemporaryDir> m_dir;

    QString mailDir() const { return m_dir->filePath(QStringLiteral("mail")); }
    QString hookDir() const { return m_dir->filePath(QStringLiteral("hook")); }

    static BoostRequest ask(const char *who, double hours, qint64 until) {
        BoostRequest r;
        r.requester = QLatin1String(who);
        r.scope = BudgetScope::User;
        r.subject = QLatin1String(who);
        r.hours = hours;
        r.until = until;
        r.note = QStringLiteral("paper deadline on Friday");
        return r;
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
    }

    void decisionsReachTheRequesterOnce() {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(mailDir()) && QDir().mkpath(hookDir()));
        const int smtpPort = freePort();
        const int hookPort = freePort();
        Sink smtp(QStringLiteral("smtp"), smtpPort, mailDir());
        Sink hook(QStringLiteral("http"), hookPort, hookDir());
        QVERIFY(smtp.waitReady());
        QVERIFY(hook.waitReady());

        auto opened = UsageStore::open(m_backend.freshUrl());
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().toString()));
        std::unique_ptr<UsageStore> store = std::move(*opened);
        ManualClock clock(kT0);
        BoostRequestLedger ledger(*store, clock);
        // Decided nine days ago: older than the look-back, never sent.
        auto old = ledger.submit(ask("carol", 1, kT0 + kDay));
        QVERIFY(old);
        QVERIFY(ledger.deny(old->id, QStringLiteral("too long ago to matter"), QStringLiteral("admin")));
        clock.set(kT0 + 9 * kDay);
        const qint64 now = clock.nowSecs();
        auto approved = ledger.submit(ask("alice", 4, now + kDay));
        auto denied = ledger.submit(ask("bob", 2, now + kDay));
        QVERIFY(approved && denied);
        clock.advance(60);
        auto a = ledger.approve(approved->id, {QStringLiteral("admin@example.org"),
                                               QStringLiteral("three hours is enough for it"), 3, 0});
        QVERIFY2(a, qPrintable(a ? QString() : a.error().toString()));
        QVERIFY(ledger.deny(denied->id, QStringLiteral("use the spot queue for this"),
                            QStringLiteral("admin@example.org")));

        AlertConfig c;
        c.enabled = true;
        c.smtp.url = QStringLiteral("smtp://127.0.0.1:%1").arg(smtpPort);
        c.smtp.from = QStringLiteral("gpuquota@example.org");
        c.smtp.requireTls = false;
        c.smtp.timeoutMs = 10000;
        c.webhook.url = QStringLiteral("http://127.0.0.1:%1/alerts").arg(hookPort);
        AlertRecipients recipients;
        recipients.addUser(QStringLiteral("alice"), QStringLiteral("alice@example.org"));
        recipients.addUser(QStringLiteral("bob"), QStringLiteral("bob@example.org"));
        recipients.addUser(QStringLiteral("carol"), QStringLiteral("carol@example.org"));
        AlertService service(*store, std::make_shared<HttpTransport>(), c, recipients);
        QVERIFY(service.loadSecrets());

        AlertTickReport r = tick(service, now + 120);
        QVERIFY2(r.ok(), qPrintable(r.error ? r.error->message : QString()));
        QCOMPARE(r.raised, 2);
        QCOMPARE(r.sent, 4); // an email and a webhook each
        QCOMPARE(tick(service, now + 600).attempted, 0);
        QCOMPARE(tick(service, now + 3600).raised, 0);

        QStringList mails = files(mailDir(), QStringLiteral("*.eml"));
        QCOMPARE(mails.size(), 2);
        QHash<QString, QByteArray> byTo;
        for (const QString &m : std::as_const(mails)) {
            const QByteArray mail = readAll(m);
            byTo.insert(toOf(mail), mail);
        }
        QVERIFY(byTo.contains(QStringLiteral("alice@example.org")));
        QVERIFY(byTo.contains(QStringLiteral("bob@example.org")));
        const QByteArray yes = byTo.value(QStringLiteral("alice@example.org"));
        QCOMPARE(subjectOf(yes), QStringLiteral("Boost request %1 approved").arg(approved->id));
        const QString yesText = plainPart(yes);
        QVERIFY2(yesText.contains(QStringLiteral("admin@example.org approved your request %1: +3 GPU-h on "
                                                 "user:alice until %2 (boost %3).")
                                      .arg(approved->id)
                                      .arg(QDateTime::fromSecsSinceEpoch(now + kDay, Qt::UTC)
                                               .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")))
                                      .arg(a->boostId)),
                 qPrintable(yesText));
        QVERIFY(yesText.contains(QStringLiteral("Note: three hours is enough for it")));
        const QByteArray no = byTo.value(QStringLiteral("bob@example.org"));
        QCOMPARE(subjectOf(no), QStringLiteral("Boost request %1 denied").arg(denied->id));
        QVERIFY(plainPart(no).contains(QStringLiteral("Reason: use the spot queue for this")));

        // The webhooks carry the structured decision.
        QStringList decisions;
        for (const QString &p : files(hookDir(), QStringLiteral("*.body"))) {
            const QJsonObject alert =
                QJsonDocument::fromJson(readAll(p)).object().value(QStringLiteral("alert")).toObject();
            QCOMPARE(alert.value(QStringLiteral("kind")).toString(), QStringLiteral("boost-request-decided"));
            decisions << alert.value(QStringLiteral("user")).toString() + QLatin1Char('=') +
                             alert.value(QStringLiteral("decision")).toString() + QLatin1Char('/') +
                             alert.value(QStringLiteral("note")).toString();
        }
        decisions.sort();
        QCOMPARE(decisions, (QStringList{QStringLiteral("alice=approved/three hours is enough for it"),
                                         QStringLiteral("bob=denied/use the spot queue for this")}));
        store.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
};

QTEST_MAIN(TestBoostRequestAlerts)
#include "tst_boostrequestalerts.moc"
