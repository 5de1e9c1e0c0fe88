#include "testcluster/workloads.h"

#include "testcluster/resourcemath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>

namespace gq::tc {

namespace {

// Go's %#v of a map[string]string, as "Invalid value" prints template labels.
QString goMap(const QJsonObject &m) {
    QStringList parts;
    for (auto it = m.begin(); it != m.end(); ++it)
        parts.append(QStringLiteral("\"%1\":\"%2\"").arg(it.key(), it.value().toString()));
    return QStringLiteral("map[string]string{") + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

bool selectorMatchesLabels(const QJsonObject &selector, const QJsonObject &labels) {
    const QJsonObject matchLabels = selector.value(QLatin1String("matchLabels")).toObject();
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it) {
        if (labels.value(it.key()).toString() != it.value().toString())
            return false;
    }
    for (const QJsonValue &v : selector.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString key = e.value(QLatin1String("key")).toString();
        const QString op = e.value(QLatin1String("operator")).toString();
        const bool has = labels.contains(key);
        const bool in = e.value(QLatin1String("values")).toArray().contains(labels.value(key));
        if ((op == QLatin1String("In") && !(has && in)) || (op == QLatin1String("NotIn") && has && in) ||
            (op == QLatin1String("Exists") && !has) || (op == QLatin1String("DoesNotExist") && has))
            return false;
    }
    return true;
}

void checkRestartPolicy(const QJsonObject &templ, const QString &prefix, const QStringList &allowed,
                        QList<FieldError> &errors) {
    const QString policy =
        templ.value(QLatin1String("spec")).toObject().value(QLatin1String("restartPolicy")).toString();
    const QString field = prefix + QStringLiteral("spec.restartPolicy");
    if (policy.isEmpty()) {
        if (!allowed.contains(QLatin1String("Always")))
            errors.append(required(field, QStringLiteral("valid values: \"OnFailure\", \"Never\"")));
    } else if (!allowed.contains(policy)) {
        errors.append(FieldError::notSupported(field, policy, allowed));
    }
}

} // namespace

QList<FieldError> validateDeployment(const QJsonObject &deployment) {
    QList<FieldError> errors;
    const QJsonObject spec = deployment.value(QLatin1String("spec")).toObject();
    const QJsonValue replicas = spec.value(QLatin1String("replicas"));
    if (replicas.isDouble() && replicas.toInteger() < 0)
        errors.append({FieldError::Type::Invalid, QStringLiteral("spec.replicas"),
                       QString::number(replicas.toInteger()),
                       QStringLiteral("must be greater than or equal to 0")});
    const QJsonObject templ = spec.value(QLatin1String("template")).toObject();
    const QJsonObject labels =
        templ.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
    if (!spec.contains(QLatin1String("selector"))) {
        errors.append(required(QStringLiteral("spec.selector")));
    } else {
        const QJsonObject selector = spec.value(QLatin1String("selector")).toObject();
        if (selector.value(QLatin1String("matchLabels")).toObject().isEmpty() &&
            selector.value(QLatin1String("matchExpressions")).toArray().isEmpty())
            errors.append({FieldError::Type::Invalid, QStringLiteral("spec.selector"),
                           QStringLiteral("v1.LabelSelector{MatchLabels:map[string]string(nil), "
                                          "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"),
                           QStringLiteral("empty selector is invalid for deployment")});
        else if (!selectorMatchesLabels(selector, labels))
            errors.append({FieldError::Type::Invalid, QStringLiteral("spec.template.metadata.labels"),
                           goMap(labels), QStringLiteral("`selector` does not match template `labels`")});
    }
    errors += validatePodTemplate(templ, QStringLiteral("spec.template."));
    checkRestartPolicy(templ, QStringLiteral("spec.template."), {QStringLiteral("Always")}, errors);
    return errors;
}

QList<FieldError> validateCronJob(const QJsonObject &cronJob) {
    QList<FieldError> errors;
    const QJsonObject spec = cronJob.value(QLatin1String("spec")).toObject();
    const QString schedule = spec.value(QLatin1String("schedule")).toString();
    static const QStringList shorthands = {QStringLiteral("@yearly"),  QStringLiteral("@annually"),
                                           QStringLiteral("@monthly"), QStringLiteral("@weekly"),
                                           QStringLiteral("@daily"),   QStringLiteral("@midnight"),
                                           QStringLiteral("@hourly")};
    if (schedule.isEmpty()) {
        errors.append(required(QStringLiteral("spec.schedule")));
    } else if (!shorthands.contains(schedule) && !schedule.startsWith(QLatin1String("@every "))) {
        const QStringList fields = schedule.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        static const QRegularExpression field(QStringLiteral("^[0-9A-Za-z*?/,-]+$"));
        bool ok = fields.size() == 5;
        for (const QString &f : fields)
            ok = ok && field.match(f).hasMatch();
        if (fields.size() != 5)
            errors.append(invalid(
                QStringLiteral("spec.schedule"), schedule,
                QStringLiteral("expected exactly 5 fields, found %1: %2").arg(fields.size()).arg(schedule)));
        else if (!ok)
            errors.append(
                invalid(QStringLiteral("spec.schedule"), schedule, QStringLiteral("unparseable schedule")));
    }
    const QString policy = spec.value(QLatin1String("concurrencyPolicy")).toString();
    if (!policy.isEmpty() && policy != QLatin1String("Allow") && policy != QLatin1String("Forbid") &&
        policy != QLatin1String("Replace"))
        errors.append(FieldError::notSupported(
            QStringLiteral("spec.concurrencyPolicy"), policy,
            {QStringLiteral("Allow"), QStringLiteral("Forbid"), QStringLiteral("Replace")}));
    const QJsonObject templ = spec.value(QLatin1String("jobTemplate"))
                                  .toObject()
                                  .value(QLatin1String("spec"))
                                  .toObject()
                                  .value(QLatin1String("template"))
                                  .toObject();
    const QString prefix = QStringLiteral("spec.jobTemplate.spec.template.");
    errors += validatePodTemplate(templ, prefix);
    checkRestartPolicy(templ, prefix, {QStringLiteral("OnFailure"), QStringLiteral("Never")}, errors);
    return errors;
}

QList<FieldError> validateService(const QJsonObject &service) {
    QList<FieldError> errors;
    const QJsonObject spec = service.value(QLatin1String("spec")).toObject();
    const QString type = spec.value(QLatin1String("type")).toString(QStringLiteral("ClusterIP"));
    const QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
    if (ports.isEmpty() && type != QLatin1String("ExternalName") &&
        spec.value(QLatin1String("clusterIP")).toString() != QLatin1String("None"))
        errors.append(required(QStringLiteral("spec.ports")));
    QStringList names;
    for (qsizetype i = 0; i < ports.size(); ++i) {
        const QJsonObject p = ports.at(i).toObject();
        const QString base = FieldError::item(QStringLiteral("spec.ports"), i);
        const QString name = p.value(QLatin1String("name")).toString();
        if (ports.size() > 1 && name.isEmpty())
            errors.append(required(base + QStringLiteral(".name")));
        else if (!name.isEmpty() && names.contains(name))
            errors.append(
                {FieldError::Type::Duplicate, base + QStringLiteral(".name"), FieldError::quote(name), {}});
        names.append(name);
        const qint64 port = p.value(QLatin1String("port")).toInteger();
        if (port < 1 || port > 65535)
            errors.append({FieldError::Type::Invalid, base + QStringLiteral(".port"), QString::number(port),
                           QStringLiteral("must be between 1 and 65535, inclusive")});
    }
    return errors;
}

QList<FieldError> validateClusterRole(const QJsonObject &role) {
    QList<FieldError> errors;
    const QJsonArray rules = role.value(QLatin1String("rules")).toArray();
    for (qsizetype i = 0; i < rules.size(); ++i) {
        const QJsonObject r = rules.at(i).toObject();
        const QString base = FieldError::item(QStringLiteral("rules"), i);
        if (r.value(QLatin1String("verbs")).toArray().isEmpty())
            errors.append(required(base + QStringLiteral(".verbs"),
                                   QStringLiteral("verbs must contain at least one value")));
        const bool urls = !r.value(QLatin1String("nonResourceURLs")).toArray().isEmpty();
        const bool resources = !r.value(QLatin1String("resources")).toArray().isEmpty();
        if (urls && resources)
            errors.append(invalid(
                base + QStringLiteral(".nonResourceURLs"), QString(),
                QStringLiteral("rules cannot apply to both regular resources and non-resource URLs")));
        else if (!urls && !resources)
            errors.append(required(base + QStringLiteral(".resources"),
                                   QStringLiteral("resource rules must supply at least one resource")));
        if (resources && r.value(QLatin1String("apiGroups")).toArray().isEmpty())
            errors.append(required(base + QStringLiteral(".apiGroups"),
                                   QStringLiteral("resource rules must supply at least one api group")));
    }
    return errors;
}

QList<FieldError> validateClusterRoleBinding(const QJsonObject &binding, const QJsonObject *old,
                                             bool roleBinding) {
    QList<FieldError> errors;
    const QJsonObject ref = binding.value(QLatin1String("roleRef")).toObject();
    if (ref.value(QLatin1String("apiGroup")).toString() != QLatin1String("rbac.authorization.k8s.io"))
        errors.append(FieldError::notSupported(QStringLiteral("roleRef.apiGroup"),
                                               ref.value(QLatin1String("apiGroup")).toString(),
                                               {QStringLiteral("rbac.authorization.k8s.io")}));
    const QString refKind = ref.value(QLatin1String("kind")).toString();
    if (refKind != QLatin1String("ClusterRole") && !(roleBinding && refKind == QLatin1String("Role")))
        errors.append(FieldError::notSupported(
            QStringLiteral("roleRef.kind"), refKind,
            roleBinding ? QStringList{QStringLiteral("Role"), QStringLiteral("ClusterRole")}
                        : QStringList{QStringLiteral("ClusterRole")}));
    if (ref.value(QLatin1String("name")).toString().isEmpty())
        errors.append(required(QStringLiteral("roleRef.name")));
    const QJsonArray subjects = binding.value(QLatin1String("subjects")).toArray();
    for (qsizetype i = 0; i < subjects.size(); ++i) {
        const QJsonObject s = subjects.at(i).toObject();
        const QString base = FieldError::item(QStringLiteral("subjects"), i);
        const QString kind = s.value(QLatin1String("kind")).toString();
        if (s.value(QLatin1String("name")).toString().isEmpty())
            errors.append(required(base + QStringLiteral(".name")));
        if (kind == QLatin1String("ServiceAccount")) {
            if (s.value(QLatin1String("namespace")).toString().isEmpty())
                errors.append(required(base + QStringLiteral(".namespace")));
        } else if (kind != QLatin1String("User") && kind != QLatin1String("Group")) {
            errors.append(FieldError::notSupported(
                base + QStringLiteral(".kind"), kind,
                {QStringLiteral("ServiceAccount"), QStringLiteral("User"), QStringLiteral("Group")}));
        }
    }
    if (old && old->value(QLatin1String("roleRef")) != binding.value(QLatin1String("roleRef")))
        errors.append(invalid(QStringLiteral("roleRef"), QString(), QStringLiteral("cannot change roleRef")));
    return errors;
}

} // namespace gq::tc
