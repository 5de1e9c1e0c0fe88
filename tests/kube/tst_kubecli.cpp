// `gpuquota get|apply|whoami` against the real test cluster, checked against what the
// real kubectl says about the same objects.
#include "kubetestutil.h"
#include "testclusterprocess.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QtTest>

using namespace gq::test;

class TestKubeCli : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    QString m_dir;

    static QString binary(const QString &name) {
        QString dir = qEnvironmentVariable("GQ_BIN_DIR");
        if (dir.isEmpty())
            dir = QStringLiteral(GQ_BINARY_DIR "/bin");
        return QDir(dir).filePath(name);
    }
    ToolRun gq(const QStringList &args) {
        return runTool(binary(QStringLiteral("gpuquota")),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    QString file(const QString &name, const QByteArray &text) {
        return writeFile(QDir(m_dir).filePath(name), text);
    }
    static QString text(const QByteArray &b) { return QString::fromUtf8(b); }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY2(QFileInfo(binary(QStringLiteral("gpuquota"))).isExecutable(), "build the gpuquota target");
        TestClusterProcess::Options opts;
        opts.scenario = QStringLiteral("demo");
        m_cluster = std::make_unique<TestClusterProcess>(opts);
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_dir = m_cluster->temporaryDir();
    }

    void cleanupTestCase() {
        if (m_cluster)
            QVERIFY(m_cluster->stop());
    }

    void getNamespacesTable() {
        const auto r = gq({QStringLiteral("get"), QStringLiteral("namespaces")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QStringList lines = text(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.first().startsWith(QLatin1String("NAME")));
        QVERIFY(lines.first().contains(QLatin1String("STATUS")));
        const auto k =
            kubectl({QStringLiteral("get"), QStringLiteral("namespaces"), QStringLiteral("--no-headers"),
                     QStringLiteral("-o"), QStringLiteral("custom-columns=N:.metadata.name")});
        QCOMPARE(k.exitCode, 0);
        QCOMPARE(lines.size() - 1, text(k.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size());
        QVERIFY(
            text(r.out).contains(QRegularExpression(QStringLiteral("\\nteam-nlp\\s+Active\\s+\\d+d\\n"))));
    }

    void getQuotasAllNamespacesJsonMatchesKubectl() {
        const auto r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-A"),
                           QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject ours = QJsonDocument::fromJson(r.out).object();
        const auto k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("-A"),
                                QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(k.exitCode, 0);
        const QJsonObject theirs = QJsonDocument::fromJson(k.out).object();
        QCOMPARE(ours.value(QLatin1String("kind")).toString(), QStringLiteral("List"));
        QCOMPARE(ours.value(QLatin1String("apiVersion")), theirs.value(QLatin1String("apiVersion")));
        QCOMPARE(ours.value(QLatin1String("kind")), theirs.value(QLatin1String("kind")));
        const QJsonArray a = ours.value(QLatin1String("items")).toArray();
        const QJsonArray b = theirs.value(QLatin1String("items")).toArray();
        QVERIFY(!a.isEmpty());
        QCOMPARE(a.size(), b.size());
        // Same objects, same order, field for field.
        for (qsizetype i = 0; i < a.size(); ++i)
            QCOMPARE(a.at(i).toObject(), b.at(i).toObject());
    }

    void getQuotaTableMatchesKubectlColumns() {
        const auto r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
                           QStringLiteral("team-nlp")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("-n"),
                                QStringLiteral("team-nlp")});
        QCOMPARE(k.exitCode, 0);
        // Column by column (whitespace may differ): NAME AGE REQUEST LIMIT.
        auto cells = [](const QByteArray &out) {
            QStringList rows = QString::fromUtf8(out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QStringList normalized;
            for (const QString &row : rows)
                normalized << row.split(QRegularExpression(QStringLiteral("\\s{2,}")), Qt::SkipEmptyParts)
                                  .join(QLatin1Char('|'));
            return normalized;
        };
        QCOMPARE(cells(r.out), cells(k.out));
    }

    void getLimitRangesYamlAndNoResources() {
        const auto r = gq({QStringLiteral("get"), QStringLiteral("limitranges"), QStringLiteral("-A"),
                           QStringLiteral("-o"), QStringLiteral("yaml")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith("apiVersion: v1\n"));
        QVERIFY(r.out.contains("kind: LimitRange"));
        QVERIFY(r.out.contains("kind: List"));

        const auto empty = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
                               QStringLiteral("kube-system")});
        QCOMPARE(empty.exitCode, 0);
        QVERIFY(empty.out.isEmpty());
        QCOMPARE(empty.err, QByteArray("No resources found in kube-system namespace.\n"));

        const auto bad = gq({QStringLiteral("get"), QStringLiteral("pods")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("unknown resource type"));
    }

    void whoamiNamesTheUser() {
        const auto admin = gq({QStringLiteral("whoami")});
        QVERIFY2(admin.exitCode == 0, admin.err.constData());
        QVERIFY(admin.out.contains("Username"));
        QVERIFY(admin.out.contains("gq-admin"));
        QVERIFY(admin.out.contains("system:masters"));
        const auto viewer =
            gq({QStringLiteral("--context"), QStringLiteral("readonly"), QStringLiteral("whoami")});
        QVERIFY2(viewer.exitCode == 0, viewer.err.constData());
        QVERIFY(viewer.out.contains("gq-viewer"));
        const auto k = kubectl({QStringLiteral("--context"), QStringLiteral("readonly"),
                                QStringLiteral("auth"), QStringLiteral("whoami")});
        if (k.exitCode == 0) // same table as kubectl auth whoami
            QCOMPARE(text(viewer.out).simplified(), text(k.out).simplified());
        const auto missing =
            gq({QStringLiteral("--context"), QStringLiteral("nope"), QStringLiteral("whoami")});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("context \"nope\" not found"));
    }

    void applyCreatesConfiguresAndNeverForcesConflicts() {
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: cli-quota\n"
            "  namespace: team-speech\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n";
        const QString f = file(QStringLiteral("quota.yaml"), quota);
        auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota created\n"));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota unchanged\n"));
        const QString f2 = file(QStringLiteral("quota2.yaml"), QByteArray(quota).replace("\"4\"", "\"6\""));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f2});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray("resourcequota/cli-quota configured\n"));
        auto k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("cli-quota"),
                          QStringLiteral("-n"), QStringLiteral("team-speech"), QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
        QCOMPARE(k.out, QByteArray("6"));

        // Read it back (with its resourceVersion), let someone else change it, apply ours.
        r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("cli-quota"),
                QStringLiteral("-n"), QStringLiteral("team-speech"), QStringLiteral("-o"),
                QStringLiteral("yaml")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("resourceVersion:"));
        const QString mine = file(QStringLiteral("mine.yaml"),
                                  QByteArray(r.out).replace("\"6\"", "\"1\"").replace(": 6\n", ": \"1\"\n"));
        k = kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("cli-quota"),
                     QStringLiteral("-n"), QStringLiteral("team-speech"), QStringLiteral("--type=merge"),
                     QStringLiteral("-p"),
                     QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"8\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), mine});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the object has been modified"), r.err.constData());
        QVERIFY(r.err.contains("nothing was overwritten"));
        k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("cli-quota"),
                     QStringLiteral("-n"), QStringLiteral("team-speech"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
        QCOMPARE(k.out, QByteArray("8")); // theirs survived
    }

    void applyDryRunStoresNothing() {
        const QString f =
            file(QStringLiteral("dry.yaml"),
                 "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: dry-lr\n  namespace: research\n"
                 "spec:\n  limits:\n  - type: Container\n    default:\n      cpu: \"1\"\n");
        const auto r =
            gq({QStringLiteral("apply"), QStringLiteral("-f"), f, QStringLiteral("--dry-run=server")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("limitrange/dry-lr created (server dry run)\n"));
        const auto k = kubectl({QStringLiteral("get"), QStringLiteral("limitrange"), QStringLiteral("dry-lr"),
                                QStringLiteral("-n"), QStringLiteral("research")});
        QVERIFY(k.exitCode != 0);
        QVERIFY(k.err.contains("NotFound") || k.err.contains("not found"));
    }

    void applyRejectsInvalidFilesBeforeSending() {
        const QString f =
            file(QStringLiteral("bad.yaml"),
                 "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: bad\n  namespace: research\n"
                 "spec:\n  hard:\n    requests.cpu: 2 cores\n");
        const auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), f});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("bad.yaml:8:"), r.err.constData());
        QVERIFY(r.err.contains("nothing was applied"));
        const auto k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("bad"),
                                QStringLiteral("-n"), QStringLiteral("research")});
        QVERIFY(k.exitCode != 0);
    }

    void applyAsReadonlyIsForbidden() {
        const QString f =
            file(QStringLiteral("ro.yaml"),
                 "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: ro\n  namespace: research\n"
                 "spec:\n  hard:\n    pods: \"3\"\n");
        const auto r = gq({QStringLiteral("--context"), QStringLiteral("readonly"), QStringLiteral("apply"),
                           QStringLiteral("-f"), f});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("forbidden"), r.err.constData());
        QVERIFY(r.err.contains("gq-viewer"));
    }
};

QTEST_GUILESS_MAIN(TestKubeCli)
#include "tst_kubecli.moc"
