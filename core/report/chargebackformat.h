#pragma once

#include "core/report/chargeback.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace gq {

// The chargeback as text for scripts and terminals (the PDF is drawn in models/).
// Numbers are in the C locale whatever the user's: GPU-hours with 4 decimals, money
// with 2, rates with at least 2.

[[nodiscard]] QString groupByName(GroupBy by); // "namespace" | "user"
// The rate column of a line (see chargebackCsv).
[[nodiscard]] QString lineRate(const ChargebackLine &l);
// An idle share: "12.5%".
[[nodiscard]] QString formatShare(int perMille);

// subject,gpu_hours,rate,cost — one row per subject by cost, then TOTAL,<h>,,<cost>.
// `rate` is the rate charged (at least 2 decimals); for a subject charged several rates
// (resources or GPU models priced apart) it is the effective rate, cost / gpu_hours
// before rounding to cents, with exactly 4 decimals, so it never passes for a rate of
// the card.
// A subject that a spreadsheet would run as a formula is written as 'name (OWASP),
// like the usage export.
[[nodiscard]] QByteArray chargebackCsv(const ChargebackReport &report);
// {month, tz, from, to, by, currency, rates, charged, utilization, rows, total}.
[[nodiscard]] QJsonObject chargebackJson(const ChargebackReport &report);
// Header lines and an aligned table, for `-o table`.
[[nodiscard]] QString chargebackTable(const ChargebackReport &report);

// "2.50 per GPU-hour" or "default 2.50; nvidia.com/mig-1g.10gb 1.20; model Tesla-T4
// 0.90" (plus the currency when given): the rate as the header states it.
[[nodiscard]] QString rateSummary(const RateCard &rates);

} // namespace gq
