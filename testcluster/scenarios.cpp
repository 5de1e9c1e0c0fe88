#include "testcluster/scenarios.h"

#include "testcluster/apiserver.h"
#include "resources/demo/demoteams.h"
#include "testcluster/drademo.h"
#include "testcluster/kueuedemo.h"
#include "testcluster/store.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <cstdio>

namespace gq::tc {

namespace {

QJsonObject meta(const QString &name, const QJsonObject &labels = {}, qint64 ageSeconds = 0) {
    QJsonObject m;
    m.insert(QLatin1String("name"), name);
    if (!labels.isEmpty())
        m.insert(QLatin1String("labels"), labels);
    if (ageSeconds > 0)
        m.insert(QLatin1String("creationTimestamp"),
                 QDateTime::currentDateTimeUtc().addSecs(-ageSeconds).toString(Qt::ISODate));
    return m;
}

QJsonObject resourceList(std::initializer_list<std::pair<const char *, const char *>> items) {
    QJsonObject o;
    for (const auto &[k, v] : items)
        o.insert(QLatin1String(k), QLatin1String(v));
    return o;
}

QJsonObject namespaceObject(const QString &name, const QJsonObject &labels, qint64 age) {
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(name, labels, age));
    return o;
}

// An unlabelled object whose spec holds one field.
QJsonObject withSpec(const QString &name, const char *field, const QJsonValue &value, qint64 age) {
    QJsonObject spec;
    spec.insert(QLatin1String(field), value);
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(name, {}, age));
    o.insert(QLatin1String("spec"), spec);
    return o;
}

QJsonObject quotaObject(const QString &name, const QJsonObject &hard, qint64 age) {
    return withSpec(name, "hard", hard, age);
}

QJsonObject limitRangeObject(const QString &name, const QJsonArray &limits, qint64 age) {
    return withSpec(name, "limits", limits, age);
}

QJsonObject containerLimits(const QJsonObject &defaults, const QJsonObject &defaultRequest,
                            const QJsonObject &max) {
    QJsonObject item;
    item.insert(QLatin1String("type"), QLatin1String("Container"));
    insertNonEmpty(item, QLatin1String("default"), defaults);
    insertNonEmpty(item, QLatin1String("defaultRequest"), defaultRequest);
    insertNonEmpty(item, QLatin1String("max"), max);
    return item;
}

QJsonObject gpuPod(const QString &name, const QString &user, const QString &gpuResource, int gpus,
                   const char *cpu, const char *memory, const QString &image, qint64 age) {
    QJsonObject labels;
    labels.insert(QLatin1String("gpuquota.io/user"), user);
    labels.insert(QLatin1String("app"), name.section(QLatin1Char('-'), 0, -2));
    QJsonObject requests = resourceList({{"cpu", cpu}, {"memory", memory}});
    QJsonObject limits = resourceList({{"cpu", cpu}, {"memory", memory}});
    if (gpus > 0) {
        requests.insert(gpuResource, QString::number(gpus));
        limits.insert(gpuResource, QString::number(gpus));
    }
    QJsonObject resources;
    resources.insert(QLatin1String("requests"), requests);
    resources.insert(QLatin1String("limits"), limits);
    QJsonObject container;
    container.insert(QLatin1String("name"), QLatin1String("main"));
    container.insert(QLatin1String("image"), image);
    container.insert(QLatin1String("resources"), resources);
    QJsonObject spec;
    spec.insert(QLatin1String("containers"), QJsonArray{container});
    spec.insert(QLatin1String("restartPolicy"), QLatin1String("Never"));
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(name, labels, age));
    o.insert(QLatin1String("spec"), spec);
    return o;
}

void mustCreate(ApiServer &server, Resource r, const QString &ns, const QJsonObject &object) {
    const ApiServer::HookReply reply = server.createObject(r, ns, object);
    if (reply.status != 201)
        std::fprintf(stderr, "gpuquota-testcluster: scenario object rejected (%d): %s\n", reply.status,
                     reply.body.constData());
}

void systemNamespaces(ApiServer &server) {
    for (const char *ns : {"default", "kube-node-lease", "kube-public", "kube-system"})
        mustCreate(server, Resource::Namespace, {}, namespaceObject(QLatin1String(ns), {}, 90 * 86400));
}

