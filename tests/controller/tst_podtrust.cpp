// The trust model of the admission webhook (services/controller/podtrust.h): who may
// label a GPU pod or a workload's GPU template for whom, the floor of the expected
// hours, and the `trust:` configuration with its errors.
#include "services/controller/admissionwebhook.h"
#include "services/controller/podtrust.h"
#include "core/domain/yamldoc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

QJsonObject podWith(const QString &hours, int deadlineSeconds) {
    QJsonObject meta;
    if (!hours.isEmpty())
        meta.insert(QStringLiteral("annotations"),
                    QJsonObject{{QStringLiteral("gpuquota.io/expected-hours"), hours}});
    QJsonObject spec;
    if (deadlineSeconds > 0)
        spec.insert(QStringLiteral("activeDeadlineSeconds"), deadlineSeconds);
    return QJsonObject{{QStringLiteral("metadata"), meta}, {QStringLiteral("spec"), spec}};
}

// An AdmissionReview of a workload (Deployment or CronJob) whose template asks for
// `gpus` and carries the user label `label`, created or updated by `username`.
QByteArray workloadReview(const QString &kind, const QString &label, int gpus, const QString &username,
                          const QString &operation = QStringLiteral("CREATE"), const QString &oldLabel = {}) {
    const auto object = [&](const QString &l) {
        QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")}};
        if (gpus > 0)
            container.insert(
                QStringLiteral("resources"),
                QJsonObject{{QStringLiteral("limits"),
                             QJsonObject{{QStringLiteral("nvidia.com/gpu"), QString::number(gpus)}}}});
        QJsonObject meta;
        if (!l.isEmpty())
            meta.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("gpuquota.io/user"), l}});
        const QJsonObject tmpl{
            {QStringLiteral("metadata"), meta},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}};
        QJsonObject spec{{QStringLiteral("template"), tmpl}};
        if (kind == QLatin1String("CronJob"))
            spec = QJsonObject{{QStringLiteral("jobTemplate"), QJsonObject{{QStringLiteral("spec"), spec}}}};
        return QJsonObject{{QStringLiteral("kind"), kind}, {QStringLiteral("spec"), spec}};
    };
    QJsonObject request{{QStringLiteral("uid"), QStringLiteral("w-1")},
                        {QStringLiteral("operation"), operation},
                        {QStringLiteral("object"), object(label)},
                        {QStringLiteral("userInfo"), QJsonObject{{QStringLiteral("username"), username}}}};
    if (operation == QLatin1String("UPDATE"))
        request.insert(QStringLiteral("oldObject"), object(oldLabel));
    return QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                                     {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                                     {QStringLiteral("request"), request}})
        .toJson();
}

QJsonObject responseOf(const httpd::Response &r) {
    return QJsonDocument::fromJson(r.body).object().value(QLatin1String("response")).toObject();
}

} // namespace

class TestPodTrust : public QObject {
    Q_OBJECT

private slots:
    void expectedHoursFloor_data() {
        QTest::addColumn<QString>("annotation");
        QTest::addColumn<int>("deadline");
        QTest::addColumn<double>("hours");
        QTest::newRow("a nanosecond") << "1e-9" << 0 << 1.0;
        QTest::newRow("a quarter, bounded") << "0.25" << 900 << 0.25;
        QTest::newRow("a quarter, deadline 2 h") << "0.25" << 7200 << 1.0;
        QTest::newRow("three hours") << "3" << 0 << 3.0;
        QTest::newRow("nothing said") << "" << 0 << 1.0;
        QTest::newRow("deadline only") << "" << 1800 << 0.5;
    }
    void expectedHoursFloor() {
        QFETCH(QString, annotation);
        QFETCH(int, deadline);
        QFETCH(double, hours);
        const Result<double> got = expectedHours(podWith(annotation, deadline), 1.0, TrustRules{});
        QVERIFY(got);
        QCOMPARE(*got, hours);
        TrustRules off;
        off.mode = TrustRules::Mode::Off;
        QCOMPARE(*expectedHours(podWith(QStringLiteral("1e-9"), 0), 1.0, off), 1e-9);
        const Result<double> bad = expectedHours(podWith(QStringLiteral("-1"), 0), 1.0, TrustRules{});
        QVERIFY(!bad);
        QCOMPARE(bad.error().field, QStringLiteral("gpuquota.io/expected-hours"));
    }

