#include "app/demo/syntheticfleet.h"

#include <cmath>

namespace gq::metrics {

namespace {

// The six families the mapping reads, then the rest of dcgm-exporter's default set
// (values only need to look plausible).
constexpr ExporterFamily kFamilies[] = {
    {"DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %)."},
    {"DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB)."},
    {"DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB)."},
    {"DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W)."},
    {"DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C)."},
    {"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active."},
    {"DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz)."},
    {"DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz)."},
    {"DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C)."},
    {"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ)."},
    {"DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries."},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %)."},
    {"DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %)."},
    {"DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %)."},
    {"DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered."},
    {"DCGM_FI_DEV_FB_RESERVED", "gauge", "Framebuffer memory reserved (in MiB)."},
    {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "gauge", "Ratio of cycles the tensor (HMMA) pipe is active."},
    {"DCGM_FI_PROF_DRAM_ACTIVE", "gauge",
     "Ratio of cycles the device memory interface is active sending or receiving data."},
    {"DCGM_FI_PROF_PCIE_TX_BYTES", "counter",
     "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - "
     "in bytes per second."},
    {"DCGM_FI_PROF_PCIE_RX_BYTES", "counter",
     "The rate of data received over the PCIe bus - including both protocol headers and data payloads - in "
     "bytes per second."},
};
static_assert(std::size(kFamilies) > kReadFamilies);

} // namespace

double syntheticNoise(quint64 a, quint64 b, quint64 c) {
    quint64 x = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL ^
                c * 0x94d049bb133111ebULL;
    x ^= x >> 31;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return double(x % 1000000) / 1e6;
}

std::span<const ExporterFamily> dcgmFamilies() {
    return kFamilies;
}

QByteArray fleetExposition(const FleetSpec &spec, qint64 t) {
    const int familyCount = spec.families > 0
                                ? std::min<int>(kReadFamilies + spec.families, int(std::size(kFamilies)))
                                : int(std::size(kFamilies));
    QByteArray out;
    out.reserve(qsizetype(spec.nodes) * spec.gpusPerNode * familyCount * 300);
    for (int f = 0; f < familyCount; ++f) {
        const ExporterFamily &fam = kFamilies[f];
        out += "# HELP ";
        out += fam.name;
        out += ' ';
        out += fam.help;
        out += "\n# TYPE ";
        out += fam.name;
        out += ' ';
        out += fam.type;
        out += '\n';
        for (int n = 0; n < spec.nodes; ++n) {
            const int node = spec.firstNode + n;
            for (int g = 0; g < spec.gpusPerNode; ++g) {
                const quint64 id = quint64(node) * 64 + quint64(g);
                const bool mig = spec.migEvery > 0 && id % quint64(spec.migEvery) == 3;
                const int instances = mig ? 3 : 1;
                for (int i = 0; i < instances; ++i) {
                    // MIG instances report no GPU_UTIL; whole GPUs no instance labels.
                    if (mig && f == 0)
                        continue;
                    const bool allocated = syntheticNoise(id, i, 7) < 0.7; // 70 % of GPUs hold a pod
                    QByteArray line = fam.name;
                    line += "{gpu=\"";
                    line += QByteArray::number(g);
                    line += "\",UUID=\"GPU-";
                    line += QByteArray::number(id * 2654435761ULL % 0xffffffffULL, 16).rightJustified(8, '0');
                    line += "-5c2e-11ef-9a7d-";
                    line += QByteArray::number(id, 16).rightJustified(12, '0');
                    line += "\",pci_bus_id=\"00000000:";
                    line += QByteArray::number(0x10 + g, 16).toUpper();
                    line += ":00.0\",device=\"nvidia";
                    line += QByteArray::number(g);
                    line += "\",modelName=\"NVIDIA A100-SXM4-80GB\"";
                    if (mig) {
                        line += ",GPU_I_PROFILE=\"";
                        line += i == 0 ? "3g.40gb" : "2g.20gb";
                        line += "\",GPU_I_ID=\"";
                        line += QByteArray::number(i + 1);
                        line += '"';
                    }
                    line += ",Hostname=\"gpu-node-";
                    line += QByteArray::number(node);
                    line += "\",DCGM_FI_DRIVER_VERSION=\"550.54.15\"";
                    if (allocated) {
                        const int team = int(syntheticNoise(id, i, 11) * 12);
                        line += ",container=\"main\",namespace=\"team-";
                        line += QByteArray::number(team);
                        line += "\",pod=\"job-";
                        line += QByteArray::number(id * 7 + quint64(i));
                        line += '-';
                        line += QByteArray::number(t / 3600);
                        line += '"';
                    }
                    line += "} ";
                    // Busy pods swing slowly; some allocated GPUs sit idle.
                    const double phase = std::sin(double(t) / 120.0 + double(id));
                    const bool idle = allocated && syntheticNoise(id, i, 13) < 0.25;
                    const double util = !allocated || idle
                                            ? syntheticNoise(id, i, quint64(t / 5)) * 3
                                            : 40 + 55 * (0.5 + 0.5 * phase) * syntheticNoise(id, 5, 3);
                    switch (f) {
                    case 0: line += QByteArray::number(std::round(util)); break;
                    case 1: line += QByteArray::number(allocated ? 20000 + qint64(util * 500) : 0); break;
                    case 2: line += QByteArray::number(allocated ? 61000 - qint64(util * 500) : 81037); break;
                    case 3: line += QByteArray::number(60 + util * 3.4, 'f', 6); break;
                    case 4: line += QByteArray::number(32 + qint64(util / 4)); break;
                    case 5: line += QByteArray::number(util / 100.0, 'f', 6); break;
                    default:
                        line += QByteArray::number(qint64(syntheticNoise(id, quint64(f), quint64(t)) * 1000));
                        break;
                    }
                    out += line;
                    out += '\n';
                }
            }
        }
    }
    return out;
}

} // namespace gq::metrics
