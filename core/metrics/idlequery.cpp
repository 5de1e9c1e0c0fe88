#include "core/metrics/idlequery.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gq::metrics {

namespace {

constexpr double kMaxPrometheusPoints = 10000; // Prometheus refuses more than 11,000
// An older window's reading at t covers (t - 2 steps, t]: a scrape late by a step or
// two leaves no hole between readings, and `since` stays within a step of the truth.
constexpr int kStepsPerReading = 2;

const char *const kUtilFields[] = {"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"};

// A label value inside a PromQL regex inside a double-quoted PromQL string.
QString promRegexLiteral(const QString &value) {
    QString re = QRegularExpression::escape(value);
    re.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    re.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return re;
}

// aggregation(selector[step]) with the metric and the aggregation as labels (functions
// drop __name__, and the two aggregations of one series must stay apart).
QString stepTerm(const char *field, const char *agg, const QString &matcher, double step) {
    return QStringLiteral("label_replace(label_replace(%1_over_time({__name__=~\"(?i)%2\"%3}[%4s]), "
                          "\"gq_field\", \"%2\", \"\", \"\"), \"gq_agg\", \"%1\", \"\", \"\")")
        .arg(QLatin1String(agg), QLatin1String(field), matcher,
             QString::number(qint64(step) * kStepsPerReading));
}

const GpuTimeline *findTimeline(const QList<GpuTimeline> &timelines, const QString &key) {
    for (const GpuTimeline &t : timelines)
        if (t.gpu.key() == key)
            return &t;
    return nullptr;
}

std::optional<double> readingAt(const GpuTimeline *t, qint64 tMs) {
    if (!t)
        return std::nullopt;
    for (const GpuReading &r : t->readings)
        if (r.tMs == tMs)
            return r.utilPct;
    return std::nullopt;
}

} // namespace

qint64 RangeWindow::points() const {
    return step > 0 ? qint64(std::llround((end - start) / step)) + 1 : 0;
}

RangeWindow recentIdleWindow(qint64 forSeconds, double now) {
    const double forS = double(std::max<qint64>(1, forSeconds));
    double step = std::clamp(std::ceil(forS / 30.0), 1.0, 60.0);
    const double lookback = std::max(2.0 * forS, forS + 10 * step);
    step = std::max(step, std::ceil(lookback / kMaxPrometheusPoints));
    RangeWindow w;
    w.step = step;
    w.end = std::floor(now / step) * step;
    w.start = w.end - std::ceil(lookback / step) * step;
    return w;
}

std::optional<RangeWindow> olderIdleWindow(const RangeWindow &previous, double now,
                                           const IdleLookback &lookback) {
    const double limit = double(lookback.maxSeconds);
    const double reached = now - previous.start;
    if (reached >= limit || previous.step <= 0)
        return std::nullopt;
    const double reach = std::min(limit, reached * std::max(2, lookback.growth));
    const double span = reach - reached;
    RangeWindow w;
    w.step = std::max(previous.step, std::ceil(span / std::max(1, lookback.pointsPerWindow)));
    w.end = std::floor(previous.start / w.step) * w.step;
    if (w.end >= previous.start)
        w.end -= w.step;
    w.start = std::max(w.end - std::ceil(span / w.step) * w.step, std::ceil((now - limit) / w.step) * w.step);
    if (w.start > w.end)
        return std::nullopt;
    return w;
}

QString idleHistoryQuery(const QList<GpuSample> &candidates, double stepSeconds) {
    QStringList uuids;
    bool everyGpu = candidates.isEmpty();
    for (const GpuSample &g : candidates) {
        if (g.uuid.isEmpty())
            everyGpu = true;
        else if (!uuids.contains(g.uuid))
            uuids << g.uuid;
    }
    std::sort(uuids.begin(), uuids.end());
    QStringList matchers;
    if (everyGpu) {
        matchers << QString();
    } else {
        QStringList alternatives;
        for (const QString &u : uuids)
            alternatives << promRegexLiteral(u);
        const QString re = alternatives.join(QLatin1Char('|'));
        for (const char *label : {"UUID", "uuid"})
            matchers << QStringLiteral(",%1=~\"%2\"").arg(QLatin1String(label), re);
    }
    QStringList terms;
    for (const char *field : kUtilFields)
        for (const char *agg : {"max", "avg"})
            for (const QString &m : matchers)
                terms << stepTerm(field, agg, m, stepSeconds);
    return terms.join(QStringLiteral(" or "));
}

