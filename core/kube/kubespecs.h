#pragma once

#include "core/kube/kubeclient.h"
#include "core/domain/limitrangespec.h"
#include "core/domain/quotaspec.h"

#include <QFuture>
#include <QList>

namespace gq {

// Typed convenience over KubeClient for the two kinds the console edits. Decoding is
// strict (QuotaSpec/LimitRangeSpec::fromJson): an object the server sends that does
// not decode is an Error, never a silently emptied spec. Writes send toJson(), so
// unknown fields survive, and the spec's metadata.resourceVersion makes replace()
// conditional (a stale one is a Conflict, never an overwrite).

QFuture<Result<QuotaSpec>> getQuota(KubeClient &client, const QString &ns, const QString &name);
QFuture<Result<QList<QuotaSpec>>> listQuotas(KubeClient &client, const QString &ns); // "" = all
QFuture<Result<QuotaSpec>> createQuota(KubeClient &client, const QuotaSpec &quota,
                                       const WriteOptions &options = {});
QFuture<Result<QuotaSpec>> replaceQuota(KubeClient &client, const QuotaSpec &quota,
                                        const WriteOptions &options = {});

QFuture<Result<LimitRangeSpec>> getLimitRange(KubeClient &client, const QString &ns, const QString &name);
QFuture<Result<QList<LimitRangeSpec>>> listLimitRanges(KubeClient &client, const QString &ns);
QFuture<Result<LimitRangeSpec>> createLimitRange(KubeClient &client, const LimitRangeSpec &limitRange,
                                                 const WriteOptions &options = {});
QFuture<Result<LimitRangeSpec>> replaceLimitRange(KubeClient &client, const LimitRangeSpec &limitRange,
                                                  const WriteOptions &options = {});

} // namespace gq
