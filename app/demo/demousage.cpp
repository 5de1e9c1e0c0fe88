#include "app/demo/demousage.h"

#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "core/boosts/boostplanner.h"
#include "core/usage/budgetedit.h"
#include "core/domain/clock.h"
#include "resources/demo/demoteams.h"
#include "core/usage/usagestore.h"

#include <QDateTime>
#include <QHash>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>

namespace gq {

namespace {

// The demo team's ResourceQuota as the scenario creates it (what a boost is planned on).
QJsonObject demoQuota(const demo::Team &team) {
    QJsonObject hard;
    hard.insert(QStringLiteral("requests.") + QLatin1String(team.gpuResource), QLatin1String(team.gpus));
    hard.insert(QStringLiteral("requests.cpu"), QLatin1String(team.cpu));
    hard.insert(QStringLiteral("requests.memory"), QLatin1String(team.memory));
    QJsonObject meta;
    meta.insert(QStringLiteral("name"), QStringLiteral("gpu-quota"));
    meta.insert(QStringLiteral("namespace"), QLatin1String(team.ns));
    QJsonObject quota;
    quota.insert(QStringLiteral("metadata"), meta);
    quota.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("hard"), hard}});
    return quota;
}

const demo::Team *teamNamed(const char *ns) {
    for (const demo::Team &t : demo::kTeams)
        if (qstrcmp(t.ns, ns) == 0)
            return &t;
    return nullptr;
}

} // namespace

