#pragma once

#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <optional>

class QIODevice;

namespace gq {

class BulkLoader;
class IntervalWriter;
class UsageConnection;

// Intervals as CSV (UsageStore::importCsv and exportCsv), header
// cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end with RFC 4180 quoting.
Result<UsageStore::ImportStats> importUsageCsv(UsageConnection &conn, IntervalWriter &writer,
                                               BulkLoader &bulk, QIODevice &in,
                                               const UsageStore::ImportOptions &options);
Result<qint64> exportUsageCsv(const UsageConnection &conn, QIODevice &out, std::optional<qint64> from,
                              std::optional<qint64> to);

} // namespace gq
