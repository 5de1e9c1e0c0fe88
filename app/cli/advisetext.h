#pragma once

#include "services/advisor/fitadvisor.h"

#include <QString>

namespace gq::cli {

// `gpuquota advise`'s table output (-o table) and help.
QString adviseTable(const advisor::AdviceRequest &request, const advisor::Advice &advice,
                    const std::optional<FitClusterFacts> &cluster, const std::optional<FitBudget> &budget);
QString adviseHelp();

} // namespace gq::cli
