#pragma once

// The demo's GPU teams, in one place: the test cluster's "demo" scenario creates
// their namespaces, quotas and running pods from this table, and the console's
// --demo seeds its usage database with the same teams, users and GPU counts, so
// the usage history matches the pods the demo cluster shows. Header-only and
// Qt-free so both programs include it without linking each other.

#include <array>
#include <cstddef>

namespace gq::demo {

struct Team {
    const char *ns;
    // "nvidia.com/gpu" or a MIG profile; for a team whose GPUs come from DRA claims, the
    // class's quota key "<class>.deviceclass.resource.k8s.io/devices" (usesDra()).
    const char *gpuResource;
    // spec.hard of the team's "gpu-quota"
    const char *gpus; // requests.<gpuResource>
    const char *cpu;  // requests.cpu
    const char *memory;
    const char *limitsCpu;
    const char *limitsMemory;
    const char *pods;                  // count/pods
    std::array<const char *, 3> users; // take turns over the running pods; nullptr ends
    std::array<int, 6> runningGpus;    // GPUs per running pod; 0 ends

    [[nodiscard]] constexpr int userCount() const {
        int n = 0;
        while (n < int(users.size()) && users[std::size_t(n)] != nullptr)
            ++n;
        return n;
    }
    [[nodiscard]] constexpr int runningPodCount() const {
        int n = 0;
        while (n < int(runningGpus.size()) && runningGpus[std::size_t(n)] != 0)
            ++n;
        return n;
    }
    // Who runs the i-th running pod.
    [[nodiscard]] constexpr const char *userOfPod(int i) const { return users[std::size_t(i % userCount())]; }
    [[nodiscard]] constexpr bool usesDra() const {
        constexpr char suffix[] = ".deviceclass.resource.k8s.io/devices";
        std::size_t n = 0;
        while (gpuResource[n] != '\0')
            ++n;
        constexpr std::size_t k = sizeof(suffix) - 1;
        if (n < k)
            return false;
        for (std::size_t i = 0; i < k; ++i)
            if (gpuResource[n - k + i] != suffix[i])
                return false;
        return true;
    }
    [[nodiscard]] constexpr int runningGpuTotal() const {
        int sum = 0;
        for (int i = 0; i < runningPodCount(); ++i)
            sum += runningGpus[std::size_t(i)];
        return sum;
    }
};

inline constexpr std::array<Team, 9> kTeams{{
    {"team-vision",
     "nvidia.com/gpu",
     "16",
     "128",
     "1Ti",
     "256",
     "2Ti",
     "40",
     {"alice", "bob", "chen"},
     {4, 4, 2, 2, 1, 0}},
    {"team-nlp",
     "nvidia.com/gpu",
     "32",
     "256",
     "2Ti",
     "512",
     "4Ti",
     "60",
     {"dana", "erik", "fatima"},
     {8, 8, 4, 4, 2, 0}},
    {"team-speech",
     "nvidia.com/gpu",
     "8",
     "64",
     "512Gi",
     "128",
     "1Ti",
     "20",
     {"gus", "hana", nullptr},
     {1, 1, 0, 0, 0, 0}},
    {"research",
     "nvidia.com/gpu",
     "8",
     "96",
     "768Gi",
     "192",
     "1536Gi",
     "30",
     {"ivan", "jun", "kemal"},
     {2, 2, 1, 0, 0, 0}},
    {"platform-ml",
     "nvidia.com/mig-3g.40gb",
     "14",
     "64",
     "512Gi",
     "128",
     "1Ti",
     "50",
     {"lena", "mo", nullptr},
     {2, 2, 1, 1, 0, 0}},
    // Time-sliced L4s (nvidia.com/gpu.replicas 4): two pods of one replica each share
    // one GPU, a quarter of it each.
    {"team-recsys",
     "nvidia.com/gpu.shared",
     "4",
     "32",
     "256Gi",
     "64",
     "512Gi",
     "20",
     {"priya", nullptr, nullptr},
     {1, 1, 0, 0, 0, 0}},
    // Its second pod holds a GPU that sits idle (the demo exporter keeps it near 0 %).
    {"team-robotics",
     "nvidia.com/gpu",
     "8",
     "64",
     "512Gi",
     "128",
     "1Ti",
     "20",
     {"nora", "omar", nullptr},
     {2, 1, 0, 0, 0, 0}},
    {"team-genai",
     "nvidia.com/gpu",
     "16",
     "256",
     "2Ti",
     "512",
     "4Ti",
     "40",
     {"quinn", "rosa", nullptr},
     {8, 4, 0, 0, 0, 0}},
    // GPUs through DRA: each running pod names a ResourceClaim of the class gpu.nvidia.com
    // that the demo allocates on kDraNode (NVIDIA's DRA driver's names).
    {"team-dra",
     "gpu.nvidia.com.deviceclass.resource.k8s.io/devices",
     "8",
     "64",
     "512Gi",
     "128",
     "1Ti",
     "20",
     {"sara", "tomas", nullptr},
     {2, 1, 0, 0, 0, 0}},
}};

// The DRA team's device class, driver and node: the demo publishes a ResourceSlice of
// kDraNode's eight H100s (gpu-0..gpu-7) for the driver; its claims take them in order.
// The node advertises no nvidia.com/gpu: its GPUs are the driver's alone.
inline constexpr const char *kDraClass = "gpu.nvidia.com";
inline constexpr const char *kDraDriver = "gpu.nvidia.com";
inline constexpr const char *kDraNode = "gpu-node-10";

// When the i-th running pod of a team started, in seconds before the demo starts: the
// test cluster backdates the pods' start by this much and the usage history's running
// intervals begin then, so GPU-hours so far agree with the pods (1 h to 4 h 20 min).
[[nodiscard]] constexpr long long runningPodAgeSeconds(int i) {
    return 3600 + static_cast<long long>(i) * 40 * 60;
}

// The running pod whose GPU the demo exporter shows idle (utilization ~0 all along).
inline constexpr const char *kIdleTeam = "team-robotics";
inline constexpr int kIdlePod = 1;

// The team in budget grace (just over its daily limit) and the one past it, clamped by
// the demo's controller.
inline constexpr const char *kGraceTeam = "team-speech";
inline constexpr const char *kOverTeam = "team-nlp";

// The README and tst_console show team-vision near its limit (13 of 16 GPUs, >= 80 %).
static_assert(kTeams[0].runningGpuTotal() == 13, "team-vision runs 13 of its 16 GPUs");
static_assert(kTeams[8].usesDra() && !kTeams[0].usesDra(), "team-dra holds its GPUs through DRA claims");

} // namespace gq::demo
