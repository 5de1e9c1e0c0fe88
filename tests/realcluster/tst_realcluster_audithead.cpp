// A rolled-back audit log on the real API server: an old, genuinely signed checkpoint
// restored and the entries after it deleted pass `gpuquota audit verify` with that
// checkpoint alone; the head the controller's leader republishes in the ConfigMap
// gpuquota-audit-head (and the quotas' gpuquota.io/audit-head annotations) make
// `audit verify --head cluster` find it: "truncated", exit 1.
#include "tests/controller/controllertestutil.h"
#include "tests/realcluster/realcluster.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QtTest>

#include <csignal>

using namespace gq;
using namespace gq::test;

class TestRealClusterAuditHead : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    QTemporaryDir m_dir;

    QString db() const { return QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("usage.db")); }
    ToolRun gq(const QStringList &args) { return runTool(binDir() + QStringLiteral("/gpuquota"), args); }
    ToolRun budget(const QString &user, const QString &limit) {
        return gq({QStringLiteral("budget"), QStringLiteral("set"), QStringLiteral("--db"), db(),
                   QStringLiteral("--user"), user, QStringLiteral("--limit"), limit,
                   QStringLiteral("--period"), QStringLiteral("day")});
    }
    ToolRun verify(const QStringList &extra) {
        return gq(
            QStringList{QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), db()} +
            extra);
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY(m_dir.isValid());
        writeFile(m_dir.filePath(QStringLiteral("audit.key")), "0123456789abcdef0123456789abcdef\n");
        qputenv("GQ_AUDIT_KEY_FILE", m_dir.filePath(QStringLiteral("audit.key")).toUtf8());
        qputenv("GQ_AUDIT_CHECKPOINT", m_dir.filePath(QStringLiteral("checkpoint.json")).toUtf8());
        GQ_START_REAL_CLUSTER(m_cluster);
        QVERIFY(m_cluster.createNamespace(QStringLiteral("gpuquota-system")));
    }

    void rollbackFoundThroughThePublishedHead() {
        for (const char *user : {"alice", "bob"})
            QCOMPARE(budget(QLatin1String(user), QStringLiteral("8")).exitCode, 0);
        const QString old = m_dir.filePath(QStringLiteral("checkpoint-2.json"));
        QVERIFY(QFile::copy(m_dir.filePath(QStringLiteral("checkpoint.json")), old)); // signed, count 2
        for (const char *user : {"carol", "dave"})
            QCOMPARE(budget(QLatin1String(user), QStringLiteral("4")).exitCode, 0);

        // The controller (leading alone) republishes the head: 4 entries.
        const int listen = freePort();
        ControllerProcess controller;
        QVERIFY(controller.start(writeFile(
            m_dir.filePath(QStringLiteral("controller.yaml")),
            QStringLiteral("cluster: {kubeconfig: %1, context: admin}\nclusterName: real\ndatabase: %2\n"
                           "listen: 127.0.0.1:%3\ntimeZone: UTC\nspool: %4\n")
                .arg(m_cluster.kubeconfigPath(), db())
                .arg(listen)
                .arg(m_dir.filePath(QStringLiteral("spool")))
                .toUtf8())));
        QString head;
        QVERIFY(QTest::qWaitFor(
            [&] {
                head = QString::fromUtf8(
                    m_cluster
                        .kubectl({QStringLiteral("get"), QStringLiteral("configmap"),
                                  QStringLiteral("gpuquota-audit-head"), QStringLiteral("-n"),
                                  QStringLiteral("gpuquota-system"), QStringLiteral("-o"),
                                  QStringLiteral("jsonpath={.data.head}")})
                        .out.trimmed());
                return head.startsWith(QLatin1String("4:"));
            },
            30000));
        controller.signal(SIGTERM);
        QVERIFY(controller.waitForExit(15000));

        // Someone with the database: entries 3-4 deleted (past the append-only trigger),
        // the old checkpoint put back.
        {
            QSqlDatabase sql =
                QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("attacker"));
            sql.setDatabaseName(m_dir.filePath(QStringLiteral("usage.db")));
            QVERIFY(sql.open());
            QSqlQuery q(sql);
            QVERIFY(q.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete")));
            QVERIFY(q.exec(QStringLiteral("DELETE FROM audit_log WHERE seq > 2")));
            q.finish();
            sql.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("attacker"));
        QVERIFY(QFile::remove(m_dir.filePath(QStringLiteral("checkpoint.json"))));
        QVERIFY(QFile::copy(old, m_dir.filePath(QStringLiteral("checkpoint.json"))));

        const ToolRun fooled = verify({});
        QVERIFY2(fooled.exitCode == 0, fooled.out.constData()); // the checkpoint alone cannot tell
        const ToolRun found =
            verify({QStringLiteral("--head"), QStringLiteral("cluster"), QStringLiteral("--kubeconfig"),
                    m_cluster.kubeconfigPath(), QStringLiteral("--context"), QStringLiteral("admin")});
        QCOMPARE(found.exitCode, 1);
        QVERIFY2(found.out.contains("truncated: entries 3-4 were deleted"), found.out.constData());
        QVERIFY2(found.out.contains("ConfigMap gpuquota-system/gpuquota-audit-head"), found.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestRealClusterAuditHead)
#include "tst_realcluster_audithead.moc"
