#pragma once

// One GPU number of a ClusterQueue (or Cohort) flavor changed, as the console's one-click
// edit and a boost on a queue would write it: the whole object with the value set (for a
// dry run, the diff and a PUT with its resourceVersion), or a JSON patch that tests the
// old value first (a concurrent change makes it fail instead of being overwritten).

#include "core/kueue/kueuemodel.h"

#include <QJsonArray>

namespace gq::kueue {

enum class QuotaField { NominalQuota, BorrowingLimit, LendingLimit };
QString fieldName(QuotaField field); // "nominalQuota", ...

// Where `flavor`'s `resource` sits: "/spec/resourceGroups/G/flavors/F/resources/R"; NotFound
// (naming the flavor and resource) when the queue has no such entry.
Result<QString> resourcePointer(const QJsonObject &queue, const QString &flavor, const QString &resource);

// `queue` with the field set to `value` (nullopt removes a limit; the nominal quota cannot be
// removed), checked by validateQueueSpec(): an Invalid error naming the field when Kueue would
// refuse the result.
Result<QJsonObject> withQuota(const QJsonObject &queue, const QString &flavor, const QString &resource,
                              QuotaField field, const std::optional<Quantity> &value,
                              bool cohortObject = false);

// The field moved by `delta` (a boost's grant, or its revert with -delta, which keeps what
// another edit did meanwhile). An unset limit cannot be moved (Invalid: it means "no limit");
// a result below zero is Invalid.
Result<QJsonObject> withQuotaDelta(const QJsonObject &queue, const QString &flavor, const QString &resource,
                                   QuotaField field, qint64 delta, bool cohortObject = false);

// The field's value now: nullopt when it is not set (an unset limit: no limit); NotFound when
// the queue has no such entry, Invalid when the value is not a quantity.
Result<std::optional<Quantity>> quotaValue(const QJsonObject &queue, const QString &flavor,
                                           const QString &resource, QuotaField field);
// "nominalQuota" / "borrowingLimit" / "lendingLimit" back to the field.
std::optional<QuotaField> parseFieldName(const QString &name);

// RFC 6902 operations that change the field from what `queue` has to what `changed` has:
// a test of the old value (or of its absence, through the resource entry) and a replace,
// add or remove.
Result<QJsonArray> quotaPatch(const QJsonObject &queue, const QJsonObject &changed, const QString &flavor,
                              const QString &resource, QuotaField field);

} // namespace gq::kueue