// A node as GPU feature discovery and the NVIDIA device plugin label and size it:
// `nvidia.com/gpu.product` with dashes for spaces (label values cannot hold spaces).
struct NodeShape {
    const char *name;
    const char *product; // empty: a CPU node
    int gpus;
    const char *cpu;
    const char *memory;
    const char *instanceType;
    const char *migProfile = nullptr; // mixed MIG strategy: every GPU split into this profile
    int migPerGpu = 0;
    int replicas = 0; // time-slicing with renamed resources (nvidia.com/gpu.shared)
    // GPUs handed out by a DRA driver (ResourceSlices, drademo.h), not the device plugin:
    // no nvidia.com/gpu capacity (else the same GPUs count twice) and no product label
    // (the model is the slice's productName).
    bool dra = false;
};

QJsonObject nodeObject(const NodeShape &n, qint64 age) {
    QJsonObject labels;
    labels.insert(QLatin1String("kubernetes.io/hostname"), QLatin1String(n.name));
    labels.insert(QLatin1String("kubernetes.io/os"), QLatin1String("linux"));
    labels.insert(QLatin1String("kubernetes.io/arch"), QLatin1String("amd64"));
    labels.insert(QLatin1String("node.kubernetes.io/instance-type"), QLatin1String(n.instanceType));
    QJsonObject capacity = resourceList(
        {{"cpu", n.cpu}, {"memory", n.memory}, {"pods", "110"}, {"ephemeral-storage", "1843Gi"}});
    if (n.gpus > 0) {
        QString product = QLatin1String(n.product);
        labels.insert(QLatin1String("nvidia.com/gpu.present"), QLatin1String("true"));
        labels.insert(QLatin1String("nvidia.com/gpu.count"), QString::number(n.gpus));
        if (n.dra) {
            product.clear();
        } else if (n.replicas > 0) {
            product += QStringLiteral("-SHARED");
            labels.insert(QLatin1String("nvidia.com/gpu.replicas"), QString::number(n.replicas));
            labels.insert(QLatin1String("nvidia.com/gpu.sharing-strategy"), QLatin1String("time-slicing"));
            capacity.insert(QLatin1String("nvidia.com/gpu.shared"), QString::number(n.gpus * n.replicas));
            capacity.insert(QLatin1String("nvidia.com/gpu"), QLatin1String("0"));
        } else if (n.migProfile) {
            const QString resource = QStringLiteral("nvidia.com/mig-") + QLatin1String(n.migProfile);
            labels.insert(QLatin1String("nvidia.com/mig.strategy"), QLatin1String("mixed"));
            labels.insert(resource + QStringLiteral(".count"), QString::number(n.gpus * n.migPerGpu));
            capacity.insert(resource, QString::number(n.gpus * n.migPerGpu));
            capacity.insert(QLatin1String("nvidia.com/gpu"), QLatin1String("0"));
        } else {
            capacity.insert(QLatin1String("nvidia.com/gpu"), QString::number(n.gpus));
        }
        if (!product.isEmpty())
            labels.insert(QLatin1String("nvidia.com/gpu.product"), product);
    }
    QJsonObject status;
    status.insert(QLatin1String("capacity"), capacity);
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(QLatin1String(n.name), labels, age));
    o.insert(QLatin1String("status"), status);
    return o;
}

