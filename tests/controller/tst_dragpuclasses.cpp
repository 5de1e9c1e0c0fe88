// Which DRA device classes are GPUs (dra::GpuClasses: configuration, DeviceClass selectors
// and extended resource names, the name rule), the quota key forms the API server counts
// for DRA, and a device shared by capacity recorded as its fraction (consumedCapacity).
#include "core/kube/dra.h"
#include "core/kube/dragpuclasses.h"
#include "services/controller/draholdings.h"
#include "services/controller/usagerecorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace gq;

namespace {

QJsonObject json(const char *text) {
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// CEL quotes are written % (single) and # (an escaped double quote): quotes in a raw string
// confuse moc's scanner.
QJsonObject celJson(const char *text) {
    return QJsonDocument::fromJson(QString::fromUtf8(text)
                                       .replace(QLatin1Char('%'), QChar(0x27))
                                       .replace(QLatin1Char('#'), QStringLiteral("\\\""))
                                       .toUtf8())
        .object();
}

QList<QJsonObject> clusterClasses() {
    return {
        // NVIDIA%s DRA driver: whole GPUs and MIG devices, both by the driver gpu.nvidia.com.
        celJson(R"({"metadata":{"name":"h100"},"spec":{"selectors":[{"cel":{"expression":
            "device.driver == %gpu.nvidia.com% && device.attributes[%gpu.nvidia.com%].type == %gpu%"}}]}})"),
        celJson(R"({"metadata":{"name":"mig.nvidia.com"},"spec":{"selectors":[{"cel":{"expression":
            "device.driver == #gpu.nvidia.com# && device.attributes[#gpu.nvidia.com#].type == #mig#"}}]}})"),
        // A class named like a GPU whose selector picks a NIC driver: not a GPU.
        celJson(R"({"metadata":{"name":"gpudirect-nic"},"spec":{"selectors":[{"cel":{"expression":
            "device.driver == %rdma.example.com%"}}]}})"),
        // An extended resource mapping (DRAExtendedResource) of a GPU resource name.
        celJson(R"({"metadata":{"name":"accel"},"spec":{"extendedResourceName":"nvidia.com/gpu",
            "selectors":[{"cel":{"expression":"device.driver == %accel.example.com%"}}]}})"),
        celJson(R"({"metadata":{"name":"fpga"},"spec":{"extendedResourceName":"example.com/fpga",
            "selectors":[{"cel":{"expression":"device.driver == %fpga.example.com%"}}]}})"),
    };
}

const char *kSharedSlice = R"({"metadata":{"name":"node-1-gpu"},"spec":{"driver":"gpu.example.com",
    "pool":{"name":"node-1"},"nodeName":"node-1","devices":[
    {"name":"gpu-0","allowMultipleAllocations":true,
     "attributes":{"productName":{"string":"NVIDIA H100 80GB HBM3"}},
     "capacity":{"memory":{"value":"80Gi"},"cores":{"value":"132"}}}]}})";

QJsonObject sharedClaim(const char *name, const char *memory) {
    const QString text =
        QStringLiteral(R"({"metadata":{"namespace":"ml","name":"%1"},"spec":{"devices":{"requests":[
        {"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}]}},
        "status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.example.com",
        "pool":"node-1","device":"gpu-0","shareID":"a1","consumedCapacity":{"memory":"%2"}}]}}}})")
            .arg(QLatin1String(name), QLatin1String(memory));
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

} // namespace

