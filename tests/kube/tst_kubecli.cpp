// `gpuquota get|apply|whoami` against the real test cluster, checked against what the
// real kubectl says about the same objects.
#include "tests/kube/kubetestutil.h"
#include "tests/testclusterprocess.h"

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
    // What `kubectl get KIND NAME -n NS -o jsonpath=TEMPLATE` prints.
    QByteArray jsonPath(const QString &kind, const QString &ns, const QString &name, const QString &templ) {
        return kubectl({QStringLiteral("get"), kind, name, QStringLiteral("-n"), ns, QStringLiteral("-o"),
                        QStringLiteral("jsonpath=") + templ})
            .out;
    }
    QByteArray gpus(const QString &ns, const QString &name) {
        return jsonPath(QStringLiteral("resourcequota"), ns, name,
                        QStringLiteral("{.spec.hard.requests\\.nvidia\\.com/gpu}"));
    }
    static QString annotationOf(const QJsonObject &o) {
        return o.value(QLatin1String("metadata"))
            .toObject()
            .value(QLatin1String("annotations"))
            .toObject()
            .value(QLatin1String("kubectl.kubernetes.io/last-applied-configuration"))
            .toString();
    }
    QString annotation(const QString &ns, const QString &name) {
        const auto k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), name,
                                QStringLiteral("-n"), ns, QStringLiteral("-o"), QStringLiteral("json")});
        return annotationOf(QJsonDocument::fromJson(k.out).object());
    }

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
        QCOMPARE(gpus(QStringLiteral("team-speech"), QStringLiteral("cli-quota")), QByteArray("6"));

        // Read it back (with its resourceVersion), let someone else change it, apply ours.
        r = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("cli-quota"),
                QStringLiteral("-n"), QStringLiteral("team-speech"), QStringLiteral("-o"),
                QStringLiteral("yaml")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("resourceVersion:"));
        const QString mine = file(QStringLiteral("mine.yaml"),
                                  QByteArray(r.out).replace("\"6\"", "\"1\"").replace(": 6\n", ": \"1\"\n"));
        auto k = kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"),
                          QStringLiteral("cli-quota"), QStringLiteral("-n"), QStringLiteral("team-speech"),
                          QStringLiteral("--type=merge"), QStringLiteral("-p"),
                          QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"8\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), mine});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("the object has been modified"), r.err.constData());
        QVERIFY(r.err.contains("nothing was overwritten"));
        QCOMPARE(gpus(QStringLiteral("team-speech"), QStringLiteral("cli-quota")),
                 QByteArray("8")); // theirs survived
    }

    // Every change apply makes is an audit entry (issue #14): who the cluster says we
    // are, before -> after, the note; an unchanged apply adds none; a database that
    // cannot be opened stops the apply before anything is sent.
    void applyRecordsEachChangeInTheAuditLog() {
        const QString db = QStringLiteral("sqlite://") + QDir(m_dir).filePath(QStringLiteral("audit.db"));
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: audited\n"
            "  namespace: team-speech\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n";
        const QString f = file(QStringLiteral("audited.yaml"), quota);
        const QStringList withDb{QStringLiteral("--db"), db, QStringLiteral("--note"),
                                 QStringLiteral("ticket 42: speech team pilot")};
        auto r = gq(QStringList{QStringLiteral("apply"), QStringLiteral("-f"), f} + withDb);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = gq(QStringList{QStringLiteral("apply"), QStringLiteral("-f"), f} + withDb);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/audited unchanged\n"));
        const QString f6 = file(QStringLiteral("audited6.yaml"), QByteArray(quota).replace("\"4\"", "\"6\""));
        r = gq(QStringList{QStringLiteral("apply"), QStringLiteral("-f"), f6} + withDb);
        QVERIFY2(r.exitCode == 0, r.err.constData());

        const auto who = gq({QStringLiteral("whoami"), QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(who.exitCode, 0);
        const QString user = QJsonDocument::fromJson(who.out)
                                 .object()
                                 .value(QLatin1String("status"))
                                 .toObject()
                                 .value(QLatin1String("userInfo"))
                                 .toObject()
                                 .value(QLatin1String("username"))
                                 .toString();
        QVERIFY(!user.isEmpty());
        r = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), db,
                QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray entries =
            QJsonDocument::fromJson(r.out).object().value(QLatin1String("entries")).toArray();
        QCOMPARE(entries.size(), 2); // created, configured; not the unchanged one
        QJsonObject created, configured;
        for (const QJsonValue &v : entries)
            (v.toObject().value(QLatin1String("before")).toString().isEmpty() ? created : configured) =
                v.toObject();
        for (const QJsonObject &e : {created, configured}) {
            QCOMPARE(e.value(QLatin1String("action")).toString(), QStringLiteral("quota.apply"));
            QCOMPARE(e.value(QLatin1String("target")).toString(),
                     QStringLiteral("team-speech/ResourceQuota/audited"));
            QCOMPARE(e.value(QLatin1String("actor")).toString(), user);
            QCOMPARE(e.value(QLatin1String("note")).toString(),
                     QStringLiteral("ticket 42: speech team pilot"));
        }
        QVERIFY(created.value(QLatin1String("after"))
                    .toString()
                    .contains(QLatin1String("requests.nvidia.com/gpu")));
        QVERIFY2(configured.value(QLatin1String("before")).toString().contains(QLatin1String("\"4\"")) ||
                     configured.value(QLatin1String("before")).toString().contains(QLatin1String(": 4")),
                 qPrintable(configured.value(QLatin1String("before")).toString()));
        QVERIFY(configured.value(QLatin1String("after")).toString().contains(QLatin1Char('6')));
        r = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), db});
        QVERIFY2(r.exitCode == 0, r.out.constData());

        // An audit log that cannot be opened: nothing is applied.
        const QByteArray other = QByteArray(quota).replace("name: audited", "name: not-audited");
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("notaudited.yaml"), other),
                QStringLiteral("--db"), QStringLiteral("sqlite:///nonexistent-dir/sub/audit.db")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("nothing was applied"), r.err.constData());
        const auto k =
            kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("not-audited"),
                     QStringLiteral("-n"), QStringLiteral("team-speech")});
        QVERIFY(k.exitCode != 0);
        QVERIFY(k.err.contains("NotFound") || k.err.contains("not found"));
    }

    // The scenario: a file without a resourceVersion applied with 24 GPUs,
    // someone lowers it to 20 with kubectl, the file is edited to 28 and applied again.
    void applyRefusesAFieldChangedOnBothSidesUnlessForced() {
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: tw-gpus\n  namespace: team-vision\n"
            "spec:\n  hard:\n    requests.nvidia.com/gpu: \"24\"\n    pods: \"40\"\n";
        auto r =
            gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("tw24.yaml"), quota)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/tw-gpus created\n"));
        auto k = kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("tw-gpus"),
                          QStringLiteral("-n"), QStringLiteral("team-vision"), QStringLiteral("--type=merge"),
                          QStringLiteral("-p"),
                          QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"20\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());

        const QString edited =
            file(QStringLiteral("tw28.yaml"), QByteArray(quota).replace("\"24\"", "\"28\""));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err,
                 QByteArray("error: resourcequota/tw-gpus: spec.hard[requests.nvidia.com/gpu]: changed on "
                            "the server since your last apply (base 24, server 20, yours 28); re-run "
                            "with --force to overwrite, or edit the file\n"));
        QCOMPARE(gpus(QStringLiteral("team-vision"), QStringLiteral("tw-gpus")), QByteArray("20"));

        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited, QStringLiteral("--force")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/tw-gpus configured\n"));
        QVERIFY2(r.err.contains("spec.hard[requests.nvidia.com/gpu]: the server's 20"), r.err.constData());
        QCOMPARE(gpus(QStringLiteral("team-vision"), QStringLiteral("tw-gpus")), QByteArray("28"));
        // Forced, the file is the new base: applying it again changes nothing.
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QCOMPARE(r.out, QByteArray("resourcequota/tw-gpus unchanged\n"));
    }

    // What only the server changed survives a re-apply (kubectl's three-way merge); what
    // the file stopped setting is removed; what only the file changed is written.
    void applyKeepsWhatOnlyTheServerChanged() {
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: tw-merge\n  namespace: team-vision\n"
            "spec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n    pods: \"10\"\n    requests.cpu: \"8\"\n";
        auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("twm.yaml"), quota)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto k = kubectl(
            {QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("tw-merge"),
             QStringLiteral("-n"), QStringLiteral("team-vision"), QStringLiteral("--type=merge"),
             QStringLiteral("-p"),
             QStringLiteral(
                 "{\"metadata\":{\"labels\":{\"owner\":\"ops\"}},\"spec\":{\"hard\":{\"pods\":\"12\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QByteArray edited = QByteArray(quota).replace("gpu: \"4\"", "gpu: \"6\"");
        edited.replace("    requests.cpu: \"8\"\n", "");
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), file(QStringLiteral("twm2.yaml"), edited)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/tw-merge configured\n"));
        k = kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("tw-merge"),
                     QStringLiteral("-n"), QStringLiteral("team-vision"), QStringLiteral("-o"),
                     QStringLiteral("json")});
        QCOMPARE(k.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(k.out).object();
        const QJsonObject hard =
            o.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
        QCOMPARE(hard, (QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("6")},
                                    {QStringLiteral("pods"), QStringLiteral("12")}}));
        QCOMPARE(o.value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(QLatin1String("owner"))
                     .toString(),
                 QStringLiteral("ops"));
    }

    // Either tool applies after the other: the annotation is the one kubectl writes, and
    // each reads the other's as its base.
    void applyInteroperatesWithKubectlApply() {
        const QByteArray quota =
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: tw-ours\n  namespace: team-nlp\n"
            "  labels:\n    team: nlp\nspec:\n  hard:\n    requests.nvidia.com/gpu: 2\n    pods: \"5\"\n";
        const QString ours = file(QStringLiteral("ours.yaml"), quota);
        auto r = gq({QStringLiteral("apply"), QStringLiteral("-f"), ours});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // What kubectl would record for the same file, byte for byte.
        auto k = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), ours,
                          QStringLiteral("--dry-run=server"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QCOMPARE(annotation(QStringLiteral("team-nlp"), QStringLiteral("tw-ours")),
                 annotationOf(QJsonDocument::fromJson(k.out).object()));
        QVERIFY(!annotation(QStringLiteral("team-nlp"), QStringLiteral("tw-ours")).isEmpty());
        // kubectl takes ours as its base: the edit it applies is written, the field the
        // file dropped is removed, a label only the server has stays.
        kubectl({QStringLiteral("label"), QStringLiteral("resourcequota"), QStringLiteral("tw-ours"),
                 QStringLiteral("-n"), QStringLiteral("team-nlp"), QStringLiteral("extra=yes")});
        const QString byKubectl =
            file(QStringLiteral("ours-k.yaml"),
                 QByteArray(quota).replace("gpu: 2", "gpu: \"3\"").replace("    pods: \"5\"\n", ""));
        k = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), byKubectl});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        QCOMPARE(jsonPath(QStringLiteral("resourcequota"), QStringLiteral("team-nlp"),
                          QStringLiteral("tw-ours"), QStringLiteral("{.spec.hard} {.metadata.labels.extra}")),
                 QByteArray("{\"requests.nvidia.com/gpu\":\"3\"} yes"));
        // ... and we take kubectl's as ours: the same file is unchanged, a field changed
        // on both sides since kubectl's apply is refused.
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), byKubectl});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("resourcequota/tw-ours unchanged\n"));
        k = kubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("tw-ours"),
                     QStringLiteral("-n"), QStringLiteral("team-nlp"), QStringLiteral("--type=merge"),
                     QStringLiteral("-p"),
                     QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"1\"}}}")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq(
            {QStringLiteral("apply"), QStringLiteral("-f"),
             file(QStringLiteral("ours-5.yaml"), readFile(byKubectl).replace("gpu: \"3\"", "gpu: \"5\""))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains("spec.hard[requests.nvidia.com/gpu]: changed on the server since your last apply "
                           "(base 3, server 1, yours 5)"),
            r.err.constData());

        // The other way round: an object kubectl applied first.
        const QByteArray theirs =
            "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: tw-theirs\n  namespace: team-nlp\n"
            "spec:\n  limits:\n  - type: Container\n    max:\n      nvidia.com/gpu: \"2\"\n"
            "    default:\n      cpu: \"1\"\n";
        const QString kfile = file(QStringLiteral("theirs.yaml"), theirs);
        k = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), kfile});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), kfile});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("limitrange/tw-theirs unchanged\n"));
        const QString edited =
            file(QStringLiteral("theirs-4.yaml"),
                 QByteArray(theirs).replace("nvidia.com/gpu: \"2\"", "nvidia.com/gpu: \"4\""));
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out, QByteArray("limitrange/tw-theirs configured\n"));
        // The server defaults a limit range's default from its max; like kubectl, which
        // replaces the list, ours lets it default anew rather than keep the old one.
        QCOMPARE(jsonPath(QStringLiteral("limitrange"), QStringLiteral("team-nlp"),
                          QStringLiteral("tw-theirs"),
                          QStringLiteral("{.spec.limits[0].max} {.spec.limits[0].default}")),
                 QByteArray("{\"nvidia.com/gpu\":\"4\"} {\"cpu\":\"1\",\"nvidia.com/gpu\":\"4\"}"));
        k = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), edited});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        // A limit changed on both sides is named down to its item and resource.
        k = kubectl({QStringLiteral("patch"), QStringLiteral("limitrange"), QStringLiteral("tw-theirs"),
                     QStringLiteral("-n"), QStringLiteral("team-nlp"), QStringLiteral("--type=json"),
                     QStringLiteral("-p"),
                     QStringLiteral("[{\"op\":\"replace\",\"path\":\"/spec/limits/0/max/nvidia.com~1gpu\","
                                    "\"value\":\"6\"}]")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        r = gq({QStringLiteral("apply"), QStringLiteral("-f"),
                file(QStringLiteral("theirs-8.yaml"),
                     QByteArray(theirs).replace("nvidia.com/gpu: \"2\"", "nvidia.com/gpu: \"8\""))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("spec.limits[0].max[nvidia.com/gpu]: changed on the server since your last "
                                "apply (base 4, server 6, yours 8)"),
                 r.err.constData());
    }

    // insecure-skip-tls-verify is said on every verb that talks to the cluster, once.
    void insecureSkipTlsVerifyWarnsOnEveryVerb() {
        QString config = text(readFile(m_cluster->kubeconfigPath()));
        config.replace(QRegularExpression(QStringLiteral("certificate-authority-data: [^\\n]*")),
                       QStringLiteral("insecure-skip-tls-verify: true"));
        QVERIFY(config.contains(QLatin1String("insecure-skip-tls-verify: true")));
        const QString insecure = file(QStringLiteral("insecure.kubeconfig"), config.toUtf8());
        const QString f = file(QStringLiteral("insecure.yaml"),
                               "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: insecure\n"
                               "  namespace: research\nspec:\n  hard:\n    pods: \"3\"\n");
        const QList<QStringList> verbs = {
            {QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
             QStringLiteral("research")},
            {QStringLiteral("apply"), QStringLiteral("-f"), f, QStringLiteral("--dry-run=server")},
            {QStringLiteral("apply"), QStringLiteral("-f"), f},
            {QStringLiteral("whoami")}};
        for (const QStringList &verb : verbs) {
            const auto r = runTool(binary(QStringLiteral("gpuquota")),
                                   QStringList{QStringLiteral("--kubeconfig"), insecure} + verb);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(r.err.count("warning: TLS certificate verification is disabled for this cluster "
                                 "(insecure-skip-tls-verify)\n"),
                     1);
        }
        // A verified connection says nothing of the kind.
        const auto verified = gq({QStringLiteral("get"), QStringLiteral("quotas"), QStringLiteral("-n"),
                                  QStringLiteral("research")});
        QVERIFY(!verified.err.contains("insecure-skip-tls-verify"));
    }

    // #14: an unresponsive API server made `get` wait 151 s (5 tries x 30 s).
    void requestTimeoutBoundsAHangingServer() {
        QVERIFY(m_cluster->setFaults({{QStringLiteral("latencyMs"), 4000},
                                      {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/namespaces")}}));
        const auto cleanup = qScopeGuard([this] { m_cluster->clearFaults(); });
        for (const QString &timeout : {QStringLiteral("--request-timeout=1s"), QStringLiteral("1")}) {
            QStringList args{QStringLiteral("get"), QStringLiteral("namespaces")};
            if (timeout.startsWith(QLatin1Char('-')))
                args << timeout;
            else // before the verb, as kubectl's global flag
                args = QStringList{QStringLiteral("--request-timeout"), timeout} + args;
            const auto r = gq(args);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.elapsedMs < 3000, qPrintable(QString::number(r.elapsedMs)));
            QVERIFY2(r.err.contains("GET /api/v1/namespaces on https://127.0.0.1:"), r.err.constData());
            QVERIFY2(r.err.contains("timed out"), r.err.constData());
            QVERIFY2(r.err.contains("--request-timeout"), r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
        // Enough time, or none at all: the slow answer arrives.
        for (const QString &timeout : {QStringLiteral("10s"), QStringLiteral("0")}) {
            const auto r = gq({QStringLiteral("get"), QStringLiteral("namespaces"),
                               QStringLiteral("--request-timeout=") + timeout});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(r.out.contains("team-vision"));
        }
    }

    void badRequestTimeoutIsAUsageError() {
        for (const QString &bad :
             {QStringLiteral("soon"), QStringLiteral("-1"), QStringLiteral("5x"), QStringLiteral("")}) {
            const auto r = gq({QStringLiteral("get"), QStringLiteral("namespaces"),
                               QStringLiteral("--request-timeout=") + bad});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--request-timeout"), r.err.constData());
            QVERIFY(r.out.isEmpty());
        }
    }

    // #14: an http:// server URL sent the bearer token in clear text with no warning.
    void credentialsAreNotSentOverPlainHttp() {
        QString config = text(readFile(m_cluster->kubeconfigPath()));
        const QRegularExpression server(QStringLiteral("server: https://127\\.0\\.0\\.1:(\\d+)"));
        const QRegularExpressionMatch m = server.match(config);
        QVERIFY(m.hasMatch());
        const QString remote =
            file(QStringLiteral("http-remote.kubeconfig"),
                 QString(config).replace(server, QStringLiteral("server: http://192.0.2.7:8080")).toUtf8());
        auto r = runTool(
            binary(QStringLiteral("gpuquota")),
            {QStringLiteral("--kubeconfig"), remote, QStringLiteral("get"), QStringLiteral("namespaces")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.elapsedMs < 3000, qPrintable(QString::number(r.elapsedMs))); // nothing was even tried
        QVERIFY2(r.err.contains("refusing to send a bearer token of kubeconfig user \"gq-admin\""),
                 r.err.constData());
        QVERIFY2(r.err.contains("http://192.0.2.7:8080"), r.err.constData());
        QVERIFY(!r.err.contains(m_cluster->adminToken().toUtf8()));

        // Loopback (a port-forward): sent, with a warning. Nothing listens on plain
        // http there, so the request itself fails afterwards.
        const QString local =
            file(QStringLiteral("http-local.kubeconfig"),
                 QString(config).replace(server, QStringLiteral("server: http://127.0.0.1:\\1")).toUtf8());
        r = runTool(binary(QStringLiteral("gpuquota")),
                    {QStringLiteral("--kubeconfig"), local, QStringLiteral("whoami"),
                     QStringLiteral("--request-timeout=5s")});
        QVERIFY(r.exitCode != 0);
        const QByteArray warning = "warning: a bearer token of kubeconfig user \"gq-admin\" is sent "
                                   "unencrypted to http://127.0.0.1:" +
                                   m.captured(1).toUtf8();
        QVERIFY2(r.err.contains(warning), r.err.constData());
        QVERIFY2(!r.err.contains("refusing"), r.err.constData());
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
