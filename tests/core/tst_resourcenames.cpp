// Resource-name classification and name grammars, checked against the behaviour of
// the API server's helpers (pkg/apis/core/helper) and our GPU weights.
#include "core/domain/resourcenames.h"

#include <QTest>

using namespace gq;

Q_DECLARE_METATYPE(gq::ResourceNameKind)

namespace {
// No errors when error is empty, else the first one mentions it.
void verifyFirstError(const QStringList &errors, const QString &error) {
    if (error.isEmpty()) {
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'|')));
    } else {
        QVERIFY(!errors.isEmpty());
        QVERIFY2(errors.first().contains(error), qPrintable(errors.first()));
    }
}
} // namespace

class TestResourceNames : public QObject {
    Q_OBJECT
private slots:
    void classify_data();
    void classify();
    void quotaNames_data();
    void quotaNames();
    void containerNames_data();
    void containerNames();
    void predicates();
    void dnsNames_data();
    void dnsNames();
    void qualifiedNames_data();
    void qualifiedNames();
    void scopes_data();
    void scopes();
    void gpuWeights_data();
    void gpuWeights();
};

void TestResourceNames::classify_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<ResourceNameKind>("kind");
    QTest::addColumn<QString>("base");
    using K = ResourceNameKind;
    QTest::newRow("cpu") << "cpu" << K::Standard << "cpu";
    QTest::newRow("requests.memory") << "requests.memory" << K::Standard << "requests.memory";
    QTest::newRow("limits.ephemeral-storage")
        << "limits.ephemeral-storage" << K::Standard << "limits.ephemeral-storage";
    QTest::newRow("pods") << "pods" << K::Standard << "pods";
    QTest::newRow("services.nodeports") << "services.nodeports" << K::Standard << "services.nodeports";
    QTest::newRow("storage") << "storage" << K::Standard << "storage";
    QTest::newRow("hugepages") << "hugepages-2Mi" << K::HugePages << "hugepages-2Mi";
    QTest::newRow("requests.hugepages") << "requests.hugepages-1Gi" << K::HugePages << "hugepages-1Gi";
    QTest::newRow("count/pods") << "count/pods" << K::ObjectCount << "pods";
    QTest::newRow("count/deployments.apps")
        << "count/deployments.apps" << K::ObjectCount << "deployments.apps";
    QTest::newRow("gpu") << "nvidia.com/gpu" << K::Extended << "nvidia.com/gpu";
    QTest::newRow("mig") << "nvidia.com/mig-1g.10gb" << K::Extended << "nvidia.com/mig-1g.10gb";
    QTest::newRow("requests.gpu") << "requests.nvidia.com/gpu" << K::QuotaRequests << "nvidia.com/gpu";
    QTest::newRow("requests.mig") << "requests.nvidia.com/mig-3g.40gb" << K::QuotaRequests
                                  << "nvidia.com/mig-3g.40gb";
    QTest::newRow("limits.gpu") << "limits.nvidia.com/gpu" << K::QuotaLimits << "nvidia.com/gpu";
    QTest::newRow("storage class storage")
        << "gold.storageclass.storage.k8s.io/requests.storage" << K::StorageClass
        << "gold.storageclass.storage.k8s.io/requests.storage";
    QTest::newRow("storage class claims")
        << "gold.storageclass.storage.k8s.io/persistentvolumeclaims" << K::StorageClass
        << "gold.storageclass.storage.k8s.io/persistentvolumeclaims";
    // Another resource under the storage group is no storage class quota.
    QTest::newRow("storage group, other") << "gold.storageclass.storage.k8s.io/other" << K::Extended
                                          << "gold.storageclass.storage.k8s.io/other";
    QTest::newRow("native") << "kubernetes.io/foo" << K::Native << "kubernetes.io/foo";
    QTest::newRow("native sub") << "node.kubernetes.io/foo" << K::Native << "node.kubernetes.io/foo";
    QTest::newRow("unknown plain") << "gpu" << K::Unknown << "gpu";
    QTest::newRow("unknown cpus") << "cpus" << K::Unknown << "cpus";
    QTest::newRow("invalid slash") << "a/b/c" << K::Invalid << "a/b/c";
    QTest::newRow("invalid empty") << "" << K::Invalid << "";
    QTest::newRow("invalid space") << "nvidia.com/g pu" << K::Invalid << "nvidia.com/g pu";
    QTest::newRow("invalid prefix") << "Nvidia.com/gpu" << K::Invalid << "Nvidia.com/gpu";
}