    void labels_data() {
        QTest::addColumn<QString>("username");
        QTest::addColumn<QStringList>("groups");
        QTest::addColumn<QString>("label");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("herself") << "alice@example.com" << QStringList() << "alice" << true;
        QTest::newRow("another user") << "alice@example.com" << QStringList() << "dave" << false;
        QTest::newRow("no label") << "alice@example.com" << QStringList() << "" << false;
        QTest::newRow("oidc prefix") << "oidc:bob" << QStringList() << "bob" << true;
        QTest::newRow("admin group") << "kubernetes-admin" << QStringList{QStringLiteral("system:masters")}
                                     << "dave" << true;
        QTest::newRow("job controller")
            << "system:serviceaccount:kube-system:job-controller" << QStringList() << "dave" << true;
        QTest::newRow("controller-manager")
            << "system:kube-controller-manager" << QStringList() << "dave" << true;
        QTest::newRow("notebook SA, no label")
            << "system:serviceaccount:team-a:notebook" << QStringList() << "" << true;
        QTest::newRow("notebook SA, a user")
            << "system:serviceaccount:team-a:notebook" << QStringList() << "alice" << false;
        QTest::newRow("listed spawner")
            << "system:serviceaccount:jhub:hub" << QStringList() << "alice" << true;
        QTest::newRow("a node") << "system:node:gpu-1" << QStringList() << "" << true;
        QTest::newRow("unmappable") << "Dr Who" << QStringList() << "alice" << false;
    }
    void labels() {
        QFETCH(QString, username);
        QFETCH(QStringList, groups);
        QFETCH(QString, label);
        QFETCH(bool, allowed);
        TrustRules trust;
        trust.labelSetters << QStringLiteral("system:serviceaccount:jhub:*");
        IdentityRules identity;
        identity.stripPrefixes = {QStringLiteral("oidc:")};
        const LabelVerdict v = checkUserLabel(Creator{username, groups}, label,
                                              QStringLiteral("gpuquota.io/user"), trust, identity);
        QCOMPARE(v.allowed, allowed);
        QCOMPARE(v.warning.isEmpty(), allowed);
        trust.mode = TrustRules::Mode::Warn;
        const LabelVerdict warned = checkUserLabel(Creator{username, groups}, label,
                                                   QStringLiteral("gpuquota.io/user"), trust, identity);
        QVERIFY(warned.allowed);
        QCOMPARE(warned.warning.isEmpty(), allowed);
    }

    // Workload templates are checked when written: a Deployment (or a CronJob's job
    // template) whose GPU template names another user is refused; scaling or any
    // update that keeps the label is not checked again; CPU templates never.
    void workloads() {
        AdmissionWebhook::Options o;
        const auto allowed = [&](const QByteArray &review) {
            return responseOf(AdmissionWebhook::reviewWorkload(review, o))
                .value(QLatin1String("allowed"))
                .toBool();
        };
        const QString alice = QStringLiteral("alice@example.com");
        QVERIFY(allowed(workloadReview(QStringLiteral("Deployment"), QStringLiteral("alice"), 2, alice)));
        QVERIFY(!allowed(workloadReview(QStringLiteral("Deployment"), QStringLiteral("dave"), 2, alice)));
        QVERIFY(!allowed(workloadReview(QStringLiteral("CronJob"), QStringLiteral("dave"), 1, alice)));
        QVERIFY(!allowed(workloadReview(QStringLiteral("Job"), QString(), 1, alice)));
        QVERIFY(allowed(workloadReview(QStringLiteral("Deployment"), QStringLiteral("dave"), 0, alice)));
        QVERIFY(allowed(workloadReview(QStringLiteral("Deployment"), QStringLiteral("dave"), 2, alice,
                                       QStringLiteral("UPDATE"), QStringLiteral("dave"))));
        QVERIFY(!allowed(workloadReview(QStringLiteral("Deployment"), QStringLiteral("dave"), 2, alice,
                                        QStringLiteral("UPDATE"), QStringLiteral("alice"))));
        const httpd::Response bad = AdmissionWebhook::reviewWorkload("{}", o);
        QCOMPARE(bad.status, 400);
    }

