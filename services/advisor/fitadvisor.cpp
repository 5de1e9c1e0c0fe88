#include "services/advisor/fitadvisor.h"

#include "core/advisor/gpumemory.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"

#include <QJsonArray>

namespace gq {

namespace {

template <typename T> Result<T> waitFor(QFuture<Result<T>> f) {
    f.waitForFinished();
    return f.result();
}

const KubeResource &nodesResource() {
    static const KubeResource r{QString(), QStringLiteral("v1"), QStringLiteral("nodes"),
                                QStringLiteral("Node"), false};
    return r;
}

// The namespace's first LocalQueue that points to a ClusterQueue with GPU quota, at the
// kueue.x-k8s.io version discovery offers (core/kueue). Without Kueue (no such API) or
// without access nothing is set.
void readKueue(KubeClient &client, const QString &ns, FitClusterFacts &facts) {
    const auto version = kueue::detectVersion(client);
    if (!version)
        return;
    auto queues = waitFor(client.list(kueue::resource(QStringLiteral("localqueues"), *version), ns));
    if (!queues)
        return;
    for (const QJsonObject &lq : std::as_const(queues->items)) {
        const QString cq = kueue::parseLocalQueue(lq).clusterQueue;
        if (cq.isEmpty())
            continue;
        auto queue =
            waitFor(client.get(kueue::resource(QStringLiteral("clusterqueues"), *version), QString(), cq));
        if (!queue)
            continue;
        if (const auto free = advisor::freeKueueGpus(*queue)) {
            facts.freeGpus = free;
            facts.gpusSource = QStringLiteral("Kueue ClusterQueue %1").arg(cq);
            return;
        }
    }
}

QJsonObject breakdownJson(const advisor::MemoryBreakdown &m) {
    return QJsonObject{{QStringLiteral("weights"), m.weights},
                       {QStringLiteral("gradients"), m.gradients},
                       {QStringLiteral("optimizer"), m.optimizer},
                       {QStringLiteral("activations"), m.activations},
                       {QStringLiteral("overhead"), m.overhead}};
}

} // namespace

Result<FitClusterFacts> readFitClusterFacts(KubeClient &client, const QString &ns) {
    FitClusterFacts facts;
    facts.ns = ns;
    auto quotas = waitFor(client.list(KubeResource::resourceQuotas(), ns));
    if (!quotas)
        return quotas.error();
    const auto quota = advisor::freeQuotaGpus(quotas->items);
    if (quota) {
        facts.freeGpus = quota->free;
        facts.gpusSource = QStringLiteral("ResourceQuota");
        // MIG slices: the memory is the profile's, whatever the nodes' GPUs have.
        if (quota->resource != QLatin1String("nvidia.com/gpu"))
            if (const auto slice = advisor::gpuMemoryForProduct(quota->resource)) {
                facts.product = quota->resource;
                facts.memoryBytes = *slice;
                facts.memorySource = QStringLiteral("MIG profile");
                return facts;
            }
    } else {
        readKueue(client, ns, facts);
    }
    auto nodes = waitFor(client.list(nodesResource(), QString()));
    if (!nodes) {
        facts.memoryError = QStringLiteral("cannot list nodes: %1").arg(nodes.error().message);
        return facts;
    }
    auto gpu = advisor::clusterGpu(nodes->items);
    if (!gpu) {
        facts.memoryError = gpu.error().message;
        return facts;
    }
    facts.product = gpu->product;
    facts.memoryBytes = gpu->memoryBytes;
    facts.memorySource = gpu->source;
    return facts;
}

FitBudget fitBudget(const Decision &d, double neededGpuHours) {
    FitBudget b;
    b.hasBudget = d.hasBudget;
    b.remaining = d.remaining;
    b.needed = neededGpuHours;
    b.allowed = d.allowed();
    b.decision = d.message;
    return b;
}

QJsonObject adviceJson(const advisor::AdviceRequest &r, const advisor::Advice &a,
                       const std::optional<FitClusterFacts> &cluster,
                       const std::optional<FitBudget> &budget) {
    using namespace advisor;
    const MethodFit &c = a.chosen;
    QJsonObject o{{QStringLiteral("model"), r.input.model.name.isEmpty() ? QJsonValue() : r.input.model.name},
                  {QStringLiteral("params"), r.input.model.params},
                  {QStringLiteral("method"), methodName(c.method)},
                  {QStringLiteral("gpus"), c.gpus},
                  {QStringLiteral("gpus_available"), r.gpusAvailable},
                  {QStringLiteral("zero"), c.zeroStage},
                  {QStringLiteral("gpu_memory_bytes"), r.gpuMemoryBytes},
                  {QStringLiteral("per_gpu_bytes"), c.perGpuBytes()},
                  {QStringLiteral("breakdown"), breakdownJson(c.memory)},
                  {QStringLiteral("fits"), c.fits},
                  {QStringLiteral("gpu_hours"), a.gpuHours(r.hours)}};
    if (a.autoMethod) {
        o.insert(
            QStringLiteral("recommendation"),
            QJsonObject{{QStringLiteral("method"), c.fits ? QJsonValue(methodName(c.method)) : QJsonValue()},
                        {QStringLiteral("gpus"), c.gpus},
                        {QStringLiteral("per_gpu_bytes"), c.perGpuBytes()},
                        {QStringLiteral("why"), c.why}});
        QJsonArray alternatives;
        for (const MethodFit &f : a.alternatives)
            alternatives.append(QJsonObject{{QStringLiteral("method"), methodName(f.method)},
                                            {QStringLiteral("gpus"), f.gpus},
                                            {QStringLiteral("zero"), f.zeroStage},
                                            {QStringLiteral("per_gpu_bytes"), f.perGpuBytes()},
                                            {QStringLiteral("fits"), f.fits},
                                            {QStringLiteral("why"), f.why}});
        o.insert(QStringLiteral("alternatives"), alternatives);
    }
    if (cluster) {
        o.insert(
            QStringLiteral("quota"),
            QJsonObject{
                {QStringLiteral("namespace"), cluster->ns},
                {QStringLiteral("gpus_free"),
                 cluster->freeGpus ? QJsonValue(double(*cluster->freeGpus)) : QJsonValue()},
                {QStringLiteral("gpus_source"),
                 cluster->gpusSource.isEmpty() ? QJsonValue() : cluster->gpusSource},
                {QStringLiteral("gpu_model"), cluster->product.isEmpty() ? QJsonValue() : cluster->product},
                {QStringLiteral("gpu_memory_bytes"),
                 cluster->memoryBytes > 0 ? QJsonValue(double(cluster->memoryBytes)) : QJsonValue()},
                {QStringLiteral("gpu_memory_source"),
                 cluster->memorySource.isEmpty() ? QJsonValue() : cluster->memorySource}});
    }
    if (budget) {
        o.insert(QStringLiteral("budget"),
                 QJsonObject{{QStringLiteral("remaining_gpu_hours"),
                              budget->hasBudget ? QJsonValue(budget->remaining) : QJsonValue()},
                             {QStringLiteral("needed_gpu_hours"), budget->needed},
                             {QStringLiteral("allowed"), budget->allowed},
                             {QStringLiteral("decision"), budget->decision}});
    }
    o.insert(QStringLiteral("swift_args"), QJsonArray::fromStringList(swiftArgs(r, c)));
    return o;
}

} // namespace gq