// Room for the demo's running whole GPUs and the pods tests add: 72 whole GPUs of three
// models through nvidia.com/gpu, 8 H100s of gpu-node-10 through DRA only (demo::kDraNode),
// 16 MIG 3g.40gb slices, 16 time-sliced L4 replicas, and a CPU node.
void gpuNodes(ApiServer &server) {
    const qint64 day = 86400;
    static const NodeShape shapes[] = {
        {"cpu-node-1", "", 0, "64", "256Gi", "m6i.16xlarge"},
        {"gpu-node-1", "NVIDIA-H100-80GB-HBM3", 8, "192", "2Ti", "p5.48xlarge"},
        {"gpu-node-2", "NVIDIA-H100-80GB-HBM3", 8, "192", "2Ti", "p5.48xlarge"},
        {"gpu-node-3", "NVIDIA-H100-80GB-HBM3", 8, "192", "2Ti", "p5.48xlarge"},
        {"gpu-node-4", "NVIDIA-H100-80GB-HBM3", 8, "192", "2Ti", "p5.48xlarge"},
        {"gpu-node-5", "NVIDIA-A100-SXM4-80GB", 8, "96", "1152Gi", "p4de.24xlarge"},
        {"gpu-node-6", "NVIDIA-A100-SXM4-80GB", 8, "96", "1152Gi", "p4de.24xlarge"},
        {"gpu-node-7", "NVIDIA-L40S", 8, "192", "1536Gi", "g6e.48xlarge"},
        {"gpu-node-8", "NVIDIA-L40S", 8, "192", "1536Gi", "g6e.48xlarge"},
        {"gpu-node-9", "NVIDIA-L40S", 8, "192", "1536Gi", "g6e.48xlarge"},
        {"gpu-node-10", "NVIDIA-H100-80GB-HBM3", 8, "192", "2Ti", "p5.48xlarge", nullptr, 0, 0, true},
        {"gpu-node-mig-1", "NVIDIA-A100-SXM4-80GB", 8, "96", "1152Gi", "p4de.24xlarge", "3g.40gb", 2},
        {"gpu-node-shared-1", "NVIDIA-L4", 4, "48", "192Gi", "g6.12xlarge", nullptr, 0, 4},
    };
    for (const NodeShape &n : shapes)
        mustCreate(server, Resource::Node, {}, nodeObject(n, 120 * day));
}

void demo(ApiServer &server) {
    const qint64 day = 86400;
    const char *images[] = {"nvcr.io/nvidia/pytorch:24.05-py3", "nvcr.io/nvidia/tensorflow:24.05-tf2-py3",
                            "ghcr.io/example/trainer:1.8.2", "nvcr.io/nvidia/tritonserver:24.05-py3"};
    int podIndex = 0;
    for (std::size_t t = 0; t < demo::kTeams.size(); ++t) {
        const demo::Team &team = demo::kTeams[t];
        const QString ns = QLatin1String(team.ns);
        QJsonObject labels;
        labels.insert(QLatin1String("gpuquota.io/team"), ns);
        labels.insert(QLatin1String("gpuquota.io/managed"), QLatin1String("true"));
        mustCreate(server, Resource::Namespace, {},
                   namespaceObject(ns, labels, (60 - static_cast<qint64>(t) * 7) * day));
        QJsonObject hard;
        // A DRA team's key is the class's devices key as it is; an extended resource's
        // is counted with "requests.".
        hard.insert((team.usesDra() ? QString() : QStringLiteral("requests.")) +
                        QLatin1String(team.gpuResource),
                    QLatin1String(team.gpus));
        hard.insert(QLatin1String("requests.cpu"), QLatin1String(team.cpu));
        hard.insert(QLatin1String("requests.memory"), QLatin1String(team.memory));
        hard.insert(QLatin1String("limits.cpu"), QLatin1String(team.limitsCpu));
        hard.insert(QLatin1String("limits.memory"), QLatin1String(team.limitsMemory));
        hard.insert(QLatin1String("count/pods"), QLatin1String(team.pods));
        mustCreate(server, Resource::ResourceQuota, ns,
                   quotaObject(QStringLiteral("gpu-quota"), hard, 30 * day));
        const QJsonObject defaults = resourceList({{"cpu", "2"}, {"memory", "8Gi"}});
        const QJsonObject defaultRequest = resourceList({{"cpu", "1"}, {"memory", "4Gi"}});
        // No GPU entry here: a Container max also becomes the default limit, which
        // would hand every CPU-only pod a GPU.
        const QJsonObject max = resourceList({{"cpu", "64"}, {"memory", "512Gi"}});
        mustCreate(server, Resource::LimitRange, ns,
                   limitRangeObject(QStringLiteral("container-defaults"),
                                    QJsonArray{containerLimits(defaults, defaultRequest, max)}, 30 * day));
        if (team.usesDra())
            draDemoDevices(server);
        int nextDevice = 0;
        for (int i = 0; i < team.runningPodCount(); ++i) {
            const QString user = QLatin1String(team.userOfPod(i));
            const int gpus = team.runningGpus[std::size_t(i)];
            const QString name = QStringLiteral("%1-train-%2").arg(user).arg(i + 1);
            // Created a little before it started; started when the console's usage
            // history says it did (demo::runningPodAgeSeconds).
            const qint64 started = demo::runningPodAgeSeconds(i);
            QJsonObject pod =
                gpuPod(name, user, team.usesDra() ? QString() : QLatin1String(team.gpuResource),
                       team.usesDra() ? 0 : gpus, gpus >= 4 ? "16" : "8", gpus >= 4 ? "128Gi" : "64Gi",
                       QLatin1String(images[podIndex % 4]), started + 90);
            if (team.usesDra()) {
                pod = draDemoPod(server, ns, pod, nextDevice, gpus);
                nextDevice += gpus;
            }
            mustCreate(server, Resource::Pod, ns, pod);
            const QString startedAt = QDateTime::currentDateTimeUtc().addSecs(-started).toString(Qt::ISODate);
            server.hook("POST", QStringLiteral("/_gq/pods/%1/%2/phase").arg(ns, name),
                        QStringLiteral(R"({"phase":"Running","startedAt":"%1"})").arg(startedAt).toUtf8());
            ++podIndex;
        }
    }
    // A CPU-only notebook in research, and a finished job in team-vision.
    mustCreate(server, Resource::Pod, QStringLiteral("research"),
               gpuPod(QStringLiteral("kemal-notebook-1"), QStringLiteral("kemal"), {}, 0, "2", "8Gi",
                      QStringLiteral("jupyter/scipy-notebook:2024-05-27"), 7200));
    mustCreate(server, Resource::Pod, QStringLiteral("team-vision"),
               gpuPod(QStringLiteral("bob-eval-1"), QStringLiteral("bob"), QStringLiteral("nvidia.com/gpu"),
                      2, "8", "64Gi", QStringLiteral("nvcr.io/nvidia/pytorch:24.05-py3"), 20000));
    server.hook("POST", QStringLiteral("/_gq/pods/team-vision/bob-eval-1/phase"), R"({"phase":"Succeeded"})");
    kueueDemo(server);
}

} // namespace

