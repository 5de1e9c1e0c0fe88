#pragma once

#include "core/kube/dra.h"
#include "core/kube/informer.h"

#include <QHash>
#include <QJsonObject>
#include <QMutex>
#include <QObject>
#include <QSet>

#include <memory>
#include <optional>
#include <vector>

namespace gq {

class KubeClient;

// GPUs a pod holds through DRA claims, as the usage recorder charges them: one hold per
// claim kind (its device class, GPU model and fraction of a GPU). Devices of claims made
// for the pod (ResourceClaimTemplate) with equal class, model and fraction are summed;
// a claim named directly (resourceClaimName, possibly shared) is a hold of its own.
struct DraHold {
    QString resource; // the class's quota key, "<class>.deviceclass.resource.k8s.io/devices"
    QString claim;    // "ns/claim" for a named claim, "" for template claims
    int devices = 0;
    double weight = 1.0; // each device's fraction of a GPU
    QString gpuModel;    // productName of the devices ("" when the slice does not say)
    // A named claim counts from its first user's start to its last user's end (the
    // recorder fills these for the pod that is charged); unset: the pod's own end.
    bool sharedSpan = false;
    std::optional<qint64> spanEnd;
    friend bool operator==(const DraHold &, const DraHold &) = default;
};

// Pure: the holds of a pod from the claims (by "ns/name") and the slices' devices.
[[nodiscard]] std::vector<DraHold> draHoldsFor(const PodInfo &pod, const QHash<QString, QJsonObject> &claims,
                                               const QHash<QString, dra::DeviceFacts> &devices,
                                               const dra::GpuClasses &gpuClasses);

// Pure: the GPUs a new pod will hold through its claims, for the admission webhook.
// A claim from a template counts the template's GPU requests (dra::requestedGpuDevices);
// a claim named directly counts its allocated GPU devices (each as its fraction) or, not
// allocated yet, its requests, and counts 0 when other pods already hold it (a shared
// claim is charged once, to the first of them). A claim or template not found counts 0.
// templates and claims by "ns/name".
[[nodiscard]] double draRequestedGpus(const QJsonObject &pod, const QString &ns,
                                      const QHash<QString, QJsonObject> &templates,
                                      const QHash<QString, QJsonObject> &claims,
                                      const QHash<QString, dra::DeviceFacts> &devices,
                                      const dra::GpuClasses &gpuClasses);

// Watches ResourceClaims (all namespaces), ResourceClaimTemplates, ResourceSlices and
// DeviceClasses (which classes are GPUs: dra::GpuClasses over the configured names and the
// DeviceClass objects, published as dra::currentGpuClasses()). A cluster that does not
// serve resource.k8s.io/v1 (404), or a controller not allowed to list them (403), is noticed
// once: the watches stop and no pod holds DRA GPUs there.
class DraWatch final : public QObject {
    Q_OBJECT
public:
    DraWatch(std::shared_ptr<KubeClient> client, QSet<QString> gpuClasses, QObject *parent = nullptr);
    ~DraWatch() override;

    void start();
    void stop();
    [[nodiscard]] std::vector<DraHold> holdsFor(const PodInfo &pod) const;
    // draRequestedGpus() over what the watches hold; safe on any thread (the admission
    // webhook's handlers): reads a snapshot taken on this object's thread.
    [[nodiscard]] double requestedGpus(const QJsonObject &pod, const QString &ns) const;

Q_SIGNALS:
    // Claims or slices changed: the holds of pods with claims may differ.
    void changed();

private:
    void onSlicesChanged();
    void onClassesChanged();
    void takeSnapshot();
    void onError(const Error &error);

    QSet<QString> m_configuredClasses;
    dra::GpuClasses m_gpuClasses; // this object's thread
    std::unique_ptr<ObjectInformer> m_claims;
    std::unique_ptr<ObjectInformer> m_classes;
    std::unique_ptr<ObjectInformer> m_slices;
    std::unique_ptr<ObjectInformer> m_templates;
    mutable QMutex m_snapshotMutex;
    QHash<QString, QJsonObject> m_claimSnapshot;
    QHash<QString, QJsonObject> m_templateSnapshot;
    QHash<QString, dra::DeviceFacts> m_deviceSnapshot;
    dra::GpuClasses m_classSnapshot;
    QHash<QString, dra::DeviceFacts> m_devices;
    bool m_stopped = false;
};

} // namespace gq