void TestResourceNames::classify() {
    QFETCH(QString, name);
    QFETCH(ResourceNameKind, kind);
    QFETCH(QString, base);
    const ResourceNameInfo info = classifyResourceName(name);
    QCOMPARE(resourceNameKindName(info.kind), resourceNameKindName(kind));
    QCOMPARE(info.base, base);
}

void TestResourceNames::quotaNames_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("error"); // substring of the first error, empty when valid
    QTest::newRow("cpu") << "cpu"
                         << "";
    QTest::newRow("requests.storage") << "requests.storage"
                                      << "";
    QTest::newRow("resourcequotas") << "resourcequotas"
                                    << "";
    QTest::newRow("hugepages") << "requests.hugepages-2Mi"
                               << "";
    QTest::newRow("requests.gpu") << "requests.nvidia.com/gpu"
                                  << "";
    QTest::newRow("count") << "count/deployments.apps"
                           << "";
    // Accepted by the API server (only qualified-name rules apply to names with '/').
    QTest::newRow("plain gpu") << "nvidia.com/gpu"
                               << "";
    QTest::newRow("limits.gpu") << "limits.nvidia.com/gpu"
                                << "";
    // storage is a standard resource but not a quota resource.
    QTest::newRow("storage") << "storage"
                             << "must be a standard resource for quota";
    QTest::newRow("gpu") << "gpu"
                         << "must be a standard resource for quota";
    QTest::newRow("limits.storage") << "limits.storage"
                                    << "must be a standard resource for quota";
    QTest::newRow("two slashes") << "a/b/c"
                                 << "qualified name";
    QTest::newRow("empty name") << "nvidia.com/"
                                << "name part must be non-empty";
    QTest::newRow("empty prefix") << "/gpu"
                                  << "prefix part must be non-empty";
    QTest::newRow("upper prefix") << "NVIDIA.com/gpu"
                                  << "prefix part a lowercase RFC 1123 subdomain";
    QTest::newRow("long name") << "example.com/" + QString(64, u'a') << "no more than 63";
}

void TestResourceNames::quotaNames() {
    QFETCH(QString, name);
    QFETCH(QString, error);
    verifyFirstError(quotaResourceNameErrors(name), error);
}

void TestResourceNames::containerNames_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("error");
    QTest::newRow("cpu") << "cpu"
                         << "";
    QTest::newRow("memory") << "memory"
                            << "";
    QTest::newRow("ephemeral") << "ephemeral-storage"
                               << "";
    QTest::newRow("hugepages") << "hugepages-1Gi"
                               << "";
    QTest::newRow("gpu") << "nvidia.com/gpu"
                         << "";
    QTest::newRow("mig") << "nvidia.com/mig-2g.20gb"
                         << "";
    QTest::newRow("native") << "kubernetes.io/something"
                            << "";
    QTest::newRow("pods") << "pods"
                          << "must be a standard resource for containers";
    QTest::newRow("storage") << "storage"
                             << "must be a standard resource for containers";
    QTest::newRow("requests.gpu") << "requests.nvidia.com/gpu"
                                  << "extended resource name standard";
}

void TestResourceNames::containerNames() {
    QFETCH(QString, name);
    QFETCH(QString, error);
    verifyFirstError(containerResourceNameErrors(name), error);
}

