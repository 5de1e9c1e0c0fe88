#include "services/advisor/fitadvisorform.h"

#include "core/domain/quantity.h"

#include <QTranslator>

namespace gq {

using namespace advisor;

namespace {

QString esc(const QString &s) {
    return s.toHtmlEscaped();
}

QString value(const QUrlQuery &q, const char *key) {
    return q.queryItemValue(QLatin1String(key), QUrl::FullyDecoded).trimmed();
}

bool checked(const QUrlQuery &q, const char *key) {
    const QString v = value(q, key);
    return q.hasQueryItem(QLatin1String(key)) && v != QLatin1String("0") && v != QLatin1String("false");
}

Error bad(const char *key, const QString &why) {
    return Error::make(Error::Kind::Invalid, QStringLiteral("%1: %2").arg(QLatin1String(key), why),
                       QLatin1String(key));
}

Result<int> whole(const QUrlQuery &q, const char *key, int fallback, int min, int max) {
    if (value(q, key).isEmpty())
        return fallback;
    bool ok = false;
    const int v = value(q, key).toInt(&ok);
    if (!ok || v < min || v > max)
        return bad(key, QStringLiteral("a whole number from %1 to %2").arg(min).arg(max));
    return v;
}

} // namespace

FitAdvisorForm::FitAdvisorForm(const QTranslator *translator)
    : m_translator(translator) {}

QString FitAdvisorForm::t(const char *source) const {
    if (m_translator) {
        const QString translated = m_translator->translate("FitAdvisorForm", source);
        if (!translated.isEmpty())
            return translated;
    }
    return QString::fromUtf8(source);
}

bool FitAdvisorForm::asked(const QUrlQuery &q) {
    return !value(q, "model").isEmpty() || !value(q, "params").isEmpty();
}

Result<AdviceRequest> FitAdvisorForm::parse(const QUrlQuery &q) {
    AdviceRequest r;
    if (const QString model = value(q, "model"); !model.isEmpty()) {
        auto m = findModel(model);
        if (!m)
            return bad("model", m.error().message);
        r.input.model = *m;
    } else {
        auto p = parseParamCount(value(q, "params"));
        if (!p)
            return bad("params", p.error().message);
        r.input.model = shapeFromParams(*p);
    }
    const QString method = value(q, "method");
    if (method == QLatin1String("full"))
        r.method = Method::Full;
    else if (method == QLatin1String("lora"))
        r.method = Method::Lora;
    else if (method == QLatin1String("qlora"))
        r.method = Method::Qlora;
    else if (!method.isEmpty() && method != QLatin1String("auto"))
        return bad("method", QStringLiteral("auto, full, lora or qlora"));
    const QString dtype = value(q, "dtype");
    r.input.dtype = dtype == QLatin1String("fp16")   ? Dtype::Fp16
                    : dtype == QLatin1String("fp32") ? Dtype::Fp32
                                                     : Dtype::Bf16;
    if (!dtype.isEmpty() && dtypeName(r.input.dtype) != dtype)
        return bad("dtype", QStringLiteral("bf16, fp16 or fp32"));
    const QString opt = value(q, "optimizer");
    r.input.optimizer = opt == QLatin1String("adamw-8bit") ? Optimizer::AdamW8bit
                        : opt == QLatin1String("sgd")      ? Optimizer::Sgd
                                                           : Optimizer::AdamW;
    if (!opt.isEmpty() && optimizerName(r.input.optimizer) != opt)
        return bad("optimizer", QStringLiteral("adamw, adamw-8bit or sgd"));
    if (!value(q, "zero").isEmpty()) {
        auto z = whole(q, "zero", 3, 0, 3);
        if (!z)
            return z.error();
        r.zeroStage = *z;
    }
    for (const auto &[key, into, fallback, min, max] :
         {std::tuple{"seq_len", &r.input.seqLen, 2048, 1, 10'000'000},
          std::tuple{"batch", &r.input.microBatch, 1, 1, 100'000},
          std::tuple{"lora_rank", &r.input.loraRank, 8, 1, 65536},
          std::tuple{"gpus", &r.gpusAvailable, -1, 0, 100'000}}) {
        auto v = whole(q, key, fallback, min, max);
        if (!v)
            return v.error();
        *into = *v;
    }
    r.input.gradientCheckpointing = checked(q, "gradient_checkpointing");
    r.input.flashAttention = checked(q, "flash_attn");
    if (const QString h = value(q, "hours"); !h.isEmpty()) {
        bool ok = false;
        r.hours = h.toDouble(&ok);
        if (!ok || !(r.hours > 0) || r.hours > 1e6)
            return bad("hours", QStringLiteral("a positive number"));
    }
    if (const QString m = value(q, "gpu_memory"); !m.isEmpty()) {
        auto size = Quantity::parse(m);
        if (!size || size->sign() <= 0)
            return bad("gpu_memory", QStringLiteral("a quantity such as 80G or 80Gi"));
        r.gpuMemoryBytes = double(size->toBytes());
    }
    return r;
}

QString FitAdvisorForm::render(const QUrlQuery &q, const Sources &sources) const {
    QString html = QStringLiteral("<section class=\"card\" id=\"advisor\"><h2>%1</h2>")
                       .arg(esc(t(QT_TR_NOOP("Will this fine-tune fit?"))));
    html += form(q);
    if (asked(q))
        html += result(q, sources);
    html += QStringLiteral("<p class=\"sub\">%1</p></section>")
                .arg(esc(t(QT_TR_NOOP("An estimate within about 15–20 %: it does not count the data loader, "
                                      "the evaluation pass or other processes on the GPU."))));
    return html;
}

QString FitAdvisorForm::form(const QUrlQuery &q) const {
    QString html = QStringLiteral("<form method=\"get\" action=\"/quota\">");
    // The subject of the page stays the same.
    for (const char *keep : {"user", "namespace"})
        if (q.hasQueryItem(QLatin1String(keep)))
            html += QStringLiteral("<input type=\"hidden\" name=\"%1\" value=\"%2\">")
                        .arg(QLatin1String(keep), esc(value(q, keep)));
    auto field = [&](const char *key, const char *label, const QString &placeholder) {
        html += QStringLiteral(
                    "<label>%1 <input name=\"%2\" value=\"%3\" placeholder=\"%4\" size=\"10\"></label> ")
                    .arg(esc(t(label)), QLatin1String(key), esc(value(q, key)), esc(placeholder));
    };
    field("model", QT_TR_NOOP("Model"), QStringLiteral("llama-2-7b"));
    field("params", QT_TR_NOOP("or parameters"), QStringLiteral("7B"));
    field("method", QT_TR_NOOP("Method"), QStringLiteral("auto"));
    field("gpus", QT_TR_NOOP("GPUs"), QStringLiteral("1"));
    field("gpu_memory", QT_TR_NOOP("GPU memory"), QStringLiteral("80G"));
    field("seq_len", QT_TR_NOOP("Sequence length"), QStringLiteral("2048"));
    field("batch", QT_TR_NOOP("Micro-batch"), QStringLiteral("1"));
    field("lora_rank", QT_TR_NOOP("LoRA rank"), QStringLiteral("8"));
    field("hours", QT_TR_NOOP("Hours"), QStringLiteral("1"));
    for (const auto &[key, label] :
         {std::pair{"gradient_checkpointing", QT_TR_NOOP("Gradient checkpointing")},
          std::pair{"flash_attn", QT_TR_NOOP("Flash attention")}})
        html += QStringLiteral("<label><input type=\"checkbox\" name=\"%1\" value=\"1\"%2> %3</label> ")
                    .arg(QLatin1String(key), checked(q, key) ? QStringLiteral(" checked") : QString(),
                         esc(t(label)));
    html += QStringLiteral("<button type=\"submit\">%1</button></form>").arg(esc(t(QT_TR_NOOP("Estimate"))));
    return html;
}

QString FitAdvisorForm::result(const QUrlQuery &q, const Sources &sources) const {
    auto request = parse(q);
    if (!request)
        return QStringLiteral("<p id=\"advisor-error\">%1</p>").arg(esc(request.error().message));
    AdviceRequest &r = *request;
    if (r.gpusAvailable < 0 || r.gpuMemoryBytes <= 0) {
        auto facts = sources.cluster ? sources.cluster() : Result<FitClusterFacts>(FitClusterFacts{});
        if (!facts)
            return QStringLiteral("<p id=\"advisor-error\">%1</p>").arg(esc(facts.error().message));
        if (r.gpusAvailable < 0)
            r.gpusAvailable = facts->freeGpus ? int(*facts->freeGpus) : 1;
        if (r.gpuMemoryBytes <= 0)
            r.gpuMemoryBytes = double(facts->memoryBytes);
        if (r.gpuMemoryBytes <= 0)
            return QStringLiteral("<p id=\"advisor-error\">%1</p>")
                .arg(esc(t(QT_TR_NOOP("gpu_memory: give the memory of one GPU (e.g. 80G)"))));
    }
    const Advice a = advise(r);
    const MethodFit &c = a.chosen;
    QString html = QStringLiteral("<p id=\"advisor-recommendation\"><b>%1</b></p><ul>")
                       .arg(esc(c.fits || !a.autoMethod ? t(QT_TR_NOOP("%1 on %2 GPUs: %3 per GPU"))
                                                              .arg(methodName(c.method))
                                                              .arg(c.gpus)
                                                              .arg(formatGB(c.perGpuBytes()))
                                                        : t(QT_TR_NOOP("Nothing fits on %1 GPUs of %2."))
                                                              .arg(r.gpusAvailable)
                                                              .arg(formatGB(r.gpuMemoryBytes))));
    for (const MethodFit &f : a.alternatives)
        html += QStringLiteral("<li>%1 %2</li>")
                    .arg(f.fits ? QStringLiteral("✔") : QStringLiteral("✘"), esc(f.why));
    html +=
        QStringLiteral("</ul><p id=\"advisor-breakdown\">%1</p>")
            .arg(esc(
                t(QT_TR_NOOP("Per GPU: weights %1, gradients %2, optimizer %3, activations %4, overhead %5"))
                    .arg(formatGB(c.memory.weights), formatGB(c.memory.gradients),
                         formatGB(c.memory.optimizer), formatGB(c.memory.activations),
                         formatGB(c.memory.overhead))));
    const double hours = a.gpuHours(r.hours);
    html += QStringLiteral("<p id=\"advisor-gpuhours\">%1</p>")
                .arg(esc(t(QT_TR_NOOP("%1 GPU-h (%2 GPUs × %3 h)"))
                             .arg(formatGpuHours(hours))
                             .arg(c.gpus)
                             .arg(formatGpuHours(r.hours))));
    if (sources.budget) {
        auto d = sources.budget(double(c.gpus), r.hours);
        html += QStringLiteral("<p id=\"advisor-budget\">%1</p>")
                    .arg(esc(d ? d->message : t(QT_TR_NOOP("Budget: %1")).arg(d.error().message)));
    }
    html += QStringLiteral("<p>%1</p><pre id=\"advisor-swift\">swift sft %2</pre>")
                .arg(esc(t(QT_TR_NOOP("ms-swift flags:"))), esc(swiftArgs(r, c).join(QLatin1Char(' '))));
    return html;
}

} // namespace gq
