// The deployment manifests in packaging/kubernetes/ against gpuquota-testcluster with every
// kubectl on the machine: `kubectl apply --dry-run=server -f packaging/kubernetes/` must
// accept every object (any rejection, or any unknown-field warning, fails), an unknown
// kind must be refused as a real cluster refuses it, and the controller's ClusterRole must
// grant exactly the verbs the controller uses.

#include "testclusterprocess.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

#ifndef GQ_PACKAGING_DIR
#error "GQ_PACKAGING_DIR must name packaging/kubernetes"
#endif

using gq::test::TestClusterProcess;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
    [[nodiscard]] QString all() const { return out + err; }
};

QMap<QString, QString> findKubectls() {
    QStringList dirs = qEnvironmentVariable("PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString main = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    if (!main.isEmpty())
        dirs.append(QFileInfo(QFileInfo(main).canonicalFilePath()).absolutePath());
    QMap<QString, QString> found;
    for (int minor = 27; minor <= 33; ++minor) {
        const QString name = QStringLiteral("kubectl.1.%1").arg(minor);
        for (const QString &d : dirs) {
            if (QFileInfo(QDir(d).filePath(name)).isExecutable()) {
                found.insert(QStringLiteral("1.%1").arg(minor), QDir(d).filePath(name));
                break;
            }
        }
    }
    if (found.isEmpty() && !main.isEmpty())
        found.insert(QStringLiteral("default"), main);
    return found;
}

// The objects in the manifests: "kind/name" per YAML document.
QStringList documentsIn(const QString &dir) {
    QStringList out;
    for (const QFileInfo &f : QDir(dir).entryInfoList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        QFile file(f.filePath());
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString text = QString::fromUtf8(file.readAll());
        for (const QString &doc : text.split(
                 QRegularExpression(QStringLiteral("^---\\s*$"), QRegularExpression::MultilineOption))) {
            const auto kind =
                QRegularExpression(QStringLiteral("^kind: (\\S+)$"), QRegularExpression::MultilineOption)
                    .match(doc);
            const auto name = QRegularExpression(QStringLiteral("^metadata:\\n(?:  .*\\n)*?  name: (\\S+)$"),
                                                 QRegularExpression::MultilineOption)
                                  .match(doc);
            if (kind.hasMatch() && name.hasMatch())
                out.append(kind.captured(1).toLower() + QLatin1Char('/') + name.captured(1));
        }
    }
    return out;
}

} // namespace

