#pragma once

#include "core/advisor/modelcatalog.h"

#include <QString>

namespace gq::advisor {

enum class Method { Full, Lora, Qlora };
enum class Dtype { Bf16, Fp16, Fp32 };
enum class Optimizer { AdamW, AdamW8bit, Sgd };

[[nodiscard]] QString methodName(Method m);       // "full", "lora", "qlora"
[[nodiscard]] QString dtypeName(Dtype d);         // "bf16", "fp16", "fp32"
[[nodiscard]] QString optimizerName(Optimizer o); // "adamw", "adamw-8bit", "sgd"

// What is asked of one GPU configuration.
struct FitInput {
    ModelShape model;
    Method method = Method::Full;
    Dtype dtype = Dtype::Bf16;
    Optimizer optimizer = Optimizer::AdamW;
    int zeroStage = 0; // DeepSpeed ZeRO 0..3 (3 is also FSDP full sharding)
    int gpus = 1;      // data-parallel degree Nd
    int seqLen = 2048;
    int microBatch = 1;
    bool gradientCheckpointing = false;
    bool flashAttention = false;
    int loraRank = 8;
};

// Bytes per GPU, by part.
struct MemoryBreakdown {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double overhead = 0;
    [[nodiscard]] double modelStates() const { return weights + gradients + optimizer; }
    [[nodiscard]] double total() const { return modelStates() + activations + overhead; }
};

// ---- The formulas (Ψ parameters, Nd GPUs, bytes) -------------------------------------
//
// Model states, after Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training
// Trillion Parameter Models" (SC'20), Sec. 3.1 and 5: 16-bit weights 2Ψ, 16-bit
// gradients 2Ψ, optimizer states KΨ, K = 12 for mixed-precision Adam (fp32 master
// weights, momentum, variance: 4+4+4). Per GPU:
//   ZeRO-0 (plain data parallel)  (2 + 2 + K)Ψ
//   ZeRO-1 (optimizer states)     (2 + 2)Ψ + KΨ/Nd
//   ZeRO-2 (+ gradients)          2Ψ + (2 + K)Ψ/Nd
//   ZeRO-3 / FSDP (+ weights)     (2 + 2 + K)Ψ/Nd
// K by optimizer: adamw 12; adamw-8bit 6 (fp32 master 4 + two 8-bit moments 1+1, the
// bitsandbytes block constants neglected); sgd with momentum 8 (fp32 master 4 +
// momentum 4). With fp32 training there is no master copy: weights and gradients are
// 4 bytes each and K = 8 / 2 / 4.
[[nodiscard]] double optimizerBytesPerParam(Dtype dtype, Optimizer optimizer);
[[nodiscard]] double weightBytesPerParam(Dtype dtype);

// LoRA (Hu et al. 2021) on every linear layer of every block (q, k, v, o, gate, up,
// down; for a MoE each expert's MLP): a module d_in→d_out gets r·(d_in + d_out)
// trainable parameters. Trainable parameters cost 16 bytes each (16-bit weight and
// gradient, fp32 master copy and two Adam moments: the same 2+2+12); the frozen base
// is held in the training dtype (LoRA) or in NF4 (QLoRA).
[[nodiscard]] double loraParams(const ModelShape &m, int rank);
// QLoRA (Dettmers et al. 2023): 4-bit NormalFloat with double quantization costs
// 4 + 0.127 bits per quantized parameter (Sec. 3: 0.127 bits of constants after
// double quantization). Embeddings and the output layer stay 16-bit.
inline constexpr double kNf4BitsPerParam = 4.127;

// Activations, after Korthikanti et al., "Reducing Activation Recomputation in Large
// Transformer Models" (MLSys 2023), Sec. 4, eq. (1), no tensor/sequence parallelism,
// 16-bit activations, per transformer layer:
//   without recomputation                     s·b·h·(34 + 5·a·s/h)
//   selective recomputation / flash attention 34·s·b·h   (the a·s² attention scores
//                                              are never stored)
//   full recomputation (gradient checkpoint)  2·s·b·h   (only the layer's input), plus
//                                              one layer's working set during backward
// plus the output layer's fp32 logits, 4·s·b·V (their Sec. 4.3). The 34 assumes an MLP
// of 4h; of it 19·s·b·h is the MLP, which a MoE runs expertsPerToken times. fp32
// training doubles every term.
[[nodiscard]] double activationBytesPerLayer(const ModelShape &m, int seqLen, int microBatch, bool flash);
[[nodiscard]] double activationBytes(const FitInput &in);

// Overhead: the CUDA context and the framework's kernels (1 GiB, stated for a recent
// PyTorch build) plus 10 % of everything else for the caching allocator's
// fragmentation.
inline constexpr double kCudaContextBytes = 1024.0 * 1024 * 1024;
inline constexpr double kFragmentation = 0.10;

// The peak memory of one GPU.
[[nodiscard]] MemoryBreakdown estimate(const FitInput &in);

// "112.0 GB" (10^9 bytes, one decimal).
[[nodiscard]] QString formatGB(double bytes);

} // namespace gq::advisor
