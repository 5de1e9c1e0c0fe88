#include "core/advisor/fitadvice.h"

#include <QHash>

namespace gq::advisor {

namespace {

MethodFit evaluate(const AdviceRequest &r, Method method, int gpus, int zero) {
    FitInput in = r.input;
    in.method = method;
    in.gpus = gpus;
    in.zeroStage = gpus > 1 ? zero : 0;
    MethodFit f;
    f.method = method;
    f.gpus = gpus;
    f.zeroStage = in.zeroStage;
    f.memory = estimate(in);
    f.fits = r.gpuMemoryBytes > 0 && f.memory.total() <= r.gpuMemoryBytes;
    QString where;
    if (gpus > 1)
        where = f.zeroStage > 0 ? QStringLiteral(" with ZeRO-%1 on %2 GPUs").arg(f.zeroStage).arg(gpus)
                                : QStringLiteral(" on %1 GPUs").arg(gpus);
    f.why = QStringLiteral("%1: %2 per GPU %3 %4%5")
                .arg(methodName(method), formatGB(f.memory.total()),
                     f.fits ? QStringLiteral("≤") : QStringLiteral(">"), formatGB(r.gpuMemoryBytes), where);
    return f;
}

} // namespace

MethodFit fitMethod(const AdviceRequest &r, Method method) {
    const int available = std::max(0, r.gpusAvailable);
    if (available == 0) {
        MethodFit f = evaluate(r, method, 1, 0);
        f.fits = false;
        f.gpus = 0;
        f.why = QStringLiteral("%1: no GPU left to run on").arg(methodName(method));
        return f;
    }
    // QLoRA keeps one 4-bit copy per GPU: more GPUs only add speed, never room.
    const int maxGpus = method == Method::Qlora ? 1 : available;
    const int zero = r.zeroStage.value_or(3);
    MethodFit last;
    for (int n = 1; n <= maxGpus; ++n) {
        last = evaluate(r, method, n, method == Method::Qlora ? std::min(zero, 2) : zero);
        if (last.fits)
            return last;
        // Without sharding of the weights more GPUs never lower the peak below one GPU's
        // model states: stop at the first when ZeRO < 1 makes every GPU hold all of them.
        if (n == 1 && maxGpus > 1 && zero == 0)
            return evaluate(r, method, maxGpus, 0);
    }
    return last;
}

Advice advise(const AdviceRequest &r) {
    Advice a;
    a.autoMethod = !r.method.has_value();
    if (!a.autoMethod) {
        a.chosen = fitMethod(r, *r.method);
        a.alternatives = {a.chosen};
        return a;
    }
    for (Method m : {Method::Full, Method::Lora, Method::Qlora})
        a.alternatives.append(fitMethod(r, m));
    const MethodFit *best = nullptr;
    for (const MethodFit &f : std::as_const(a.alternatives))
        if (f.fits) {
            best = &f;
            break;
        }
    if (!best)
        for (const MethodFit &f : std::as_const(a.alternatives))
            if (!best || f.perGpuBytes() < best->perGpuBytes())
                best = &f;
    a.chosen = *best;
    return a;
}

QStringList swiftArgs(const AdviceRequest &r, const MethodFit &fit) {
    static const QHash<QString, QString> modelTypes{
        {QStringLiteral("llama-2-7b"), QStringLiteral("llama2-7b")},
        {QStringLiteral("llama-2-13b"), QStringLiteral("llama2-13b")},
        {QStringLiteral("llama-2-70b"), QStringLiteral("llama2-70b")},
        {QStringLiteral("llama-3-8b"), QStringLiteral("llama3-8b")},
        {QStringLiteral("llama-3-70b"), QStringLiteral("llama3-70b")},
        {QStringLiteral("qwen1.5-7b"), QStringLiteral("qwen1half-7b")},
        {QStringLiteral("qwen2-7b"), QStringLiteral("qwen2-7b")},
        {QStringLiteral("qwen2.5-7b"), QStringLiteral("qwen2_5-7b")},
        {QStringLiteral("qwen2.5-14b"), QStringLiteral("qwen2_5-14b")},
        {QStringLiteral("qwen2.5-72b"), QStringLiteral("qwen2_5-72b")},
        {QStringLiteral("qwen-vl-chat"), QStringLiteral("qwen-vl-chat")},
        {QStringLiteral("mistral-7b"), QStringLiteral("mistral-7b")},
        {QStringLiteral("mixtral-8x7b"), QStringLiteral("mixtral-moe-7b")},
    };
    const FitInput &in = r.input;
    QStringList a;
    if (const QString type = modelTypes.value(in.model.name); !type.isEmpty())
        a << QStringLiteral("--model_type") << type;
    a << QStringLiteral("--sft_type")
      << (fit.method == Method::Full ? QStringLiteral("full") : QStringLiteral("lora"));
    if (fit.method == Method::Qlora)
        a << QStringLiteral("--quantization_bit") << QStringLiteral("4")
          << QStringLiteral("--bnb_4bit_quant_type") << QStringLiteral("nf4")
          << QStringLiteral("--bnb_4bit_use_double_quant") << QStringLiteral("true");
    a << QStringLiteral("--dtype") << dtypeName(in.dtype);
    if (fit.method != Method::Full)
        a << QStringLiteral("--lora_rank") << QString::number(in.loraRank)
          << QStringLiteral("--lora_target_modules") << QStringLiteral("ALL");
    a << QStringLiteral("--max_length") << QString::number(in.seqLen) << QStringLiteral("--batch_size")
      << QString::number(in.microBatch);
    if (in.flashAttention)
        a << QStringLiteral("--use_flash_attn") << QStringLiteral("true");
    a << QStringLiteral("--gradient_checkpointing")
      << (in.gradientCheckpointing ? QStringLiteral("true") : QStringLiteral("false"));
    if (in.optimizer == Optimizer::AdamW8bit)
        a << QStringLiteral("--optim") << QStringLiteral("adamw_bnb_8bit");
    else if (in.optimizer == Optimizer::Sgd)
        a << QStringLiteral("--optim") << QStringLiteral("sgd");
    if (fit.gpus > 1 && fit.zeroStage > 0)
        a << QStringLiteral("--deepspeed") << QStringLiteral("default-zero%1").arg(fit.zeroStage);
    return a;
}

} // namespace gq::advisor