Result<void> loadScenario(ApiServer &server, Store &store, const QString &name) {
    if (name != QLatin1String("empty") && name != QLatin1String("demo") && name != QLatin1String("gpu-nodes"))
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("unknown scenario \"%1\" (expected empty, gpu-nodes or demo)").arg(name));
    systemNamespaces(server);
    if (name != QLatin1String("empty"))
        gpuNodes(server);
    if (name == QLatin1String("demo"))
        demo(server);
    std::lock_guard lock(store.mutex);
    store.compact();
    return {};
}

void loadScale(ApiServer &server, Store &store, const ScaleOptions &options) {
    Q_UNUSED(store);
    const int width = QString::number(std::max(options.namespaces, 1)).size();
    QStringList names;
    const QJsonObject hard = resourceList({{"requests.nvidia.com/gpu", "8"},
                                           {"requests.cpu", "64"},
                                           {"requests.memory", "256Gi"},
                                           {"limits.cpu", "128"},
                                           {"limits.memory", "512Gi"},
                                           {"count/pods", "50"}});
    const QJsonArray limits{containerLimits(resourceList({{"cpu", "2"}, {"memory", "8Gi"}}),
                                            resourceList({{"cpu", "1"}, {"memory", "4Gi"}}), {})};
    for (int i = 0; i < options.namespaces; ++i) {
        const QString ns = QStringLiteral("scale-%1").arg(i, width, 10, QLatin1Char('0'));
        names.append(ns);
        QJsonObject labels;
        labels.insert(QLatin1String("gpuquota.io/team"), ns);
        server.bulkLoad(Resource::Namespace, {}, namespaceObject(ns, labels, 86400));
        server.bulkLoad(Resource::ResourceQuota, ns, quotaObject(QStringLiteral("gpu-quota"), hard, 86400));
        server.bulkLoad(Resource::LimitRange, ns,
                        limitRangeObject(QStringLiteral("container-defaults"), limits, 86400));
    }
    if (!names.isEmpty()) {
        for (int p = 0; p < options.pods; ++p) {
            server.bulkLoad(Resource::Pod, names.at(p % names.size()),
                            gpuPod(QStringLiteral("job-%1").arg(p), QStringLiteral("user%1").arg(p % 997),
                                   QStringLiteral("nvidia.com/gpu"), 1, "1", "4Gi",
                                   QStringLiteral("nvcr.io/nvidia/pytorch:24.05-py3"), 3600));
        }
    }
    server.finishBulkLoad();
}

} // namespace gq::tc
