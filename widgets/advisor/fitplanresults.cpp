// FitPlanDialog's results: the estimate of the inputs, shown (fitplandialog.cpp builds it).
#include "widgets/advisor/fitmemorybar.h"
#include "widgets/advisor/fitplandialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace gq {

using namespace advisor;

QString FitPlanDialog::methodTitle(Method m) {
    switch (m) {
    case Method::Full: return tr("Full fine-tuning");
    case Method::Lora: return tr("LoRA");
    case Method::Qlora: return tr("QLoRA");
    }
    return {};
}

std::optional<AdviceRequest> FitPlanDialog::request() const {
    AdviceRequest r;
    const QString name = m_model->currentData().toString();
    if (!name.isEmpty()) {
        auto m = findModel(name);
        if (!m)
            return std::nullopt;
        r.input.model = *m;
    } else {
        auto p = parseParamCount(m_params->text());
        if (!p)
            return std::nullopt;
        r.input.model = shapeFromParams(*p);
    }
    if (const int m = m_method->currentData().toInt(); m >= 0)
        r.method = Method(m);
    r.input.dtype = Dtype(m_dtype->currentData().toInt());
    r.input.optimizer = Optimizer(m_optimizer->currentData().toInt());
    if (const int z = m_zero->currentData().toInt(); z >= 0)
        r.zeroStage = z;
    r.input.seqLen = m_seqLen->value();
    r.input.microBatch = m_batch->value();
    r.input.loraRank = m_rank->value();
    r.input.gradientCheckpointing = m_checkpointing->isChecked();
    r.input.flashAttention = m_flash->isChecked();
    r.gpusAvailable = m_gpus->value();
    r.gpuMemoryBytes = m_memory->value() * 1e9;
    r.hours = m_hours->value();
    return r;
}

QString FitPlanDialog::methodLine(const MethodFit &f) const {
    const QString title = methodTitle(f.method);
    if (f.gpus == 0)
        return tr("%1 — no GPU left to run on").arg(title);
    const QString per = formatGB(f.perGpuBytes()), cap = formatGB(m_memory->value() * 1e9);
    QString where = QString::number(f.gpus);
    if (f.gpus > 1 && f.zeroStage > 0)
        where = tr("%1, ZeRO-%2").arg(f.gpus).arg(f.zeroStage);
    return f.fits ? tr("✔ %1 — fits: %2 per GPU ≤ %3 (GPUs: %4)").arg(title, per, cap, where)
                  : tr("✘ %1 — does not fit: %2 per GPU > %3 (GPUs: %4)").arg(title, per, cap, where);
}

void FitPlanDialog::recompute() {
    const auto r = request();
    if (!r) {
        m_summary->setText(tr("Enter a parameter count such as 7B, 6.74e9 or 7000000000."));
        m_methods->clear();
        m_swift->clear();
        return;
    }
    showAdvice(*r);
}

void FitPlanDialog::showAdvice(const AdviceRequest &r) {
    m_advice = advise(r);
    const MethodFit &c = m_advice.chosen;
    m_bar->setEstimate(c.memory, r.gpuMemoryBytes);
    if (m_advice.fits() || !m_advice.autoMethod)
        m_summary->setText(tr("%1 on %2 GPUs: %3 per GPU")
                               .arg(methodTitle(c.method))
                               .arg(c.gpus)
                               .arg(formatGB(c.perGpuBytes())));
    else
        m_summary->setText(tr("Nothing fits on these GPUs; the closest is %1 at %2 per GPU.")
                               .arg(methodTitle(c.method), formatGB(c.perGpuBytes())));
    QStringList lines;
    for (const MethodFit &f : m_advice.alternatives)
        lines << methodLine(f);
    m_methods->setText(lines.join(QLatin1Char('\n')));
    m_gpuHours->setText(tr("%1 GPU-h (%2 GPUs × %3 h)")
                            .arg(formatGpuHours(m_advice.gpuHours(r.hours)))
                            .arg(c.gpus)
                            .arg(formatGpuHours(r.hours)));
    m_swift->setText(QStringLiteral("swift sft ") + swiftArgs(r, c).join(QLatin1Char(' ')));
    m_swift->setCursorPosition(0);
    const QString user = m_user->text().trimmed();
    if (!m_budgets || user.isEmpty()) {
        m_budget->setText(tr("Budget: enter a user to check the GPU-hours against their budget."));
        return;
    }
    m_asked = AdmissionQuestion{user, m_ns->text().trimmed(), double(c.gpus), r.hours};
    m_budget->setText(tr("Budget: checking…"));
    m_budgetPending = true;
    m_budgets->check(m_asked);
}

void FitPlanDialog::showBudget(const AdmissionAnswer &answer) {
    if (answer.question.user != m_asked.user || answer.question.ns != m_asked.ns ||
        answer.question.gpus != m_asked.gpus || answer.question.hours != m_asked.hours)
        return; // an older question, or the "Can this run?" panel's
    m_budgetPending = false;
    m_budget->setText(tr("Budget: %1").arg(answer.decision.message));
}

} // namespace gq
