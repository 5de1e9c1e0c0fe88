// The webhook's health (issue #26 item 5): the serving certificate checked as the API
// server will judge it (subjectAltName, never the Common Name; expiry; key), at start-up
// and by --check-config; the reviews counted by result for /metrics and /readyz; the
// leader's "webhook not called" detection and its alert.
#include "core/alerts/alertrules.h"
#include "core/alerts/alerttext.h"
#include "tests/controller/controllertestutil.h"
#include "services/controller/metricsregistry.h"
#include "core/httpd/servingcert.h"
#include "testcluster/testcerts.h"
#include "services/controller/uncheckedpods.h"
#include "core/usage/usagestore.h"
#include "services/controller/webhookhealth.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

httpd::Response reviewAnswer(bool allowed) {
    const QJsonObject review{
        {QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
        {QStringLiteral("response"),
         QJsonObject{{QStringLiteral("uid"), QStringLiteral("u")}, {QStringLiteral("allowed"), allowed}}}};
    return httpd::Response::json(200, QJsonDocument(review));
}

} // namespace

class TestWebhookHealth : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void servingCertificateWithSubjectAltNames() {
        const auto tls =
            tc::generateServingMaterial("DNS:gpuquota-controller.gpuquota-system.svc,IP:127.0.0.1");
        QVERIFY(tls);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        auto info = httpd::checkServingCertificate(
            tls->serverCertPem, tls->serverKeyPem,
            {QStringLiteral("gpuquota-controller.gpuquota-system.svc"), QStringLiteral("127.0.0.1")}, now);
        QVERIFY2(info, qPrintable(info ? QString() : info.error().message));
        QCOMPARE(info->dnsNames, QStringList{QStringLiteral("gpuquota-controller.gpuquota-system.svc")});
        QCOMPARE(info->ipAddresses, QStringList{QStringLiteral("127.0.0.1")});
        QVERIFY(info->notAfter > now);
        // A name the certificate does not cover.
        auto other = httpd::checkServingCertificate(tls->serverCertPem, tls->serverKeyPem,
                                                    {QStringLiteral("webhook.example.com")}, now);
        QVERIFY(!other);
        QVERIFY2(other.error().message.contains(QLatin1String("not valid for webhook.example.com")),
                 qPrintable(other.error().message));
        // Expired (the same certificate, judged after its notAfter).
        auto expired =
            httpd::checkServingCertificate(tls->serverCertPem, tls->serverKeyPem, {}, info->notAfter);
        QVERIFY(!expired);
        QVERIFY2(expired.error().message.contains(QLatin1String("expired")),
                 qPrintable(expired.error().message));
        // A key of another certificate.
        const auto another = tc::generateServingMaterial("IP:127.0.0.1");
        QVERIFY(another);
        auto mismatch = httpd::checkServingCertificate(tls->serverCertPem, another->serverKeyPem, {}, now);
        QVERIFY(!mismatch);
        QVERIFY2(mismatch.error().message.contains(QLatin1String("does not belong")),
                 qPrintable(mismatch.error().message));
    }

    void commonNameOnlyIsRefused() {
        const auto cnOnly =
            tc::generateServingMaterial(QByteArray(), "gpuquota-controller.gpuquota-system.svc");
        QVERIFY(cnOnly);
        auto r = httpd::checkServingCertificate(cnOnly->serverCertPem, cnOnly->serverKeyPem, {},
                                                QDateTime::currentSecsSinceEpoch());
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("no subjectAltName")) &&
                     r.error().message.contains(QLatin1String("legacy Common Name")),
                 qPrintable(r.error().message));
    }

    void wildcardNames() {
        httpd::CertificateInfo info;
        info.dnsNames = {QStringLiteral("*.gpuquota-system.svc")};
        QVERIFY(info.matches(QStringLiteral("gpuquota-controller.gpuquota-system.svc")));
        QVERIFY(!info.matches(QStringLiteral("a.b.gpuquota-system.svc")));
        QVERIFY(!info.matches(QStringLiteral("gpuquota-system.svc")));
        info.ipAddresses = {QStringLiteral("0:0:0:0:0:0:0:1")};
        QVERIFY(info.matches(QStringLiteral("::1")));
        QVERIFY(!info.matches(QStringLiteral("127.0.0.1")));
    }

    // --check-config and a start refuse the CN-only certificate with the reason (exit 2).
    void controllerRefusesCommonNameOnlyCertificate() {
        QVERIFY(m_dir.isValid());
        const auto cnOnly = tc::generateServingMaterial(QByteArray(), "127.0.0.1");
        QVERIFY(cnOnly);
        const QString crt = writeFile(m_dir.filePath(QStringLiteral("cn.crt")), cnOnly->serverCertPem);
        const QString key = writeFile(m_dir.filePath(QStringLiteral("cn.key")), cnOnly->serverKeyPem);
        const QString kubeconfig = writeFile(
            m_dir.filePath(QStringLiteral("kubeconfig")),
            "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "
            "\"https://127.0.0.1:1\"}\n"
            "users:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\n"
            "current-context: x\n");
        const QString config =
            writeFile(m_dir.filePath(QStringLiteral("c.yaml")),
                      QStringLiteral("cluster: {kubeconfig: %1}\ndatabase: sqlite://%2\nspool: %3\n"
                                     "webhook: {listen: 127.0.0.1:0, tlsCert: %4, tlsKey: %5}\n")
                          .arg(kubeconfig, m_dir.filePath(QStringLiteral("u.db")),
                               m_dir.filePath(QStringLiteral("spool")), crt, key)
                          .toUtf8());
        for (const QStringList &args :
             {QStringList{QStringLiteral("--config"), config, QStringLiteral("--check-config")},
              QStringList{QStringLiteral("--config"), config}}) {
            QProcess p;
            p.start(binDir() + QStringLiteral("/gpuquota-controller"), args);
            QVERIFY(p.waitForFinished(20000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QCOMPARE(p.exitCode(), 2);
            QVERIFY2(err.contains(QLatin1String("webhook.tlsCert")) &&
                         err.contains(QLatin1String("legacy Common Name field")),
                     qPrintable(err));
        }
    }

    void reviewsAreCountedByResult() {
        auto metrics = std::make_shared<MetricsRegistry>();
        registerControllerMetrics(*metrics);
        ManualClock clock(1'700'000'000);
        WebhookHealth health(metrics, &clock);
        const httpd::Handler handler = health.instrument([](const httpd::Request &r) {
            if (r.body == "deny")
                return reviewAnswer(false);
            if (r.body == "db")
                return httpd::Response::text(500, QStringLiteral("usage database: gone\n"));
            return reviewAnswer(true);
        });
        QCOMPARE(health.readyzText().contains(QLatin1String("webhook last review: never")), true);
        httpd::Request req;
        for (const QByteArray &body :
             {QByteArray("ok"), QByteArray("ok"), QByteArray("deny"), QByteArray("db")}) {
            req.body = body;
            (void)handler(req);
            clock.advance(10);
        }
        const QString name = QString::fromLatin1(metricnames::kAdmissionReviews);
        QCOMPARE(metrics->value(name, {{QStringLiteral("result"), QStringLiteral("allowed")}}), 2.0);
        QCOMPARE(metrics->value(name, {{QStringLiteral("result"), QStringLiteral("denied")}}), 1.0);
        QCOMPARE(metrics->value(name, {{QStringLiteral("result"), QStringLiteral("error")}}), 1.0);
        QCOMPARE(metrics->value(QString::fromLatin1(metricnames::kAdmissionLastReview)), 1'700'000'030.0);
        QCOMPARE(health.lastReview(), qint64(1'700'000'030));
        const QByteArray exposition = metrics->render();
        QVERIFY2(exposition.contains("gpuquota_admission_reviews_total{result=\"allowed\"} 2"),
                 exposition.constData());

        // /readyz: listening, the certificate's state, the counts and the last review.
        health.setListening(QStringLiteral("0.0.0.0:9443"));
        httpd::CertificateInfo cert;
        cert.dnsNames = {QStringLiteral("gpuquota-controller.gpuquota-system.svc")};
        cert.notAfter = clock.nowSecs() + 5 * 86400;
        health.setCertificate(cert);
        QString text = health.readyzText();
        QVERIFY2(text.contains(QLatin1String("webhook: listening on 0.0.0.0:9443\n")), qPrintable(text));
        QVERIFY2(
            text.contains(QLatin1String("webhook certificate: EXPIRES SOON until")) &&
                text.contains(QLatin1String("(5 days left; names gpuquota-controller.gpuquota-system.svc)")),
            qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("webhook reviews: 2 allowed, 1 denied, 1 error\n")),
                 qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("webhook last review: 2023-11-14T22:13:50Z (10 s ago)")),
                 qPrintable(text));
        cert.notAfter = clock.nowSecs() + 90 * 86400;
        health.setCertificate(cert);
        QVERIFY2(health.readyzText().contains(QLatin1String("webhook certificate: valid until")),
                 qPrintable(text));
        QCOMPARE(metrics->value(QString::fromLatin1(metricnames::kWebhookCertExpiry)), double(cert.notAfter));
    }

    // Every replica's last review in the database; the leader reads the latest of them.
    void beaconKeepsEachReplicasLastReview() {
        QVERIFY(m_dir.isValid());
        auto store =
            UsageStore::open(QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("beacon.db")));
        QVERIFY(store);
        auto none = ReviewBeacon::latest(**store);
        QVERIFY(none);
        QCOMPARE(*none, qint64(0));
        QVERIFY(ReviewBeacon::publish(**store, QStringLiteral("ctl-a"), 1000));
        QVERIFY(ReviewBeacon::publish(**store, QStringLiteral("ctl-b"), 1200));
        QVERIFY(ReviewBeacon::publish(**store, QStringLiteral("ctl-a"), 1100)); // replaced, not added
        auto latest = ReviewBeacon::latest(**store);
        QVERIFY(latest);
        QCOMPARE(*latest, qint64(1200));
        // The beacon thread writes what the health records.
        auto metrics = std::make_shared<MetricsRegistry>();
        WebhookHealth health(metrics);
        {
            ReviewBeacon beacon(health,
                                QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("beacon.db")),
                                UsageStore::Options{}, QStringLiteral("ctl-c"), 50);
            health.record(reviewAnswer(true));
            QTRY_VERIFY_WITH_TIMEOUT(*ReviewBeacon::latest(**store) >= health.lastReview(), 5000);
        }
    }

    // GPU pods created with no review at any replica since: unchecked once older than
    // the window; a review after them (any replica's) clears them.
    void uncheckedPodsNeedAReviewAfterThem() {
        UncheckedPods unchecked({QStringLiteral("kube-system"), QStringLiteral("gpuquota-system")});
        unchecked.start(nullptr, 1000);
        unchecked.noteCreated(QStringLiteral("team-a/old"), QStringLiteral("team-a"),
                              900); // before the start
        unchecked.noteCreated(QStringLiteral("kube-system/x"), QStringLiteral("kube-system"), 1100);
        unchecked.noteCreated(QStringLiteral("team-a/p1"), QStringLiteral("team-a"), 1100);
        unchecked.noteCreated(QStringLiteral("team-a/p2"), QStringLiteral("team-a"), 1150);
        QCOMPARE(unchecked.pending(), 2);
        // Reviewed at 1095 (its own review, a moment before the watch saw it): p1 is fine.
        QVERIFY(!unchecked.evaluate(1200, 1095, 120));
        QCOMPARE(unchecked.pending(), 1);
        // p2 has had no review for longer than the window.
        auto silence = unchecked.evaluate(1300, 1095, 120);
        QVERIFY(silence);
        QCOMPARE(silence->pods, 1);
        QCOMPARE(silence->firstSeen, qint64(1150));
        QCOMPARE(silence->lastReview, qint64(1095));
        QCOMPARE(silence->examples, QStringList{QStringLiteral("team-a/p2")});
        QVERIFY(!unchecked.evaluate(1300, 1095, 0)); // off
        // Another replica answered a review after it: called again, nothing unchecked.
        QVERIFY(!unchecked.evaluate(1400, 1160, 120));
        QCOMPARE(unchecked.pending(), 0);
    }

    void silenceRaisesOneAlertForAdmins() {
        AlertInputs in;
        in.now = 2000;
        AlertInputs::WebhookSilence s;
        s.lastReview = 1095;
        s.firstSeen = 1150;
        s.pods = 3;
        s.examples = {QStringLiteral("team-a/p2"), QStringLiteral("team-b/q")};
        in.webhookSilence = s;
        const QList<Alert> alerts = evaluateAlerts(AlertRules{}, in);
        QCOMPARE(alerts.size(), 1);
        const Alert &a = alerts.first();
        QCOMPARE(a.kind, Alert::Kind::WebhookNotCalled);
        QCOMPARE(a.key, QStringLiteral("webhook/1095"));
        QCOMPARE(alertKindName(a.kind), QStringLiteral("webhook-not-called"));
        const auto back = alertFromJson(alertToJson(a));
        QVERIFY(back);
        QCOMPARE(*back, a);
        QVERIFY2(AlertText::lines(a).join(QLatin1Char(' ')).contains(QLatin1String("team-a/p2, team-b/q")),
                 qPrintable(AlertText::lines(a).join(QLatin1Char(' '))));
        in.now = 2030; // the same silence later: the same key, sent once by the ledger
        QCOMPARE(evaluateAlerts(AlertRules{}, in).first().key, a.key);
    }
};

QTEST_GUILESS_MAIN(TestWebhookHealth)
#include "tst_webhookhealth.moc"
