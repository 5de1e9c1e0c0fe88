// `gpuquota advise`: the table it prints and its help (cmd_advise.cpp runs it).
#include "app/cli/advisetext.h"

namespace gq::cli {

using namespace advisor;

QString adviseHelp() {
    return QStringLiteral(
        "Estimates the peak GPU memory of fine-tuning a decoder transformer and recommends the first\n"
        "method that fits the GPUs left: full fine-tuning (ZeRO-3 when more than one GPU), LoRA, QLoRA.\n"
        "\n"
        "  --model NAME            a catalogued model (llama-2-7b/13b/70b, llama-65b, llama-3-8b/70b,\n"
        "                          qwen1.5-7b, qwen2-7b, qwen2.5-7b/14b/72b, qwen-vl-chat, mistral-7b,\n"
        "                          mixtral-8x7b); or\n"
        "  --params N              any model by its parameter count: 7B, 6.74e9, 7000000000\n"
        "  --method M              auto (default) | full | lora | qlora\n"
        "  --dtype D               bf16 (default) | fp16 | fp32\n"
        "  --optimizer O           adamw (default) | adamw-8bit | sgd\n"
        "  --zero 0|1|2|3          DeepSpeed ZeRO stage on more than one GPU (default 3)\n"
        "  --gpus N                GPUs to plan for (default: the namespace's ResourceQuota hard - used)\n"
        "  --gpu-memory SIZE       memory of one GPU, a quantity: 80G, 80Gi, 24564Mi (default: the\n"
        "                          nodes' nvidia.com/gpu.memory / nvidia.com/gpu.product labels)\n"
        "  --seq-len N             tokens per sample (default 2048)\n"
        "  --batch N               micro-batch per GPU (default 1)\n"
        "  --gradient-checkpointing, --flash-attn\n"
        "  --lora-rank R           LoRA/QLoRA rank on every linear layer (default 8)\n"
        "  --hours H               length of the run (default 1): GPU-hours = GPUs x H\n"
        "  --namespace NS          read the GPUs free in NS's quota and the nodes' GPU memory\n"
        "  --db URL --user U       the budget decision on the GPU-hours (--now T: as of T)\n"
        "  -o table|json\n"
        "\n"
        "JSON: params, method, gpus, gpu_memory_bytes, per_gpu_bytes, breakdown {weights, gradients,\n"
        "optimizer, activations, overhead} (bytes per GPU), fits; for auto recommendation {method,\n"
        "gpus, per_gpu_bytes, why} and alternatives [{method, gpus, zero, per_gpu_bytes, fits, why}];\n"
        "with --namespace quota {namespace, gpus_free, gpu_model, gpu_memory_bytes, gpu_memory_source};\n"
        "with --db budget {remaining_gpu_hours, needed_gpu_hours, allowed, decision}; swift_args.\n"
        "The estimate is within about 15-20 % (README \"Fit advisor\").\n"
        "Exit 0 when the recommended (or asked) method fits, 1 when nothing fits, 2 on bad input.\n");
}

QString adviseTable(const AdviceRequest &r, const Advice &a, const std::optional<FitClusterFacts> &cluster,
                    const std::optional<FitBudget> &budget) {
    QString t;
    auto line = [&t](const char *key, const QString &value) {
        t += QStringLiteral("%1%2\n").arg(QString::fromLatin1(key), -12).arg(value);
    };
    const ModelShape &m = r.input.model;
    line("model", QStringLiteral("%1%2 B parameters%3")
                      .arg(m.name.isEmpty() ? QString() : m.name + QStringLiteral(", "))
                      .arg(m.params / 1e9, 0, 'f', 2)
                      .arg(m.isMoe() ? QStringLiteral(" (%1 B active)").arg(m.activeParams / 1e9, 0, 'f', 1)
                                     : QString()));
    QString gpus = QStringLiteral("%1 x %2").arg(r.gpusAvailable).arg(formatGB(r.gpuMemoryBytes));
    if (cluster) {
        gpus += QStringLiteral(" (namespace %1").arg(cluster->ns);
        if (!cluster->product.isEmpty())
            gpus += QStringLiteral(", %1").arg(cluster->product);
        gpus += QLatin1Char(')');
    }
    line("GPUs", gpus);
    for (const MethodFit &f : a.alternatives)
        line(qPrintable(methodName(f.method)),
             (f.fits ? QStringLiteral("fits   ") : QStringLiteral("no     ")) + f.why);
    const MethodFit &c = a.chosen;
    line(a.autoMethod ? "recommended" : "asked", c.fits || !a.autoMethod
                                                     ? QStringLiteral("%1 on %2 GPU(s), %3 per GPU")
                                                           .arg(methodName(c.method))
                                                           .arg(c.gpus)
                                                           .arg(formatGB(c.perGpuBytes()))
                                                     : QStringLiteral("nothing fits"));
    line("per GPU",
         QStringLiteral("weights %1, gradients %2, optimizer %3, activations %4, overhead %5")
             .arg(formatGB(c.memory.weights), formatGB(c.memory.gradients), formatGB(c.memory.optimizer),
                  formatGB(c.memory.activations), formatGB(c.memory.overhead)));
    line("GPU-hours", QStringLiteral("%1 (%2 GPU(s) x %3 h)")
                          .arg(formatGpuHours(a.gpuHours(r.hours)))
                          .arg(c.gpus)
                          .arg(formatGpuHours(r.hours)));
    if (budget)
        line("budget", budget->decision);
    line("ms-swift", QStringLiteral("swift sft ") + swiftArgs(r, c).join(QLatin1Char(' ')));
    return t;
}

} // namespace gq::cli
