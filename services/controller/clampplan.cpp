#include "services/controller/clampplan.h"

#include "core/usage/budget.h"
#include "core/kube/dra.h"
#include "core/domain/quantity.h"
#include "core/domain/resourcenames.h"
#include "core/usage/timewindow.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace gq::clampplan {

namespace {

QJsonObject hardOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
}

QJsonObject gpuEntries(const QJsonObject &hard) {
    QJsonObject out;
    for (auto it = hard.begin(); it != hard.end(); ++it)
        if (isGpuQuotaKey(it.key()))
            out.insert(it.key(), it.value());
    return out;
}

QJsonObject annotationsOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("metadata")).toObject().value(QLatin1String("annotations")).toObject();
}

QJsonObject clampRecord(const QJsonObject &quota) {
    const QString text = annotationsOf(quota).value(kAnnotation).toString();
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

// The same quantity written two ways ("2" and "2000m") is the same value.
bool sameValue(const QJsonValue &a, const QJsonValue &b) {
    if (a.isNull() || a.isUndefined() || b.isNull() || b.isUndefined())
        return (a.isNull() || a.isUndefined()) == (b.isNull() || b.isUndefined());
    auto qa = Quantity::parse(a.toString());
    auto qb = Quantity::parse(b.toString());
    if (!qa || !qb)
        return a.toString() == b.toString();
    return *qa == *qb;
}

// min(value, inUse) as quota text; a value that does not parse is clamped to inUse.
QString clampedValue(const QJsonValue &value, qint64 inUse) {
    auto q = Quantity::parse(value.toString());
    if (q && *q <= Quantity::fromInt(inUse))
        return q->toString();
    return QString::number(inUse);
}

QJsonObject withHardAndAnnotation(QJsonObject quota, const QJsonObject &hard, const QJsonObject *record) {
    QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    spec.insert(QLatin1String("hard"), hard);
    quota.insert(QLatin1String("spec"), spec);
    QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    QJsonObject ann = meta.value(QLatin1String("annotations")).toObject();
    if (record)
        ann.insert(kAnnotation, QString::fromUtf8(QJsonDocument(*record).toJson(QJsonDocument::Compact)));
    else
        ann.remove(kAnnotation);
    if (ann.isEmpty())
        meta.remove(QLatin1String("annotations"));
    else
        meta.insert(QLatin1String("annotations"), ann);
    quota.insert(QLatin1String("metadata"), meta);
    quota.remove(QLatin1String("status")); // the server computes it
    return quota;
}

qint64 podRequest(const QJsonObject &container, const QString &resource) {
    const QJsonObject res = container.value(QLatin1String("resources")).toObject();
    QJsonValue v = res.value(QLatin1String("requests")).toObject().value(resource);
    if (v.isUndefined()) // extended resources: requests default to limits
        v = res.value(QLatin1String("limits")).toObject().value(resource);
    if (v.isUndefined())
        return 0;
    auto q = Quantity::parse(v.isString() ? v.toString() : QString::number(v.toDouble()));
    return q ? q->value() : 0;
}

} // namespace

bool isGpuQuotaKey(const QString &key) {
    return (key.startsWith(QLatin1String("requests.")) && isGpuResource(QStringView(key).mid(9))) ||
           dra::isGpuQuotaKey(key);
}

