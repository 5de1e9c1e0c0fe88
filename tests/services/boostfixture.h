#pragma once

// What the boost suites share (tst_boosts, tst_boostreconcile): the built `gpuquota`
// against the real test cluster, the real kubectl and the usage database of the build
// (SQLite, or PostgreSQL from GQ_TEST_PG_URL), with helpers that read the results back
// the way an admin would (kubectl for the cluster, `gpuquota boost list` and `audit
// list` for the database). Times are pinned with --now.

#include "tests/kube/kubetestutil.h"
#include "tests/testclusterprocess.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QtTest>

namespace gq::test {

inline const QString kBoostGpu = QStringLiteral("requests.nvidia.com/gpu");

inline QString at(const char *rfc3339) {
    return QString::fromLatin1(rfc3339);
}

class BoostFixture {
public:
    explicit BoostFixture(const char *schemaPrefix)
        : m_backend(schemaPrefix) {}

    static QString binary() {
        QString dir = qEnvironmentVariable("GQ_BIN_DIR");
        if (dir.isEmpty())
            dir = QStringLiteral(GQ_BINARY_DIR "/bin");
        return QDir(dir).filePath(QStringLiteral("gpuquota"));
    }
    QStringList withCluster(const QStringList &args) const {
        return QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args;
    }
    ToolRun gq(const QStringList &args) { return runTool(binary(), withCluster(args)); }
    ToolRun kubectl(const QStringList &args) {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath()} + args);
    }
    // A fresh namespace with one quota `gpu-quota` (and, with a second name, another
    // quota listing the GPU resource too).
    QString makeNamespace(int gpus, const QString &secondQuota = {}) {
        const QString ns = QStringLiteral("boost-%1").arg(++m_quotaCounter);
        QString yaml = QStringLiteral("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %1\n---\n"
                                      "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu-quota\n"
                                      "  namespace: %1\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n"
                                      "    requests.cpu: \"64\"\n")
                           .arg(ns)
                           .arg(gpus);
        if (!secondQuota.isEmpty())
            yaml += QStringLiteral("---\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: %1\n"
                                   "  namespace: %2\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n")
                        .arg(secondQuota, ns);
        const QString file =
            writeFile(m_cluster->temporaryDir() + QStringLiteral("/%1.yaml").arg(ns), yaml.toUtf8());
        const ToolRun k = kubectl({QStringLiteral("apply"), QStringLiteral("-f"), file});
        if (k.exitCode != 0)
            qWarning("kubectl apply: %s", k.err.constData());
        return ns;
    }
    QString gpus(const QString &ns, const QString &quota = QStringLiteral("gpu-quota")) {
        return QString::fromUtf8(
            kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), quota, QStringLiteral("-n"), ns,
                     QStringLiteral("-o"),
                     QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")})
                .out);
    }
    // One annotation of gpu-quota as kubectl shows it ("" when there is none).
    QString quotaAnnotation(const QString &ns, const QString &key) {
        const QByteArray json =
            kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                     QStringLiteral("-n"), ns, QStringLiteral("-o"), QStringLiteral("json")})
                .out;
        return QJsonDocument::fromJson(json)
            .object()
            .value(QLatin1String("metadata"))
            .toObject()
            .value(QLatin1String("annotations"))
            .toObject()
            .value(key)
            .toString();
    }
    // The gpuquota.io/boosts annotation's entries.
    QJsonArray annotation(const QString &ns) {
        return QJsonDocument::fromJson(quotaAnnotation(ns, QStringLiteral("gpuquota.io/boosts")).toUtf8())
            .array();
    }
    void kubectlSetGpus(const QString &ns, const QString &value) {
        const ToolRun k = kubectl(
            {QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
             QStringLiteral("-n"), ns, QStringLiteral("--type"), QStringLiteral("merge"),
             QStringLiteral("-p"),
             QStringLiteral("{\"spec\":{\"hard\":{\"requests.nvidia.com/gpu\":\"%1\"}}}").arg(value)});
        QVERIFY2(k.exitCode == 0, k.err.constData());
    }
    // `boost grant` for the GPU entry of gpu-quota; returns the id (0 on failure).
    qint64 grant(const QString &ns, const QStringList &extra, const QString &now) {
        const ToolRun r =
            gq(QStringList{QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                           QStringLiteral("--namespace"), ns, QStringLiteral("--resource"), kBoostGpu,
                           QStringLiteral("--now"), now, QStringLiteral("--note"),
                           QStringLiteral("paper deadline on Friday")} +
               extra);
        if (r.exitCode != 0)
            qWarning("grant failed (%d): %s", r.exitCode, r.err.constData());
        return r.exitCode == 0 ? QString::fromUtf8(r.out).trimmed().toLongLong() : 0;
    }
    // `add` GPUs from 11:00 for an hour on 1 June, granted at 10:00; the id (0 on failure).
    qint64 grantElevenToNoon(const QString &ns, const QString &add = QStringLiteral("4")) {
        return grant(ns,
                     {QStringLiteral("--add"), add, QStringLiteral("--start"), at("2026-06-01T11:00:00Z"),
                      QStringLiteral("--for"), QStringLiteral("1h")},
                     at("2026-06-01T10:00:00Z"));
    }
    // Test cluster faults `name: value` on the resource quotas of `ns` only.
    static QJsonObject quotaFaults(const QString &ns, const QString &name, const QJsonValue &value) {
        return QJsonObject{
            {name, value},
            {QStringLiteral("pathPrefix"), QStringLiteral("/api/v1/namespaces/%1/resourcequotas").arg(ns)}};
    }
    ToolRun reconcile(const QString &now) {
        return gq({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db, QStringLiteral("--now"), now});
    }
    QJsonObject boost(qint64 id) {
        const ToolRun r = gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                              QStringLiteral("-o"), QStringLiteral("json")});
        for (const QJsonValue &v :
             QJsonDocument::fromJson(r.out).object().value(QLatin1String("boosts")).toArray())
            if (v.toObject().value(QLatin1String("id")).toInteger() == id)
                return v.toObject();
        return {};
    }
    int boostCount() {
        const ToolRun r = gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                              QStringLiteral("-o"), QStringLiteral("json")});
        return int(QJsonDocument::fromJson(r.out).object().value(QLatin1String("boosts")).toArray().size());
    }
    // The audit log, oldest first, as `gpuquota audit list -o json` prints it.
    QJsonArray auditEntries() {
        const ToolRun r = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                              QStringLiteral("-o"), QStringLiteral("json")});
        return QJsonDocument::fromJson(r.out).object().value(QLatin1String("entries")).toArray();
    }
    QStringList auditActions() {
        QStringList out;
        for (const QJsonValue &v : auditEntries())
            out << v.toObject().value(QLatin1String("action")).toString();
        return out;
    }
    QString stateInDb(qint64 id) {
        auto store = UsageStore::open(m_db);
        if (!store)
            return QStringLiteral("(open failed: %1)").arg(store.error().message);
        QSqlQuery q((*store)->database());
        q.exec(QStringLiteral("SELECT state FROM boosts WHERE id = %1").arg(id));
        return q.next() ? q.value(0).toString() : QString();
    }

protected:
    // What the suite's initTestCase / cleanupTestCase / init / cleanup do.
    void startFixture() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        GQ_REQUIRE_TOOL("kubectl");
        QVERIFY2(QFileInfo(binary()).isExecutable(), "build the gpuquota target");
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    }
    void stopFixture() {
        if (m_cluster)
            m_cluster->stop();
    }
    void freshDatabase() { m_db = m_backend.freshUrl(); }
    void dropDatabases() {
        m_cluster->clearFaults();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    UsageTestBackend m_backend;
    std::unique_ptr<TestClusterProcess> m_cluster;
    QString m_db;
    int m_quotaCounter = 0;
};

} // namespace gq::test
