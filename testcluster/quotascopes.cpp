#include "testcluster/quotascopes.h"

#include "core/domain/quantity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <utility>

namespace gq::tc {

namespace {

const QString kTerminating = QStringLiteral("Terminating");
const QString kNotTerminating = QStringLiteral("NotTerminating");
const QString kBestEffort = QStringLiteral("BestEffort");
const QString kNotBestEffort = QStringLiteral("NotBestEffort");
const QString kPriorityClass = QStringLiteral("PriorityClass");
const QString kCrossNamespacePodAffinity = QStringLiteral("CrossNamespacePodAffinity");
const QString kExists = QStringLiteral("Exists");

bool isStandardScope(const QString &scope) {
    return scope == kTerminating || scope == kNotTerminating || scope == kBestEffort ||
           scope == kNotBestEffort || scope == kPriorityClass || scope == kCrossNamespacePodAffinity;
}

// Which standard resources a scope may limit: only pod counts and pod cpu/memory,
// and for BestEffort (pods that request nothing) only the pod count.
bool scopeValidForResource(const QString &scope, const QString &resource) {
    static const QSet<QString> compute = {QStringLiteral("cpu"),          QStringLiteral("memory"),
                                          QStringLiteral("limits.cpu"),   QStringLiteral("limits.memory"),
                                          QStringLiteral("requests.cpu"), QStringLiteral("requests.memory")};
    const bool podCount = resource == QLatin1String("pods");
    if (scope == kBestEffort)
        return podCount;
    if (scope == kTerminating || scope == kNotTerminating || scope == kNotBestEffort ||
        scope == kPriorityClass || scope == kCrossNamespacePodAffinity)
        return podCount || compute.contains(resource);
    return true;
}

bool positive(const QJsonValue &v) {
    if (v.isDouble())
        return v.toDouble() > 0;
    const auto q = Quantity::parse(v.toString());
    return q && q->sign() > 0;
}

bool namesOtherNamespaces(const QJsonArray &terms, bool weighted) {
    for (const QJsonValue &v : terms) {
        QJsonObject term = v.toObject();
        if (weighted)
            term = term.value(QLatin1String("podAffinityTerm")).toObject();
        if (!term.value(QLatin1String("namespaces")).toArray().isEmpty() ||
            term.value(QLatin1String("namespaceSelector")).isObject())
            return true;
    }
    return false;
}

QString jsonText(const QJsonValue &v) {
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isString())
        return FieldError::quote(v.toString());
    return QStringLiteral("null");
}

FieldError invalid(const QString &field, const QString &value, const QString &detail) {
    return {FieldError::Type::Invalid, field, value, detail};
}

// BestEffort with NotBestEffort, or Terminating with NotTerminating, can match no pod.
void checkConflicts(const QSet<QString> &scopes, const QString &field, const QString &value,
                    QList<FieldError> &errors) {
    for (const auto &[a, b] :
         {std::pair{kBestEffort, kNotBestEffort}, std::pair{kTerminating, kNotTerminating}}) {
        if (scopes.contains(a) && scopes.contains(b))
            errors.append(invalid(field, value, QStringLiteral("conflicting scopes")));
    }
}

} // namespace

bool isStandardQuotaResource(const QString &name) {
    static const QSet<QString> names = {
        QStringLiteral("cpu"),
        QStringLiteral("memory"),
        QStringLiteral("ephemeral-storage"),
        QStringLiteral("requests.cpu"),
        QStringLiteral("requests.memory"),
        QStringLiteral("requests.storage"),
        QStringLiteral("requests.ephemeral-storage"),
        QStringLiteral("limits.cpu"),
        QStringLiteral("limits.memory"),
        QStringLiteral("limits.ephemeral-storage"),
        QStringLiteral("pods"),
        QStringLiteral("resourcequotas"),
        QStringLiteral("services"),
        QStringLiteral("replicationcontrollers"),
        QStringLiteral("secrets"),
        QStringLiteral("persistentvolumeclaims"),
        QStringLiteral("configmaps"),
        QStringLiteral("services.nodeports"),
        QStringLiteral("services.loadbalancers"),
    };
    return names.contains(name) || name.startsWith(QLatin1String("hugepages-")) ||
           name.startsWith(QLatin1String("requests.hugepages-"));
}

