#include "core/report/chargebackquery.h"

#include "core/usage/chargebackreads.h"
#include "core/usage/usagestore.h"

namespace gq {

Result<ChargebackReport> queryChargeback(const UsageStore &store, GroupBy by, const ChargebackMonth &month,
                                         const RateCard &rates, qint64 now,
                                         const ChargebackRegroup &regroup) {
    if (regroup.isSet() && by != GroupBy::Namespace)
        return Error::make(Error::Kind::Invalid, QStringLiteral("only namespaces are regrouped into queues"),
                           QStringLiteral("by"));
    const auto priced = [&](const ChargebackInputs &in) {
        ChargebackReport r = computeChargeback(
            by, month, rates, regroup.isSet() ? regroupInputs(in, regroup.subjectOf) : in, now);
        r.regroupedBy = regroup.name;
        return r;
    };
    auto series = store.gpuHoursSeries(by, Period::Month, month.range.start, month.range.end, month.tz, now);
    if (!series)
        return series.error();
    ChargebackInputs inputs;
    for (const UsageStore::SeriesPoint &p : *series)
        inputs.gpuHours[p.subject] += p.gpuHours;
    if (inputs.gpuHours.isEmpty())
        return priced(inputs);
    if (!rates.isFlat()) {
        auto r = chargebackreads::hoursByRate(store, by, month.range, now);
        if (!r)
            return r.error();
        for (const chargebackreads::RateHours &h : std::as_const(*r)) {
            RatedHours rated;
            rated.resource = h.resource;
            rated.model = h.model;
            rated.gpuHours = h.gpuHours;
            inputs.parts[h.subject] << rated;
        }
    }
    auto idle = chargebackreads::idleHours(store, by, month.range);
    if (!idle)
        return idle.error();
    inputs.idleGpuHours = std::move(*idle);
    return priced(inputs);
}

} // namespace gq
