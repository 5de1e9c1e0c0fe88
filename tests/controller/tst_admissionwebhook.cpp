// The admission webhook: AdmissionReview v1 in, the admission checker's decision out,
// as a pure function over the usage database (SQLite, or PostgreSQL from
// GQ_TEST_PG_URL) and served over TLS by core/httpd, called by the real HTTP client;
// denials of controller-made pods recorded as Events on their owners (DenialEvents).
#include "services/controller/admissionwebhook.h"
#include "services/controller/draholdings.h"
#include "core/net/httptransport.h"
#include "core/usage/newcomerledger.h"
#include "testcluster/tls.h"

#include "tests/kube/kubeclienttestutil.h"
#include "tests/kube/kubetestutil.h"
#include "tests/rawhttpclient.h"
#include "tests/testclusterprocess.h"
#include "tests/usage/usagebackend.h"
#include "tests/webhooktestutil.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {
constexpr qint64 kNoon = 1796126400; // 2026-12-01 12:00:00 UTC
constexpr qint64 kDayStart = kNoon - 12 * 3600;

// `user`'s pod `name` (uid `uid`) in namespace shared with `gpus` GPUs, from an hour
// after the day's start for `seconds`.
UsageInterval sharedPod(const char *user, const char *uid, const char *name, int gpus, qint64 seconds) {
    UsageInterval iv;
    iv.cluster = QStringLiteral("test");
    iv.ns = QStringLiteral("shared");
    iv.user = QString::fromLatin1(user);
    iv.podUid = QString::fromLatin1(uid);
    iv.podName = QString::fromLatin1(name);
    iv.gpus = gpus;
    iv.start = kDayStart + 3600;
    iv.end = iv.start + seconds;
    return iv;
}

Budget budget(const QString &user) { // 8 GPU-h a day
    Budget b;
    b.subject = user;
    b.limitGpuHours = 8;
    return b;
}

} // namespace

class TestAdmissionWebhook : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_webhook"};
    QString m_url;
    std::unique_ptr<UsageStore> m_store;
    AdmissionWebhook::Options m_opt;

    // A webhook over this test's database that serves at `clock`'s time.
    std::unique_ptr<AdmissionWebhook> webhookAt(const ManualClock &clock) const {
        AdmissionWebhook::Options opt;
        opt.clock = &clock;
        return std::make_unique<AdmissionWebhook>(m_url, UsageStore::Options{}, opt);
    }

    httpd::Response call(const QByteArray &body, qint64 now = kNoon) {
        return AdmissionWebhook::review(body, *m_store, now, m_opt);
    }

