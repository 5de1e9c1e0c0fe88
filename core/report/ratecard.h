#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

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
//     models:                  # optional: per GPU model, as the controller records it
//       NVIDIA-H100-80GB-HBM3: 4.00   # (the node label nvidia.com/gpu.product, exactly)
//       Tesla-T4: 0.90
//
// Precedence: a GPU model's rate, else the resource's, else the default. A model rate
// applies to every resource on that model (a MIG slice of an H100 is charged the H100
// rate for its weighted GPU-hours). Intervals recorded without a model (imports, older
// controllers) take the resource or default rate. Rates are decimals with at most six
// places.
struct RateCard {
    qint64 defaultMicros = 0;             // see money.h
    QMap<QString, qint64> resourceMicros; // resource name -> rate
    QMap<QString, qint64> modelMicros;    // GPU model (nvidia.com/gpu.product) -> rate
    QString currency;                     // "" when not given
    QString source;                       // "--rate" or the file's name, for headers

    // Model > resource > default; `model` empty: not recorded.
    [[nodiscard]] qint64 rateFor(const QString &resource, const QString &model = {}) const;
    // True when every resource and model is charged the default rate: the cost then
    // needs no split by resource and model.
    [[nodiscard]] bool isFlat() const;
    // "nvidia.com/mig-1g.10gb 1.20", "model Tesla-T4 0.90": every rate that differs
    // from the default, resources first, for the headers of every report form (the
    // caller adds the default, in its language, and the currency).
    [[nodiscard]] QStringList exceptions() const;
    [[nodiscard]] static RateCard flat(qint64 micros);
};

// Parses a rates file. Errors are Invalid/Parse with Error::field the key path
// ("resources.nvidia.com/gpu", "default") and Error::line its 1-based line.
[[nodiscard]] Result<RateCard> parseRateCard(const QByteArray &yaml);
// Reads (bounded, like every input file) and parses `path`; the card's source is the
// file name.
[[nodiscard]] Result<RateCard> loadRateCard(const QString &path);

} // namespace gq