class TestDraGpuClasses : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void deviceClassesDecide() {
        const dra::GpuClasses classes =
            dra::GpuClasses::fromDeviceClasses(clusterClasses(), {QStringLiteral("fpga")});
        QVERIFY(classes.isGpuClass(QStringLiteral("h100")));            // by its driver
        QVERIFY(classes.isGpuClass(QStringLiteral("mig.nvidia.com")));  // double quotes too
        QVERIFY(!classes.isGpuClass(QStringLiteral("gpudirect-nic")));  // a NIC driver beats the name
        QVERIFY(classes.isGpuClass(QStringLiteral("accel")));           // maps nvidia.com/gpu
        QVERIFY(classes.isGpuClass(QStringLiteral("fpga")));            // configured
        QVERIFY(classes.isGpuClass(QStringLiteral("gpu.example.com"))); // no object: the name rule
        QVERIFY(!classes.isGpuClass(QStringLiteral("nic.example.com")));
        QVERIFY(!classes.isGpuClass(QString()));
        QCOMPARE(classes.knownGpuClasses(), (QStringList{"accel", "fpga", "h100", "mig.nvidia.com"}));
        QCOMPARE(dra::selectedDrivers(clusterClasses().first()), QStringList{"gpu.nvidia.com"});
    }

    void quotaKeyForms_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("deviceClass");
        QTest::addColumn<bool>("gpu");
        QTest::newRow("devices") << "h100.deviceclass.resource.k8s.io/devices"
                                 << "h100" << true;
        QTest::newRow("devices, not a GPU") << "gpudirect-nic.deviceclass.resource.k8s.io/devices"
                                            << "gpudirect-nic" << false;
        QTest::newRow("implicit extended") << "requests.deviceclass.resource.kubernetes.io/mig.nvidia.com"
                                           << "mig.nvidia.com" << true;
        QTest::newRow("declared extended") << "requests.example.com/fpga"
                                           << "fpga" << true;
        QTest::newRow("device plugin name mapped") << "requests.nvidia.com/gpu"
                                                   << "accel" << true;
        QTest::newRow("limits form is not counted") << "limits.deviceclass.resource.kubernetes.io/h100"
                                                    << "" << false;
        QTest::newRow("cpu") << "requests.cpu"
                             << "" << false;
    }
    void quotaKeyForms() {
        QFETCH(QString, key);
        QFETCH(QString, deviceClass);
        QFETCH(bool, gpu);
        const dra::GpuClasses classes =
            dra::GpuClasses::fromDeviceClasses(clusterClasses(), {QStringLiteral("fpga")});
        QCOMPARE(classes.classOfQuotaKey(key), deviceClass);
        QCOMPARE(classes.isGpuQuotaKey(key), gpu);
        QCOMPARE(dra::isGpuQuotaKey(key, classes), gpu);
    }

    // The process's decision, as the clamp and the namespace list read it.
    void currentDecisionIsShared() {
        const dra::GpuClasses before = dra::currentGpuClasses();
        const QString key = QStringLiteral("gpudirect-nic.deviceclass.resource.k8s.io/devices");
        QVERIFY(dra::isGpuQuotaKey(key)); // the name rule alone
        dra::setCurrentGpuClasses(dra::GpuClasses::fromDeviceClasses(clusterClasses()));
        QVERIFY(!dra::isGpuQuotaKey(key));
        QVERIFY(dra::isGpuQuotaKey(QStringLiteral("requests.deviceclass.resource.kubernetes.io/h100")));
        dra::setCurrentGpuClasses(before);
    }

    // A device shared by capacity (allowMultipleAllocations): each claim holds the part of
    // it that it consumed.
    void consumedCapacityIsAFraction() {
        const auto devices = dra::indexSlices(
            {StoredObject{{}, QStringLiteral("s"), QStringLiteral("1"), json(kSharedSlice)}});
        const dra::DeviceFacts facts = devices.value(dra::deviceKey(
            QStringLiteral("gpu.example.com"), QStringLiteral("node-1"), QStringLiteral("gpu-0")));
        QCOMPARE(facts.capacity.value(QStringLiteral("memory")), 80.0 * 1024 * 1024 * 1024);
        const QList<dra::AllocatedDevice> allocated = dra::allocatedDevices(sharedClaim("a", "20Gi"));
        QCOMPARE(allocated.size(), 1);
        QCOMPARE(allocated[0].consumedCapacity.value(QStringLiteral("memory")), 20.0 * 1024 * 1024 * 1024);
        QCOMPARE(dra::allocatedFraction(allocated[0], facts), 0.25);
        // Nothing consumed, or a capacity the slice does not publish: the whole device.
        dra::AllocatedDevice whole = allocated[0];
        whole.consumedCapacity.clear();
        QCOMPARE(dra::allocatedFraction(whole, facts), 1.0);
        whole.consumedCapacity.insert(QStringLiteral("bandwidth"), 5);
        QCOMPARE(dra::allocatedFraction(whole, facts), 1.0);

        // Recorded: a pod holding its 40Gi share is charged half a GPU.
        const PodInfo pod = podInfoFromJson(json(R"({"metadata":{"namespace":"ml","name":"p","uid":"u"},
            "spec":{"nodeName":"node-1","containers":[{"name":"c"}],
                    "resourceClaims":[{"name":"g","resourceClaimName":"half"}]},
            "status":{"phase":"Running","startTime":"2026-11-30T08:00:00Z",
                      "containerStatuses":[{"name":"c","state":{"running":{"startedAt":"2026-11-30T08:00:00Z"}}}]}})"));
        QHash<QString, QJsonObject> claims;
        claims.insert(QStringLiteral("ml/half"), sharedClaim("half", "40Gi"));
        const std::vector<DraHold> holds = draHoldsFor(pod, claims, devices, {});
        QCOMPARE(holds.size(), size_t(1));
        QCOMPARE(holds[0].weight, 0.5);
        QCOMPARE(holds[0].devices, 1);
        // And the webhook counts the same half for a new pod naming the claim.
        QCOMPARE(
            draRequestedGpus(json(R"({"spec":{"resourceClaims":[{"name":"g","resourceClaimName":"half"}]}})"),
                             QStringLiteral("ml"), {}, claims, devices, {}),
            0.5);
    }
};

QTEST_GUILESS_MAIN(TestDraGpuClasses)
#include "tst_dragpuclasses.moc"
