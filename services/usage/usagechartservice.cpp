#include "services/usage/usagechartservice.h"

#include "core/usage/subjectintervals.h"
#include "core/usage/usagestore.h"
#include "services/usage/storeworker.h"
#include "services/usage/usagedatabase.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>
#include <memory>

namespace gq {

namespace {

double weightedGpus(const std::vector<UsageInterval> &running, qint64 now, const ResourceWeights &weights) {
    double g = 0;
    for (const UsageInterval &iv : running)
        if (iv.isOpen() && iv.start <= now)
            g += iv.gpus * weights.weight(iv.resource);
    return g;
}

// The most restrictive of a subject's budget decisions: over first, then the least
// remaining share. hasBudget false when there is none.
Decision tightest(const QList<Decision> &decisions) {
    Decision best;
    for (const Decision &d : decisions) {
        if (!d.hasBudget)
            continue;
        const auto left = [](const Decision &x) { return x.limit > 0 ? x.remaining / x.limit : x.remaining; };
        if (!best.hasBudget || left(d) < left(best))
            best = d;
    }
    return best;
}

// Buckets of the range, clipped, and the index of each by its unclipped start.
void makeBuckets(ChartData &data, const QTimeZone &tz, QHash<qint64, size_t> &index) {
    const ChartQuery &q = data.query;
    for (const TimeRange &b : periodsCovering(q.range.start, q.range.end, q.period, tz)) {
        index.insert(b.start, data.buckets.size());
        data.buckets.push_back(TimeRange{std::max(b.start, q.range.start), std::min(b.end, q.range.end)});
    }
    data.values.resize(data.buckets.size());
}

void addPoint(ChartData &data, const QHash<qint64, size_t> &index, qint64 bucketStart, const QString &subject,
              double gpuHours) {
    const auto it = index.constFind(bucketStart);
    if (it != index.constEnd() && gpuHours > 1e-12)
        data.values[*it][subject] += gpuHours;
}

void makeTotals(ChartData &data) {
    QHash<QString, double> sums;
    for (const auto &bucket : data.values)
        for (auto it = bucket.cbegin(); it != bucket.cend(); ++it)
            sums[it.key()] += it.value();
    for (auto it = sums.cbegin(); it != sums.cend(); ++it)
        data.totals.append({it.key(), it.value()});
    std::sort(data.totals.begin(), data.totals.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
}

} // namespace

Result<ChartData> computeChart(const UsageStore &store, const ChartQuery &query) {
    QElapsedTimer timer;
    timer.start();
    auto tz = parseZone(query.zone, QStringLiteral("zone"));
    if (!tz)
        return tz.error();
    if (query.range.end <= query.range.start)
        return Error::make(Error::Kind::Invalid, QStringLiteral("the range is empty"),
                           QStringLiteral("range"));
    if (periodCount(query.range.start, query.range.end, query.period, *tz) > kMaxSeriesBuckets)
        return Error::make(Error::Kind::Invalid, QStringLiteral("too many buckets; choose a longer period"),
                           QStringLiteral("period"));
    ChartData data;
    data.query = query;
    QHash<qint64, size_t> index;
    makeBuckets(data, *tz, index);
    const qint64 from = query.range.start, to = query.range.end, now = query.now;

    if (query.kind == ChartQuery::Kind::Cluster) {
        auto series = store.gpuHoursSeries(GroupBy::Namespace, query.period, from, to, *tz, now);
        if (!series)
            return series.error();
        for (const UsageStore::SeriesPoint &p : *series)
            addPoint(data, index, p.bucketStart, p.subject, p.gpuHours);
        auto users = store.topUsers(from, to, -1, now);
        if (!users)
            return users.error();
        for (const auto &u : *users)
            data.topUsers.append(u);
        auto running = store.runningNow(now);
        if (!running)
            return running.error();
        data.runningGpusNow = weightedGpus(*running, now, store.weights());
    } else {
        const bool ns = query.kind == ChartQuery::Kind::Namespace;
        const BudgetScope scope = ns ? BudgetScope::Namespace : BudgetScope::User;
        auto ivs = subjectIntervals(store, scope, query.subject, from, to, now);
        if (!ivs)
            return ivs.error();
        const auto byPeriod = gpuHoursByPeriod(*ivs, ns ? GroupBy::User : GroupBy::Namespace, from, to,
                                               query.period, *tz, now, store.weights());
        for (auto b = byPeriod.cbegin(); b != byPeriod.cend(); ++b)
            for (auto s = b->cbegin(); s != b->cend(); ++s)
                addPoint(data, index, b.key(), s.key(), s.value());
        auto gpus = store.runningGpus(scope, query.subject, now);
        if (!gpus)
            return gpus.error();
        data.runningGpusNow = *gpus;
        auto budgets = store.budgetStatus(scope, query.subject, now);
        if (!budgets)
            return budgets.error();
        for (const Decision &d : *budgets)
            if (d.hasBudget)
                data.budgets << d;
    }
    makeTotals(data);
    if (query.kind == ChartQuery::Kind::Namespace) {
        for (const auto &t : std::as_const(data.totals)) {
            auto status = store.budgetStatus(BudgetScope::User, t.first, now);
            if (!status)
                return status.error();
            if (const Decision d = tightest(*status); d.hasBudget)
                data.subjectBudgets.insert(t.first, d);
        }
    }
    data.elapsedMs = timer.elapsed();
    return data;
}

Result<DrillData> computeDrillDown(const UsageStore &store, const DrillQuery &query) {
    const ChartQuery &c = query.query;
    const TimeRange bucket{std::max(query.bucket.start, c.range.start),
                           std::min(query.bucket.end, c.range.end)};
    DrillData data;
    data.query = query;
    if (bucket.end <= bucket.start)
        return data;
    const QSet<QString> wanted(query.subjects.cbegin(), query.subjects.cend());
    std::vector<UsageInterval> ivs;
    const auto append = [&ivs](Result<std::vector<UsageInterval>> r) -> Result<void> {
        if (!r)
            return r.error();
        ivs.insert(ivs.end(), r->begin(), r->end());
        return {};
    };
    if (c.kind == ChartQuery::Kind::Cluster) {
        // A few namespaces: one indexed read each; the "others" of a large cluster:
        // one read of the bucket, filtered here.
        if (query.subjects.size() <= 16) {
            for (const QString &ns : query.subjects)
                if (auto r = append(
                        subjectIntervals(store, BudgetScope::Namespace, ns, bucket.start, bucket.end, c.now));
                    !r)
                    return r.error();
        } else if (auto r = append(store.intervals(bucket.start, bucket.end, c.now)); !r) {
            return r.error();
        }
    } else {
        const BudgetScope scope =
            c.kind == ChartQuery::Kind::Namespace ? BudgetScope::Namespace : BudgetScope::User;
        if (auto r = append(subjectIntervals(store, scope, c.subject, bucket.start, bucket.end, c.now)); !r)
            return r.error();
    }
    for (const UsageInterval &iv : ivs) {
        const QString &stackedBy = c.kind == ChartQuery::Kind::Namespace ? iv.user : iv.ns;
        if (!wanted.contains(stackedBy))
            continue;
        const double h = gpuSeconds(iv, bucket, c.now, store.weights()) / 3600.0;
        if (h > 1e-12)
            data.rows.append(DrillRow{iv, h});
    }
    std::stable_sort(data.rows.begin(), data.rows.end(), [](const DrillRow &a, const DrillRow &b) {
        return a.interval.start < b.interval.start;
    });
    return data;
}

UsageChartService::UsageChartService(UsageDatabase *database, QObject *parent)
    : QObject(parent)
    , m_database(database ? database : new UsageDatabase(this))
    , m_lane(m_database->lane(new StoreWorker, QStringLiteral("gq-usage-charts")))
    , m_worker(m_lane->worker()) {}

UsageChartService::~UsageChartService() {
    m_jobs.cancel();
    for (auto &[channel, tracker] : m_channels)
        tracker->cancel();
    m_lane->shutDown(); // the store goes on the thread that opened it
}

void UsageChartService::open(const QString &url, const QString &password) {
    m_database->open(url, password);
    m_jobs.runOn(
        m_worker, [w = m_worker]() -> Result<void> { return w->open(); },
        [this](const Result<void> &r) {
            if (!r) {
                emit failed(r.error());
                return;
            }
            m_open = true;
            emit opened();
        });
}

JobTracker &UsageChartService::supersede(const QString &channel) {
    auto &tracker = m_channels[channel];
    if (!tracker)
        tracker = std::make_unique<JobTracker>(this);
    tracker->cancel();
    return *tracker;
}

void UsageChartService::cancel(const QString &channel) {
    m_channels.erase(channel); // its tracker goes, and with it whatever is still out
}

namespace {
// On the lane's thread: `compute` on its store, unless the request was superseded
// before it started (then what it returns is dropped anyway).
template <typename T, typename Compute> auto onStore(StoreWorker *w, Compute compute) {
    return [w, compute = std::move(compute)](const JobToken &token) -> Result<T> {
        if (token.isCancelled())
            return Error::make(Error::Kind::Cancelled, QStringLiteral("superseded"));
        if (!w->ready())
            return Error::make(Error::Kind::Database, QStringLiteral("the usage database is not open"));
        return compute(*w->store);
    };
}
} // namespace

void UsageChartService::chart(const QString &channel, const ChartQuery &query, ChartDone done) {
    supersede(channel).runOn(
        m_worker,
        onStore<ChartData>(m_worker, [query](const UsageStore &store) { return computeChart(store, query); }),
        std::move(done));
}

void UsageChartService::drillDown(const QString &channel, const DrillQuery &query, DrillDone done) {
    supersede(channel).runOn(
        m_worker,
        onStore<DrillData>(m_worker,
                           [query](const UsageStore &store) { return computeDrillDown(store, query); }),
        std::move(done));
}

} // namespace gq