StepTimelines stepTimelinesFromRange(const PromResult &matrix) {
    PromResult max = matrix, mean = matrix;
    max.series.clear();
    mean.series.clear();
    for (PromSeries s : matrix.series) {
        const QString agg = labelValue(s.metric, u"gq_agg");
        const QString field = labelValue(s.metric, u"gq_field");
        Labels labels;
        labels.reserve(s.metric.size());
        labels.append(Label{QStringLiteral("__name__"), field});
        for (const Label &l : s.metric)
            if (l.name != QLatin1String("gq_agg") && l.name != QLatin1String("gq_field") &&
                l.name != QLatin1String("__name__"))
                labels.append(l);
        s.metric = std::move(labels);
        if (agg == QLatin1String("max"))
            max.series.append(std::move(s));
        else if (agg == QLatin1String("avg"))
            mean.series.append(std::move(s));
    }
    return StepTimelines{timelinesFromRange(max), timelinesFromRange(mean)};
}

int extendIdleSpans(QList<IdleGpu> &idle, const StepTimelines &older, const RangeWindow &window,
                    double thresholdPct) {
    const qint64 stepMs = qint64(std::llround(window.step * 1000));
    const qint64 firstMs = qint64(std::llround(window.start * 1000));
    int open = 0;
    for (IdleGpu &g : idle) {
        if (!g.openAtStart)
            continue;
        const QString key = g.gpu.key();
        const GpuTimeline *maxima = findTimeline(older.max, key);
        const GpuTimeline *means = findTimeline(older.mean, key);
        qint64 since = g.sinceMs;
        qint64 later = g.sinceMs;
        qint64 earliest = -1;
        double meanSum = g.meanUtilPct * double(std::max<qint64>(0, g.idleMs));
        double meanMs = double(std::max<qint64>(0, g.idleMs));
        bool broke = !maxima;
        for (qsizetype i = maxima ? maxima->readings.size() - 1 : -1; i >= 0; --i) {
            const GpuReading &r = maxima->readings.at(i);
            if (r.tMs > g.sinceMs)
                continue;
            if (later - r.tMs > 2 * stepMs || !r.utilPct || !(*r.utilPct < thresholdPct) ||
                !sameHolders(r.holders, g.holders)) {
                broke = true;
                break;
            }
            since = r.tMs - kStepsPerReading * stepMs;
            later = r.tMs;
            earliest = r.tMs;
            g.maxUtilPct = std::max(g.maxUtilPct, *r.utilPct);
            const double mean = readingAt(means, r.tMs).value_or(*r.utilPct);
            meanSum += mean * double(stepMs);
            meanMs += double(stepMs);
        }
        if (earliest < 0) {
            g.openAtStart = false; // the step just before was not idle: the span began here
            continue;
        }
        g.sinceMs = since;
        g.idleMs = g.lastMs - since;
        g.gpuHoursWasted = double(g.idleMs) / 3.6e6 * gpuWeight(g.gpu);
        if (meanMs > 0)
            g.meanUtilPct = meanSum / meanMs;
        g.openAtStart = !broke && earliest - firstMs <= 2 * stepMs;
        open += g.openAtStart ? 1 : 0;
    }
    return open;
}

Result<IdleReport> findIdleThroughPrometheus(PrometheusClient &client, IdleOptions options, double now,
                                             const IdleLookback &lookback) {
    IdleReport report;
    RangeWindow window = recentIdleWindow(options.minIdleMs / 1000, now);
    auto recent = client.queryRange(gpuUtilizationQuery(), window.start, window.end, window.step);
    recent.waitForFinished();
    const Result<PromResult> r = recent.result();
    ++report.queries;
    if (!r)
        return r.error();
    report.warnings << r->notes();
    options.nowMs = qint64(now * 1000);
    // Two missed steps in a row break a span; one is a late scrape.
    options.maxGapMs = qint64(window.step * 2000) + 1;
    report.idle = findIdleGpus(timelinesFromRange(*r), options);
    report.lookedBackSeconds = now - window.start;
    while (true) {
        QList<GpuSample> open;
        for (const IdleGpu &g : report.idle)
            if (g.openAtStart)
                open << g.gpu;
        if (open.isEmpty())
            break;
        const std::optional<RangeWindow> older = olderIdleWindow(window, now, lookback);
        if (!older)
            break;
        auto f =
            client.queryRange(idleHistoryQuery(open, older->step), older->start, older->end, older->step);
        f.waitForFinished();
        const Result<PromResult> o = f.result();
        ++report.queries;
        if (!o) {
            report.warnings << QStringLiteral("could not look back further than %1 s: %2")
                                   .arg(qint64(report.lookedBackSeconds))
                                   .arg(o.error().message);
            break;
        }
        report.warnings << o->notes();
        extendIdleSpans(report.idle, stepTimelinesFromRange(*o), *older, options.thresholdPct);
        window = *older;
        report.lookedBackSeconds = now - window.start;
    }
    sortByWaste(report.idle);
    report.warnings.removeDuplicates();
    return report;
}

} // namespace gq::metrics
