// DRA in the console's models: the GPU column counts the DRA quota keys of GPU classes
// as the cluster's DeviceClasses decide (dra::GpuClasses, all three key forms) and names
// the device class in its tooltip; the one-click GPU edit and a boost pick the DRA key.
#include "core/kube/dragpuclasses.h"
#include "core/quotas/gpuquotakeys.h"
#include "models/quotas/namespacelistmodel.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QtTest>

using namespace gq;

namespace {

QuotaUsage quota(const QString &key, const char *hard, const char *used) {
    QuotaUsage u;
    u.name = QStringLiteral("q");
    u.hard.insert(key, *Quantity::parse(QString::fromLatin1(hard)));
    u.used.insert(key, *Quantity::parse(QString::fromLatin1(used)));
    u.statusHard = u.hard;
    return u;
}

// A cluster whose "accel" DeviceClass selects NVIDIA's DRA driver and whose
// "gpu-nic" class (named like a GPU) selects an RDMA driver.
QJsonObject deviceClass(const char *name, const char *driver) {
    const QJsonObject cel{
        {QStringLiteral("expression"), QStringLiteral("device.driver == \"%1\"").arg(QLatin1String(driver))}};
    return QJsonObject{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QLatin1String(name)}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("selectors"), QJsonArray{QJsonObject{{QStringLiteral("cel"), cel}}}}}}};
}

dra::GpuClasses clusterClasses() {
    return dra::GpuClasses::fromDeviceClasses(
        {deviceClass("accel", "gpu.nvidia.com"), deviceClass("gpu-nic", "rdma.example.com")});
}

} // namespace

class TestDraModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { dra::setCurrentGpuClasses(clusterClasses()); }
    void cleanup() { dra::setCurrentGpuClasses({}); }

    void gpuColumnCountsDraKeysOfGpuClasses() {
        const QString devices = QStringLiteral("accel.deviceclass.resource.k8s.io/devices");
        const QString implicit = QStringLiteral("requests.deviceclass.resource.kubernetes.io/accel");
        for (const QString &key : {devices, implicit}) {
            const auto s = NamespaceSummary::fromQuotas(QStringLiteral("team-dra"), {quota(key, "8", "3")});
            QCOMPARE(s.gpu.resource, key);
            QCOMPARE(s.gpu.used, *Quantity::parse(u"3"));
        }
        // A class the cluster says is no GPU is not in the GPU column, whatever its name.
        const auto nic = NamespaceSummary::fromQuotas(
            QStringLiteral("net"),
            {quota(QStringLiteral("gpu-nic.deviceclass.resource.k8s.io/devices"), "4", "1")});
        QVERIFY(nic.gpu.resource.isEmpty());

        NamespaceListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.resetAll(
            {NamespaceSummary::fromQuotas(QStringLiteral("team-dra"), {quota(devices, "8", "3")})});
        QCOMPARE(model.index(0, NamespaceListModel::GpuColumn).data().toString(), QStringLiteral("3 / 8"));
        QCOMPARE(model.index(0, NamespaceListModel::GpuColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("GPUs from DRA claims of the device class accel "
                                "(accel.deviceclass.resource.k8s.io/devices)\n38% of the limit used"));
    }

    void oneClickEditAndBoostPickTheGpuKey() {
        const QString dra = QStringLiteral("accel.deviceclass.resource.k8s.io/devices");
        QCOMPARE(gpukeys::stepKey({QStringLiteral("requests.cpu"), dra}), dra);
        QCOMPARE(gpukeys::stepKey({dra, QStringLiteral("requests.nvidia.com/gpu")}),
                 QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(gpukeys::stepKey({QStringLiteral("gpu-nic.deviceclass.resource.k8s.io/devices")}),
                 QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(gpukeys::stepKey({}), QStringLiteral("requests.nvidia.com/gpu"));
        QCOMPARE(gpukeys::deviceClassOf(dra), QStringLiteral("accel"));
        QVERIFY(gpukeys::isGpuQuotaKey(QStringLiteral("requests.nvidia.com/mig-1g.10gb")));
    }
};

QTEST_MAIN(TestDraModels)
#include "tst_dramodels.moc"
