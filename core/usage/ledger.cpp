#include "core/usage/ledger.h"

#include <QRegularExpression>

#include <algorithm>

namespace gq {

double ResourceWeights::weight(const QString &resource) const {
    const auto it = m_overrides.constFind(resource);
    if (it != m_overrides.constEnd())
        return *it;
    static const QRegularExpression mig(QStringLiteral(R"(^nvidia\.com/mig-(\d)g\.)"));
    const auto m = mig.match(resource);
    if (m.hasMatch()) {
        const int slices = m.captured(1).toInt();
        if (slices >= 1 && slices <= 7)
            return slices / 7.0;
    }
    return 1.0;
}

namespace {
template <typename Set> Result<void> parseWeightList(const QString &text, const QString &field, Set set) {
    const QStringList items = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &raw : items) {
        const QString item = raw.trimmed();
        const qsizetype eq = item.indexOf(QLatin1Char('='));
        if (eq <= 0)
            return Error::make(Error::Kind::Parse,
                               QStringLiteral("'%1' is not %2=WEIGHT")
                                   .arg(item, field == QLatin1String("weights") ? QStringLiteral("RESOURCE")
                                                                                : QStringLiteral("MODEL")),
                               field);
        bool ok = false;
        const QString name = item.left(eq).trimmed();
        const QString valueText = item.mid(eq + 1).trimmed();
        double value = valueText.toDouble(&ok);
        if (!ok && valueText.contains(QLatin1Char('/'))) { // "1/7"
            const QStringList nd = valueText.split(QLatin1Char('/'));
            bool okN = false, okD = false;
            const double n = nd.value(0).toDouble(&okN), d = nd.value(1).toDouble(&okD);
            ok = nd.size() == 2 && okN && okD && d != 0;
            value = ok ? n / d : 0;
        }
        if (!ok || value <= 0 || value > 64)
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("weight '%1' must be a positive number (or N/D)").arg(valueText),
                QStringLiteral("%1[%2]").arg(field, name));
        set(name, value);
    }
    return {};
}
} // namespace

Result<ResourceWeights> ResourceWeights::parse(const QString &text) {
    ResourceWeights w;
    if (auto r = parseWeightList(text, QStringLiteral("weights"),
                                 [&w](const QString &n, double v) { w.set(n, v); });
        !r)
        return r.error();
    return w;
}

Result<void> ResourceWeights::addModels(const QString &text, const QString &field) {
    ResourceWeights parsed; // all or nothing
    if (auto r =
            parseWeightList(text, field, [&parsed](const QString &n, double v) { parsed.setModel(n, v); });
        !r)
        return r;
    for (auto it = parsed.m_models.cbegin(); it != parsed.m_models.cend(); ++it)
        m_models.insert(it.key(), it.value());
    return {};
}

Result<void> validateInterval(const UsageInterval &iv) {
    auto missing = [](const char *field) {
        return Error::make(Error::Kind::Invalid, QStringLiteral("must not be empty"),
                           QString::fromLatin1(field));
    };
    if (iv.cluster.isEmpty())
        return missing("cluster");
    if (iv.ns.isEmpty())
        return missing("namespace");
    if (iv.user.isEmpty())
        return missing("user");
    if (iv.podUid.isEmpty())
        return missing("pod_uid");
    if (iv.resource.isEmpty())
        return missing("resource");
    if (iv.gpus <= 0)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("must be a positive number of devices, got %1").arg(iv.gpus),
                           QStringLiteral("gpus"));
    if (iv.end && *iv.end == iv.start)
        return Error::make(Error::Kind::Invalid, QStringLiteral("zero-length interval: end equals start"),
                           QStringLiteral("end"));
    if (iv.end && *iv.end < iv.start)
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("reversed interval: end is %1 s before start").arg(iv.start - *iv.end),
            QStringLiteral("end"));
    return {};
}

qint64 overlapSeconds(const UsageInterval &iv, const TimeRange &window, qint64 now) {
    const qint64 end = iv.end ? *iv.end : now;
    const qint64 a = std::max(iv.start, window.start);
    const qint64 b = std::min(end, window.end);
    return b > a ? b - a : 0;
}

double gpuSeconds(const UsageInterval &iv, const TimeRange &window, qint64 now,
                  const ResourceWeights &weights) {
    const qint64 s = overlapSeconds(iv, window, now);
    return s == 0 ? 0.0 : double(s) * iv.gpus * weights.weight(iv.resource);
}

double gpuHours(std::span<const UsageInterval> intervals, const TimeRange &window, qint64 now,
                const ResourceWeights &weights) {
    double total = 0;
    for (const UsageInterval &iv : intervals)
        total += gpuSeconds(iv, window, now, weights);
    return total / 3600.0;
}

Result<GroupBy> parseGroupBy(const QString &text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("namespace") || t == QLatin1String("ns"))
        return GroupBy::Namespace;
    if (t == QLatin1String("user"))
        return GroupBy::User;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("unknown grouping '%1'; expected namespace or user").arg(text),
                       QStringLiteral("by"));
}

QMap<qint64, QMap<QString, double>> gpuHoursByPeriod(std::span<const UsageInterval> intervals, GroupBy by,
                                                     qint64 from, qint64 to, Period period,
                                                     const QTimeZone &tz, qint64 now,
                                                     const ResourceWeights &weights) {
    QMap<qint64, QMap<QString, double>> out;
    for (const UsageInterval &iv : intervals) {
        const qint64 end = std::min(iv.end ? *iv.end : now, to);
        const qint64 start = std::max(iv.start, from);
        if (end <= start)
            continue;
        const QString &subject = by == GroupBy::Namespace ? iv.ns : iv.user;
        for (const TimeRange &p : periodsCovering(start, end, period, tz)) {
            const double s =
                gpuSeconds(iv, TimeRange{std::max(p.start, from), std::min(p.end, to)}, now, weights);
            if (s > 0)
                out[p.start][subject] += s / 3600.0;
        }
    }
    return out;
}

QString podUser(const QHash<QString, QString> &labels, const QString &ns, const QString &userLabel) {
    const QString v = labels.value(userLabel).trimmed();
    return v.isEmpty() ? ns : v;
}

} // namespace gq
