#include "testcluster/admission.h"
#include "testcluster/resourcemath.h"
#include "testcluster/webhooks.h"
#include "testcluster/workloads.h"

#include <QRegularExpression>

// Object validation (422 Invalid), with upstream's field paths and messages.

namespace gq::tc {

QList<FieldError> validateName(Resource r, const QString &name) {
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    static const QRegularExpression subdomain(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    if (name.isEmpty())
        return {
            required(QStringLiteral("metadata.name"), QStringLiteral("name or generateName is required"))};
    // RBAC names are path segments ("system:controller:x" is valid), as ValidateRBACName says.
    if (r == Resource::ClusterRole || r == Resource::ClusterRoleBinding || r == Resource::Role ||
        r == Resource::RoleBinding) {
        if (name == QLatin1String(".") || name == QLatin1String(".."))
            return {
                invalid(QStringLiteral("metadata.name"), name, QStringLiteral("may not be '%1'").arg(name))};
        for (const char *bad : {"/", "%"}) {
            if (name.contains(QLatin1String(bad)))
                return {invalid(QStringLiteral("metadata.name"), name,
                                QStringLiteral("may not contain '%1'").arg(QLatin1String(bad)))};
        }
        return {};
    }
    // Namespaces and pods are DNS labels, everything else a DNS subdomain.
    const bool isLabel = r == Resource::Namespace || r == Resource::Pod;
    const qsizetype maxLength = isLabel ? 63 : 253;
    const QRegularExpression &pattern = isLabel ? label : subdomain;
    if (name.size() <= maxLength && pattern.match(name).hasMatch())
        return {};
    return {invalid(
        QStringLiteral("metadata.name"), name,
        isLabel ? QStringLiteral("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                 "characters or '-', and must start and end with an alphanumeric "
                                 "character (e.g. 'my-name',  or '123-abc', regex used for "
                                 "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")
                : QStringLiteral("a lowercase RFC 1123 subdomain must consist of lower case "
                                 "alphanumeric characters, '-' or '.', and must start and end with "
                                 "an alphanumeric character (e.g. 'example.com', regex used for "
                                 "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*["
                                 "a-z0-9])?)*')"))};
}

namespace {

void validateQuota(const QJsonObject &object, const QJsonObject *old, QList<FieldError> &errors) {
    const QJsonObject hard =
        object.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
    for (auto it = hard.begin(); it != hard.end(); ++it) {
        const QString path = QStringLiteral("spec.hard[") + it.key() + QLatin1Char(']');
        if (!it.key().contains(QLatin1Char('/')) && !isStandardQuotaResource(it.key()))
            errors.append(invalid(path, it.key(), QStringLiteral("must be a standard resource for quota")));
        auto q = parseQuantity(it.value());
        if (q && q->sign() < 0)
            errors.append(invalid(path, q->toString(), QStringLiteral("must be greater than or equal to 0")));
    }
    errors += validateQuotaScopes(object, old);
}

void validateLimitRange(const QJsonObject &object, QList<FieldError> &errors) {
    const QJsonArray limits =
        object.value(QLatin1String("spec")).toObject().value(QLatin1String("limits")).toArray();
    for (qsizetype i = 0; i < limits.size(); ++i) {
        const QJsonObject item = limits.at(i).toObject();
        const QString base = QStringLiteral("spec.limits[") + QString::number(i) + QLatin1Char(']');
        const QString type = item.value(QLatin1String("type")).toString();
        if (type.isEmpty()) {
            errors.append(required(base + QStringLiteral(".type")));
        } else if (type != QLatin1String("Container") && type != QLatin1String("Pod") &&
                   type != QLatin1String("PersistentVolumeClaim")) {
            errors.append(
                {FieldError::Type::NotSupported, base + QStringLiteral(".type"), FieldError::quote(type),
                 QStringLiteral("supported values: \"Container\", \"PersistentVolumeClaim\", \"Pod\"")});
        }
        const ResourceList max = parseList(item.value(QLatin1String("max")));
        const ResourceList min = parseList(item.value(QLatin1String("min")));
        const ResourceList def = parseList(item.value(QLatin1String("default")));
        const ResourceList defReq = parseList(item.value(QLatin1String("defaultRequest")));
        const ResourceList ratio = parseList(item.value(QLatin1String("maxLimitRequestRatio")));
        if (type == QLatin1String("Pod")) {
            if (!def.empty())
                errors.append({FieldError::Type::Forbidden,
                               base + QStringLiteral(".default"),
                               {},
                               QStringLiteral("may not be specified when `type` is 'Pod'")});
            if (!defReq.empty())
                errors.append({FieldError::Type::Forbidden,
                               base + QStringLiteral(".defaultRequest"),
                               {},
                               QStringLiteral("may not be specified when `type` is 'Pod'")});
        }
        auto path = [&](const char *field, const QString &key) -> QString {
            return base + QLatin1Char('.') + QLatin1String(field) + QLatin1Char('[') + key + QLatin1Char(']');
        };
        for (const auto &list : {max, min, def, defReq, ratio}) {
            for (const auto &[k, q] : list) {
                if (q.sign() < 0)
                    errors.append(invalid(base + QLatin1Char('[') + k + QLatin1Char(']'), q.toString(),
                                          QStringLiteral("must be greater than or equal to 0")));
            }
        }
        QSet<QString> keys;
        for (const auto &list : {max, min, def, defReq})
            for (const auto &[k, q] : list)
                keys.insert(k);
        QStringList sorted(keys.begin(), keys.end());
        sorted.sort();
        // Each pair must stand small <= big, checked in apimachinery's order; the
        // error names `field` and the value on the side `reportsBig` says.
        struct Ordering {
            const ResourceList &small;
            const ResourceList &big;
            const char *field;
            bool reportsBig;
            const char *message;
        };
        const Ordering orderings[] = {
            {min, max, "min", false, "min value %1 is greater than max value %2"},
            {defReq, max, "defaultRequest", false, "default request value %1 is greater than max value %2"},
            {min, defReq, "defaultRequest", true, "min value %1 is greater than default request value %2"},
            {defReq, def, "defaultRequest", false,
             "default request value %1 is greater than default limit value %2"},
            {min, def, "default", false, "min value %1 is greater than default value %2"},
            {def, max, "default", false, "default value %1 is greater than max value %2"},
        };
        for (const QString &k : sorted) {
            for (const Ordering &o : orderings) {
                const auto small = o.small.find(k), big = o.big.find(k);
                if (small == o.small.end() || big == o.big.end() || !(small->second > big->second))
                    continue;
                errors.append(invalid(
                    path(o.field, k), (o.reportsBig ? big : small)->second.toString(),
                    QString::fromLatin1(o.message).arg(small->second.toString(), big->second.toString())));
            }
            const auto d = def.find(k), dr = defReq.find(k);
            if (d != def.end() && dr != defReq.end() && !overcommitAllowed(k) && d->second != dr->second)
                errors.append(
                    invalid(path("defaultRequest", k), dr->second.toString(),
                            QStringLiteral("default value %1 must equal to defaultRequest value %2 in %3")
                                .arg(d->second.toString(), dr->second.toString(), k)));
        }
        for (const auto &[k, q] : ratio) {
            if (q.toDouble() < 1.0)
                errors.append(invalid(path("maxLimitRequestRatio", k), q.toString(),
                                      QStringLiteral("ratio %1 is less than 1").arg(q.toString())));
        }
    }
}

void validatePodSpec(const QJsonObject &object, QList<FieldError> &errors) {
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (containersOf(spec, false).isEmpty())
        errors.append(required(QStringLiteral("spec.containers")));
    // Its presence makes a pod Terminating for quota scopes.
    if (const QJsonValue deadline = spec.value(QLatin1String("activeDeadlineSeconds"));
        !deadline.isUndefined() && !deadline.isNull()) {
        const double v = deadline.toDouble(0);
        if (!deadline.isDouble() || v < 1 || v > 2147483647.0)
            errors.append({FieldError::Type::Invalid, QStringLiteral("spec.activeDeadlineSeconds"),
                           QString::number(static_cast<qint64>(v)),
                           QStringLiteral("must be between 1 and 2147483647, inclusive")});
    }
    for (bool init : {false, true}) {
        const QJsonArray containers = containersOf(spec, init);
        QSet<QString> seen;
        for (qsizetype i = 0; i < containers.size(); ++i) {
            const QJsonObject c = containers.at(i).toObject();
            const QString base =
                (init ? QStringLiteral("spec.initContainers[") : QStringLiteral("spec.containers[")) +
                QString::number(i) + QLatin1Char(']');
            const QString name = c.value(QLatin1String("name")).toString();
            if (name.isEmpty())
                errors.append(required(base + QStringLiteral(".name")));
            else if (seen.contains(name))
                errors.append({FieldError::Type::Duplicate,
                               base + QStringLiteral(".name"),
                               FieldError::quote(name),
                               {}});
            seen.insert(name);
            if (c.value(QLatin1String("image")).toString().isEmpty())
                errors.append(required(base + QStringLiteral(".image")));
            const ResourceList requests = containerList(c, QLatin1String("requests"));
            const ResourceList limits = containerList(c, QLatin1String("limits"));
            for (const auto &[k, q] : requests) {
                const QString reqPath = base + QStringLiteral(".resources.requests");
                auto lim = limits.find(k);
                if (lim != limits.end()) {
                    if (!overcommitAllowed(k) && q != lim->second)
                        errors.append(invalid(reqPath, q.toString(),
                                              QStringLiteral("must be equal to %1 limit of %2")
                                                  .arg(k, lim->second.toString())));
                    else if (q > lim->second)
                        errors.append(invalid(reqPath, q.toString(),
                                              QStringLiteral("must be less than or equal to %1 limit of %2")
                                                  .arg(k, lim->second.toString())));
                } else if (!overcommitAllowed(k)) {
                    errors.append(
                        required(base + QStringLiteral(".resources.limits"),
                                 QStringLiteral("Limit must be set for non overcommitable resources")));
                }
            }
        }
    }
}

} // namespace

QList<FieldError> validatePodTemplate(const QJsonObject &templ, const QString &prefix) {
    QList<FieldError> errors;
    QJsonObject pod;
    pod.insert(QLatin1String("spec"), templ.value(QLatin1String("spec")));
    validatePodSpec(pod, errors);
    for (FieldError &e : errors)
        e.field = prefix + e.field;
    return errors;
}

QList<FieldError> validateObject(Resource r, const QJsonObject &object, const QJsonObject *old) {
    QList<FieldError> errors;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    errors += validateName(r, meta.value(QLatin1String("name")).toString());
    switch (r) {
    case Resource::ResourceQuota: validateQuota(object, old, errors); break;
    case Resource::LimitRange: validateLimitRange(object, errors); break;
    case Resource::Pod: validatePodSpec(object, errors); break;
    case Resource::ValidatingWebhookConfiguration: errors += validateWebhookConfiguration(object); break;
    case Resource::Deployment: errors += validateDeployment(object); break;
    case Resource::CronJob: errors += validateCronJob(object); break;
    case Resource::Service: errors += validateService(object); break;
    case Resource::ClusterRole: errors += validateClusterRole(object); break;
    case Resource::ClusterRoleBinding: errors += validateClusterRoleBinding(object, old); break;
    case Resource::Role: errors += validateClusterRole(object); break;
    case Resource::RoleBinding: errors += validateClusterRoleBinding(object, old, true); break;
    case Resource::Lease: validateLease(object, errors); break;
    default: break;
    }
    return errors;
}

// What a pod update may change (ValidatePodUpdate): container images, and
// activeDeadlineSeconds only downwards, never removed. Lowering a deadline on a
// running pod is how it becomes Terminating for quota scopes.
std::optional<FieldError> checkPodSpecUpdate(const QJsonObject &oldPod, const QJsonObject &newPod) {
    const QJsonObject oldSpec = oldPod.value(QLatin1String("spec")).toObject();
    QJsonObject newSpec = newPod.value(QLatin1String("spec")).toObject();
    if (newSpec == oldSpec)
        return std::nullopt;
    const QString deadlineField = QStringLiteral("spec.activeDeadlineSeconds");
    const QJsonValue oldDeadline = oldSpec.value(QLatin1String("activeDeadlineSeconds"));
    const QJsonValue newDeadline = newSpec.value(QLatin1String("activeDeadlineSeconds"));
    if (!newDeadline.isUndefined() && !newDeadline.isNull()) {
        const double v = newDeadline.toDouble(-1);
        const QString text = QString::number(static_cast<qint64>(v));
        if (!newDeadline.isDouble() || v < 0 || v > 2147483647.0)
            return FieldError{FieldError::Type::Invalid, deadlineField, text,
                              QStringLiteral("must be between 0 and 2147483647, inclusive")};
        if (oldDeadline.isDouble() && oldDeadline.toDouble() < v)
            return FieldError{FieldError::Type::Invalid, deadlineField, text,
                              QStringLiteral("must be less than or equal to previous value")};
    } else if (oldDeadline.isDouble()) {
        return FieldError{FieldError::Type::Invalid, deadlineField, QStringLiteral("null"),
                          QStringLiteral("must not update from a positive integer to nil value")};
    }
    // Set aside what may change, then nothing else may differ.
    if (oldDeadline.isUndefined())
        newSpec.remove(QLatin1String("activeDeadlineSeconds"));
    else
        newSpec.insert(QLatin1String("activeDeadlineSeconds"), oldDeadline);
    for (const char *list : {"containers", "initContainers"}) {
        const QJsonArray oldContainers = oldSpec.value(QLatin1String(list)).toArray();
        QJsonArray containers = newSpec.value(QLatin1String(list)).toArray();
        if (containers.size() != oldContainers.size())
            continue;
        for (qsizetype i = 0; i < containers.size(); ++i) {
            QJsonObject c = containers.at(i).toObject();
            c.insert(QLatin1String("image"), oldContainers.at(i).toObject().value(QLatin1String("image")));
            containers[i] = c;
        }
        if (newSpec.contains(QLatin1String(list)))
            newSpec.insert(QLatin1String(list), containers);
    }
    if (newSpec == oldSpec)
        return std::nullopt;
    return FieldError{
        FieldError::Type::Forbidden,
        QStringLiteral("spec"),
        {},
        QStringLiteral("pod updates may not change fields other than `spec.containers[*].image`,"
                       "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                       "`spec.tolerations` (only additions to existing tolerations),"
                       "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
                       "previously negative)")};
}

} // namespace gq::tc
