#pragma once

#include <QStringList>

namespace gq::cli {

// `gpuquota budget status ...` (cmd_budgetstatus.cpp); argv after "status".
int runBudgetStatus(const QStringList &argv);
// `gpuquota budget newcomer ...` (cmd_newcomer.cpp); argv after "newcomer".
int runBudgetNewcomer(const QStringList &argv);
// What `gpuquota budget --help` prints.
QString budgetHelp();

} // namespace gq::cli