void TestResourceNames::predicates() {
    QVERIFY(isExtendedResourceName(u"nvidia.com/gpu"));
    QVERIFY(!isExtendedResourceName(u"requests.nvidia.com/gpu"));
    QVERIFY(!isExtendedResourceName(u"cpu"));
    QVERIFY(!isExtendedResourceName(u"kubernetes.io/x"));
    QVERIFY(isNativeResource(u"cpu"));
    QVERIFY(isNativeResource(u"foo.kubernetes.io/bar"));
    QVERIFY(!isNativeResource(u"nvidia.com/gpu"));
    QVERIFY(isOvercommitAllowed(u"cpu"));
    QVERIFY(!isOvercommitAllowed(u"hugepages-2Mi"));
    QVERIFY(!isOvercommitAllowed(u"nvidia.com/gpu"));
    QVERIFY(isIntegerResourceName(u"pods"));
    QVERIFY(isIntegerResourceName(u"nvidia.com/gpu"));
    // Upstream quirk: the requests. form is not an "extended resource name", so it is
    // not an integer resource for the API server (our GPU policy adds that rule).
    QVERIFY(!isIntegerResourceName(u"requests.nvidia.com/gpu"));
    QVERIFY(!isIntegerResourceName(u"cpu"));
    QVERIFY(isStandardLimitRangeType(u"PersistentVolumeClaim"));
    QVERIFY(!isStandardLimitRangeType(u"container"));
}

void TestResourceNames::dnsNames_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("label");
    QTest::addColumn<bool>("subdomain");
    QTest::newRow("simple") << "team-a" << true << true;
    QTest::newRow("digits") << "123" << true << true;
    QTest::newRow("dots") << "gpu.quota" << false << true;
    QTest::newRow("upper") << "Team" << false << false;
    QTest::newRow("underscore") << "team_a" << false << false;
    QTest::newRow("leading dash") << "-a" << false << false;
    QTest::newRow("trailing dash") << "a-" << false << false;
    QTest::newRow("empty") << "" << false << false;
    QTest::newRow("double dot") << "a..b" << false << false;
    QTest::newRow("63") << QString(63, u'a') << true << true;
    QTest::newRow("64") << QString(64, u'a') << false
                        << true; // upstream checks only the total length of a subdomain
    QTest::newRow("253") << QString(63, u'a') + u'.' + QString(63, u'b') + u'.' + QString(63, u'c') + u'.' +
                                QString(61, u'd')
                         << false << true;
    QTest::newRow("254") << QString(63, u'a') + u'.' + QString(63, u'b') + u'.' + QString(63, u'c') + u'.' +
                                QString(62, u'd')
                         << false << false;
}

void TestResourceNames::dnsNames() {
    QFETCH(QString, value);
    QFETCH(bool, label);
    QFETCH(bool, subdomain);
    QCOMPARE(dns1123LabelErrors(value).isEmpty(), label);
    QCOMPARE(dns1123SubdomainErrors(value).isEmpty(), subdomain);
}

void TestResourceNames::qualifiedNames_data() {
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("valid");
    QTest::newRow("plain") << "MyName" << true;
    QTest::newRow("dotted") << "my.name" << true;
    QTest::newRow("prefixed") << "example.com/MyName" << true;
    QTest::newRow("app label") << "app.kubernetes.io/name" << true;
    QTest::newRow("underscore") << "my_name" << true;
    QTest::newRow("trailing dot") << "name." << false;
    QTest::newRow("colon") << "a:b" << false;
    QTest::newRow("two slashes") << "a/b/c" << false;
}

void TestResourceNames::qualifiedNames() {
    QFETCH(QString, value);
    QFETCH(bool, valid);
    QCOMPARE(qualifiedNameErrors(value).isEmpty(), valid);
}

void TestResourceNames::scopes_data() {
    QTest::addColumn<QString>("scope");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<bool>("valid");
    QTest::newRow("BestEffort pods") << "BestEffort"
                                     << "pods" << true;
    QTest::newRow("BestEffort cpu") << "BestEffort"
                                    << "requests.cpu" << false;
    QTest::newRow("NotBestEffort cpu") << "NotBestEffort"
                                       << "requests.cpu" << true;
    QTest::newRow("Terminating memory") << "Terminating"
                                        << "limits.memory" << true;
    QTest::newRow("Terminating services") << "Terminating"
                                          << "services" << false;
    QTest::newRow("PriorityClass pods") << "PriorityClass"
                                        << "pods" << true;
    QTest::newRow("PriorityClass storage") << "PriorityClass"
                                           << "requests.storage" << false;
    QTest::newRow("CrossNamespacePodAffinity pods") << "CrossNamespacePodAffinity"
                                                    << "pods" << true;
    QTest::newRow("VAC pvc") << "VolumeAttributesClass"
                             << "persistentvolumeclaims" << true;
    QTest::newRow("VAC storage") << "VolumeAttributesClass"
                                 << "requests.storage" << true;
    QTest::newRow("VAC pods") << "VolumeAttributesClass"
                              << "pods" << false;
}