    // Relabelling a running GPU pod moves its GPU-hours: checked like a new label.
    void podRelabel() {
        AdmissionWebhook::Options o;
        const auto pod = [](const QString &label, int gpus) {
            QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")}};
            if (gpus > 0)
                container.insert(
                    QStringLiteral("resources"),
                    QJsonObject{{QStringLiteral("limits"),
                                 QJsonObject{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}}}});
            return QJsonObject{
                {QStringLiteral("metadata"),
                 QJsonObject{
                     {QStringLiteral("labels"), QJsonObject{{QStringLiteral("gpuquota.io/user"), label}}}}},
                {QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}};
        };
        const auto update = [&](const QString &from, const QString &to, int gpus, const QString &who) {
            const QJsonObject request{
                {QStringLiteral("uid"), QStringLiteral("u")},
                {QStringLiteral("operation"), QStringLiteral("UPDATE")},
                {QStringLiteral("kind"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("Pod")}}},
                {QStringLiteral("object"), pod(to, gpus)},
                {QStringLiteral("oldObject"), pod(from, gpus)},
                {QStringLiteral("userInfo"), QJsonObject{{QStringLiteral("username"), who}}}};
            return responseOf(AdmissionWebhook::reviewPodUpdate(request, o))
                .value(QLatin1String("allowed"))
                .toBool();
        };
        const QString alice = QStringLiteral("alice@example.com");
        QVERIFY(!update(QStringLiteral("alice"), QStringLiteral("dave"), 1, alice));
        QVERIFY(update(QStringLiteral("alice"), QStringLiteral("alice"), 1, alice)); // other labels changed
        QVERIFY(update(QStringLiteral("dave"), QStringLiteral("alice"), 1, alice));  // taking it on herself
        QVERIFY(update(QStringLiteral("alice"), QStringLiteral("dave"), 0, alice));  // no GPUs
    }

    void config() {
        auto node = parseYamlNode(
            "mode: warn\nlabelSetters: ['system:serviceaccount:ci:*']\nminExpectedHours: 0.5\n");
        QVERIFY(node);
        QList<Error> errors;
        const TrustRules t = parseTrustRules(*node, &errors);
        QVERIFY(errors.isEmpty());
        QCOMPARE(t.mode, TrustRules::Mode::Warn);
        QCOMPARE(t.labelSetters, QStringList{QStringLiteral("system:serviceaccount:ci:*")});
        QCOMPARE(t.minExpectedHours, 0.5);
        auto wrong = parseYamlNode("mode: strict\nminExpectedHours: -2\nlabelSeters: []\n");
        QVERIFY(wrong);
        const TrustRules d = parseTrustRules(*wrong, &errors);
        QCOMPARE(errors.size(), 3);
        QCOMPARE(errors.at(0).field, QStringLiteral("trust.mode"));
        QCOMPARE(errors.at(0).line, 1);
        QCOMPARE(errors.at(1).field, QStringLiteral("trust.minExpectedHours"));
        QCOMPARE(errors.at(1).line, 2);
        QCOMPARE(errors.at(2).field, QStringLiteral("trust.labelSeters"));
        QCOMPARE(d.mode, TrustRules::Mode::Enforce);
    }
};

QTEST_GUILESS_MAIN(TestPodTrust)
#include "tst_podtrust.moc"
