#pragma once

#include "result.h"

#include <QByteArray>
#include <QMap>
#include <QString>

namespace gq {

// What one GPU-hour costs, for the chargeback. Either one rate for everything
// (`--rate 2.50`) or a rates file:
//
//     # rates per GPU-hour, applied to the report's GPU-hours (a MIG slice already
//     # counts its fraction of a GPU there, see ResourceWeights)
//     currency: EUR            # optional, shown in the report's header
//     default: 2.50            # required: every resource without a rate of its own
//     resources:               # optional: per extended resource name
//       nvidia.com/gpu: 2.50
//       nvidia.com/mig-1g.10gb: 1.20
//
// Rates are decimals with at most six places. A `models:` section (per GPU model) is
// refused: the usage database does not record GPU models yet, and a rate that could
// never apply would make the report look more precise than it is.
struct RateCard {
    qint64 defaultMicros = 0;             // see money.h
    QMap<QString, qint64> resourceMicros; // resource name -> rate
    QString currency;                     // "" when not given
    QString source;                       // "--rate" or the file's name, for headers

    [[nodiscard]] qint64 rateFor(const QString &resource) const {
        return resourceMicros.value(resource, defaultMicros);
    }
    // True when every resource is charged the default rate: the cost then needs no
    // split by resource.
    [[nodiscard]] bool isFlat() const;
    [[nodiscard]] static RateCard flat(qint64 micros);
};

// Parses a rates file. Errors are Invalid/Parse with Error::field the key path
// ("resources.nvidia.com/gpu", "default") and Error::line its 1-based line.
[[nodiscard]] Result<RateCard> parseRateCard(const QByteArray &yaml);
// Reads (bounded, like every input file) and parses `path`; the card's source is the
// file name.
[[nodiscard]] Result<RateCard> loadRateCard(const QString &path);

} // namespace gq