private slots:
    void initTestCase() { GQ_PREPARE_USAGE_BACKEND(m_backend); }
    void init() {
        m_opt = AdmissionWebhook::Options{};
        m_url = m_backend.freshUrl();
        auto s = UsageStore::open(m_url);
        QVERIFY2(s, qPrintable(s ? QString() : s.error().toString()));
        m_store = std::move(*s);
        // alice: 8 GPU-h per day, 7.5 used this morning; bob has the same budget, unused.
        for (const char *user : {"alice", "bob"})
            QVERIFY(m_store->setBudget(budget(QString::fromLatin1(user))));
        UsageInterval iv = sharedPod("alice", "uid-1", "earlier", 3, 9000); // 2.5 h x 3 GPUs
        iv.source = QStringLiteral("test");
        QVERIFY(m_store->upsertInterval(iv));
    }
    void cleanup() {
        m_store.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void overBudgetUserDenied() {
        // 4 GPUs for the default hour: 4.00 GPU-h needed, 0.50 left.
        const httpd::Response r =
            call(reviewJson(QStringLiteral("uid-a"), QStringLiteral("shared"), QStringLiteral("alice"), 4));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.contentType, QByteArray("application/json"));
        const QJsonObject doc = QJsonDocument::fromJson(r.body).object();
        QCOMPARE(doc.value(QLatin1String("apiVersion")).toString(), QStringLiteral("admission.k8s.io/v1"));
        QCOMPARE(doc.value(QLatin1String("kind")).toString(), QStringLiteral("AdmissionReview"));
        const QJsonObject resp = responseOf(r.body);
        QCOMPARE(resp.value(QLatin1String("uid")).toString(), QStringLiteral("uid-a"));
        QCOMPARE(resp.value(QLatin1String("allowed")).toBool(true), false);
        QCOMPARE(resp.value(QLatin1String("status")).toObject().value(QLatin1String("code")).toInt(), 403);
        QCOMPARE(
            messageOf(resp),
            QStringLiteral("Denied: need 4.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
    }

    // Issue 30: a newcomer (x3 for 7 days) is admitted over the plain budget, her very first
    // pod too (no interval yet, no sweep yet), and denied the same pod once the allowance
    // has ended by itself.
    void newcomerAdmittedUntilTheAllowanceEnds() {
        const ManualClock policyAt(kDayStart - 60);
        QVERIFY(NewcomerLedger(*m_store, policyAt)
                    .setPolicy(*NewcomerPolicy::parse(QStringLiteral("7d:x3")), QStringLiteral("admin"),
                               QStringLiteral("first week")));
        QVERIFY(m_store->setBudget(budget(QStringLiteral("nina"))));
        const QByteArray first = // 10 GPUs for an hour: over 8, within 24
            reviewJson(QStringLiteral("uid-n0"), QStringLiteral("shared"), QStringLiteral("nina"), 10);
        QJsonObject resp = responseOf(call(first, kDayStart + 3000).body);
        QVERIFY2(resp.value(QLatin1String("allowed")).toBool(), qPrintable(messageOf(resp)));
        QVERIFY(m_store->upsertInterval(sharedPod("nina", "uid-n", "first", 1, 3600))); // 1 GPU-h used
        // 9 GPUs for an hour: 10 > 8, but <= 24; still before any sweep.
        const QByteArray body =
            reviewJson(QStringLiteral("uid-n1"), QStringLiteral("shared"), QStringLiteral("nina"), 9);
        resp = responseOf(call(body).body);
        QVERIFY(resp.value(QLatin1String("allowed")).toBool());
        const ManualClock sweepAt(kNoon);
        QVERIFY(NewcomerLedger(*m_store, sweepAt).sweep());
        resp = responseOf(call(body).body);
        QVERIFY(resp.value(QLatin1String("allowed")).toBool());
        resp = responseOf(call(body, kNoon + 7 * 86400).body); // 12-08: ended with 12-07
        QCOMPARE(resp.value(QLatin1String("allowed")).toBool(true), false);
        QCOMPARE(
            messageOf(resp),
            QStringLiteral("Denied: need 9.00 GPU-h, only 8.00 left (limit 8.00 per day) for user nina"));
        resp = responseOf(call(body, kNoon + 6 * 86400).body);
        QVERIFY(resp.value(QLatin1String("allowed")).toBool());
    }

    // A pod whose GPUs come from a DRA claim template: the template's request counts
    // (draRequestedGpus, as DraWatch answers it from its informers).
    void draClaimsCountLikeExtendedResources() {
        const QJsonObject spec{{QStringLiteral("resourceClaims"),
                                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu")},
                                                       {QStringLiteral("resourceClaimTemplateName"),
                                                        QStringLiteral("two-gpus")}}}}};
        const QByteArray body = reviewJson(QStringLiteral("uid-d"), QStringLiteral("shared"),
                                           QStringLiteral("alice"), 0, {}, spec);
        QVERIFY(responseOf(call(body).body).value(QLatin1String("allowed")).toBool()); // claims not known
        QHash<QString, QJsonObject> templates;
        templates.insert(
            QStringLiteral("shared/two-gpus"),
            QJsonDocument::fromJson(QByteArray(R"({"spec":{"spec":{"devices":{"requests":[{"name":"gpu",
                             "exactly":{"deviceClassName":"gpu.nvidia.com","count":2}}]}}}})"))
                .object());
        m_opt.draGpus = [templates](const QString &ns, const QJsonObject &pod) {
            return draRequestedGpus(pod, ns, templates, {}, {}, {});
        };
        const QJsonObject resp = responseOf(call(body).body);
        QCOMPARE(resp.value(QLatin1String("allowed")).toBool(true), false);
        QCOMPARE(
            messageOf(resp),
            QStringLiteral("Denied: need 2.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
    }

    // The denial names the budget it checked and, for a person whose name the identity
    // rules change, which budget user they are.
    void denialSaysWhoYouAre_data() {
        QTest::addColumn<QString>("requester");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("no userInfo") << ""
                                     << "alice"
                                     << " for user alice";
        QTest::newRow("alice herself") << "alice@example.com"
                                       << "alice"
                                       << " for user alice";
        QTest::newRow("someone else's label")
            << "bob@example.com"
            << "alice"
            << " for user alice; you are bob@example.com \u2192 bob (e-mail local part)";
        QTest::newRow("plain name") << "gq-admin"
                                    << "alice"
                                    << " for user alice";
        QTest::newRow("a controller") << "system:serviceaccount:kube-system:job-controller"
                                      << "alice"
                                      << " for user alice";
        QTest::newRow("no label") << "carol@example.com"
                                  << ""
                                  << " for user shared (no gpuquota.io/user label: the namespace); you are "
                                     "carol@example.com \u2192 carol (e-mail local part)";
        QTest::newRow("unmappable")
            << "Dr Who"
            << "alice"
            << " for user alice; Dr Who cannot be mapped to a budget user: \"Dr Who\" "
               "contains ' ' (a user is letters, digits, '-', '_' and '.')";
    }
    void denialSaysWhoYouAre() {
        QFETCH(QString, requester);
        QFETCH(QString, label);
        QFETCH(QString, suffix);
        // trust.mode warn: the label rules only warn, so the budget's own denial is seen
        // (enforce refuses these earlier: tst_podtrust).
        m_opt.trust.mode = TrustRules::Mode::Warn;
        if (label.isEmpty()) {
            Budget b;
            b.scope = BudgetScope::User;
            b.subject = QStringLiteral("shared");
            b.period = Period::Day;
            b.limitGpuHours = 0.5;
            QVERIFY(m_store->setBudget(b));
        }
        QJsonObject review =
            QJsonDocument::fromJson(reviewJson(QStringLiteral("uid-w"), QStringLiteral("shared"), label, 4))
                .object();
        QJsonObject request = review.value(QLatin1String("request")).toObject();
        if (!requester.isEmpty())
            request.insert(QStringLiteral("userInfo"), QJsonObject{{QStringLiteral("username"), requester}});
        review.insert(QStringLiteral("request"), request);
        const QString message = messageOf(responseOf(call(QJsonDocument(review).toJson()).body));
        QVERIFY2(message.startsWith(QLatin1String("Denied: need 4.00 GPU-h, only ")), qPrintable(message));
        QVERIFY2(message.endsWith(suffix), qPrintable(message));
    }

    void otherUserInSameNamespaceAllowed() {
        const httpd::Response r =
            call(reviewJson(QStringLiteral("uid-b"), QStringLiteral("shared"), QStringLiteral("bob"), 4));
        QCOMPARE(r.status, 200);
        const QJsonObject resp = responseOf(r.body);
        QCOMPARE(resp.value(QLatin1String("uid")).toString(), QStringLiteral("uid-b"));
        QCOMPARE(resp.value(QLatin1String("allowed")).toBool(), true);
    }

    void expectedHours() {
        // Half a GPU-hour, bounded by activeDeadlineSeconds, fits alice's 0.50 left; said
        // without a deadline it is raised to the floor (trust.minExpectedHours, 1 h).
        QJsonObject ann{{QStringLiteral("annotations"),
                         QJsonObject{{AdmissionWebhook::kHoursAnnotation, QStringLiteral("0.5")}}}};
        QCOMPARE(responseOf(
                     call(reviewJson(QStringLiteral("u1"), QStringLiteral("shared"), QStringLiteral("alice"),
                                     1, ann, QJsonObject{{QStringLiteral("activeDeadlineSeconds"), 1800}}))
                         .body)
                     .value(QLatin1String("allowed"))
                     .toBool(),
                 true);
        QCOMPARE(
            messageOf(responseOf(call(reviewJson(QStringLiteral("u0"), QStringLiteral("shared"),
                                                 QStringLiteral("alice"), 1, ann))
                                     .body)),
            QStringLiteral("Denied: need 1.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
        const QJsonObject deadline{{QStringLiteral("activeDeadlineSeconds"), 7200}};
        const QJsonObject resp = responseOf(call(reviewJson(QStringLiteral("u2"), QStringLiteral("shared"),
                                                            QStringLiteral("alice"), 1, {}, deadline))
                                                .body);
        QCOMPARE(
            messageOf(resp),
            QStringLiteral("Denied: need 2.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
        ann = {{QStringLiteral("annotations"),
                QJsonObject{{AdmissionWebhook::kHoursAnnotation, QStringLiteral("soon")}}}};
        const QJsonObject bad = responseOf(
            call(reviewJson(QStringLiteral("u3"), QStringLiteral("shared"), QStringLiteral("bob"), 1, ann))
                .body);
        QCOMPARE(bad.value(QLatin1String("allowed")).toBool(true), false);
        QVERIFY(messageOf(bad).contains(QLatin1String("gpuquota.io/expected-hours")));
    }

    // What a pod says about itself cannot take it past a budget (README "What a pod may
    // say about itself"): alice has 0.50 GPU-h left.
    void budgetsCannotBeTalkedAround() {
        const auto review = [&](const QString &uid, const QString &label, int gpus, const QJsonObject &meta,
                                const QJsonObject &userInfo) {
            QJsonObject r =
                QJsonDocument::fromJson(reviewJson(uid, QStringLiteral("shared"), label, gpus, meta))
                    .object();
            QJsonObject request = r.value(QLatin1String("request")).toObject();
            request.insert(QStringLiteral("userInfo"), userInfo);
            r.insert(QStringLiteral("request"), request);
            return responseOf(call(QJsonDocument(r).toJson()).body);
        };
        const QJsonObject alice{{QStringLiteral("username"), QStringLiteral("alice@example.com")}};
        const QJsonObject tiny{{QStringLiteral("annotations"),
                                QJsonObject{{AdmissionWebhook::kHoursAnnotation, QStringLiteral("1e-9")}}}};
        // 8 GPUs "for a nanosecond": the floor makes it 8 GPU-h.
        QCOMPARE(
            messageOf(review(QStringLiteral("t1"), QStringLiteral("alice"), 8, tiny, alice)),
            QStringLiteral("Denied: need 8.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
        // Someone else's label, or none: refused before any budget is read.
        QJsonObject other = review(QStringLiteral("t2"), QStringLiteral("dave"), 8, {}, alice);
        QCOMPARE(other.value(QLatin1String("allowed")).toBool(true), false);
        QVERIFY2(
            messageOf(other).startsWith(QLatin1String("gpuquota.io/user: dave names another user: you are "
                                                      "alice@example.com")),
            qPrintable(messageOf(other)));
        QJsonObject none = review(QStringLiteral("t3"), QString(), 8, {}, alice);
        QCOMPARE(none.value(QLatin1String("allowed")).toBool(true), false);
        QVERIFY2(messageOf(none).contains(QLatin1String("add the label gpuquota.io/user: alice")),
                 qPrintable(messageOf(none)));
        // A cluster admin (system:masters) may label for others; dave has no budget.
        const QJsonObject admin{{QStringLiteral("username"), QStringLiteral("kubernetes-admin")},
                                {QStringLiteral("groups"), QJsonArray{QStringLiteral("system:masters")}}};
        QCOMPARE(review(QStringLiteral("t4"), QStringLiteral("dave"), 8, {}, admin)
                     .value(QLatin1String("allowed"))
                     .toBool(),
                 true);
        // trust.mode warn: admitted, with the reason as an AdmissionReview warning.
        m_opt.trust.mode = TrustRules::Mode::Warn;
        const QJsonObject warned = review(QStringLiteral("t5"), QStringLiteral("bob"), 1, {}, alice);
        QCOMPARE(warned.value(QLatin1String("allowed")).toBool(), true);
        QVERIFY(warned.value(QLatin1String("warnings"))
                    .toArray()
                    .first()
                    .toString()
                    .contains(QLatin1String("bob")));
    }

    void nonGpuPodsAndOtherOperationsAllowed() {
        QCOMPARE(responseOf(call(reviewJson(QStringLiteral("u"), QStringLiteral("shared"),
                                            QStringLiteral("alice"), 0))
                                .body)
                     .value(QLatin1String("allowed"))
                     .toBool(),
                 true);
        QCOMPARE(responseOf(call(reviewJson(QStringLiteral("u"), QStringLiteral("shared"),
                                            QStringLiteral("alice"), 4, {}, {}, QStringLiteral("UPDATE")))
                                .body)
                     .value(QLatin1String("allowed"))
                     .toBool(),
                 true);
        // The next day alice has her 8 GPU-h again.
        QCOMPARE(responseOf(call(reviewJson(QStringLiteral("u"), QStringLiteral("shared"),
                                            QStringLiteral("alice"), 4),
                                 kNoon + 86400)
                                .body)
                     .value(QLatin1String("allowed"))
                     .toBool(),
                 true);
    }

    void malformedReviews_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{nope") << "not JSON";
        QTest::newRow("array") << QByteArray("[]") << "not a JSON object";
        QTest::newRow("kind") << QByteArray(R"({"apiVersion":"admission.k8s.io/v1","kind":"Pod"})")
                              << "kind must be AdmissionReview";
        QTest::newRow("v1beta1")
            << QByteArray(R"({"apiVersion":"admission.k8s.io/v1beta1","kind":"AdmissionReview"})")
            << "apiVersion must be admission.k8s.io/v1";
        QTest::newRow("no request") << QByteArray(
                                           R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})")
                                    << "request missing";
        QTest::newRow("no uid")
            << QByteArray(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{}})")
            << "request.uid missing";
        QTest::newRow("no object")
            << QByteArray(
                   R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"x","kind":{"kind":"Pod"},"operation":"CREATE"}})")
            << "request.object missing";
    }
    void malformedReviews() {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        const httpd::Response r = call(body);
        QCOMPARE(r.status, 400);
        QVERIFY2(
            QString::fromUtf8(r.body).startsWith(QStringLiteral("malformed AdmissionReview: ") + message),
            r.body.constData());
    }

    void servedOverTls() {
        auto material = tc::generateTlsMaterial();
        QVERIFY(material);
        ManualClock clock(kNoon);
        auto hook = webhookAt(clock);
        httpd::HttpServer server;
        hook->registerRoutes(server);
        auto port = server.start({QStringLiteral("127.0.0.1"), 0},
                                 httpd::TlsConfig{material->serverCertPem, material->serverKeyPem});
        QVERIFY2(port, qPrintable(port ? QString() : port.error().message));
        HttpTransport transport;
        auto post = [&](const QByteArray &body) {
            HttpRequest req;
            req.method = HttpMethod::Post;
            req.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(*port);
            req.body = body;
            req.headers.append({QByteArray("Content-Type"), QByteArray("application/json")});
            req.tls.caPem = material->caCertPem;
            auto f = transport.send(req);
            f.waitForFinished();
            return f.result();
        };
        HttpResponse r =
            post(reviewJson(QStringLiteral("tls-a"), QStringLiteral("shared"), QStringLiteral("alice"), 4));
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(
            messageOf(responseOf(r.body)),
            QStringLiteral("Denied: need 4.00 GPU-h, only 0.50 left (limit 8.00 per day) for user alice"));
        r = post(reviewJson(QStringLiteral("tls-b"), QStringLiteral("shared"), QStringLiteral("bob"), 4));
        QCOMPARE(responseOf(r.body).value(QLatin1String("uid")).toString(), QStringLiteral("tls-b"));
        QCOMPARE(responseOf(r.body).value(QLatin1String("allowed")).toBool(), true);
        // Usage recorded meanwhile (by another connection) is seen by the next review.
        QVERIFY(m_store->upsertInterval(sharedPod("bob", "uid-2", "big", 8, 3600)));
        QTRY_VERIFY_WITH_TIMEOUT(
            !responseOf(
                 post(reviewJson(QStringLiteral("tls-c"), QStringLiteral("shared"), QStringLiteral("bob"), 1))
                     .body)
                 .value(QLatin1String("allowed"))
                 .toBool(),
            5000);
        r = post("{nope");
        QCOMPARE(r.httpStatus, 400);
        server.stop();
    }

    // Issue 31 item 6: 300 idle connections to the webhook's server (half never send a
    // byte, half finish the TLS handshake and go quiet), then a review on a new
    // connection is answered at once. Before, 16 idle connections locked it out.
    void idleConnectionsDoNotLockOutTheWebhook() {
        const test::LoopbackTls tls = test::loopbackTls();
        ManualClock clock(kNoon);
        auto hook = webhookAt(clock);
        httpd::HttpServer server;
        hook->registerRoutes(server);
        auto port = server.start({QStringLiteral("127.0.0.1"), 0}, httpd::TlsConfig{tls.certPem, tls.keyPem});
        QVERIFY(port);
        test::ClientCtx ctx = test::clientContext();
        std::vector<std::unique_ptr<test::RawClient>> idle;
        for (int i = 0; i < 300; ++i) {
            idle.push_back(std::make_unique<test::RawClient>());
            QVERIFY(idle.back()->connectTo(*port, i % 2 ? ctx.get() : nullptr));
        }
        QElapsedTimer timer;
        timer.start();
        test::RawClient apiServer;
        QVERIFY(apiServer.connectTo(*port, ctx.get()));
        QByteArray head, body;
        QCOMPARE(apiServer.post("/validate/pods?timeout=5s",
                                reviewJson(QStringLiteral("idle-a"), QStringLiteral("shared"),
                                           QStringLiteral("alice"), 4),
                                &head, &body),
                 200);
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));
        QCOMPARE(responseOf(body).value(QLatin1String("allowed")).toBool(true), false);
    }

    // End to end: the test cluster calls the webhook (ValidatingWebhookConfiguration with
    // its URL and CA) and kubectl shows the denial; then the webhook down, Ignore vs Fail.
    void throughKubectl() {
        TestClusterProcess cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto material = tc::generateTlsMaterial();
        QVERIFY(material);
        ManualClock clock(kNoon);
        auto hook = webhookAt(clock);
        auto server = std::make_unique<httpd::HttpServer>();
        hook->registerRoutes(*server);
        auto port = server->start({QStringLiteral("127.0.0.1"), 0},
                                  httpd::TlsConfig{material->serverCertPem, material->serverKeyPem});
        QVERIFY(port);
        auto kubectl = [&](const QStringList &args, const QByteArray &in = {}) {
            const QString file =
                writeFile(cluster.temporaryDir() + QStringLiteral("/in-%1.yaml").arg(qHash(in)), in);
            QStringList all{QStringLiteral("--kubeconfig"), cluster.kubeconfigPath()};
            all += args;
            if (!in.isEmpty())
                all += QStringList{QStringLiteral("-f"), file};
            return runTool(QStringLiteral("kubectl"), all);
        };
        auto pod = [](const QString &name, const QString &user) {
            return QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: shared\n"
                                  "  labels: {gpuquota.io/user: %2}\nspec:\n  containers:\n  - name: main\n"
                                  "    image: cuda\n    resources:\n      limits: {nvidia.com/gpu: \"4\"}\n")
                .arg(name, user)
                .toUtf8();
        };
        QCOMPARE(kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("shared")})
                     .exitCode,
                 0);
        WebhookYaml w;
        w.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(*port);
        w.caPem = material->caCertPem;
        w.failurePolicy = QStringLiteral("Fail");
        ToolRun k = kubectl({QStringLiteral("apply")}, validatingWebhookYaml(w));
        QVERIFY2(k.exitCode == 0, k.err.constData());

        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("alice-job"), QStringLiteral("alice")));
        QVERIFY(k.exitCode != 0);
        QVERIFY2(
            k.err.contains("admission webhook \"pods.gpuquota.io\" denied the request: Denied: need 4.00 "
                           "GPU-h, only 0.50 left (limit 8.00 per day)"),
            k.err.constData());
        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("bob-job"), QStringLiteral("bob")));
        QVERIFY2(k.exitCode == 0, k.err.constData());

        // The webhook down: Fail refuses every GPU pod, Ignore admits unchecked.
        server.reset();
        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("bob-job-2"), QStringLiteral("bob")));
        QVERIFY(k.exitCode != 0);
        QVERIFY2(k.err.contains("failed calling webhook \"pods.gpuquota.io\""), k.err.constData());
        w.failurePolicy = QStringLiteral("Ignore");
        QCOMPARE(kubectl({QStringLiteral("apply")}, validatingWebhookYaml(w)).exitCode, 0);
        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("alice-job-2"), QStringLiteral("alice")));
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }

    // A ReplicaSet's pod denied: its user sees the owner's FailedCreate, so the denial is
    // recorded as a Warning GPUBudgetExceeded Event on the ReplicaSet, once a minute.
    void ownedPodDenialIsAnEventOnTheOwner() {
        TestClusterProcess cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
        auto client = adminClient(cluster);
        QVERIFY(client);
        auto material = tc::generateTlsMaterial();
        QVERIFY(material);
        ManualClock clock(kNoon);
        DenialEvents events(*client, clock);
        QSignalSpy recorded(&events, &DenialEvents::recorded);
        AdmissionWebhook::Options opt;
        opt.clock = &clock;
        opt.onOwnedDenial = [&events](const PodOwner &o, const QString &m) { events.report(o, m); };
        AdmissionWebhook hook(m_url, UsageStore::Options{}, opt);
        httpd::HttpServer server;
        hook.registerRoutes(server);
        auto port = server.start({QStringLiteral("127.0.0.1"), 0},
                                 httpd::TlsConfig{material->serverCertPem, material->serverKeyPem});
        QVERIFY(port);
        auto kubectl = [&](const QStringList &args, const QByteArray &in = {}) {
            const QString file =
                writeFile(cluster.temporaryDir() + QStringLiteral("/in-%1.yaml").arg(qHash(in)), in);
            QStringList all{QStringLiteral("--kubeconfig"), cluster.kubeconfigPath()};
            all += args;
            if (!in.isEmpty())
                all += QStringList{QStringLiteral("-f"), file};
            return runTool(QStringLiteral("kubectl"), all);
        };
        // As the ReplicaSet controller creates them (generateName, ownerReferences).
        auto pod = [](const QString &name) {
            return QStringLiteral(
                       "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: shared\n"
                       "  labels: {gpuquota.io/user: alice}\n  ownerReferences:\n  - apiVersion: apps/v1\n"
                       "    kind: ReplicaSet\n    name: train-7d9f\n    uid: 0b5c4a1e-rs\n    controller: "
                       "true\n"
                       "spec:\n  containers:\n  - name: main\n    image: cuda\n"
                       "    resources:\n      limits: {nvidia.com/gpu: \"4\"}\n")
                .arg(name)
                .toUtf8();
        };
        QCOMPARE(kubectl({QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("shared")})
                     .exitCode,
                 0);
        WebhookYaml w;
        w.url = QStringLiteral("https://127.0.0.1:%1/validate/pods").arg(*port);
        w.caPem = material->caCertPem;
        w.failurePolicy = QStringLiteral("Fail");
        ToolRun k = kubectl({QStringLiteral("apply")}, validatingWebhookYaml(w));
        QVERIFY2(k.exitCode == 0, k.err.constData());
        auto warnings = [&] {
            return kubectl({QStringLiteral("get"), QStringLiteral("events"), QStringLiteral("-n"),
                            QStringLiteral("shared"), QStringLiteral("--field-selector"),
                            QStringLiteral("reason=GPUBudgetExceeded"), QStringLiteral("-o"),
                            QStringLiteral(
                                "jsonpath={range .items[*]}{.type} {.involvedObject.kind}/"
                                "{.involvedObject.name} {.involvedObject.uid}: {.message}{\"\\n\"}{end}")})
                .out;
        };

        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("train-7d9f-a")));
        QVERIFY(k.exitCode != 0);
        QVERIFY(recorded.wait(10000));
        QCOMPARE(warnings(),
                 QByteArray("Warning ReplicaSet/train-7d9f 0b5c4a1e-rs: Denied: need 4.00 GPU-h, only "
                            "0.50 left (limit 8.00 per day) for user alice\n"));
        // The ReplicaSet tries again at once: no second Event within the minute.
        clock.advance(30);
        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("train-7d9f-b")));
        QVERIFY(k.exitCode != 0);
        QTest::qWait(500);
        QCOMPARE(recorded.size(), 1);
        QCOMPARE(warnings().count('\n'), 1);
        // A minute on, the denial still holds: one more.
        clock.advance(31);
        k = kubectl({QStringLiteral("create")}, pod(QStringLiteral("train-7d9f-c")));
        QVERIFY(k.exitCode != 0);
        QVERIFY(recorded.wait(10000));
        QCOMPARE(warnings().count('\n'), 2);
        server.stop();
    }
};

QTEST_GUILESS_MAIN(TestAdmissionWebhook)
#include "tst_admissionwebhook.moc"
