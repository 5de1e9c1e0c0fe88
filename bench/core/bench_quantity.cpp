// Throughput of Quantity parsing and canonical printing on a mix shaped like real quota
// documents: CPU in cores and millicores, memory in binary and decimal units, GPU counts,
// a few exponent and sub-milli forms that force rounding.
#include "core/domain/quantity.h"

#include <benchmark/benchmark.h>

#include <QList>
#include <QString>

namespace {

const QList<QString> &mix() {
    static const QList<QString> texts = [] {
        QList<QString> out;
        for (const char *s : {"500m", "2",     "4",      "100m",   "1.5",    "250m",     "8",      "16",
                              "0.5",  "64",    "128Gi",  "1536Mi", "512Mi",  "1.5Gi",    "2Ti",    "1G",
                              "500M", "100Ki", "4Gi",    "32Gi",   "1",      "2",        "4",      "8",
                              "1e3",  "12e6",  "1.1E-9", "3.001n", "0.0001", "100.035k", "1024Ki", "9Ei"})
            out.append(QString::fromLatin1(s));
        return out;
    }();
    return texts;
}

// The mix, parsed once, for the benchmarks that start from quantities.
QList<gq::Quantity> parsedMix() {
    QList<gq::Quantity> quantities;
    for (const QString &t : mix())
        quantities.append(*gq::Quantity::parse(t));
    return quantities;
}

void BM_QuantityParse(benchmark::State &state) {
    const auto &texts = mix();
    for (auto _ : state) {
        for (const QString &t : texts) {
            auto q = gq::Quantity::parse(t);
            benchmark::DoNotOptimize(q);
        }
    }
    state.SetItemsProcessed(state.iterations() * texts.size());
}
BENCHMARK(BM_QuantityParse);

void BM_QuantityToString(benchmark::State &state) {
    const QList<gq::Quantity> quantities = parsedMix();
    for (auto _ : state) {
        for (const gq::Quantity &q : quantities) {
            QString s = q.toString();
            benchmark::DoNotOptimize(s);
        }
    }
    state.SetItemsProcessed(state.iterations() * quantities.size());
}
BENCHMARK(BM_QuantityToString);

void BM_QuantityParseAndCanonicalize(benchmark::State &state) {
    const auto &texts = mix();
    for (auto _ : state) {
        for (const QString &t : texts) {
            QString s = gq::Quantity::parse(t)->toString();
            benchmark::DoNotOptimize(s);
        }
    }
    state.SetItemsProcessed(state.iterations() * texts.size());
}
BENCHMARK(BM_QuantityParseAndCanonicalize);

void BM_QuantitySum(benchmark::State &state) {
    const QList<gq::Quantity> quantities = parsedMix();
    for (auto _ : state) {
        gq::Quantity total;
        for (const gq::Quantity &q : quantities)
            total = *total.plus(q);
        benchmark::DoNotOptimize(total);
    }
    state.SetItemsProcessed(state.iterations() * quantities.size());
}
BENCHMARK(BM_QuantitySum);

} // namespace

BENCHMARK_MAIN();
