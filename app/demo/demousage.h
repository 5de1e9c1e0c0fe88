#pragma once

#include "core/domain/result.h"

#include <QString>
#include <QTimeZone>

namespace gq {

struct DemoSeedOptions {
    // Write the demo cluster's running GPU pods as open intervals. Off when the demo's
    // controller runs: it records them itself from the pods (their start is backdated by
    // the scenario to the same instants), and two records of one pod would count twice.
    bool runningPods = true;
    // Who made the seeded budget and boost changes, in the audit log.
    QString actor = QStringLiteral("admin@demo.example");
};

// Fills the demo's fresh usage database with what the demo teams look like: the GPU
// pods the demo cluster runs right now as open intervals (same namespaces, users and
// GPU counts and starts, demoteams.h), a few finished jobs per user and day before
// that (three months of working days), and, each with its audit entry:
//   - budgets: demo::kOverTeam past its daily GPU-hour budget and its grace,
//     demo::kGraceTeam just over its own and within grace, team-vision well within
//     it, and a user budget. Limits are derived from the usage so far today (running
//     pods included, whether written here or not), so the picture holds at any time of
//     day (except in the first minutes after midnight, when little is used yet).
//   - boosts: an active one (team-vision's GPU quota +4 for two days; the quota itself
//     is raised by the next reconcile, e.g. the demo controller's) and a scheduled one
//     (team-genai +8 GPUs tomorrow night).
//
// Opens its own connection: call it on the thread that should do the I/O.
Result<void> seedDemoUsage(const QString &databaseUrl, qint64 now, const QTimeZone &zone,
                           const DemoSeedOptions &options = {});

} // namespace gq