QHash<QString, qint64> gpusInUse(const QList<QJsonObject> &pods) {
    QHash<QString, qint64> total;
    for (const QJsonObject &pod : pods) {
        const QString phase =
            pod.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString();
        if (phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed"))
            continue;
        const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
        QHash<QString, qint64> sum;
        QHash<QString, qint64> initMax;
        auto names = [](const QJsonObject &c) {
            QStringList n;
            const QJsonObject res = c.value(QLatin1String("resources")).toObject();
            for (const char *part : {"requests", "limits"})
                for (const QString &k : res.value(QLatin1String(part)).toObject().keys())
                    if (isGpuResource(k) && !n.contains(k))
                        n << k;
            return n;
        };
        for (const QJsonValue &c : spec.value(QLatin1String("containers")).toArray())
            for (const QString &r : names(c.toObject()))
                sum[r] += podRequest(c.toObject(), r);
        for (const QJsonValue &c : spec.value(QLatin1String("initContainers")).toArray())
            for (const QString &r : names(c.toObject()))
                initMax[r] = std::max(initMax.value(r), podRequest(c.toObject(), r));
        QStringList all = sum.keys();
        for (const QString &r : initMax.keys())
            if (!all.contains(r))
                all << r;
        for (const QString &r : all)
            total[QStringLiteral("requests.") + r] += std::max(sum.value(r), initMax.value(r));
    }
    return total;
}

bool clampDue(const QList<Decision> &decisions, QString *reason) {
    for (const Decision &d : decisions) {
        if (!d.hasBudget)
            continue;
        const bool spent = d.outcome == Decision::Outcome::Denied ||
                           (d.runningGpus <= kGpuHourTolerance && d.used >= d.limit - kGpuHourTolerance);
        if (spent) {
            if (reason)
                *reason = d.message;
            return true;
        }
    }
    return false;
}

bool hasClamp(const QJsonObject &quota) {
    return annotationsOf(quota).contains(kAnnotation);
}

bool limitsGpus(const QJsonObject &quota) {
    return !gpuEntries(hardOf(quota)).isEmpty();
}

bool enforced(const QJsonObject &quota) {
    const QJsonObject hard = hardOf(quota);
    const QJsonObject status =
        quota.value(QLatin1String("status")).toObject().value(QLatin1String("hard")).toObject();
    for (auto it = hard.begin(); it != hard.end(); ++it) {
        const auto spec = Quantity::parse(it.value().toString());
        const auto shown = Quantity::parse(status.value(it.key()).toString());
        if (!spec || !shown || !(*spec == *shown))
            return false;
    }
    return true;
}

Plan planClamp(const QJsonObject &quota, const QHash<QString, qint64> &podsUse, qint64 now,
               const QString &reason) {
    const QJsonObject hard = hardOf(quota);
    const QJsonObject gpus = gpuEntries(hard);
    // A DRA key counts the devices of the namespace's claims, not of its pods: what is in
    // use is what quota counted (status.used).
    QHash<QString, qint64> inUse = podsUse;
    const QJsonObject used =
        quota.value(QLatin1String("status")).toObject().value(QLatin1String("used")).toObject();
    for (auto it = gpus.begin(); it != gpus.end(); ++it)
        if (dra::isGpuQuotaKey(it.key()) && !inUse.contains(it.key()))
            if (const auto q = Quantity::parse(used.value(it.key()).toString()))
                if (const auto n = q->toGpuCount())
                    inUse.insert(it.key(), *n);
    const bool clamped = hasClamp(quota);
    QJsonObject record = clamped ? clampRecord(quota) : QJsonObject{};
    QJsonObject original = record.value(QLatin1String("original")).toObject();
    const QJsonObject oldClamped = record.value(QLatin1String("clamped")).toObject();
    QJsonObject newClamped;
    QJsonObject newHard = hard;
    bool adminEdit = false;
    QStringList editedKeys;

    QStringList keys = gpus.keys();
    for (const QString &k : oldClamped.keys())
        if (!keys.contains(k))
            keys << k;
    for (const QString &k : keys) {
        const QJsonValue current = hard.value(k);
        QString value;
        if (!clamped) {
            original.insert(k, current);
            value = clampedValue(current, inUse.value(k));
        } else if (oldClamped.contains(k) && sameValue(current, oldClamped.value(k))) {
            value = clampedValue(current, inUse.value(k)); // ours: tighten when less is in use
        } else {
            // Changed (or removed) by someone else while clamped: that is the admin's
            // value now, restored at the lift; the clamp applies to it again.
            adminEdit = true;
            editedKeys << k;
            original.insert(k, current.isUndefined() ? QJsonValue(QJsonValue::Null) : current);
            value = current.isUndefined() ? QString::number(inUse.value(k))
                                          : clampedValue(current, inUse.value(k));
        }
        newClamped.insert(k, value);
        newHard.insert(k, value);
    }

    Plan p;
    p.before = gpus;
    p.after = gpuEntries(newHard);
    if (clamped && !adminEdit && newClamped == oldClamped && newHard == hard)
        return p; // nothing changes: a repeated tick, or another replica did it
    record.insert(QLatin1String("original"), original);
    record.insert(QLatin1String("clamped"), newClamped);
    if (!clamped) {
        record.insert(QLatin1String("at"), formatInstantUtc(now));
        record.insert(QLatin1String("reason"), reason);
        record.insert(QLatin1String("created"), false);
    }
    p.action = Plan::Action::Replace;
    p.event = clamped ? Plan::Event::Adjusted : Plan::Event::Applied;
    p.adminEdit = adminEdit;
    p.editedKeys = editedKeys;
    p.quota = withHardAndAnnotation(quota, newHard, &record);
    p.server = quota;
    return p;
}

Plan planLift(const QJsonObject &quota) {
    Plan p;
    if (!hasClamp(quota))
        return p;
    const QJsonObject hard = hardOf(quota);
    const QJsonObject record = clampRecord(quota);
    const QJsonObject original = record.value(QLatin1String("original")).toObject();
    const QJsonObject clamped = record.value(QLatin1String("clamped")).toObject();
    QJsonObject newHard = hard;
    bool untouched = true;
    for (auto it = clamped.begin(); it != clamped.end(); ++it) {
        const QJsonValue current = hard.value(it.key());
        if (!sameValue(current, it.value())) {
            untouched = false; // the admin's value now: it stays
            continue;
        }
        const QJsonValue orig = original.value(it.key());
        if (orig.isNull() || orig.isUndefined())
            newHard.remove(it.key());
        else
            newHard.insert(it.key(), orig);
    }
    p.before = gpuEntries(hard);
    p.after = gpuEntries(newHard);
    p.event = Plan::Event::Lifted;
    p.adminEdit = !untouched;
    if (record.value(QLatin1String("created")).toBool() && untouched) {
        p.action = Plan::Action::Delete;
        p.quota = quota;
        p.after = QJsonObject{};
        return p;
    }
    p.action = Plan::Action::Replace;
    p.server = quota;
    p.quota = withHardAndAnnotation(quota, newHard, nullptr);
    return p;
}

Plan planCreate(const QString &ns, const QHash<QString, qint64> &inUse, qint64 now, const QString &reason) {
    QJsonObject hard{{QStringLiteral("requests.nvidia.com/gpu"),
                      QString::number(inUse.value(QStringLiteral("requests.nvidia.com/gpu")))}};
    QJsonObject original{{QStringLiteral("requests.nvidia.com/gpu"), QJsonValue(QJsonValue::Null)}};
    for (auto it = inUse.begin(); it != inUse.end(); ++it) {
        hard.insert(it.key(), QString::number(it.value()));
        original.insert(it.key(), QJsonValue(QJsonValue::Null));
    }
    const QJsonObject record{{QStringLiteral("at"), formatInstantUtc(now)},
                             {QStringLiteral("reason"), reason},
                             {QStringLiteral("created"), true},
                             {QStringLiteral("original"), original},
                             {QStringLiteral("clamped"), hard}};
    QJsonObject quota{
        {QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ResourceQuota")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), kCreatedName},
                     {QStringLiteral("namespace"), ns},
                     {QStringLiteral("labels"), QJsonObject{{kManagedByLabel, kManagedByValue}}}}},
    };
    Plan p;
    p.action = Plan::Action::Create;
    p.event = Plan::Event::Applied;
    p.after = hard;
    p.quota = withHardAndAnnotation(quota, hard, &record);
    return p;
}

bool isTerminating(const QJsonObject &namespaceObject) {
    const QJsonObject status = namespaceObject.value(QLatin1String("status")).toObject();
    if (status.value(QLatin1String("phase")).toString() == QLatin1String("Terminating"))
        return true;
    const QJsonObject meta = namespaceObject.value(QLatin1String("metadata")).toObject();
    return !meta.value(QLatin1String("deletionTimestamp")).toString().isEmpty();
}

} // namespace gq::clampplan