namespace {

constexpr qint64 kHour = 3600;
constexpr qint64 kDay = 24 * kHour;

// The demo usage: an open interval for each running pod of the demo cluster, and the
// finished jobs of each team's users.
struct DemoIntervals {
    std::vector<UsageInterval> rows;
    // GPU-hours today of the running pods of each whole-GPU team (the budgets' teams).
    QHash<QString, double> runningToday, runningGpus;
};

DemoIntervals demoIntervals(qint64 now, const TimeRange &today, const QTimeZone &zone, bool runningPods) {
    DemoIntervals out;
    // The demo cluster's running GPU pods, one open interval each.
    for (const demo::Team &team : demo::kTeams) {
        const QString ns = QLatin1String(team.ns);
        for (int i = 0; i < team.runningPodCount(); ++i) {
            UsageInterval iv;
            iv.cluster = QStringLiteral("demo");
            iv.ns = ns;
            iv.user = QLatin1String(team.userOfPod(i));
            iv.podUid = QStringLiteral("demo-%1-running-%2").arg(ns).arg(i);
            iv.podName = QStringLiteral("%1-train-%2").arg(iv.user).arg(i + 1);
            iv.resource = QLatin1String(team.gpuResource);
            iv.gpus = team.runningGpus[std::size_t(i)];
            iv.start = now - demo::runningPodAgeSeconds(i);
            iv.source = QStringLiteral("demo");
            out.runningToday[ns] += iv.gpus * double(now - std::max(iv.start, today.start)) / kHour;
            out.runningGpus[ns] += iv.gpus;
            if (runningPods)
                out.rows.push_back(iv);
        }
        // Finished jobs: each user one job a day in office hours for the last week, and
        // on working days for three months before it, so that the month and 90-day
        // charts have a history to show.
        for (int d = 1; d <= 95; ++d) {
            if (d > 6 && QDateTime::fromSecsSinceEpoch(now - d * kDay, zone).date().dayOfWeek() > 5)
                continue;
            for (int u = 0; u < team.userCount(); ++u) {
                UsageInterval iv;
                iv.cluster = QStringLiteral("demo");
                iv.ns = ns;
                iv.user = QLatin1String(team.users[std::size_t(u)]);
                iv.podUid = QStringLiteral("demo-%1-d%2-u%3").arg(ns).arg(d).arg(u);
                iv.podName = QStringLiteral("%1-batch-%2").arg(iv.user).arg(d);
                iv.resource = QLatin1String(team.gpuResource);
                iv.gpus = std::max(1, team.runningGpus[std::size_t(u)]);
                iv.start = now - d * kDay - (2 + (d + u) % 5) * kHour;
                iv.end = iv.start + (1 + (d * 3 + u) % 6) * kHour;
                iv.source = QStringLiteral("demo");
                out.rows.push_back(iv);
            }
        }
    }
    return out;
}

// Four daily budgets, set as `gpuquota budget set` sets them: one team past grace, one
// in grace, one within its budget, and one user's.
Result<void> setDemoBudgets(UsageStore &store, const Clock &clock, const TimeRange &today,
                            const QTimeZone &zone, const DemoIntervals &usage,
                            const DemoSeedOptions &options) {
    const qint64 now = clock.nowSecs();
    // Used today, the running pods counted whether they were written or not.
    const auto usedToday = [&](const QString &ns) -> Result<double> {
        auto used = store.usedGpuHours(BudgetScope::Namespace, ns, today, now);
        if (!used)
            return used.error();
        return *used + (options.runningPods ? 0.0 : usage.runningToday.value(ns));
    };
    const QString overNs = QLatin1String(demo::kOverTeam), graceNs = QLatin1String(demo::kGraceTeam);
    const auto over = usedToday(overNs);
    if (!over)
        return over.error();
    const auto grace = usedToday(graceNs);
    if (!grace)
        return grace.error();
    const auto vision = usedToday(QStringLiteral("team-vision"));
    if (!vision)
        return vision.error();

    // Past grace: grace lets running work overrun by what it burns in one grace
    // duration (runningGpus x grace); this team is well beyond that.
    Budget overBudget;
    overBudget.scope = BudgetScope::Namespace;
    overBudget.subject = overNs;
    overBudget.period = Period::Day;
    overBudget.graceSeconds = 10 * 60;
    const double overAllowance = usage.runningGpus.value(overNs) * double(overBudget.graceSeconds) / kHour;
    overBudget.limitGpuHours = std::max(1.0, std::floor(*over - overAllowance - std::max(2.0, *over * 0.2)));
    overBudget.tz = QString::fromUtf8(zone.id());
    // In grace: one GPU-hour over (less just after midnight), with four hours of grace
    // for what it runs, so it stays in grace for hours.
    Budget graceBudget = overBudget;
    graceBudget.subject = graceNs;
    graceBudget.graceSeconds = 4 * kHour;
    graceBudget.limitGpuHours = std::max(*grace * 0.5, *grace - 1.0);
    graceBudget.limitGpuHours = std::round(graceBudget.limitGpuHours * 100) / 100;
    Budget within = overBudget;
    within.subject = QStringLiteral("team-vision");
    within.graceSeconds = 15 * 60;
    within.limitGpuHours = std::ceil(*vision * 1.5) + 16;
    Budget user = within;
    user.scope = BudgetScope::User;
    user.subject = QStringLiteral("dana");
    user.limitGpuHours = 48;

    AuditLog audit(store, clock);
    const struct {
        const Budget &budget;
        const char *note;
    } budgets[] = {
        {within, "Daily GPU-hour budget agreed with the vision team for Q4"},
        {overBudget, "NLP daily budget cut while the cluster is oversubscribed"},
        {graceBudget, "Speech team budget: four hours of grace for long evaluations"},
        {user, "Personal daily budget for dana's experiments"},
    };
    for (const auto &b : budgets) {
        if (auto set = setBudgetAudited(store, audit, b.budget, std::nullopt, options.actor,
                                        QString::fromUtf8(b.note));
            !set)
            return set.error();
    }
    return {};
}

// Boosts, recorded as `gpuquota boost grant` records them; the cluster follows with
// the next reconcile (the demo controller's, on its first pass).
Result<void> grantDemoBoosts(UsageStore &store, const Clock &clock, const QTimeZone &zone,
                             const QString &actor) {
    const qint64 now = clock.nowSecs();
    BoostLedger ledger(store, clock);
    const auto grant = [&](const demo::Team &team, const char *add, qint64 start, qint64 duration,
                           const char *note) -> Result<void> {
        QuotaGrantRequest req;
        req.ns = QLatin1String(team.ns);
        req.resource = QStringLiteral("requests.") + QLatin1String(team.gpuResource);
        req.add = QLatin1String(add);
        req.when.start = start;
        req.when.duration = duration;
        req.note = QString::fromUtf8(note);
        req.actor = actor;
        auto plan = planQuotaBoost(req, {demoQuota(team)}, now);
        if (!plan)
            return plan.error();
        auto granted = ledger.grant(plan->boost);
        if (!granted)
            return granted.error();
        return {};
    };
    if (auto r = grant(demo::kTeams[0], "4", 0, 2 * kDay, "Conference deadline: four more GPUs for two days");
        !r)
        return r;
    // Tomorrow from 20:00 local time, for twelve hours.
    const QDateTime tomorrow(QDateTime::fromSecsSinceEpoch(now, zone).date().addDays(1), QTime(20, 0), zone);
    if (const demo::Team *genai = teamNamed("team-genai")) {
        if (auto r = grant(*genai, "8", tomorrow.toSecsSinceEpoch(), 12 * kHour,
                           "Overnight fine-tuning run on the idle H100s");
            !r)
            return r;
    }
    return {};
}

} // namespace

Result<void> seedDemoUsage(const QString &databaseUrl, qint64 now, const QTimeZone &zone,
                           const DemoSeedOptions &options) {
    UsageStore::Options storeOptions;
    storeOptions.rollupZone = QString::fromUtf8(zone.id()); // as the demo controller's timeZone
    auto opened = UsageStore::open(databaseUrl, storeOptions);
    if (!opened)
        return opened.error();
    UsageStore &store = **opened;
    const TimeRange today = periodContaining(now, Period::Day, zone);
    const DemoIntervals usage = demoIntervals(now, today, zone, options.runningPods);
    if (auto bulk = store.insertBulk(usage.rows); !bulk)
        return bulk.error();
    ManualClock clock(now);
    if (auto r = setDemoBudgets(store, clock, today, zone, usage, options); !r)
        return r;
    return grantDemoBoosts(store, clock, zone, options.actor);
}

} // namespace gq
