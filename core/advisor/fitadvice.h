#pragma once

#include "core/advisor/fitestimate.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace gq::advisor {

// What the advisor is asked: the model and training settings (input.method, .gpus and
// .zeroStage are chosen per method), the GPUs the namespace may still take and their
// memory, and how long the run takes.
struct AdviceRequest {
    FitInput input;
    std::optional<Method> method; // nullopt: auto
    std::optional<int> zeroStage; // nullopt: ZeRO-3 when more than one GPU is used
    int gpusAvailable = 1;
    double gpuMemoryBytes = 0;
    double hours = 1;
};

// One method on the GPUs available: the fewest GPUs (≤ available) on which it fits,
// else all of them with fits false.
struct MethodFit {
    Method method = Method::Full;
    int gpus = 1;
    int zeroStage = 0;
    MemoryBreakdown memory;
    bool fits = false;
    QString why; // "full: 112.0 GB per GPU > 80.0 GB"
    [[nodiscard]] double perGpuBytes() const { return memory.total(); }
};

struct Advice {
    QList<MethodFit> alternatives; // full, lora, qlora (only the asked one when not auto)
    MethodFit chosen;              // the recommendation (auto) or the asked method; for
                                   // auto when nothing fits, the one needing least memory
    bool autoMethod = true;
    [[nodiscard]] bool fits() const { return chosen.fits; }
    [[nodiscard]] double gpuHours(double hours) const { return chosen.gpus * hours; }
};

// Full fine-tuning (ZeRO-3 / FSDP on more than one GPU), LoRA (ZeRO-3 across GPUs when one
// does not hold the frozen base), QLoRA (one GPU; more only add speed). Auto picks the
// first that fits in that order.
[[nodiscard]] MethodFit fitMethod(const AdviceRequest &request, Method method);
[[nodiscard]] Advice advise(const AdviceRequest &request);

// The ms-swift `swift sft` flags (ms-swift 2.x names) of a fit: --model_type when the
// catalogue knows it, --sft_type, --quantization_bit 4 with NF4 and double quantization
// for QLoRA, --dtype, --max_length, --batch_size, --use_flash_attn, --gradient_checkpointing,
// --lora_rank, --optim for non-AdamW optimizers, --deepspeed default-zeroN.
[[nodiscard]] QStringList swiftArgs(const AdviceRequest &request, const MethodFit &fit);

} // namespace gq::advisor
