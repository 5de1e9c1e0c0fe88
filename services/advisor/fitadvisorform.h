#pragma once

#include "services/advisor/fitadvisor.h"

#include <QCoreApplication>
#include <QUrlQuery>

#include <functional>

class QTranslator;

namespace gq {

// The fit advisor on the self-service page (`GET /quota?...&model=...`): a small form of
// GET parameters, computed on the server with the same functions as `gpuquota advise`
// and the console's dialog, drawn as one HTML section (everything escaped, no script).
//
// Parameters (the CLI's flags with '_' for '-'): model | params, method, dtype, optimizer,
// zero, gpus, gpu_memory, seq_len, batch, gradient_checkpointing, flash_attn, lora_rank,
// hours. gpus and gpu_memory default to what the namespace's quota and nodes say.
class FitAdvisorForm {
    Q_DECLARE_TR_FUNCTIONS(FitAdvisorForm)

public:
    struct Sources {
        std::function<Result<FitClusterFacts>()> cluster;                  // null: no namespace
        std::function<Result<Decision>(double gpus, double hours)> budget; // null: no budget
    };

    explicit FitAdvisorForm(const QTranslator *translator = nullptr);

    // The query asks for advice (model or params given).
    [[nodiscard]] static bool asked(const QUrlQuery &query);
    // The request the parameters describe; the Error names the parameter. gpus and
    // gpu_memory may stay unset (gpusAvailable -1, gpuMemoryBytes 0) for the cluster to fill.
    [[nodiscard]] static Result<advisor::AdviceRequest> parse(const QUrlQuery &query);
    // The section: the form, and when asked the advice (or why not).
    [[nodiscard]] QString render(const QUrlQuery &query, const Sources &sources) const;

private:
    QString t(const char *source) const;
    QString form(const QUrlQuery &query) const;
    QString result(const QUrlQuery &query, const Sources &sources) const;
    const QTranslator *m_translator;
};

} // namespace gq
