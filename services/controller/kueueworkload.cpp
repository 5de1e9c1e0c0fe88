#include "services/controller/kueueworkload.h"

#include "services/controller/clampplan.h"
#include "core/usage/timewindow.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>

namespace gq::kueuecheck {

namespace {

QJsonObject obj(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toObject();
}

bool conditionTrue(const QJsonObject &workload, const QString &type) {
    const QJsonArray conditions = obj(workload, "status").value(QLatin1String("conditions")).toArray();
    return std::any_of(conditions.begin(), conditions.end(), [&type](const QJsonValue &c) {
        const QJsonObject o = c.toObject();
        return o.value(QLatin1String("type")).toString() == type &&
               o.value(QLatin1String("status")).toString() == QLatin1String("True");
    });
}

QString stamp(qint64 now) {
    return QDateTime::fromSecsSinceEpoch(now, Qt::UTC).toString(Qt::ISODate);
}

// Weighted GPUs of one pod template (as the pod webhook weighs a pod).
double templateGpus(const QJsonObject &podTemplate, const ResourceWeights &weights) {
    double gpus = 0;
    const QHash<QString, qint64> held = clampplan::gpusInUse({podTemplate});
    for (auto it = held.begin(); it != held.end(); ++it)
        gpus += double(it.value()) * weights.weight(it.key().mid(9)); // drop "requests."
    const QString model = obj(obj(podTemplate, "spec"), "nodeSelector")
                              .value(QLatin1String("nvidia.com/gpu.product"))
                              .toString();
    if (!model.isEmpty())
        gpus *= weights.modelWeight(model);
    return gpus;
}

} // namespace

AdmissionRequest WorkloadAsk::request() const {
    AdmissionRequest r;
    r.gpus = gpus;
    if (maxSeconds) {
        r.kind = AdmissionRequest::Kind::NewJob;
        r.hours = double(*maxSeconds) / 3600.0;
    } else {
        r.kind = AdmissionRequest::Kind::Running;
    }
    return r;
}

WorkloadAsk readWorkload(const QJsonObject &workload, const QString &userLabel,
                         const ResourceWeights &weights) {
    WorkloadAsk ask;
    const QJsonObject meta = obj(workload, "metadata");
    const QJsonObject spec = obj(workload, "spec");
    ask.ns = meta.value(QLatin1String("namespace")).toString();
    ask.name = meta.value(QLatin1String("name")).toString();
    QHash<QString, QString> labels;
    const QJsonArray podSets = spec.value(QLatin1String("podSets")).toArray();
    for (const QJsonValue &v : podSets) {
        const QJsonObject podSet = v.toObject();
        const QJsonObject tmpl = obj(podSet, "template");
        const double count = podSet.value(QLatin1String("count")).toDouble(1);
        ask.gpus += count * templateGpus(tmpl, weights);
        const QString label = obj(obj(tmpl, "metadata"), "labels").value(userLabel).toString().trimmed();
        if (!label.isEmpty() && labels.isEmpty())
            labels.insert(userLabel, label);
    }
    ask.labelled = !labels.isEmpty();
    ask.user = podUser(labels, ask.ns, userLabel);
    const QJsonValue max = spec.value(QLatin1String("maximumExecutionTimeSeconds"));
    if (max.isDouble() && max.toDouble() > 0)
        ask.maxSeconds = qint64(max.toDouble());
    ask.quotaReserved = conditionTrue(workload, QStringLiteral("QuotaReserved"));
    ask.finished = conditionTrue(workload, QStringLiteral("Finished"));
    const QJsonArray checks = obj(workload, "status").value(QLatin1String("admissionChecks")).toArray();
    for (const QJsonValue &v : checks) {
        const QJsonObject c = v.toObject();
        ask.checks.insert(c.value(QLatin1String("name")).toString(),
                          CheckState{c.value(QLatin1String("state")).toString(),
                                     c.value(QLatin1String("message")).toString(),
                                     c.value(QLatin1String("lastTransitionTime")).toString()});
    }
    return ask;
}

bool needsDecision(const WorkloadAsk &ask, const QString &check) {
    const auto it = ask.checks.constFind(check);
    return it != ask.checks.cend() && ask.quotaReserved && !ask.finished && it->state != kReady;
}

Verdict verdict(const WorkloadAsk &ask, const Decision &decision, const QString &userLabel) {
    bool allowed = decision.allowed();
    QString message = decision.message;
    // Without a run length: admitted while anything is left (or running work is in
    // grace); a spent budget with nothing running has no grace to give.
    if (!ask.maxSeconds && allowed && decision.hasBudget && decision.outcome == Decision::Outcome::Allowed &&
        decision.remaining <= kGpuHourTolerance && decision.runningGpus <= 0) {
        allowed = false;
        message = QStringLiteral("Denied: %1 GPU-h used of %2 per %3, nothing left")
                      .arg(formatGpuHours(decision.used), formatGpuHours(decision.limit),
                           periodName(decision.budget.period));
    }
    message += QStringLiteral(" for user %1").arg(ask.user);
    if (!ask.labelled)
        message += QStringLiteral(" (no %1 label: the namespace)").arg(userLabel);
    return Verdict{allowed ? kReady : kPending, message};
}

Verdict noGpus() {
    return Verdict{kReady, QStringLiteral("Allowed: no GPUs requested")};
}

QStringList ourChecks(const QList<QJsonObject> &admissionChecks) {
    QStringList out;
    for (const QJsonObject &ac : admissionChecks)
        if (obj(ac, "spec").value(QLatin1String("controllerName")).toString() == kControllerName)
            out.append(obj(ac, "metadata").value(QLatin1String("name")).toString());
    return out;
}

bool isActive(const QJsonObject &admissionCheck) {
    const QJsonArray conditions = obj(admissionCheck, "status").value(QLatin1String("conditions")).toArray();
    return std::any_of(conditions.begin(), conditions.end(), [](const QJsonValue &c) {
        const QJsonObject o = c.toObject();
        return o.value(QLatin1String("type")).toString() == QLatin1String("Active") &&
               o.value(QLatin1String("status")).toString() == QLatin1String("True") &&
               o.value(QLatin1String("reason")).toString() == QLatin1String("Active");
    });
}

QJsonObject checkStatePatch(const QString &apiVersion, const WorkloadAsk &ask, const QString &check,
                            const Verdict &verdict, qint64 now) {
    const CheckState old = ask.checks.value(check);
    const QString since =
        old.state == verdict.state && !old.lastTransitionTime.isEmpty() ? old.lastTransitionTime : stamp(now);
    const QJsonObject state{{QStringLiteral("name"), check},
                            {QStringLiteral("state"), verdict.state},
                            {QStringLiteral("message"), verdict.message},
                            {QStringLiteral("lastTransitionTime"), since}};
    return QJsonObject{
        {QStringLiteral("apiVersion"), apiVersion},
        {QStringLiteral("kind"), QStringLiteral("Workload")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), ask.name}, {QStringLiteral("namespace"), ask.ns}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("admissionChecks"), QJsonArray{state}}}}};
}

QJsonObject activePatch(const QString &apiVersion, const QString &check, qint64 now) {
    const QJsonObject condition{
        {QStringLiteral("type"), QStringLiteral("Active")},
        {QStringLiteral("status"), QStringLiteral("True")},
        {QStringLiteral("reason"), QStringLiteral("Active")},
        {QStringLiteral("message"), QStringLiteral("gpuquota-controller checks GPU-hour budgets")},
        {QStringLiteral("lastTransitionTime"), stamp(now)}};
    return QJsonObject{
        {QStringLiteral("apiVersion"), apiVersion},
        {QStringLiteral("kind"), QStringLiteral("AdmissionCheck")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), check}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("conditions"), QJsonArray{condition}}}}};
}

QString pickVersion(const QJsonObject &apiGroup) {
    QStringList served;
    for (const QJsonValue &v : apiGroup.value(QLatin1String("versions")).toArray())
        served.append(v.toObject().value(QLatin1String("version")).toString());
    for (const char *want : {"v1beta2", "v1beta1"})
        if (served.contains(QLatin1String(want)))
            return QLatin1String(want);
    return {};
}

} // namespace gq::kueuecheck
