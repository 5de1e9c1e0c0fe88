#pragma once

// dcgm-exporter pods on the test cluster that its pods/proxy subresource relays to a real
// local exporter (the test-only annotation gpuquota.io/test-proxy-port), for the suites
// that read dcgm-exporter "through the cluster" (services, GUI).
//
//     client->create(KubeResource::pods(), "gpu-operator",
//                    exporterPodJson("dcgm-exporter-a", {{"app", "nvidia-dcgm-exporter"}}, localPort));
//     QVERIFY(waitPodRunning(*client, "gpu-operator", "dcgm-exporter-a"));

#include "core/kube/kubeclient.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

namespace gq::test {

// A pod like the GPU operator's exporter (container port "metrics" 9400); localPort 0:
// not mapped, so the proxy answers as for a pod it cannot reach.
inline QJsonObject exporterPodJson(const QString &name, const QJsonObject &labels, int localPort) {
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}};
    if (localPort > 0)
        meta.insert(QStringLiteral("annotations"),
                    QJsonObject{{QStringLiteral("gpuquota.io/test-proxy-port"), QString::number(localPort)}});
    const QJsonObject container{
        {QStringLiteral("name"), QStringLiteral("nvidia-dcgm-exporter")},
        {QStringLiteral("image"), QStringLiteral("nvcr.io/nvidia/k8s/dcgm-exporter:4.2.3")},
        {QStringLiteral("ports"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("metrics")},
                                                         {QStringLiteral("containerPort"), 9400}}}}};
    return QJsonObject{
        {QStringLiteral("metadata"), meta},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}};
}

// Until the pod is Running (the test cluster's kubelet starts it at once).
inline bool waitPodRunning(KubeClient &client, const QString &ns, const QString &name,
                           int timeoutMs = 20000) {
    return QTest::qWaitFor(
        [&] {
            auto f = client.get(KubeResource::pods(), ns, name);
            if (!QTest::qWaitFor([&] { return f.isFinished(); }, 10000))
                return false;
            const auto r = f.result();
            return r &&
                   r->value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString() ==
                       QLatin1String("Running");
        },
        timeoutMs);
}

} // namespace gq::test
