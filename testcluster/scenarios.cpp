#include "testcluster/scenarios.h"

#include "testcluster/apiserver.h"
#include "testcluster/demoteams.h"
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

QJsonObject quotaObject(const QString &name, const QJsonObject &hard, qint64 age) {
    QJsonObject spec;
    spec.insert(QLatin1String("hard"), hard);
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(name, {}, age));
    o.insert(QLatin1String("spec"), spec);
    return o;
}

QJsonObject limitRangeObject(const QString &name, const QJsonArray &limits, qint64 age) {
    QJsonObject spec;
    spec.insert(QLatin1String("limits"), limits);
    QJsonObject o;
    o.insert(QLatin1String("metadata"), meta(name, {}, age));
    o.insert(QLatin1String("spec"), spec);
    return o;
}

QJsonObject containerLimits(const QJsonObject &defaults, const QJsonObject &defaultRequest,
                            const QJsonObject &max) {
    QJsonObject item;
    item.insert(QLatin1String("type"), QLatin1String("Container"));
    if (!defaults.isEmpty())
        item.insert(QLatin1String("default"), defaults);
    if (!defaultRequest.isEmpty())
        item.insert(QLatin1String("defaultRequest"), defaultRequest);
    if (!max.isEmpty())
        item.insert(QLatin1String("max"), max);
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
        hard.insert(QStringLiteral("requests.") + QLatin1String(team.gpuResource), QLatin1String(team.gpus));
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
        for (int i = 0; i < team.runningPodCount(); ++i) {
            const QString user = QLatin1String(team.userOfPod(i));
            const int gpus = team.runningGpus[std::size_t(i)];
            const QString name = QStringLiteral("%1-train-%2").arg(user).arg(i + 1);
            const qint64 age = 600 + (podIndex * 5471) % (3 * day);
            mustCreate(server, Resource::Pod, ns,
                       gpuPod(name, user, QLatin1String(team.gpuResource), gpus, gpus >= 4 ? "16" : "8",
                              gpus >= 4 ? "128Gi" : "64Gi", QLatin1String(images[podIndex % 4]), age));
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
}

} // namespace

bool loadScenario(ApiServer &server, Store &store, const QString &name, QString *error) {
    if (name != QLatin1String("empty") && name != QLatin1String("demo")) {
        *error = QStringLiteral("unknown scenario \"%1\" (expected empty or demo)").arg(name);
        return false;
    }
    systemNamespaces(server);
    if (name == QLatin1String("demo"))
        demo(server);
    std::lock_guard lock(store.mutex);
    store.compact();
    return true;
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
