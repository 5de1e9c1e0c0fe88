// metadata.managedFields read as the real API server writes them: who owns
// spec.hard[<key>] of a ResourceQuota (issue #26: a GitOps tool that owns the key undoes
// a clamp or a boost on its next sync).
#include "core/kube/kuberequest.h"
#include "core/kube/managedfields.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;
using namespace gq::managedfields;

namespace {

// One managedFields entry owning spec.hard[key] (or the annotations only, key empty).
QJsonObject entry(const char *manager, const char *operation, const char *key, const char *subresource = "") {
    const QJsonObject fields =
        *key ? QJsonObject{{QStringLiteral("f:spec"),
                            QJsonObject{
                                {QStringLiteral("f:hard"),
                                 QJsonObject{{QStringLiteral("."), QJsonObject{}},
                                             {QStringLiteral("f:") + QLatin1String(key), QJsonObject{}}}}}}}
             : QJsonObject{
                   {QStringLiteral("f:metadata"),
                    QJsonObject{{QStringLiteral("f:annotations"),
                                 QJsonObject{{QStringLiteral("f:gpuquota.io/clamp"), QJsonObject{}}}}}}};
    QJsonObject e{{QStringLiteral("manager"), QLatin1String(manager)},
                  {QStringLiteral("operation"), QLatin1String(operation)},
                  {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                  {QStringLiteral("time"), QStringLiteral("2026-12-06T10:00:00Z")},
                  {QStringLiteral("fieldsType"), QStringLiteral("FieldsV1")},
                  {QStringLiteral("fieldsV1"), fields}};
    if (*subresource)
        e.insert(QStringLiteral("subresource"), QLatin1String(subresource));
    return e;
}

QJsonObject quota(const QList<QJsonObject> &entries) {
    QJsonArray arr;
    for (const QJsonObject &e : entries)
        arr.append(e);
    return QJsonObject{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("gpus")},
                                                 {QStringLiteral("namespace"), QStringLiteral("team-a")},
                                                 {QStringLiteral("managedFields"), arr}}}};
}

} // namespace

class TestManagedFields : public QObject {
    Q_OBJECT

private slots:
    void foreignOwner_data() {
        QTest::addColumn<QJsonObject>("object");
        QTest::addColumn<QString>("manager"); // empty: no foreign owner
        QTest::addColumn<bool>("reverts");

        const char *k = "requests.nvidia.com/gpu";
        QTest::newRow("no managedFields") << QJsonObject{} << QString() << false;
        QTest::newRow("only ours") << quota({entry("gpuquota", "Update", k)}) << QString() << false;
        QTest::newRow("argocd apply")
            << quota({entry("argocd-controller", "Apply", k)}) << QStringLiteral("argocd-controller") << true;
        QTest::newRow("flux apply after ours")
            << quota({entry("gpuquota", "Update", ""), entry("kustomize-controller", "Apply", k)})
            << QStringLiteral("kustomize-controller") << true;
        QTest::newRow("helm update") << quota({entry("helm", "Update", k)}) << QStringLiteral("helm") << true;
        QTest::newRow("kubectl edit: an admin, not a re-applier")
            << quota({entry("kubectl-edit", "Update", k)}) << QStringLiteral("kubectl-edit") << false;
        QTest::newRow("unknown operator applies")
            << quota({entry("my-operator", "Apply", k)}) << QStringLiteral("my-operator") << true;
        QTest::newRow("apply owner preferred over an update owner")
            << quota(
                   {entry("kubectl-client-side-apply", "Update", k), entry("argocd-controller", "Apply", k)})
            << QStringLiteral("argocd-controller") << true;
        QTest::newRow("other key only")
            << quota({entry("argocd-controller", "Apply", "requests.cpu"), entry("gpuquota", "Update", k)})
            << QString() << false;
        QTest::newRow("status writer is not an owner of spec")
            << quota({entry("kube-controller-manager", "Update", k, "status")}) << QString() << false;
        QTest::newRow("shared with us")
            << quota({entry("gpuquota", "Update", k), entry("argocd-controller", "Apply", k)})
            << QStringLiteral("argocd-controller") << true;
    }
    void foreignOwner() {
        QFETCH(QJsonObject, object);
        QFETCH(QString, manager);
        QFETCH(bool, reverts);
        const auto o = foreignOwnerOfHardKey(object, QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(o ? o->manager : QString(), manager);
        QCOMPARE(o ? revertsChanges(*o) : false, reverts);
    }

    void ownersInOrder() {
        const auto owners =
            ownersOfHardKey(quota({entry("gpuquota", "Update", "requests.nvidia.com/gpu"),
                                   entry("argocd-controller", "Apply", "requests.nvidia.com/gpu")}),
                            QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(owners.size(), 2);
        QCOMPARE(owners[0].manager, QStringLiteral("gpuquota"));
        QCOMPARE(owners[1].operation, QStringLiteral("Apply"));
        QCOMPARE(owners[1].time, QStringLiteral("2026-12-06T10:00:00Z"));
        QVERIFY(owners[1].isApply());
    }

    // After a forced re-apply our manager no longer owns the key: the value is theirs.
    void overridden() {
        const QString k = QStringLiteral("requests.nvidia.com/gpu");
        QVERIFY(overriddenBy(quota({entry("argocd-controller", "Apply", "requests.nvidia.com/gpu")}), k));
        QVERIFY(!overriddenBy(quota({entry("gpuquota", "Update", "requests.nvidia.com/gpu"),
                                     entry("argocd-controller", "Apply", "requests.nvidia.com/gpu")}),
                              k)); // co-owned: the same value, ours still in it
        QVERIFY(!overriddenBy(quota({entry("kubectl-edit", "Update", "requests.nvidia.com/gpu")}), k));
        QVERIFY(!overriddenBy(QJsonObject{}, k));
        QCOMPARE(revertWarning(quota({entry("argocd-controller", "Apply", "requests.nvidia.com/gpu")}), k),
                 QStringLiteral("requests.nvidia.com/gpu is managed by argocd-controller (Apply): a change "
                                "of it is reverted on its next sync"));
        QVERIFY(
            revertWarning(quota({entry("kubectl-edit", "Update", "requests.nvidia.com/gpu")}), k).isEmpty());
    }

    // What we call ours is what every write of the client names.
    void ourManagerIsTheClientsDefault() { QCOMPARE(WriteOptions{}.fieldManager, kOurManager); }
};

QTEST_GUILESS_MAIN(TestManagedFields)
#include "tst_managedfields.moc"
