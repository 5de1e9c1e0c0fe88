#include "app/demo/demodata.h"

#include <QRandomGenerator>

#include <algorithm>
#include <cmath>

namespace gq {

QString demoUserName(int i) {
    return QStringLiteral("user-%1").arg(i, 4, 10, QLatin1Char('0'));
}

QString demoNamespaceName(int i) {
    return QStringLiteral("team-%1").arg(i, 3, 10, QLatin1Char('0'));
}

namespace {

// Relative launch rate by hour of day (UTC): quiet nights, a morning ramp, a
// post-lunch peak, evening batch submissions.
constexpr double kDiurnal[24] = {0.25, 0.2, 0.15, 0.15, 0.15, 0.2, 0.35, 0.6, 1.0, 1.4, 1.6,  1.6,
                                 1.3,  1.5, 1.7,  1.7,  1.5,  1.3, 1.0,  0.8, 0.7, 0.6, 0.45, 0.35};

struct Job {
    QString resource;
    int gpus;
    qint64 seconds;
};

Job pickJob(QRandomGenerator &rng, bool heavy) {
    static const QString gpu = QStringLiteral("nvidia.com/gpu");
    static const QString mig1 = QStringLiteral("nvidia.com/mig-1g.10gb");
    static const QString mig3 = QStringLiteral("nvidia.com/mig-3g.40gb");
    const double r = rng.generateDouble();
    const double d = rng.generateDouble();
    if (r < 0.18) // notebook on a MIG slice: 20 min to 4 h
        return {rng.bounded(3) == 0 ? mig3 : mig1, 1 + int(rng.bounded(2)), 1200 + qint64(d * d * 13200)};
    if (r < 0.55) // short experiment, 1-2 GPUs: 5 min to 2 h
        return {gpu, 1 + int(rng.bounded(2)), 300 + qint64(d * 6900)};
    if (r < (heavy ? 0.75 : 0.9)) // training run, 1-4 GPUs: 1 to 10 h
        return {gpu, 1 << rng.bounded(3), 3600 + qint64(d * d * 32400)};
    // large multi-GPU job: 8 GPUs for 2 to 36 h
    return {gpu, 8, 7200 + qint64(d * d * d * 122400)};
}

} // namespace

qint64 generateDemoUsage(const DemoSpec &spec, const std::function<bool(std::vector<UsageInterval> &&)> &sink,
                         int chunk) {
    QRandomGenerator rng(quint32(spec.seed ^ (spec.seed >> 32)));
    const int users = std::max(1, spec.users);
    const int namespaces = std::max(1, spec.namespaces);
    QStringList userNames, nsNames;
    for (int i = 0; i < users; ++i)
        userNames << demoUserName(i);
    for (int i = 0; i < namespaces; ++i)
        nsNames << demoNamespaceName(i);
    // Activity per user: about 3% heavy users at ten times the rate; the rest spread
    // between 0.3x and 1.7x. Normalised so the mean is jobsPerUserDay.
    std::vector<double> rate(static_cast<size_t>(users));
    std::vector<bool> heavy(static_cast<size_t>(users));
    std::vector<int> home(static_cast<size_t>(users));
    double sum = 0;
    for (int u = 0; u < users; ++u) {
        heavy[size_t(u)] = rng.bounded(100) < 3;
        rate[size_t(u)] = heavy[size_t(u)] ? 10.0 : 0.3 + 1.4 * rng.generateDouble();
        home[size_t(u)] = u % namespaces;
        sum += rate[size_t(u)];
    }
    for (double &r : rate)
        r *= spec.jobsPerUserDay * users / sum;
    double diurnalSum = 0;
    for (double h : kDiurnal)
        diurnalSum += h;

    const qint64 end = spec.end;
    const qint64 begin = end - qint64(spec.days) * 86400;
    const QString uidPrefix = QStringLiteral("demo-%1-").arg(spec.seed);
    std::vector<UsageInterval> out;
    out.reserve(size_t(chunk));
    qint64 produced = 0, serial = 0;
    for (qint64 day = begin; day < end; day += 86400) {
        const int weekday = int(((day / 86400) + 3) % 7); // 0 = Monday (1970-01-01 was a Thursday)
        const double dayFactor = weekday >= 5 ? 0.35 : 1.0;
        for (int u = 0; u < users; ++u) {
            // Jobs today: the expected count, with the fraction decided by chance.
            const double expected = rate[size_t(u)] * dayFactor * 7.0 / 5.7;
            int jobs = int(expected);
            if (rng.generateDouble() < expected - jobs)
                ++jobs;
            for (int j = 0; j < jobs; ++j) {
                // Hour by the diurnal curve, then a uniform second within it.
                double pick = rng.generateDouble() * diurnalSum;
                int hour = 0;
                while (hour < 23 && pick >= kDiurnal[hour])
                    pick -= kDiurnal[hour++];
                const qint64 start = day + hour * 3600 + qint64(rng.bounded(3600));
                if (start >= end)
                    continue;
                const Job job = pickJob(rng, heavy[size_t(u)]);
                UsageInterval iv;
                iv.cluster = spec.cluster;
                // Mostly the user's home namespace, sometimes a shared one.
                iv.ns =
                    rng.bounded(10) == 0 ? nsNames[int(rng.bounded(namespaces))] : nsNames[home[size_t(u)]];
                iv.user = userNames[u];
                ++serial;
                iv.podUid = uidPrefix + QString::number(serial);
                iv.podName = userNames[u] + QStringLiteral("-job-") + QString::number(serial);
                iv.resource = job.resource;
                iv.gpus = job.gpus;
                iv.start = start;
                if (start + job.seconds <= end)
                    iv.end = start + job.seconds;
                iv.source = QStringLiteral("demo");
                out.push_back(std::move(iv));
                ++produced;
                if (int(out.size()) >= chunk) {
                    if (!sink(std::move(out)))
                        return produced;
                    out = {};
                    out.reserve(size_t(chunk));
                }
            }
        }
    }
    if (!out.empty())
        sink(std::move(out));
    return produced;
}

} // namespace gq
