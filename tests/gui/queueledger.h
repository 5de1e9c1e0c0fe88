#pragma once

// The usage ledger of the queue GUI suites (tst_queuegrouping, tst_budgetsbyqueue): six
// days of GPU jobs in team-nlp, team-vision, research and scratch, ending an hour before
// `now`, and the same six days in November 2026 for the chargeback. Each namespace's
// jobs belong to one user (user0..user3 in kQueueLedgerNamespaces' order).

#include "core/usage/ledger.h"

#include <QDateTime>
#include <QStringList>

#include <vector>

namespace gq::test {

inline const QStringList kQueueLedgerNamespaces{QStringLiteral("team-nlp"), QStringLiteral("team-vision"),
                                                QStringLiteral("research"), QStringLiteral("scratch")};

[[nodiscard]] inline std::vector<UsageInterval> queueLedgerIntervals(qint64 now) {
    std::vector<UsageInterval> ivs;
    int n = 0;
    const qint64 nov = QDateTime(QDate(2026, 11, 2), QTime(8, 0), Qt::UTC).toSecsSinceEpoch();
    for (int day = 0; day < 6; ++day)
        for (int i = 0; i < kQueueLedgerNamespaces.size(); ++i)
            for (const qint64 base : {now - (day + 1) * 86400, nov + day * 86400}) {
                UsageInterval iv;
                iv.cluster = QStringLiteral("c");
                iv.ns = kQueueLedgerNamespaces.at(i);
                iv.user = QStringLiteral("user%1").arg(i);
                iv.podUid = QStringLiteral("p%1").arg(n++);
                iv.podName = QStringLiteral("job-%1").arg(n);
                iv.gpus = 1 + (i + day) % 3;
                iv.start = base + i * 1800;
                iv.end = iv.start + (2 + (day + i) % 4) * 3600;
                ivs.push_back(iv);
            }
    return ivs;
}

} // namespace gq::test