void TestResourceNames::scopes() {
    QFETCH(QString, scope);
    QFETCH(QString, resource);
    QFETCH(bool, valid);
    QVERIFY(isStandardQuotaScope(scope));
    QCOMPARE(isQuotaScopeValidForResource(scope, resource), valid);
    QVERIFY(!isStandardQuotaScope(u"BestEfort"));
    QVERIFY(quotaScopeRequiresExists(u"BestEffort"));
    QVERIFY(!quotaScopeRequiresExists(u"PriorityClass"));
    QCOMPARE(standardQuotaScopes().size(), 7);
}

void TestResourceNames::gpuWeights_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("isGpu");
    QTest::addColumn<bool>("isMig");
    QTest::addColumn<int>("num");
    QTest::addColumn<int>("den");
    QTest::newRow("gpu") << "nvidia.com/gpu" << true << false << 1 << 1;
    QTest::newRow("requests.gpu") << "requests.nvidia.com/gpu" << true << false << 1 << 1;
    QTest::newRow("limits.gpu") << "limits.nvidia.com/gpu" << true << false << 1 << 1;
    QTest::newRow("mig 1g.10gb") << "nvidia.com/mig-1g.10gb" << true << true << 1 << 7;
    QTest::newRow("mig 1g.5gb") << "nvidia.com/mig-1g.5gb" << true << true << 1 << 7;
    QTest::newRow("mig 2g.20gb") << "requests.nvidia.com/mig-2g.20gb" << true << true << 2 << 7;
    QTest::newRow("mig 3g.40gb") << "nvidia.com/mig-3g.40gb" << true << true << 3 << 7;
    QTest::newRow("mig 7g.80gb") << "nvidia.com/mig-7g.80gb" << true << true << 7 << 7;
    QTest::newRow("mig 1g.10gb+me") << "nvidia.com/mig-1g.10gb+me" << true << true << 1 << 7;
    QTest::newRow("mig 1g.20gb") << "nvidia.com/mig-1g.20gb" << true << true << 1 << 7;
    QTest::newRow("A30 1g.6gb") << "nvidia.com/mig-1g.6gb" << true << true << 1 << 4;
    QTest::newRow("A30 2g.12gb") << "nvidia.com/mig-2g.12gb" << true << true << 2 << 4;
    QTest::newRow("A30 4g.24gb") << "nvidia.com/mig-4g.24gb" << true << true << 4 << 4;
    QTest::newRow("amd") << "amd.com/gpu" << true << false << 1 << 1;
    QTest::newRow("intel") << "gpu.intel.com/i915" << true << false << 1 << 1;
    QTest::newRow("cpu") << "cpu" << false << false << 0 << 1;
    QTest::newRow("requests.cpu") << "requests.cpu" << false << false << 0 << 1;
    QTest::newRow("other nvidia") << "nvidia.com/foo" << false << false << 0 << 1;
    QTest::newRow("bad mig") << "nvidia.com/mig-xg.10gb" << false << false << 0 << 1;
    QTest::newRow("fpga") << "example.com/fpga" << false << false << 0 << 1;
}

void TestResourceNames::gpuWeights() {
    QFETCH(QString, name);
    QFETCH(bool, isGpu);
    QFETCH(bool, isMig);
    QFETCH(int, num);
    QFETCH(int, den);
    const GpuWeight w = gpuWeight(name);
    QCOMPARE(w.isGpu, isGpu);
    QCOMPARE(w.isMig, isMig);
    QCOMPARE(w.numerator, num);
    QCOMPARE(w.denominator, den);
    QCOMPARE(isGpuResource(name), isGpu);
    if (isGpu)
        QVERIFY(w.fraction() > 0.0 && w.fraction() <= 1.0);
}

QTEST_GUILESS_MAIN(TestResourceNames)
#include "tst_resourcenames.moc"
