#pragma once

#include <QString>

namespace gq {

// One rule for every CSV cell the project writes (`gpuquota export`, `audit list -o csv`
// and the console's Audit > Export CSV, the chargeback and chart exports):
//  * a cell a spreadsheet would run as a formula (OWASP "CSV injection": it starts with
//    = + - @ tab or CR, possibly after single quotes) gets one more leading single quote
//    and is always quoted, so it is shown as text: "'=1+2";
//  * any other cell is quoted only when it holds a comma, a quote or a line break;
//  * quotes inside a quoted cell are doubled (RFC 4180).
// The usage CSV reader takes the one added single quote off again (isFormulaLike).
[[nodiscard]] QString csvField(const QString &value);

// Whether `value` would be evaluated as a formula (see csvField).
[[nodiscard]] bool isFormulaLike(const QString &value);

} // namespace gq
