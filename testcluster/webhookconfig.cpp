#include "testcluster/webhooks.h"

#include "testcluster/resourcemath.h"
#include "testcluster/selectors.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUrl>

// ValidatingWebhookConfiguration: defaulting, validation, and which webhooks a request
// matches (rules, namespaceSelector, objectSelector), as the API server decides it.

namespace gq::tc {

namespace {

// metav1.LabelSelector (matchLabels, matchExpressions) as the text form LabelSelector parses.
Result<LabelSelector> labelSelectorFrom(const QJsonObject &selector) {
    QStringList terms;
    const QJsonObject matchLabels = selector.value(QLatin1String("matchLabels")).toObject();
    for (auto it = matchLabels.begin(); it != matchLabels.end(); ++it)
        terms.append(it.key() + QLatin1Char('=') + it.value().toString());
    for (const QJsonValue &v : selector.value(QLatin1String("matchExpressions")).toArray()) {
        const QJsonObject e = v.toObject();
        const QString key = e.value(QLatin1String("key")).toString();
        const QString op = e.value(QLatin1String("operator")).toString();
        QStringList values;
        for (const QJsonValue &x : e.value(QLatin1String("values")).toArray())
            values.append(x.toString());
        if (op == QLatin1String("In") || op == QLatin1String("NotIn"))
            terms.append(key +
                         (op == QLatin1String("In") ? QStringLiteral(" in (") : QStringLiteral(" notin (")) +
                         values.join(QLatin1Char(',')) + QLatin1Char(')'));
        else if (op == QLatin1String("Exists"))
            terms.append(key);
        else if (op == QLatin1String("DoesNotExist"))
            terms.append(QLatin1Char('!') + key);
        else
            return Error::make(
                Error::Kind::Parse,
                QStringLiteral("%1 is not a valid label selector operator").arg(FieldError::quote(op)));
    }
    LabelSelector s;
    if (Result<void> r = s.parse(terms.join(QLatin1Char(','))); !r)
        return r.error();
    return s;
}

Labels labelsOf(const QJsonObject &object) {
    Labels out;
    const QJsonObject labels =
        object.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        out.emplace_back(it.key(), it.value().toString());
    return out;
}

bool listHas(const QJsonArray &list, const QString &value) {
    for (const QJsonValue &v : list) {
        if (v.toString() == QLatin1String("*") || v.toString() == value)
            return true;
    }
    return false;
}

// "pods", "pods/status", "pods/*", "*/status", "*" (no subresources), "*/*".
bool resourceMatches(const QString &pattern, const QString &resource, const QString &subresource) {
    if (pattern == QLatin1String("*/*"))
        return true;
    const QString patRes = pattern.section(QLatin1Char('/'), 0, 0);
    const bool patHasSub = pattern.contains(QLatin1Char('/'));
    const QString patSub = pattern.section(QLatin1Char('/'), 1);
    if (!patHasSub)
        return subresource.isEmpty() && (patRes == QLatin1String("*") || patRes == resource);
    return (patRes == QLatin1String("*") || patRes == resource) &&
           (patSub == QLatin1String("*") || patSub == subresource);
}

bool ruleMatches(const QJsonObject &rule, const AdmissionRequest &request) {
    const ResourceInfo &info = resourceInfo(request.resource);
    if (!listHas(rule.value(QLatin1String("operations")).toArray(), request.operation) ||
        !listHas(rule.value(QLatin1String("apiGroups")).toArray(), info.group) ||
        !listHas(rule.value(QLatin1String("apiVersions")).toArray(), info.version))
        return false;
    bool any = false;
    for (const QJsonValue &r : rule.value(QLatin1String("resources")).toArray())
        any = any || resourceMatches(r.toString(), info.plural, request.subresource);
    if (!any)
        return false;
    const QString scope = rule.value(QLatin1String("scope")).toString(QStringLiteral("*"));
    if (scope == QLatin1String("Cluster"))
        return !info.namespaced;
    if (scope == QLatin1String("Namespaced"))
        return info.namespaced;
    return true;
}

// The namespace labels namespaceSelector is matched against: the request's namespace, or
// the Namespace object itself; nullopt for other cluster-scoped objects (always match).
std::optional<Labels> namespaceLabels(const Store &store, const AdmissionRequest &request) {
    if (request.resource == Resource::Namespace)
        return labelsOf(request.object);
    if (!resourceInfo(request.resource).namespaced)
        return std::nullopt;
    const Entry *ns = store.find(Resource::Namespace, {}, request.ns);
    return ns ? ns->labels : Labels{};
}

QString withTimeout(const QString &url, int seconds) {
    return url + (url.contains(QLatin1Char('?')) ? QLatin1Char('&') : QLatin1Char('?')) +
           QStringLiteral("timeout=%1s").arg(seconds);
}

WebhookTarget targetFor(const Store &store, const QJsonObject &hook) {
    WebhookTarget t;
    t.name = hook.value(QLatin1String("name")).toString();
    t.timeoutSeconds = hook.value(QLatin1String("timeoutSeconds")).toInt(10);
    t.failClosed = hook.value(QLatin1String("failurePolicy")).toString() != QLatin1String("Ignore");
    t.sideEffects = hook.value(QLatin1String("sideEffects")).toString();
    const QJsonObject cc = hook.value(QLatin1String("clientConfig")).toObject();
    t.caBundlePem = QByteArray::fromBase64(cc.value(QLatin1String("caBundle")).toString().toLatin1());
    if (cc.contains(QLatin1String("url"))) {
        const QString url = cc.value(QLatin1String("url")).toString();
        const QUrl u(url);
        t.tlsHost = u.host();
        t.port = u.port(443);
        QString path = u.path(QUrl::FullyEncoded);
        if (path.isEmpty())
            path = QStringLiteral("/");
        if (u.hasQuery())
            path += QLatin1Char('?') + u.query(QUrl::FullyEncoded);
        t.pathAndQuery = withTimeout(path, t.timeoutSeconds);
        t.displayUrl = withTimeout(url, t.timeoutSeconds);
        return t;
    }
    const QJsonObject svc = cc.value(QLatin1String("service")).toObject();
    const QString name = svc.value(QLatin1String("name")).toString();
    const QString ns = svc.value(QLatin1String("namespace")).toString();
    QString path = svc.value(QLatin1String("path")).toString();
    if (path.isEmpty())
        path = QStringLiteral("/");
    const int servicePort = svc.value(QLatin1String("port")).toInt(443);
    t.tlsHost = name + QLatin1Char('.') + ns + QStringLiteral(".svc");
    t.displayUrl = withTimeout(QStringLiteral("https://%1:%2%3").arg(t.tlsHost).arg(servicePort).arg(path),
                               t.timeoutSeconds);
    t.pathAndQuery = withTimeout(path, t.timeoutSeconds);
    const Entry *service = store.find(Resource::Service, ns, name);
    if (!service) {
        t.resolveError = QStringLiteral("service \"%1\" not found").arg(name);
        return t;
    }
    const QString endpoint = QJsonDocument::fromJson(service->json)
                                 .object()
                                 .value(QLatin1String("metadata"))
                                 .toObject()
                                 .value(QLatin1String("annotations"))
                                 .toObject()
                                 .value(kServiceEndpointAnnotation)
                                 .toString();
    bool ok = false;
    const int port = endpoint.section(QLatin1Char(':'), -1).toInt(&ok);
    if (!ok || !endpoint.contains(QLatin1Char(':'))) {
        t.resolveError = QStringLiteral("dial tcp: lookup %1: no such host (the test cluster connects to the "
                                        "address in the Service annotation %2: HOST:PORT)")
                             .arg(t.tlsHost, kServiceEndpointAnnotation);
        return t;
    }
    t.connectAddress = endpoint.section(QLatin1Char(':'), 0, -2);
    t.port = port;
    return t;
}

} // namespace

void defaultWebhookConfiguration(QJsonObject &config) {
    QJsonArray hooks = config.value(QLatin1String("webhooks")).toArray();
    for (qsizetype i = 0; i < hooks.size(); ++i) {
        QJsonObject h = hooks.at(i).toObject();
        auto setDefault = [&h](const char *key, const QJsonValue &v) {
            if (!h.contains(QLatin1String(key)) || h.value(QLatin1String(key)).isNull())
                h.insert(QLatin1String(key), v);
        };
        setDefault("failurePolicy", QStringLiteral("Fail"));
        setDefault("matchPolicy", QStringLiteral("Equivalent"));
        setDefault("namespaceSelector", QJsonObject());
        setDefault("objectSelector", QJsonObject());
        setDefault("timeoutSeconds", 10);
        QJsonObject cc = h.value(QLatin1String("clientConfig")).toObject();
        if (cc.contains(QLatin1String("service"))) {
            QJsonObject svc = cc.value(QLatin1String("service")).toObject();
            if (!svc.contains(QLatin1String("port")))
                svc.insert(QLatin1String("port"), 443);
            cc.insert(QLatin1String("service"), svc);
            h.insert(QLatin1String("clientConfig"), cc);
        }
        QJsonArray rules = h.value(QLatin1String("rules")).toArray();
        for (qsizetype r = 0; r < rules.size(); ++r) {
            QJsonObject rule = rules.at(r).toObject();
            if (!rule.contains(QLatin1String("scope")))
                rule.insert(QLatin1String("scope"), QLatin1String("*"));
            rules.replace(r, rule);
        }
        if (h.contains(QLatin1String("rules")))
            h.insert(QLatin1String("rules"), rules);
        hooks.replace(i, h);
    }
    if (config.contains(QLatin1String("webhooks")))
        config.insert(QLatin1String("webhooks"), hooks);
}

QList<FieldError> validateWebhookConfiguration(const QJsonObject &config) {
    static const QRegularExpression subdomain(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    QList<FieldError> errors;
    const QJsonArray hooks = config.value(QLatin1String("webhooks")).toArray();
    QStringList seen;
    for (qsizetype i = 0; i < hooks.size(); ++i) {
        const QJsonObject h = hooks.at(i).toObject();
        const QString base = FieldError::item(QStringLiteral("webhooks"), i);
        const QString name = h.value(QLatin1String("name")).toString();
        if (name.isEmpty()) {
            errors.append(required(base + QStringLiteral(".name")));
        } else if (name.count(QLatin1Char('.')) < 2 || !subdomain.match(name).hasMatch()) {
            errors.append(
                invalid(base + QStringLiteral(".name"), name,
                        QStringLiteral("should be a domain with at least three segments separated by dots")));
        } else if (seen.contains(name)) {
            errors.append(
                {FieldError::Type::Duplicate, base + QStringLiteral(".name"), FieldError::quote(name), {}});
        }
        seen.append(name);
        const QJsonArray versions = h.value(QLatin1String("admissionReviewVersions")).toArray();
        if (versions.isEmpty()) {
            errors.append(required(base + QStringLiteral(".admissionReviewVersions"),
                                   QStringLiteral("must specify one of v1, v1beta1")));
        } else if (!listHas(versions, QStringLiteral("v1")) &&
                   !listHas(versions, QStringLiteral("v1beta1"))) {
            errors.append(invalid(base + QStringLiteral(".admissionReviewVersions"),
                                  versions.at(0).toString(),
                                  QStringLiteral("must include at least one of v1, v1beta1")));
        }
        const QJsonValue sideEffects = h.value(QLatin1String("sideEffects"));
        if (sideEffects.isUndefined() || sideEffects.isNull())
            errors.append(required(base + QStringLiteral(".sideEffects"),
                                   QStringLiteral("must specify one of None, NoneOnDryRun")));
        else if (sideEffects.toString() != QLatin1String("None") &&
                 sideEffects.toString() != QLatin1String("NoneOnDryRun"))
            errors.append(FieldError::notSupported(base + QStringLiteral(".sideEffects"),
                                                   sideEffects.toString(),
                                                   {QStringLiteral("None"), QStringLiteral("NoneOnDryRun")}));
        const QString policy = h.value(QLatin1String("failurePolicy")).toString();
        if (policy != QLatin1String("Fail") && policy != QLatin1String("Ignore"))
            errors.append(FieldError::notSupported(base + QStringLiteral(".failurePolicy"), policy,
                                                   {QStringLiteral("Fail"), QStringLiteral("Ignore")}));
        const int timeout = h.value(QLatin1String("timeoutSeconds")).toInt(10);
        if (timeout < 1 || timeout > 30)
            errors.append({FieldError::Type::Invalid, base + QStringLiteral(".timeoutSeconds"),
                           QString::number(timeout),
                           QStringLiteral("the timeout value must be between 1 and 30 seconds")});
        const QJsonObject cc = h.value(QLatin1String("clientConfig")).toObject();
        const bool hasUrl = cc.contains(QLatin1String("url"));
        const bool hasService = cc.contains(QLatin1String("service"));
        if (hasUrl == hasService) {
            errors.append(required(base + QStringLiteral(".clientConfig"),
                                   QStringLiteral("exactly one of url or service is required")));
        } else if (hasUrl) {
            const QUrl u(cc.value(QLatin1String("url")).toString());
            if (u.scheme() != QLatin1String("https"))
                errors.append(invalid(base + QStringLiteral(".clientConfig.url"), u.toString(),
                                      QStringLiteral("'https' is the only allowed URL scheme")));
            else if (u.host().isEmpty())
                errors.append(invalid(base + QStringLiteral(".clientConfig.url"), u.toString(),
                                      QStringLiteral("host must be specified")));
        } else {
            const QJsonObject svc = cc.value(QLatin1String("service")).toObject();
            for (const char *key : {"name", "namespace"}) {
                if (svc.value(QLatin1String(key)).toString().isEmpty())
                    errors.append(
                        required(base + QStringLiteral(".clientConfig.service.") + QLatin1String(key),
                                 QStringLiteral("service %1 is required").arg(QLatin1String(key))));
            }
        }
        static const QStringList operations = {QStringLiteral("*"), QStringLiteral("CONNECT"),
                                               QStringLiteral("CREATE"), QStringLiteral("DELETE"),
                                               QStringLiteral("UPDATE")};
        const QJsonArray rules = h.value(QLatin1String("rules")).toArray();
        for (qsizetype r = 0; r < rules.size(); ++r) {
            const QJsonArray ops = rules.at(r).toObject().value(QLatin1String("operations")).toArray();
            const QString rbase = FieldError::item(base + QStringLiteral(".rules"), r);
            if (ops.isEmpty())
                errors.append(required(rbase + QStringLiteral(".operations")));
            for (qsizetype o = 0; o < ops.size(); ++o) {
                if (!operations.contains(ops.at(o).toString()))
                    errors.append(
                        FieldError::notSupported(FieldError::item(rbase + QStringLiteral(".operations"), o),
                                                 ops.at(o).toString(), operations));
            }
            for (const char *key : {"apiGroups", "apiVersions", "resources"}) {
                if (rules.at(r).toObject().value(QLatin1String(key)).toArray().isEmpty())
                    errors.append(required(rbase + QLatin1Char('.') + QLatin1String(key)));
            }
        }
        for (const char *key : {"namespaceSelector", "objectSelector"}) {
            if (Result<LabelSelector> s = labelSelectorFrom(h.value(QLatin1String(key)).toObject()); !s)
                errors.append(
                    invalid(base + QLatin1Char('.') + QLatin1String(key), QString(), s.error().message));
        }
    }
    return errors;
}

std::vector<WebhookTarget> matchingWebhooks(const Store &store, const AdmissionRequest &request) {
    std::vector<WebhookTarget> out;
    // The API server never sends webhook configurations themselves to webhooks.
    if (request.resource == Resource::ValidatingWebhookConfiguration)
        return out;
    const auto &configs = store.map(Resource::ValidatingWebhookConfiguration);
    if (configs.empty())
        return out;
    const std::optional<Labels> nsLabels = namespaceLabels(store, request);
    const Labels objectLabels = labelsOf(request.object);
    const Labels oldLabels = labelsOf(request.oldObject);
    for (const auto &[key, entry] : configs) {
        const QJsonArray hooks =
            QJsonDocument::fromJson(entry.json).object().value(QLatin1String("webhooks")).toArray();
        for (const QJsonValue &hv : hooks) {
            const QJsonObject h = hv.toObject();
            bool ruled = false;
            for (const QJsonValue &r : h.value(QLatin1String("rules")).toArray())
                ruled = ruled || ruleMatches(r.toObject(), request);
            if (!ruled)
                continue;
            const Result<LabelSelector> nsSel =
                labelSelectorFrom(h.value(QLatin1String("namespaceSelector")).toObject());
            if (nsLabels && nsSel && !nsSel->matches(*nsLabels))
                continue;
            const Result<LabelSelector> objSel =
                labelSelectorFrom(h.value(QLatin1String("objectSelector")).toObject());
            if (objSel && !objSel->matches(objectLabels) &&
                (request.oldObject.isEmpty() || !objSel->matches(oldLabels)))
                continue;
            out.push_back(targetFor(store, h));
        }
    }
    return out;
}

} // namespace gq::tc
