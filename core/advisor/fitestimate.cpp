#include "core/advisor/fitestimate.h"

#include <cmath>

#include <algorithm>

namespace gq::advisor {

QString methodName(Method m) {
    switch (m) {
    case Method::Full: return QStringLiteral("full");
    case Method::Lora: return QStringLiteral("lora");
    case Method::Qlora: return QStringLiteral("qlora");
    }
    return {};
}

QString dtypeName(Dtype d) {
    switch (d) {
    case Dtype::Bf16: return QStringLiteral("bf16");
    case Dtype::Fp16: return QStringLiteral("fp16");
    case Dtype::Fp32: return QStringLiteral("fp32");
    }
    return {};
}

QString optimizerName(Optimizer o) {
    switch (o) {
    case Optimizer::AdamW: return QStringLiteral("adamw");
    case Optimizer::AdamW8bit: return QStringLiteral("adamw-8bit");
    case Optimizer::Sgd: return QStringLiteral("sgd");
    }
    return {};
}

double weightBytesPerParam(Dtype dtype) {
    return dtype == Dtype::Fp32 ? 4 : 2;
}

double optimizerBytesPerParam(Dtype dtype, Optimizer optimizer) {
    const double master = dtype == Dtype::Fp32 ? 0 : 4;
    switch (optimizer) {
    case Optimizer::AdamW: return master + 8;
    case Optimizer::AdamW8bit: return master + 2;
    case Optimizer::Sgd: return master + 4;
    }
    return master + 8;
}

double loraParams(const ModelShape &m, int rank) {
    const double h = m.hidden;
    const double kv = m.heads > 0 ? h / m.heads * std::max(1, m.kvHeads) : h;
    const double f = m.intermediate > 0 ? m.intermediate : 4 * h;
    const double attention = (h + h) + (h + kv) + (h + kv) + (h + h); // q, k, v, o
    const double mlp = 3 * (h + f) * std::max(1, m.experts);          // gate, up, down
    return double(rank) * (attention + mlp) * m.layers;
}

double activationBytesPerLayer(const ModelShape &m, int seqLen, int microBatch, bool flash) {
    const double s = seqLen, b = microBatch, h = m.hidden, a = m.heads;
    const double perToken = 34 + 19.0 * (std::max(1, m.expertsPerToken) - 1); // MoE: MLP × top-k
    const double attentionScores = flash ? 0 : 5 * a * s / h;
    return s * b * h * (perToken + attentionScores);
}

double activationBytes(const FitInput &in) {
    const ModelShape &m = in.model;
    const double s = in.seqLen, b = in.microBatch, h = m.hidden;
    const double layer = activationBytesPerLayer(m, in.seqLen, in.microBatch, in.flashAttention);
    const double blocks = in.gradientCheckpointing ? 2 * s * b * h * m.layers + layer : layer * m.layers;
    const double logits = 4 * s * b * m.vocab;
    return (blocks + logits) * (in.dtype == Dtype::Fp32 ? 2 : 1);
}

namespace {

// Embedding and (untied) output layer: never quantized, never LoRA-adapted.
double embeddingParams(const ModelShape &m) {
    return double(m.vocab) * m.hidden * (m.tiedEmbeddings ? 1 : 2);
}

void modelStates(const FitInput &in, MemoryBreakdown &out) {
    const double psi = in.model.params;
    const double nd = std::max(1, in.gpus);
    const double w = weightBytesPerParam(in.dtype);
    switch (in.method) {
    case Method::Full: {
        const double k = optimizerBytesPerParam(in.dtype, in.optimizer);
        const int stage = std::clamp(in.zeroStage, 0, 3);
        out.weights = w * psi / (stage >= 3 ? nd : 1);
        out.gradients = w * psi / (stage >= 2 ? nd : 1);
        out.optimizer = k * psi / (stage >= 1 ? nd : 1);
        return;
    }
    case Method::Lora:
    case Method::Qlora: {
        const double trainable = loraParams(in.model, in.loraRank);
        const double k = optimizerBytesPerParam(in.dtype, in.optimizer);
        double base = 0;
        if (in.method == Method::Lora) {
            base = w * psi;
        } else {
            const double emb = std::min(psi, embeddingParams(in.model));
            base = (psi - emb) * kNf4BitsPerParam / 8 + emb * 2;
        }
        // ZeRO-3 shards the frozen base too (LoRA only: a 4-bit base is not sharded).
        const bool shard = in.method == Method::Lora && in.zeroStage >= 3;
        out.weights = (base + w * trainable) / (shard ? nd : 1);
        out.gradients = w * trainable / (in.zeroStage >= 2 ? nd : 1);
        out.optimizer = k * trainable / (in.zeroStage >= 1 ? nd : 1);
        return;
    }
    }
}

} // namespace

MemoryBreakdown estimate(const FitInput &in) {
    MemoryBreakdown out;
    modelStates(in, out);
    out.activations = activationBytes(in);
    out.overhead = kCudaContextBytes + kFragmentation * (out.modelStates() + out.activations);
    // Whole bytes (a fraction of a byte per GPU is noise, and `-o json` prints bytes).
    for (double *part : {&out.weights, &out.gradients, &out.optimizer, &out.activations, &out.overhead})
        *part = std::round(*part);
    return out;
}

QString formatGB(double bytes) {
    return QStringLiteral("%1 GB").arg(bytes / 1e9, 0, 'f', 1);
}

} // namespace gq::advisor
