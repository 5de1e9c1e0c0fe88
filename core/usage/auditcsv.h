#pragma once

#include "core/usage/auditentry.h"

#include <QByteArray>
#include <QList>

namespace gq {

// Audit entries as CSV, in the order given (oldest first, like a log): the columns
// seq,at,actor,action,target,before,after,note,hash,mac, `at` in RFC 3339 UTC, fields
// quoted only when they hold a comma, quote or line break. `gpuquota audit list -o csv`
// and the console's Export CSV both write this.
[[nodiscard]] QByteArray auditCsv(const QList<AuditEntry> &entries);

} // namespace gq