PodScopeFacts podScopeFacts(const QJsonObject &pod) {
    PodScopeFacts facts;
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    const QJsonValue deadline = spec.value(QLatin1String("activeDeadlineSeconds"));
    facts.terminating = deadline.isDouble() && deadline.toDouble() >= 0;
    facts.priorityClass = spec.value(QLatin1String("priorityClassName")).toString();

    // BestEffort: no container, init containers included, asks for or is limited to
    // a positive amount of cpu or memory. GPUs and other resources do not count.
    bool anyCpuOrMemory = false;
    for (const char *list : {"containers", "initContainers"}) {
        for (const QJsonValue &c : spec.value(QLatin1String(list)).toArray()) {
            const QJsonObject resources = c.toObject().value(QLatin1String("resources")).toObject();
            for (const char *which : {"requests", "limits"}) {
                const QJsonObject amounts = resources.value(QLatin1String(which)).toObject();
                for (const char *name : {"cpu", "memory"}) {
                    if (amounts.contains(QLatin1String(name)) && positive(amounts.value(QLatin1String(name))))
                        anyCpuOrMemory = true;
                }
            }
        }
    }
    facts.bestEffort = !anyCpuOrMemory;

    const QJsonObject affinity = spec.value(QLatin1String("affinity")).toObject();
    for (const char *kind : {"podAffinity", "podAntiAffinity"}) {
        const QJsonObject a = affinity.value(QLatin1String(kind)).toObject();
        if (namesOtherNamespaces(
                a.value(QLatin1String("requiredDuringSchedulingIgnoredDuringExecution")).toArray(), false) ||
            namesOtherNamespaces(
                a.value(QLatin1String("preferredDuringSchedulingIgnoredDuringExecution")).toArray(), true))
            facts.crossNamespaceAffinity = true;
    }
    return facts;
}

std::vector<ScopeRequirement> quotaScopes(const QJsonObject &quota) {
    std::vector<ScopeRequirement> out;
    const QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    for (const QJsonValue &s : spec.value(QLatin1String("scopes")).toArray())
        out.push_back({s.toString(), kExists, {}});
    const QJsonArray expressions = spec.value(QLatin1String("scopeSelector"))
                                       .toObject()
                                       .value(QLatin1String("matchExpressions"))
                                       .toArray();
    for (const QJsonValue &e : expressions) {
        const QJsonObject o = e.toObject();
        ScopeRequirement r{o.value(QLatin1String("scopeName")).toString(),
                           o.value(QLatin1String("operator")).toString(),
                           {}};
        for (const QJsonValue &v : o.value(QLatin1String("values")).toArray())
            r.values.append(v.toString());
        out.push_back(r);
    }
    return out;
}

bool podMatchesScopes(const std::vector<ScopeRequirement> &scopes, const PodScopeFacts &pod) {
    for (const ScopeRequirement &r : scopes) {
        bool match = false;
        if (r.scopeName == kTerminating) {
            match = pod.terminating;
        } else if (r.scopeName == kNotTerminating) {
            match = !pod.terminating;
        } else if (r.scopeName == kBestEffort) {
            match = pod.bestEffort;
        } else if (r.scopeName == kNotBestEffort) {
            match = !pod.bestEffort;
        } else if (r.scopeName == kCrossNamespacePodAffinity) {
            match = pod.crossNamespaceAffinity;
        } else if (r.scopeName == kPriorityClass) {
            // A label selector over the one-key set {PriorityClass: <name>}, empty
            // when the pod names no class: so NotIn also matches pods without one.
            const bool has = !pod.priorityClass.isEmpty();
            if (r.op == QLatin1String("Exists"))
                match = has;
            else if (r.op == QLatin1String("DoesNotExist"))
                match = !has;
            else if (r.op == QLatin1String("In"))
                match = has && r.values.contains(pod.priorityClass);
            else if (r.op == QLatin1String("NotIn"))
                match = !has || !r.values.contains(pod.priorityClass);
        }
        if (!match)
            return false;
    }
    return true;
}

