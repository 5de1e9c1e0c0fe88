// The real kubectl (every release from 1.27 to 1.33 found on the machine) against
// gpuquota-testcluster: discovery, get, apply, replace, delete, auth can-i,
// quota admission (scoped quotas too), server-side dry run and watch must behave as
// on a real cluster.

#include "tests/testcluster/kubectlrun.h"
#include "tests/testclusterprocess.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using gq::test::TestClusterProcess;

namespace {

using Run = gq::test::KubectlRun;

} // namespace

class TestKubectl : public QObject {
    Q_OBJECT

private:
    TestClusterProcess m_cluster{TestClusterProcess::Options{QStringLiteral("demo"), {}, {}, 60000}};
    QMap<QString, QString> m_kubectls;
    QTemporaryDir m_home;

    Run kubectl(const QString &binary, const QStringList &args, const QByteArray &stdinData = {},
                const QString &context = {}) {
        const QStringList withContext =
            context.isEmpty() ? args : QStringList{QStringLiteral("--context"), context} + args;
        return gq::test::runKubectl(binary, m_cluster.kubeconfigPath(), m_home.path(), withContext,
                                    stdinData);
    }

    static QByteArray quotaYaml(const QString &ns, const QString &name, const QString &gpus,
                                const QString &extra = {}) {
        return QStringLiteral("apiVersion: v1\n"
                              "kind: ResourceQuota\n"
                              "metadata:\n"
                              "  name: %1\n"
                              "  namespace: %2\n"
                              "%4"
                              "spec:\n"
                              "  hard:\n"
                              "    requests.nvidia.com/gpu: \"%3\"\n"
                              "    requests.cpu: \"16\"\n"
                              "    requests.memory: 64Gi\n")
            .arg(name, ns, gpus, extra)
            .toUtf8();
    }

    static QByteArray podYaml(const QString &ns, const QString &name, int gpus) {
        return QStringLiteral("apiVersion: v1\n"
                              "kind: Pod\n"
                              "metadata:\n"
                              "  name: %1\n"
                              "  namespace: %2\n"
                              "  labels: {gpuquota.io/user: tester}\n"
                              "spec:\n"
                              "  containers:\n"
                              "  - name: main\n"
                              "    image: nvcr.io/nvidia/pytorch:24.05-py3\n"
                              "    resources:\n"
                              "      requests: {cpu: \"1\", memory: 2Gi}\n"
                              "      limits: {cpu: \"1\", memory: 2Gi, nvidia.com/gpu: \"%3\"}\n")
            .arg(name, ns)
            .arg(gpus)
            .toUtf8();
    }

    static QByteArray classPodYaml(const QString &ns, const QString &name, const QString &priorityClass,
                                   int gpus) {
        return QStringLiteral("apiVersion: v1\n"
                              "kind: Pod\n"
                              "metadata:\n"
                              "  name: %1\n"
                              "  namespace: %2\n"
                              "spec:\n"
                              "  priorityClassName: %3\n"
                              "  containers:\n"
                              "  - name: main\n"
                              "    image: nvcr.io/nvidia/pytorch:24.05-py3\n"
                              "    resources:\n"
                              "      limits: {cpu: \"1\", memory: 2Gi, nvidia.com/gpu: \"%4\"}\n")
            .arg(name, ns, priorityClass)
            .arg(gpus)
            .toUtf8();
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        m_kubectls = gq::test::findKubectls();
        GQ_REQUIRE_KUBECTL(m_kubectls);
        qInfo() << "kubectl versions:" << m_kubectls.keys();
        QElapsedTimer t;
        t.start();
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        qInfo() << "test cluster ready in" << t.elapsed() << "ms at" << m_cluster.url().toString();
    }

    void cleanupTestCase() { QVERIFY2(m_cluster.stop(), qPrintable(m_cluster.stderrText())); }

