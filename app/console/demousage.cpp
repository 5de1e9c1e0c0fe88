#include "demousage.h"

#include "demoteams.h"
#include "usagestore.h"

#include <QDateTime>

#include <cmath>

namespace gq {

Result<void> seedDemoUsage(const QString &databaseUrl, qint64 now, const QTimeZone &zone) {
    auto opened = UsageStore::open(databaseUrl);
    if (!opened)
        return opened.error();
    UsageStore &store = **opened;
    constexpr qint64 hour = 3600;
    constexpr qint64 day = 24 * hour;
    std::vector<UsageInterval> rows;
    // The demo cluster's running GPU pods, one open interval each.
    for (const demo::Team &team : demo::kTeams) {
        const QString ns = QLatin1String(team.ns);
        for (int i = 0; i < team.runningPodCount(); ++i) {
            UsageInterval iv;
            iv.cluster = QStringLiteral("demo");
            iv.ns = ns;
            iv.user = QLatin1String(team.userOfPod(i));
            iv.podUid = QStringLiteral("demo-%1-running-%2").arg(ns).arg(i);
            iv.podName = QStringLiteral("%1-job-%2").arg(iv.user).arg(i);
            iv.resource = QLatin1String(team.gpuResource);
            iv.gpus = team.runningGpus[std::size_t(i)];
            iv.start = now - hour - i * 40 * 60; // started 1 h to 3 h 40 min ago
            iv.source = QStringLiteral("demo");
            rows.push_back(iv);
        }
        // Finished jobs: each user one job a day in office hours for the last week, and
        // on working days for three months before it, so that the month and 90-day
        // charts have a history to show.
        for (int d = 1; d <= 95; ++d) {
            if (d > 6 && QDateTime::fromSecsSinceEpoch(now - d * day, zone).date().dayOfWeek() > 5)
                continue;
            for (int u = 0; u < team.userCount(); ++u) {
                UsageInterval iv;
                iv.cluster = QStringLiteral("demo");
                iv.ns = ns;
                iv.user = QLatin1String(team.users[std::size_t(u)]);
                iv.podUid = QStringLiteral("demo-%1-d%2-u%3").arg(ns).arg(d).arg(u);
                iv.podName = QStringLiteral("%1-train-%2").arg(iv.user).arg(d);
                iv.resource = QLatin1String(team.gpuResource);
                iv.gpus = team.runningGpus[std::size_t(u)];
                iv.start = now - d * day - (2 + (d + u) % 5) * hour;
                iv.end = iv.start + (1 + (d * 3 + u) % 6) * hour;
                iv.source = QStringLiteral("demo");
                rows.push_back(iv);
            }
        }
    }
    if (auto bulk = store.insertBulk(rows); !bulk)
        return bulk.error();

    const TimeRange today = periodContaining(now, Period::Day, zone);
    const auto usedToday = [&](const QString &ns) -> Result<double> {
        return store.usedGpuHours(BudgetScope::Namespace, ns, today, now);
    };
    const auto nlp = usedToday(QStringLiteral("team-nlp"));
    if (!nlp)
        return nlp.error();
    const auto vision = usedToday(QStringLiteral("team-vision"));
    if (!vision)
        return vision.error();

    Budget over;
    over.scope = BudgetScope::Namespace;
    over.subject = QStringLiteral("team-nlp");
    over.period = Period::Day;
    over.limitGpuHours = std::max(1.0, std::floor(*nlp * 0.7));
    over.graceSeconds = 15 * 60;
    over.tz = QString::fromUtf8(zone.id());
    Budget within = over;
    within.subject = QStringLiteral("team-vision");
    within.limitGpuHours = std::ceil(*vision * 1.5) + 16;
    Budget user = over;
    user.scope = BudgetScope::User;
    user.subject = QStringLiteral("dana");
    user.limitGpuHours = 48;
    for (const Budget &b : {over, within, user}) {
        if (auto set = store.setBudget(b); !set)
            return set.error();
    }
    return {};
}

} // namespace gq