class TestManifests : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster;
    QMap<QString, QString> m_kubectls;
    QTemporaryDir m_home;
    const QString m_dir = QStringLiteral(GQ_PACKAGING_DIR);

    Run kubectl(const QString &binary, const QStringList &args, const QByteArray &stdinData = {}) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), m_cluster.kubeconfigPath());
        env.insert(QStringLiteral("HOME"), m_home.path());
        p.setProcessEnvironment(env);
        p.start(binary,
                QStringList{QStringLiteral("--cache-dir"),
                            m_home.filePath(QStringLiteral("cache-") + QFileInfo(binary).fileName())} +
                    args);
        if (!stdinData.isEmpty())
            p.write(stdinData);
        p.closeWriteChannel();
        Run r;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("kubectl timed out");
            return r;
        }
        r.exitCode = p.exitCode();
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        QVERIFY2(QFileInfo(m_dir).isDir(), qPrintable(m_dir));
        m_kubectls = findKubectls();
        if (m_kubectls.isEmpty()) {
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL("kubectl is required in CI but none was found on PATH");
            QSKIP("no kubectl on this machine");
        }
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        // As on a real cluster: the namespace exists before a dry run of what goes in it.
        const Run r =
            kubectl(m_kubectls.first(), {QStringLiteral("apply"), QStringLiteral("-f"),
                                         QDir(m_dir).filePath(QStringLiteral("00-namespace.yaml"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

    void serverSideDryRun_data() {
        QTest::addColumn<QString>("binary");
        for (auto it = m_kubectls.cbegin(); it != m_kubectls.cend(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.value();
    }

    void serverSideDryRun() {
        QFETCH(QString, binary);
        const QStringList expected = documentsIn(m_dir);
        QVERIFY2(expected.size() >= 12, qPrintable(expected.join(QLatin1Char(' '))));
        for (const char *kind :
             {"namespace/", "serviceaccount/", "clusterrole/", "clusterrolebinding/", "configmap/",
              "deployment/", "service/", "validatingwebhookconfiguration/", "cronjob/"})
            QVERIFY2(expected.join(QLatin1Char(' ')).contains(QLatin1String(kind)), kind);
        const Run r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("--dry-run=server"),
                                       QStringLiteral("-f"), m_dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        // No object rejected, none with fields the server does not know.
        QVERIFY2(!r.err.contains(QStringLiteral("Error")) && !r.err.contains(QStringLiteral("unknown field")),
                 qPrintable(r.err));
        const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), expected.size());
        for (const QString &line : lines)
            QVERIFY2(line.endsWith(QLatin1String(" (server dry run)")), qPrintable(line));
        // Nothing was stored by the dry run.
        const Run get =
            kubectl(binary, {QStringLiteral("get"), QStringLiteral("deployments,cronjobs,configmaps"),
                             QStringLiteral("-n"), QStringLiteral("gpuquota-system")});
        QVERIFY2(get.exitCode == 0 && !get.out.contains(QStringLiteral("gpuquota")), qPrintable(get.all()));
    }

    void unknownKindsAreRefused() {
        const QString binary = m_kubectls.last();
        Run r =
            kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    "apiVersion: example.com/v1\nkind: GpuBudget\nmetadata: {name: x, namespace: default}\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QStringLiteral("no matches for kind \"GpuBudget\" in version \"example.com/v1\"")),
            qPrintable(r.err));
        r = kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: x, namespace: default}\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("no matches for kind \"StatefulSet\" in version \"apps/v1\"")),
                 qPrintable(r.err));
        // The same through the API directly: the path does not exist.
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("--raw"),
                             QStringLiteral("/apis/apps/v1/statefulsets")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("the server could not find the requested resource")),
                 qPrintable(r.err));
    }

    void brokenManifestsAreRejected() {
        const QString binary = m_kubectls.last();
        Run r = kubectl(
            binary,
            {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
             QStringLiteral("-")},
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bad, namespace: gpuquota-system}\n"
            "spec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: b}}\n"
            "    spec:\n      containers: [{name: c}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("The Deployment \"bad\" is invalid")), qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.template.metadata.labels: Invalid value: "
                                    "map[string]string{\"app\":\"b\"}: `selector` does not match template "
                                    "`labels`")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("spec.template.spec.containers[0].image: Required value")),
                 qPrintable(r.err));
        r = kubectl(
            binary,
            {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
             QStringLiteral("-")},
            "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: bad, namespace: gpuquota-system}\n"
            "spec:\n  schedule: \"every minute\"\n  jobTemplate:\n    spec:\n      template:\n"
            "        spec:\n          restartPolicy: Always\n          containers: [{name: c, image: x}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("spec.schedule: Invalid value: \"every minute\": expected "
                                               "exactly 5 fields, found 2: every minute")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: "
                                    "\"Always\": supported values: \"OnFailure\", \"Never\"")),
                 qPrintable(r.err));
        r = kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: bad}\n"
                    "rules: [{apiGroups: [\"\"], resources: [pods]}]\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("rules[0].verbs: Required value: verbs must contain at least one value")),
                 qPrintable(r.err));
    }

    void clusterRoleGrantsExactlyWhatTheControllerUses() {
        const QString binary = m_kubectls.last();
        Run r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"),
                                 QDir(m_dir).filePath(QStringLiteral("10-rbac.yaml"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("get"), QStringLiteral("clusterrole"),
                     QStringLiteral("gpuquota-controller"), QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        // "group resource verb" for every grant.
        std::set<QString> granted;
        const QJsonArray rules =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("rules")).toArray();
        for (const QJsonValue &rule : rules) {
            const QJsonObject o = rule.toObject();
            QVERIFY2(!o.contains(QLatin1String("resourceNames")) &&
                         !o.contains(QLatin1String("nonResourceURLs")),
                     "unexpected rule shape");
            for (const QJsonValue &g : o.value(QLatin1String("apiGroups")).toArray())
                for (const QJsonValue &res : o.value(QLatin1String("resources")).toArray())
                    for (const QJsonValue &v : o.value(QLatin1String("verbs")).toArray()) {
                        QVERIFY2(g.toString() != QLatin1String("*") && res.toString() != QLatin1String("*") &&
                                     v.toString() != QLatin1String("*"),
                                 "no wildcards in a least-privilege role");
                        granted.insert(g.toString() + QLatin1Char(' ') + res.toString() + QLatin1Char(' ') +
                                       v.toString());
                    }
        }
        std::set<QString> expected;
        auto allow = [&expected](const char *group, const char *resource,
                                 std::initializer_list<const char *> verbs) {
            for (const char *v : verbs)
                expected.insert(QLatin1String(group) + QLatin1Char(' ') + QLatin1String(resource) +
                                QLatin1Char(' ') + QLatin1String(v));
        };
        allow("", "pods", {"get", "list", "watch"});
        allow("", "nodes", {"get", "list", "watch"});
        allow("", "resourcequotas", {"get", "list", "watch", "update", "patch", "create", "delete"});
        allow("coordination.k8s.io", "leases", {"get", "create", "update"});
        allow("", "events", {"create"});
        allow("authentication.k8s.io", "tokenreviews", {"create"});
        allow("authorization.k8s.io", "subjectaccessreviews", {"create"});
        QCOMPARE(granted, expected);
        // Bound to the controller's service account, which the Deployment runs as.
        r = kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QDir(m_dir).filePath(QStringLiteral("30-deployment.yaml")), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.replicas} {.spec.template.spec.serviceAccountName} "
                                    "{.spec.template.spec.containers[0].livenessProbe.httpGet.path} "
                                    "{.spec.template.spec.containers[0].readinessProbe.httpGet.path}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out, QStringLiteral("2 gpuquota-controller /healthz /readyz"));
    }
};

QTEST_GUILESS_MAIN(TestManifests)
#include "tst_manifests.moc"