QList<FieldError> validateQuotaScopes(const QJsonObject &quota, const QJsonObject *old) {
    QList<FieldError> errors;
    const QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
    QStringList hard = spec.value(QLatin1String("hard")).toObject().keys();
    hard.sort();

    const QJsonArray scopes = spec.value(QLatin1String("scopes")).toArray();
    const QString scopesField = QStringLiteral("spec.scopes");
    const QString scopesValue = scopes.isEmpty() ? QStringLiteral("null") : jsonText(scopes);
    if (!scopes.isEmpty()) {
        QSet<QString> seen;
        for (const QJsonValue &v : scopes) {
            const QString scope = v.toString();
            if (!isStandardScope(scope))
                errors.append(invalid(scopesField, scopesValue, QStringLiteral("unsupported scope")));
            for (const QString &k : hard) {
                if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k))
                    errors.append(invalid(scopesField, scopesValue,
                                          QStringLiteral("unsupported scope applied to resource")));
            }
            seen.insert(scope);
        }
        checkConflicts(seen, scopesField, scopesValue, errors);
    }

    if (spec.value(QLatin1String("scopeSelector")).isObject()) {
        const QJsonObject selector = spec.value(QLatin1String("scopeSelector")).toObject();
        const QString field = QStringLiteral("spec.scopeSelector.matchExpressions");
        QSet<QString> seen;
        for (const QJsonValue &e : selector.value(QLatin1String("matchExpressions")).toArray()) {
            const QJsonObject req = e.toObject();
            const QString scope = req.value(QLatin1String("scopeName")).toString();
            const QString op = req.value(QLatin1String("operator")).toString();
            const QJsonArray values = req.value(QLatin1String("values")).toArray();
            if (!isStandardScope(scope))
                errors.append(invalid(field + QStringLiteral(".scopeName"), FieldError::quote(scope),
                                      QStringLiteral("unsupported scope")));
            for (const QString &k : hard) {
                if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k))
                    errors.append(invalid(field, jsonText(selector),
                                          QStringLiteral("unsupported scope applied to resource")));
            }
            if ((scope == kBestEffort || scope == kNotBestEffort || scope == kTerminating ||
                 scope == kNotTerminating || scope == kCrossNamespacePodAffinity) &&
                op != kExists)
                errors.append(invalid(
                    field + QStringLiteral(".operator"), FieldError::quote(op),
                    QStringLiteral("must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, "
                                   "ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, "
                                   "ResourceQuotaScopeNotBestEffort or "
                                   "ResourceQuotaScopeCrossNamespacePodAffinity")));
            if (op == QLatin1String("In") || op == QLatin1String("NotIn")) {
                if (values.isEmpty())
                    errors.append({FieldError::Type::Required,
                                   field + QStringLiteral(".values"),
                                   {},
                                   QStringLiteral("must be at least one value when `operator` is 'In' or "
                                                  "'NotIn' for scope selector")});
            } else if (op == QLatin1String("Exists") || op == QLatin1String("DoesNotExist")) {
                if (!values.isEmpty())
                    errors.append(invalid(field + QStringLiteral(".values"), jsonText(values),
                                          QStringLiteral("must be no value when `operator` is 'Exist' or "
                                                         "'DoesNotExist' for scope selector")));
            } else {
                errors.append(invalid(field + QStringLiteral(".operator"), FieldError::quote(op),
                                      QStringLiteral("not a valid selector operator")));
            }
            seen.insert(scope);
        }
        // Upstream reports the selector's conflicts with the value of spec.scopes.
        checkConflicts(seen, field, scopesValue, errors);
    }

    if (old) {
        const auto scopeSet = [](const QJsonObject &q) {
            QSet<QString> s;
            for (const QJsonValue &v :
                 q.value(QLatin1String("spec")).toObject().value(QLatin1String("scopes")).toArray())
                s.insert(v.toString());
            return s;
        };
        if (scopeSet(quota) != scopeSet(*old))
            errors.append(invalid(scopesField, scopesValue, QStringLiteral("field is immutable")));
    }
    return errors;
}

} // namespace gq::tc
