// Parse + validate throughput for quota documents (Google Benchmark): what
// `gpuquota validate` and the console's editor pay per manifest.
//   <build>/bin/bench_validate --benchmark_min_time=2
// Reports items_per_second (documents/s) and bytes_per_second (MB/s).
#include "core/domain/specformat.h"
#include "core/domain/validation.h"
#include "core/domain/yamldoc.h"

#include <benchmark/benchmark.h>

#include <QByteArray>

namespace {

// A realistic ResourceQuota as `kubectl get -o yaml` prints it, plus comments.
const QByteArray kQuota = R"(# GPU team quota
apiVersion: v1
kind: ResourceQuota
metadata:
  annotations:
    gpuquota.io/budget: "1000h"
  creationTimestamp: "2024-05-01T10:00:00Z"
  labels:
    app.kubernetes.io/managed-by: gpuquota
    team: ml
  name: gpu-quota
  namespace: ml-team
  resourceVersion: "123456"
  uid: 0b6c4a39-2f0e-4cde-9c4b-2f6c1a2b3c4d
spec:
  hard:
    requests.nvidia.com/gpu: "8"
    requests.nvidia.com/mig-1g.10gb: "14"
    requests.cpu: "64"
    requests.memory: 512Gi
    limits.memory: 1Ti
    pods: "40"
    count/jobs.batch: "100"
  scopeSelector:
    matchExpressions:
    - operator: NotIn
      scopeName: PriorityClass
      values:
      - preemptible
status:
  hard:
    requests.nvidia.com/gpu: "8"
    requests.cpu: "64"
    pods: "40"
  used:
    requests.nvidia.com/gpu: "3"
    requests.cpu: 12500m
    pods: "5"
)";

const QByteArray kLimitRange = R"(apiVersion: v1
kind: LimitRange
metadata:
  name: gpu-defaults
  namespace: ml-team
spec:
  limits:
  - type: Container
    default: {nvidia.com/gpu: 1, cpu: "2", memory: 8Gi}
    defaultRequest: {nvidia.com/gpu: 1, cpu: 500m, memory: 4Gi}
    max: {nvidia.com/gpu: 4, nvidia.com/mig-3g.40gb: 2}
    maxLimitRequestRatio: {cpu: 4}
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 1Ti}
)";

// N quotas in one `kind: List`, as `kubectl get resourcequota -A -o yaml` prints.
QByteArray quotaList(int n) {
    QByteArray out = "apiVersion: v1\nkind: List\nitems:\n";
    QByteArray item = kQuota;
    item.replace("# GPU team quota\n", "");
    for (int i = 0; i < n; ++i) {
        QByteArray copy = item;
        copy.replace("namespace: ml-team", QByteArray("namespace: team-" + QByteArray::number(i)));
        const QList<QByteArray> lines = copy.split('\n');
        bool first = true;
        for (const QByteArray &line : lines) {
            if (line.isEmpty())
                continue;
            out += (first ? "- " : "  ") + line + '\n';
            first = false;
        }
    }
    return out;
}

void parseAndValidate(benchmark::State &state, const QByteArray &text) {
    qsizetype objects = 0;
    for (auto _ : state) {
        auto doc = gq::loadYaml(text);
        if (!doc) {
            state.SkipWithError("document does not load");
            return;
        }
        qsizetype errors = 0;
        for (const gq::YamlObject &o : doc->objects)
            errors += gq::validateObject(o).size();
        if (errors != 0) {
            state.SkipWithError("benchmark document is not valid");
            return;
        }
        objects = doc->objects.size();
        benchmark::DoNotOptimize(errors);
    }
    state.SetItemsProcessed(state.iterations() * objects);
    state.SetBytesProcessed(state.iterations() * text.size());
}

void BM_ParseValidate_Quota(benchmark::State &state) {
    parseAndValidate(state, kQuota);
}
void BM_ParseValidate_LimitRange(benchmark::State &state) {
    parseAndValidate(state, kLimitRange);
}
void BM_ParseValidate_List(benchmark::State &state) {
    parseAndValidate(state, quotaList(int(state.range(0))));
}

void BM_ParseOnly_Quota(benchmark::State &state) {
    for (auto _ : state) {
        auto doc = gq::loadYaml(kQuota);
        benchmark::DoNotOptimize(doc);
    }
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(state.iterations() * kQuota.size());
}

void BM_ValidateOnly_Quota(benchmark::State &state) {
    auto doc = gq::loadYaml(kQuota);
    const gq::YamlObject object = doc->objects.first();
    for (auto _ : state) {
        auto errors = gq::validateObject(object);
        benchmark::DoNotOptimize(errors);
    }
    state.SetItemsProcessed(state.iterations());
}

void BM_Fmt_Quota(benchmark::State &state) {
    for (auto _ : state) {
        auto r = gq::formatQuantities(kQuota);
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(state.iterations());
    state.SetBytesProcessed(state.iterations() * kQuota.size());
}

} // namespace

BENCHMARK(BM_ParseValidate_Quota);
BENCHMARK(BM_ParseValidate_LimitRange);
BENCHMARK(BM_ParseValidate_List)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseOnly_Quota);
BENCHMARK(BM_ValidateOnly_Quota);
BENCHMARK(BM_Fmt_Quota);

BENCHMARK_MAIN();
