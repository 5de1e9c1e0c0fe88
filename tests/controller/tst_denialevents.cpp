// DenialEvents' pure half: which owner a denied pod names, the Event made for it and the
// once-a-minute rule. Against the test cluster and the webhook: tst_admissionwebhook.
#include "services/controller/denialevents.h"

#include <QJsonDocument>
#include <QtTest>

using namespace gq;

class TestDenialEvents : public QObject {
    Q_OBJECT

private slots:
    void ownerOfAPod_data() {
        QTest::addColumn<QByteArray>("meta");
        QTest::addColumn<QString>("owner"); // "Kind/name uid", empty: none
        QTest::newRow("none") << QByteArray(R"({"name":"p"})") << QString();
        QTest::newRow("replicaset")
            << QByteArray(R"({"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet",)"
                          R"("name":"web-5d8f","uid":"u1","controller":true}]})")
            << QStringLiteral("ReplicaSet/web-5d8f u1");
        QTest::newRow("the controller wins")
            << QByteArray(
                   R"({"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"c","uid":"u0"},)"
                   R"({"apiVersion":"batch/v1","kind":"Job","name":"train","uid":"u2","controller":true}]})")
            << QStringLiteral("Job/train u2");
        QTest::newRow("else the first")
            << QByteArray(
                   R"({"ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","uid":"u3"}]})")
            << QStringLiteral("StatefulSet/db u3");
        QTest::newRow("no name") << QByteArray(R"({"ownerReferences":[{"kind":"Job"}]})") << QString();
    }
    void ownerOfAPod() {
        QFETCH(QByteArray, meta);
        QFETCH(QString, owner);
        const QJsonObject pod{{QStringLiteral("metadata"), QJsonDocument::fromJson(meta).object()}};
        const auto o = PodOwner::of(pod, QStringLiteral("team-a"));
        QCOMPARE(o ? QStringLiteral("%1/%2 %3").arg(o->kind, o->name, o->uid) : QString(), owner);
        if (o)
            QCOMPARE(o->ns, QStringLiteral("team-a"));
    }

    void eventOnTheOwner() {
        PodOwner o{QStringLiteral("apps/v1"), QStringLiteral("ReplicaSet"), QStringLiteral("web-5d8f"),
                   QStringLiteral("u1"), QStringLiteral("team-a")};
        const QJsonObject e =
            DenialEvents::eventFor(o, QStringLiteral("Denied: need 4.00 GPU-h"), 1796126400);
        QCOMPARE(e.value(QLatin1String("type")).toString(), QStringLiteral("Warning"));
        QCOMPARE(e.value(QLatin1String("reason")).toString(), QStringLiteral("GPUBudgetExceeded"));
        QCOMPARE(e.value(QLatin1String("message")).toString(), QStringLiteral("Denied: need 4.00 GPU-h"));
        const QJsonObject involved = e.value(QLatin1String("involvedObject")).toObject();
        QCOMPARE(involved.value(QLatin1String("kind")).toString(), QStringLiteral("ReplicaSet"));
        QCOMPARE(involved.value(QLatin1String("name")).toString(), QStringLiteral("web-5d8f"));
        QCOMPARE(involved.value(QLatin1String("namespace")).toString(), QStringLiteral("team-a"));
        QCOMPARE(involved.value(QLatin1String("uid")).toString(), QStringLiteral("u1"));
        const QJsonObject meta = e.value(QLatin1String("metadata")).toObject();
        QCOMPARE(meta.value(QLatin1String("namespace")).toString(), QStringLiteral("team-a"));
        QVERIFY(meta.value(QLatin1String("name")).toString().startsWith(QLatin1String("web-5d8f.")));
        QCOMPARE(e.value(QLatin1String("lastTimestamp")).toString(), QStringLiteral("2026-12-01T12:00:00Z"));
    }

    void onceAMinutePerOwner_data() {
        QTest::addColumn<qint64>("last");
        QTest::addColumn<qint64>("now");
        QTest::addColumn<bool>("due");
        QTest::newRow("first") << qint64(0) << qint64(1000) << true;
        QTest::newRow("30 s later") << qint64(1000) << qint64(1030) << false;
        QTest::newRow("59 s later") << qint64(1000) << qint64(1059) << false;
        QTest::newRow("a minute later") << qint64(1000) << qint64(1060) << true;
    }
    void onceAMinutePerOwner() {
        QFETCH(qint64, last);
        QFETCH(qint64, now);
        QFETCH(bool, due);
        QCOMPARE(DenialEvents::due(last, now), due);
    }
};

QTEST_GUILESS_MAIN(TestDenialEvents)
#include "tst_denialevents.moc"
