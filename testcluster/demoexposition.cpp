#include "testcluster/demoexposition.h"

#include "resources/demo/demoteams.h"
#include "app/demo/syntheticfleet.h"

#include <QList>
#include <QString>

#include <algorithm>
#include <cmath>

namespace gq::tc {

namespace {

struct Gpu {
    QByteArray node;
    QByteArray model; // as dcgm-exporter prints modelName (spaces, not dashes)
    int index = 0;
    QByteArray migProfile; // empty: a whole GPU
    int migId = 0;
    QByteArray ns, pod; // empty: free
    bool idle = false;
    QByteArray claim{}; // a DRA team's: the ResourceClaim holding it (dcgm-exporter's dra_* labels)
};

// What dcgm-exporter reports for each model of the demo: framebuffer size (MiB, as
// FB_USED + FB_FREE add up on the real card) and power from idle to board limit.
struct ModelSpec {
    double memoryMiB;
    double idleWatts;
    double maxWatts;
};

ModelSpec modelSpec(const QByteArray &model) {
    if (model.contains("L40S"))
        return {46068, 35, 350};
    if (model.contains("L4"))
        return {23034, 16, 72};
    if (model.contains("A100"))
        return {81920, 55, 400};
    return {81559, 70, 700}; // H100 80GB HBM3
}

// The demo scenario's GPU nodes (scenarios.cpp, gpuNodes), in the order pods fill them.
QList<Gpu> demoGpus() {
    QList<Gpu> whole;
    const auto addNodes = [&](const char *prefix, int from, int to, const char *model) {
        for (int n = from; n <= to; ++n)
            for (int g = 0; g < 8; ++g)
                whole.append({QByteArray(prefix) + QByteArray::number(n), model, g, {}, 0, {}, {}, false});
    };
    addNodes("gpu-node-", 1, 4, "NVIDIA H100 80GB HBM3");
    addNodes("gpu-node-", 5, 6, "NVIDIA A100-SXM4-80GB");
    addNodes("gpu-node-", 7, 9, "NVIDIA L40S");
    addNodes("gpu-node-", 10, 10, "NVIDIA H100 80GB HBM3"); // demo::kDraNode: DRA only
    QList<Gpu> mig;
    for (int g = 0; g < 8; ++g)
        for (int i = 1; i <= 2; ++i)
            mig.append({"gpu-node-mig-1", "NVIDIA A100-SXM4-80GB", g, "3g.40gb", i, {}, {}, false});
    QList<Gpu> shared;
    QList<Gpu> sharedHolders; // further pods on a shared GPU: the same GPU, another holder
    for (int g = 0; g < 4; ++g)
        shared.append({"gpu-node-shared-1", "NVIDIA L4", g, {}, 0, {}, {}, false});

    qsizetype nextWhole = 0, nextMig = 0, sharedReplicas = 0;
    // DRA claims take demo::kDraNode's GPUs (gpu-node-10, the last whole-GPU node) in order.
    qsizetype nextDra = 0;
    const qsizetype draFirst =
        std::find_if(whole.cbegin(), whole.cend(), [](const Gpu &g) { return g.node == demo::kDraNode; }) -
        whole.cbegin();
    constexpr qsizetype kReplicasPerSharedGpu = 4; // the node's nvidia.com/gpu.replicas
    for (const demo::Team &team : demo::kTeams) {
        const QByteArray resource(team.gpuResource);
        for (int i = 0; i < team.runningPodCount(); ++i) {
            // The pod names of the scenario: <user>-train-<n>.
            const QByteArray pod = QByteArray(team.userOfPod(i)) + "-train-" + QByteArray::number(i + 1);
            const bool idle = qstrcmp(team.ns, demo::kIdleTeam) == 0 && i == demo::kIdlePod;
            const int count = team.runningGpus[std::size_t(i)];
            for (int k = 0; k < count; ++k) {
                Gpu *gpu = nullptr;
                if (team.usesDra()) {
                    if (draFirst + nextDra < whole.size()) {
                        gpu = &whole[draFirst + nextDra++];
                        gpu->claim = pod + "-gpus";
                    }
                } else if (resource.startsWith("nvidia.com/mig-")) {
                    if (nextMig < mig.size())
                        gpu = &mig[nextMig++];
                } else if (resource == "nvidia.com/gpu.shared") {
                    // Replicas fill one L4 before the next, as the device plugin hands
                    // them out. A GPU already held by another pod gets a series per pod,
                    // like dcgm-exporter's for a time-sliced GPU.
                    const qsizetype at = sharedReplicas++ / kReplicasPerSharedGpu;
                    if (at < shared.size()) {
                        Gpu &slot = shared[at];
                        if (!slot.pod.isEmpty()) {
                            sharedHolders.append(slot);
                            gpu = &sharedHolders.last();
                        } else {
                            gpu = &slot;
                        }
                    }
                } else {
                    // The device plugin's GPUs: never the DRA node's.
                    while (nextWhole < whole.size() && whole[nextWhole].node == demo::kDraNode)
                        ++nextWhole;
                    if (nextWhole < whole.size())
                        gpu = &whole[nextWhole++];
                }
                if (!gpu)
                    continue;
                gpu->ns = team.ns;
                gpu->pod = pod;
                gpu->idle = idle;
            }
        }
    }
    return whole + mig + shared + sharedHolders;
}

// Stable across runs (qHash is seeded per process): the same GPU keeps its UUID, so
// idle spans recorded by one demo run describe the same GPU as the next one's.
quint64 fnv1a(const QByteArray &s) {
    quint64 h = 0xcbf29ce484222325ULL;
    for (const char c : s) {
        h ^= quint64(quint8(c));
        h *= 0x100000001b3ULL;
    }
    return h;
}

} // namespace

QByteArray demoExposition(qint64 t) {
    static const QList<Gpu> gpus = demoGpus();
    QByteArray out;
    out.reserve(gpus.size() * 6 * 320);
    const auto families = metrics::dcgmFamilies().first(metrics::kReadFamilies);
    for (std::size_t f = 0; f < families.size(); ++f) {
        const metrics::ExporterFamily &fam = families[f];
        out += QByteArray("# HELP ") + fam.name + ' ' + fam.help + "\n# TYPE " + fam.name + ' ' + fam.type +
               '\n';
        for (qsizetype n = 0; n < gpus.size(); ++n) {
            const Gpu &g = gpus[n];
            const bool mig = !g.migProfile.isEmpty();
            if (mig && f == 0)
                continue; // MIG instances report no GPU_UTIL
            const quint64 id = quint64(n);
            const quint64 gpuId = fnv1a(g.node) % 0xffffff * 8 + quint64(g.index);
            QByteArray line = fam.name;
            line += "{gpu=\"" + QByteArray::number(g.index) + "\",UUID=\"GPU-" +
                    QByteArray::number(gpuId * 2654435761ULL % 0xffffffffULL, 16).rightJustified(8, '0') +
                    "-5c2e-11ef-9a7d-" + QByteArray::number(gpuId, 16).rightJustified(12, '0') +
                    "\",pci_bus_id=\"00000000:" + QByteArray::number(0x10 + g.index, 16).toUpper() +
                    ":00.0\",device=\"nvidia" + QByteArray::number(g.index) + "\",modelName=\"" + g.model +
                    '"';
            if (mig)
                line +=
                    ",GPU_I_PROFILE=\"" + g.migProfile + "\",GPU_I_ID=\"" + QByteArray::number(g.migId) + '"';
            line += ",Hostname=\"" + g.node + "\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"";
            const bool held = !g.pod.isEmpty();
            if (held && !g.claim.isEmpty())
                line += ",container=\"main\",dra_claim_name=\"" + g.claim + "\",dra_claim_namespace=\"" +
                        g.ns + "\",dra_device_name=\"gpu-" + QByteArray::number(g.index) +
                        "\",dra_driver_name=\"" + demo::kDraDriver + "\",dra_pool_name=\"" + g.node +
                        "\",namespace=\"" + g.ns + "\",pod=\"" + g.pod + '"';
            else if (held)
                line += ",container=\"main\",namespace=\"" + g.ns + "\",pod=\"" + g.pod + '"';
            line += "} ";
            // Busy GPUs swing between about 35 % and 98 % over a few minutes.
            const double phase = std::sin(double(t) / 90.0 + double(id));
            const double util = !held || g.idle ? metrics::syntheticNoise(id, 1, quint64(t / 5)) * 1.5
                                                : 35 + 60 * (0.5 + 0.5 * phase) *
                                                           (0.6 + 0.4 * metrics::syntheticNoise(id, 5, 3));
            const ModelSpec spec = mig ? ModelSpec{40192, 30, 150} : modelSpec(g.model);
            const double memory = spec.memoryMiB;
            switch (f) {
            case 0: line += QByteArray::number(std::round(util)); break;
            case 1: line += QByteArray::number(qint64(held ? memory * (0.25 + util / 150) : 0)); break;
            case 2: line += QByteArray::number(qint64(held ? memory * (0.75 - util / 150) : memory)); break;
            case 3:
                line += QByteArray::number(spec.idleWatts + util / 100 * (spec.maxWatts - spec.idleWatts),
                                           'f', 3);
                break;
            case 4: line += QByteArray::number(32 + qint64(util / 4)); break;
            case 5: line += QByteArray::number(util / 100.0, 'f', 6); break;
            default: break;
            }
            out += line;
            out += '\n';
        }
    }
    return out;
}

} // namespace gq::tc