    void workflow_data() {
        QTest::addColumn<QString>("binary");
        for (auto it = m_kubectls.cbegin(); it != m_kubectls.cend(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.value();
    }

    void workflow() {
        QFETCH(QString, binary);
        const QString ns =
            QStringLiteral("kc-") +
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char('.'), QLatin1Char('-'));

        // Discovery and reads of the seeded demo data.
        Run r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("namespaces")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("team-vision\\s+Active"))),
                 qPrintable(r.out));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("-A")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QVERIFY2(r.out.contains(QStringLiteral("requests.nvidia.com/gpu: 13/16")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("requests.nvidia.com/mig-3g.40gb: 6/14")), qPrintable(r.out));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("limits"), QStringLiteral("-A"),
                             QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out.count(QStringLiteral("limitrange/container-defaults")), 9); // demo::kTeams
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
                             QStringLiteral("team-vision"), QStringLiteral("-l"),
                             QStringLiteral("gpuquota.io/user=alice"), QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.items[*].metadata.name}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out.trimmed(), QStringLiteral("alice-train-1 alice-train-4"));

        // Namespace and quota lifecycle through apply (client-side apply = GET + PATCH).
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("namespace"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("namespace/%1 created").arg(ns)),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("gpu"), QStringLiteral("2")));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu created")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("gpu"), QStringLiteral("2")));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu unchanged")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("gpu"), QStringLiteral("3")));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu configured")),
                 qPrintable(r.all()));
        r = kubectl(
            binary,
            {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"), QStringLiteral("-n"), ns,
             QStringLiteral("-o"),
             QStringLiteral(
                 "jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu} "
                 "{.status.hard.requests\\.nvidia\\.com/gpu} {.status.used.requests\\.nvidia\\.com/gpu}")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(r.out.trimmed(), QStringLiteral("3 3 0"));

        // Quota admission: 2 GPUs fit, the next 2 do not (3 allowed).
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-1"), 2));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod/train-1 created")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-2"), 2));
        QVERIFY2(r.exitCode != 0, qPrintable(r.all()));
        QVERIFY2(r.err.contains(QStringLiteral("Error from server (Forbidden)")), qPrintable(r.err));
        QVERIFY2(
            r.err.contains(QStringLiteral(
                "pods \"train-2\" is forbidden: exceeded quota: gpu, requested: requests.nvidia.com/gpu=2, "
                "used: requests.nvidia.com/gpu=2, limited: requests.nvidia.com/gpu=3")),
            qPrintable(r.err));
        // Server-side dry run: validated and admitted but not stored.
        r = kubectl(binary,
                    {QStringLiteral("create"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-3"), 1));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod/train-3 created (server dry run)")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("train-3"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral("pods \"train-3\" not found")),
                 qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("create"), QStringLiteral("--dry-run=server"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-4"), 2));
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral("exceeded quota: gpu")),
                 qPrintable(r.all()));
        // A finished pod stops counting: then 2 more GPUs fit.
        QVERIFY(m_cluster.setPodPhase(ns, QStringLiteral("train-1"), QStringLiteral("Succeeded")));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pod"), QStringLiteral("train-1"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.out.contains(QStringLiteral("Completed")), qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                    podYaml(ns, QStringLiteral("train-2"), 2));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));

        // replace: fresh object works, a stale resourceVersion is a 409 Conflict.
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns, QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.metadata.resourceVersion}")});
        const QString rv = r.out.trimmed();
        QVERIFY2(!rv.isEmpty(), qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("replace"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("gpu"), QStringLiteral("4"),
                              QStringLiteral("  resourceVersion: \"%1\"\n").arg(rv)));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu replaced")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("replace"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(ns, QStringLiteral("gpu"), QStringLiteral("5"),
                              QStringLiteral("  resourceVersion: \"%1\"\n").arg(rv)));
        QVERIFY2(r.exitCode != 0, qPrintable(r.all()));
        QVERIFY2(r.err.contains(QStringLiteral("Error from server (Conflict)")) &&
                     r.err.contains(QStringLiteral(
                         "Operation cannot be fulfilled on resourcequotas \"gpu\": the object has been "
                         "modified; please apply your changes to the latest version and try again")),
                 qPrintable(r.err));

        // Authorization: admin may, readonly may not.
        r = kubectl(binary, {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("update"),
                             QStringLiteral("resourcequotas"), QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("yes"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("update"),
                     QStringLiteral("resourcequotas"), QStringLiteral("-n"), ns},
                    {}, QStringLiteral("readonly"));
        QVERIFY2(r.exitCode == 1 && r.out.trimmed() == QLatin1String("no"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("auth"), QStringLiteral("can-i"), QStringLiteral("list"),
                     QStringLiteral("pods"), QStringLiteral("-n"), ns},
                    {}, QStringLiteral("readonly"));
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("yes"), qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("delete"), QStringLiteral("quota"), QStringLiteral("gpu"),
                     QStringLiteral("-n"), ns},
                    {}, QStringLiteral("readonly"));
        QVERIFY2(r.exitCode != 0, qPrintable(r.all()));
        QVERIFY2(
            r.err.contains(
                QStringLiteral(
                    "Error from server (Forbidden): resourcequotas \"gpu\" is forbidden: User \"gq-viewer\" "
                    "cannot delete resource \"resourcequotas\" in API group \"\" in the namespace \"%1\"")
                    .arg(ns)),
            qPrintable(r.err));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("-n"), ns}, {},
                    QStringLiteral("admin-cert"));
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("gpu")), qPrintable(r.all()));

        // Watch: the existing quota, then the change we make.
        {
            gq::test::QuotaWatch watch(binary, m_cluster.kubeconfigPath(), m_home.path(), ns);
            QVERIFY2(watch.waitFor(QStringLiteral("gpu 4")), qPrintable(watch.seen()));
            r = kubectl(binary,
                        {QStringLiteral("patch"), QStringLiteral("quota"), QStringLiteral("gpu"),
                         QStringLiteral("-n"), ns, QStringLiteral("--type=merge"), QStringLiteral("-p"),
                         QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"7\"}}}")});
            QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/gpu patched")),
                     qPrintable(r.all()));
            QVERIFY2(watch.waitFor(QStringLiteral("gpu 7")), qPrintable(watch.seen()));
        }

        // Delete, then the namespace with everything left in it.
        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota \"gpu\" deleted")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("gpu"),
                             QStringLiteral("-n"), ns});
        QVERIFY2(r.exitCode != 0 && r.err.contains(QStringLiteral(
                                        "Error from server (NotFound): resourcequotas \"gpu\" not found")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("namespace"), ns});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("namespace \"%1\" deleted").arg(ns)),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"), ns,
                             QStringLiteral("-o"), QStringLiteral("name")});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty(), qPrintable(r.all()));
    }

    // Commands beyond the core workflow, with the default kubectl on PATH.
    // A quota limited to one priority class (scopeSelector) counts and constrains
    // only that class's pods; scopes are validated (422 naming the field) and
    // spec.scopes cannot change.
    void quotaScopes_data() { workflow_data(); }
    void quotaScopes() {
        QFETCH(QString, binary);
        const QString ns =
            QStringLiteral("scopes-") +
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char('.'), QLatin1Char('-'));
        Run r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("namespace"), ns});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        const QByteArray quota =
            QStringLiteral("apiVersion: v1\n"
                           "kind: ResourceQuota\n"
                           "metadata: {name: high-gpu, namespace: %1}\n"
                           "spec:\n"
                           "  hard: {requests.nvidia.com/gpu: \"2\", pods: \"5\"}\n"
                           "  scopeSelector:\n"
                           "    matchExpressions:\n"
                           "    - {scopeName: PriorityClass, operator: In, values: [high]}\n")
                .arg(ns)
                .toUtf8();
        r = kubectl(binary, {QStringLiteral("apply"), QStringLiteral("-f"), QStringLiteral("-")}, quota);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        const auto create = [&](const QString &name, const QString &cls, int gpus) {
            return kubectl(binary, {QStringLiteral("create"), QStringLiteral("-f"), QStringLiteral("-")},
                           classPodYaml(ns, name, cls, gpus));
        };
        // Another class goes beyond the quota's 2 GPUs: it is not counted.
        r = create(QStringLiteral("low-1"), QStringLiteral("low"), 4);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = create(QStringLiteral("high-1"), QStringLiteral("high"), 1);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("high-gpu"),
                             QStringLiteral("-n"), ns, QStringLiteral("-o"),
                             QStringLiteral(
                                 "jsonpath={.status.used.requests\\.nvidia\\.com/gpu} {.status.used.pods}")});
        QCOMPARE(r.out.trimmed(), QStringLiteral("1 1"));
        r = create(QStringLiteral("high-2"), QStringLiteral("high"), 2);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("Error from server (Forbidden)")), qPrintable(r.err));
        QVERIFY2(r.err.contains(
                     QStringLiteral("pods \"high-2\" is forbidden: "
                                    "exceeded quota: high-gpu, requested: requests.nvidia.com/gpu=2, used: "
                                    "requests.nvidia.com/gpu=1, limited: requests.nvidia.com/gpu=2")),
                 qPrintable(r.all()));
        r = create(QStringLiteral("low-2"), QStringLiteral("low"), 8);
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));

        // A deadline set on a running pod makes it Terminating: it moves into a
        // Terminating-scoped quota. Deadlines may only go down and never away.
        const auto scopedQuota = [&](const char *name, const char *hard, const char *scopes) {
            return kubectl(binary, {QStringLiteral("create"), QStringLiteral("quota"), QLatin1String(name),
                                    QStringLiteral("-n"), ns, QStringLiteral("--hard=") + QLatin1String(hard),
                                    QStringLiteral("--scopes=") + QLatin1String(scopes)});
        };
        r = scopedQuota("jobs", "pods=3,requests.nvidia.com/gpu=16", "Terminating");
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        const auto jobsUsed = [&] {
            return kubectl(binary,
                           {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("jobs"),
                            QStringLiteral("-n"), ns, QStringLiteral("-o"),
                            QStringLiteral(
                                "jsonpath={.status.used.pods} {.status.used.requests\\.nvidia\\.com/gpu}")})
                .out.trimmed();
        };
        QCOMPARE(jobsUsed(), QStringLiteral("0 0"));
        const auto deadline = [&](const QString &patch) {
            return kubectl(binary, {QStringLiteral("patch"), QStringLiteral("pod"), QStringLiteral("low-1"),
                                    QStringLiteral("-n"), ns, QStringLiteral("--type=merge"),
                                    QStringLiteral("-p"), patch});
        };
        r = deadline(QStringLiteral(R"({"spec":{"activeDeadlineSeconds":3600}})"));
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QCOMPARE(jobsUsed(), QStringLiteral("1 4"));
        r = deadline(QStringLiteral(R"({"spec":{"activeDeadlineSeconds":7200}})"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.activeDeadlineSeconds: Invalid value: 7200: must be less than "
                                    "or equal to previous value")),
                 qPrintable(r.all()));
        r = deadline(QStringLiteral(R"({"spec":{"activeDeadlineSeconds":null}})"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("must not update from a positive integer to nil value")),
                 qPrintable(r.all()));
        QCOMPARE(jobsUsed(), QStringLiteral("1 4"));

        // Validation: an unknown scope, and a scope that cannot limit the resource.
        const struct {
            const char *name, *hard, *scopes, *error;
        } refused[] = {
            {"odd", "pods=2", "Sometimes",
             "ResourceQuota \"odd\" is invalid: spec.scopes: Invalid value: [\"Sometimes\"]: unsupported "
             "scope"},
            {"be", "pods=2,requests.cpu=1", "BestEffort",
             "spec.scopes: Invalid value: [\"BestEffort\"]: unsupported scope applied to resource"},
        };
        for (const auto &c : refused) {
            r = scopedQuota(c.name, c.hard, c.scopes);
            QCOMPARE(r.exitCode, 1);
            QVERIFY2(r.err.contains(QLatin1String(c.error)), qPrintable(r.all()));
        }
        // A valid scoped quota round-trips its scopes; they cannot change later.
        r = scopedQuota("be", "pods=2", "BestEffort");
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("be"),
                             QStringLiteral("-n"), ns, QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.spec.scopes} {.status.used.pods}")});
        QCOMPARE(r.out.trimmed(), QStringLiteral("[\"BestEffort\"] 0"));
        r = kubectl(binary, {QStringLiteral("patch"), QStringLiteral("quota"), QStringLiteral("be"),
                             QStringLiteral("-n"), ns, QStringLiteral("--type=merge"), QStringLiteral("-p"),
                             QStringLiteral(R"({"spec":{"scopes":["NotBestEffort"]}})")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("spec.scopes: Invalid value: [\"NotBestEffort\"]: field is immutable")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("delete"), QStringLiteral("namespace"), ns});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    }

    void moreCommands() {
        const QString binary = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
        if (binary.isEmpty())
            QSKIP("no default kubectl");
        Run r =
            kubectl(binary, {QStringLiteral("describe"), QStringLiteral("quota"), QStringLiteral("gpu-quota"),
                             QStringLiteral("-n"), QStringLiteral("team-vision")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QRegularExpression(
                                        QStringLiteral("requests\\.nvidia\\.com/gpu\\s+13\\s+16"))),
                 qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("describe"), QStringLiteral("pod"), QStringLiteral("alice-train-1"),
                     QStringLiteral("-n"), QStringLiteral("team-vision")});
        QVERIFY2(r.exitCode == 0 &&
                     r.out.contains(QStringLiteral("Successfully assigned team-vision/alice-train-1")),
                 qPrintable(r.all()));
        r = kubectl(binary,
                    {QStringLiteral("auth"), QStringLiteral("whoami"), QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.status.userInfo.username}")},
                    {}, QStringLiteral("admin-cert"));
        QVERIFY2(r.exitCode == 0 && r.out.trimmed() == QLatin1String("gq-admin-cert"), qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("explain"), QStringLiteral("resourcequota.spec.hard")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("hard is the set of desired hard limits")),
                 qPrintable(r.all()));

        r = kubectl(binary, {QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("ssa")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        const QByteArray yaml = quotaYaml(QStringLiteral("ssa"), QStringLiteral("q"), QStringLiteral("2"));
        r = kubectl(binary,
                    {QStringLiteral("apply"), QStringLiteral("--server-side"), QStringLiteral("-f"),
                     QStringLiteral("-")},
                    yaml);
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("resourcequota/q serverside-applied")),
                 qPrintable(r.all()));
        // kubectl diff: server-side dry run of the change; exit 0 = no change, 1 = differences.
        r = kubectl(binary, {QStringLiteral("diff"), QStringLiteral("-f"), QStringLiteral("-")}, yaml);
        QVERIFY2(r.exitCode == 0 && r.out.isEmpty(), qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("diff"), QStringLiteral("-f"), QStringLiteral("-")},
                    quotaYaml(QStringLiteral("ssa"), QStringLiteral("q"), QStringLiteral("5")));
        QVERIFY2(r.exitCode == 1 && r.out.contains(QStringLiteral("+    requests.nvidia.com/gpu: \"5\"")),
                 qPrintable(r.all()));
        r = kubectl(binary, {QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("q"),
                             QStringLiteral("-n"), QStringLiteral("ssa"), QStringLiteral("-o"),
                             QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")});
        QCOMPARE(r.out.trimmed(), QStringLiteral("2"));

        // Table watch output, as people use it (in a namespace without quota: the
        // quota above would demand cpu/memory requests kubectl run does not set).
        r = kubectl(binary,
                    {QStringLiteral("create"), QStringLiteral("namespace"), QStringLiteral("watch-table")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
        QProcess watch;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), m_cluster.kubeconfigPath());
        env.insert(QStringLiteral("HOME"), m_home.path());
        watch.setProcessEnvironment(env);
        watch.start(binary,
                    {QStringLiteral("--cache-dir"), m_home.filePath(QStringLiteral("cache-watch-table")),
                     QStringLiteral("get"), QStringLiteral("pods"), QStringLiteral("-n"),
                     QStringLiteral("watch-table"), QStringLiteral("--watch")});
        QVERIFY(watch.waitForStarted());
        QTest::qWait(1500);
        r = kubectl(binary, {QStringLiteral("run"), QStringLiteral("probe"), QStringLiteral("-n"),
                             QStringLiteral("watch-table"), QStringLiteral("--image=busybox:1.36"),
                             QStringLiteral("--restart=Never")});
        QVERIFY2(r.exitCode == 0 && r.out.contains(QStringLiteral("pod/probe created")), qPrintable(r.all()));
        QString seen;
        QTRY_VERIFY_WITH_TIMEOUT((seen += QString::fromUtf8(watch.readAllStandardOutput()))
                                     .contains(QRegularExpression(QStringLiteral("probe\\s+1/1\\s+Running"))),
                                 20000);
        QVERIFY2(
            seen.contains(QRegularExpression(QStringLiteral("NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE"))),
            qPrintable(seen));
        watch.kill();
        watch.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(TestKubectl)
#include "tst_kubectl.moc"
