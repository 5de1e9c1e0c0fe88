#pragma once

#include "result.h"

#include <QString>
#include <QTimeZone>

namespace gq {

// Fills the demo's fresh usage database with what a week of the demo teams looks
// like: the GPU pods the demo cluster runs right now as open intervals (same
// namespaces, users and GPU counts), a few finished jobs per user and day before
// that (three months of working days), and budgets, so that the namespace list shows one team over its daily
// GPU-hour budget and another well within its own. Limits are derived from the
// usage so far today, so the picture holds at any time of day.
//
// Opens its own connection: call it on the thread that should do the I/O.
Result<void> seedDemoUsage(const QString &databaseUrl, qint64 now, const QTimeZone &zone);

} // namespace gq
