// `gpuquota boost grant --clusterqueue CQ --flavor F --resource R --add N --for D --note …`
// (app/cli/cmd_boost.cpp) against the real gpuquota-testcluster's demo Kueue objects
// (kueue.x-k8s.io/v1beta2, testcluster/kueuedemo.cpp) and a SQLite usage database: the
// queue raised at once, `boost list` naming the target, the reconcile at the end taking
// back only the boost's delta (an edit made meanwhile stays), the audit trail, and the
// flags a queue boost refuses.
#include "tests/clirun.h"
#include "tests/testclusterprocess.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using gq::test::CliRun;
using gq::test::gpuquotaBinary;
using gq::test::runCli;
using gq::test::TestClusterProcess;

namespace {
QJsonObject findByName(const QJsonArray &a, const QString &name, const char *key = "name") {
    for (const QJsonValue &v : a)
        if (v.toObject().value(QLatin1String(key)).toString() == name)
            return v.toObject();
    return {};
}

QString iso(qint64 secs) {
    return QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(Qt::ISODate);
}
} // namespace

class TestCliQueueBoost : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    QString m_db;
    int m_dbs = 0;

    CliRun gq(const QStringList &args) {
        return runCli(gpuquotaBinary(),
                      QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    // `field` of `flavor` in ClusterQueue `cq` as `gpuquota queues -o json` shows it.
    int queueNumber(const QString &cq, const QString &flavor, const char *field = "nominal") {
        const CliRun r = gq({QStringLiteral("queues"), QStringLiteral("-o"), QStringLiteral("json")});
        const QJsonArray queues =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("clusterqueues")).toArray();
        return findByName(findByName(queues, cq).value(QLatin1String("flavors")).toArray(), flavor, "flavor")
            .value(QLatin1String(field))
            .toInt(-1);
    }
    CliRun grant(const QStringList &flags, qint64 now) {
        return gq(QStringList{QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                              QStringLiteral("--now"), iso(now)} +
                  flags);
    }
    static QStringList queueFlags(const QString &cq, const QString &flavor, const QString &add) {
        return {QStringLiteral("--clusterqueue"), cq,
                QStringLiteral("--flavor"),       flavor,
                QStringLiteral("--resource"),     QStringLiteral("nvidia.com/gpu"),
                QStringLiteral("--add"),          add,
                QStringLiteral("--for"),          QStringLiteral("1h"),
                QStringLiteral("--note"),         QStringLiteral("paper deadline on Friday")};
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_cluster = TestClusterProcess::ofScenario(QStringLiteral("demo"));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    }
    void init() {
        m_db = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage-%1.db").arg(++m_dbs));
    }

    void grantRaisesTheQueueAndExpiryTakesBackOnlyTheDelta() {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 4);
        const CliRun g = grant(
            queueFlags(QStringLiteral("cq-research"), QStringLiteral("a100"), QStringLiteral("+2")), now);
        QVERIFY2(g.code == 0, qPrintable(g.err));
        QVERIFY2(g.err.contains(
                     QLatin1String("clusterqueue/cq-research a100 nominalQuota nvidia.com/gpu: 4 -> 6")),
                 qPrintable(g.err));
        const QString id = g.out.trimmed();
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 6);

        const CliRun list =
            gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db});
        QCOMPARE(list.code, 0);
        QVERIFY2(list.out.contains(QLatin1String("clusterqueue/cq-research a100 nominalQuota")),
                 qPrintable(list.out));
        QVERIFY2(list.out.contains(QLatin1String("active")), qPrintable(list.out));
        const CliRun json = gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                                QStringLiteral("-o"), QStringLiteral("json")});
        const QJsonObject b = QJsonDocument::fromJson(json.out.toUtf8())
                                  .object()
                                  .value(QLatin1String("boosts"))
                                  .toArray()
                                  .at(0)
                                  .toObject();
        QCOMPARE(b.value(QLatin1String("clusterQueue")).toString(), QStringLiteral("cq-research"));
        QCOMPARE(b.value(QLatin1String("flavor")).toString(), QStringLiteral("a100"));
        QCOMPARE(b.value(QLatin1String("field")).toString(), QStringLiteral("nominalQuota"));
        QCOMPARE(b.value(QLatin1String("base")).toString(), QStringLiteral("4"));

        // A second boost on the same flavor stacks (6 -> 7) and is revoked early.
        const CliRun g2 = grant(
            queueFlags(QStringLiteral("cq-research"), QStringLiteral("a100"), QStringLiteral("1")), now);
        QVERIFY2(g2.code == 0, qPrintable(g2.err));
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 7);
        const CliRun revoke = gq({QStringLiteral("boost"), QStringLiteral("revoke"), g2.out.trimmed(),
                                  QStringLiteral("--db"), m_db, QStringLiteral("--now"), iso(now + 60),
                                  QStringLiteral("--note"), QStringLiteral("the extra one was a mistake")});
        QVERIFY2(revoke.code == 0, qPrintable(revoke.err));
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 6);

        // The expiry at the end of the hour takes back 2 -> 4.
        const CliRun rec = gq({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                               QStringLiteral("--now"), iso(now + 3601)});
        QVERIFY2(rec.code == 0, qPrintable(rec.err + rec.out));
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 4);

        const CliRun audit = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"),
                                 m_db, QStringLiteral("-o"), QStringLiteral("json")});
        QStringList actions;
        for (const QJsonValue &v :
             QJsonDocument::fromJson(audit.out.toUtf8()).object().value(QLatin1String("entries")).toArray()) {
            const QJsonObject e = v.toObject();
            if (e.value(QLatin1String("target")).toString() ==
                QLatin1String("ClusterQueue/cq-research/a100/nominalQuota/nvidia.com/gpu"))
                actions << e.value(QLatin1String("action")).toString();
        }
        QCOMPARE(actions, (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                                       QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                                       QStringLiteral("boost.revoke"), QStringLiteral("boost.revert"),
                                       QStringLiteral("boost.expire")}));
        Q_UNUSED(id);
    }

    // cq-nlp h100's borrowing limit: 8 +4 -> 12 for an hour; a second boost of -2 for two
    // hours meanwhile (a concurrent change) -> 10. The first one's end takes back its 4 only
    // (-> 6, the second one's change kept), the second one's end its -2 (-> 8).
    void borrowingLimitKeepsAConcurrentBoost() {
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        QStringList flags = queueFlags(QStringLiteral("cq-nlp"), QStringLiteral("h100"), QStringLiteral("4"));
        flags << QStringLiteral("--field") << QStringLiteral("borrowingLimit");
        const CliRun g = grant(flags, now);
        QVERIFY2(g.code == 0, qPrintable(g.err));
        QCOMPARE(queueNumber(QStringLiteral("cq-nlp"), QStringLiteral("h100"), "borrowing_limit"), 12);
        QStringList later =
            queueFlags(QStringLiteral("cq-nlp"), QStringLiteral("h100"), QStringLiteral("-2"));
        later.replace(later.indexOf(QStringLiteral("1h")), QStringLiteral("2h"));
        later << QStringLiteral("--field") << QStringLiteral("borrowingLimit");
        QCOMPARE(grant(later, now + 60).code, 0);
        QCOMPARE(queueNumber(QStringLiteral("cq-nlp"), QStringLiteral("h100"), "borrowing_limit"), 10);
        const CliRun rec = gq({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                               QStringLiteral("--now"), iso(now + 3601)});
        QVERIFY2(rec.code == 0, qPrintable(rec.err + rec.out));
        QCOMPARE(queueNumber(QStringLiteral("cq-nlp"), QStringLiteral("h100"), "borrowing_limit"), 6);
        QCOMPARE(queueNumber(QStringLiteral("cq-nlp"), QStringLiteral("h100")), 16);
        QCOMPARE(gq({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db, QStringLiteral("--now"),
                     iso(now + 7300)})
                     .code,
                 0);
        QCOMPARE(queueNumber(QStringLiteral("cq-nlp"), QStringLiteral("h100"), "borrowing_limit"), 8);
    }

    void refusedFlags_data() {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("message");
        const QStringList ok =
            queueFlags(QStringLiteral("cq-research"), QStringLiteral("a100"), QStringLiteral("2"));
        QTest::newRow("no flavor")
            << QStringList{QStringLiteral("--clusterqueue"), QStringLiteral("cq-research"),
                           QStringLiteral("--add"),          QStringLiteral("2"),
                           QStringLiteral("--for"),          QStringLiteral("1h"),
                           QStringLiteral("--note"),         QStringLiteral("paper deadline on Friday")}
            << "--flavor";
        QTest::newRow("with namespace")
            << ok + QStringList{QStringLiteral("--namespace"), QStringLiteral("research")}
            << "--namespace does not go with --clusterqueue";
        QTest::newRow("unknown flavor")
            << queueFlags(QStringLiteral("cq-research"), QStringLiteral("h100"), QStringLiteral("2"))
            << "h100";
        QTest::newRow("lending limit")
            << ok + QStringList{QStringLiteral("--field"), QStringLiteral("lendingLimit")}
            << "nominalQuota or borrowingLimit";
        QTest::newRow("unset borrowing limit")
            << ok + QStringList{QStringLiteral("--field"), QStringLiteral("borrowingLimit")} << "not set";
        QTest::newRow("unknown queue")
            << queueFlags(QStringLiteral("cq-none"), QStringLiteral("a100"), QStringLiteral("2"))
            << "cq-none";
    }
    void refusedFlags() {
        QFETCH(QStringList, flags);
        QFETCH(QString, message);
        const CliRun r = grant(flags, QDateTime::currentSecsSinceEpoch());
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QCOMPARE(queueNumber(QStringLiteral("cq-research"), QStringLiteral("a100")), 4);
    }

    void cleanupTestCase() {
        if (m_cluster)
            m_cluster->stop();
    }
};

QTEST_GUILESS_MAIN(TestCliQueueBoost)
#include "tst_cli_queueboost.moc"
