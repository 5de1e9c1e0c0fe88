#include "testcluster/admission.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <map>

namespace gq::tc {

namespace {

using ResourceList = std::map<QString, Quantity>;

const QLatin1String kQuantityRegexText("quantities must match the regular expression "
                                       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");

std::optional<Quantity> parseQuantity(const QJsonValue &v) {
    if (v.isString()) {
        auto q = Quantity::parse(v.toString());
        if (q)
            return *q;
        return std::nullopt;
    }
    if (v.isDouble()) {
        // JSON numbers are accepted as quantities; go through text to stay exact for integers.
        const double d = v.toDouble();
        auto q = Quantity::parse(d == static_cast<double>(static_cast<qint64>(d))
                                     ? QString::number(static_cast<qint64>(d))
                                     : QString::number(d, 'g', 15));
        if (q)
            return *q;
    }
    return std::nullopt;
}

ResourceList parseList(const QJsonValue &v) {
    ResourceList out;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (auto q = parseQuantity(it.value()))
            out.emplace(it.key(), *q);
    }
    return out;
}

QJsonObject toJson(const ResourceList &list) {
    QJsonObject o;
    for (const auto &[k, q] : list)
        o.insert(k, q.toString());
    return o;
}

void addTo(ResourceList &sum, const QString &key, const Quantity &q) {
    auto it = sum.find(key);
    if (it == sum.end()) {
        sum.emplace(key, q);
    } else if (auto r = it->second.plus(q)) {
        it->second = *r;
    }
}

void addTo(Usage &sum, const QString &key, const Quantity &q) {
    for (auto &[k, v] : sum) {
        if (k == key) {
            if (auto r = v.plus(q))
                v = *r;
            return;
        }
    }
    sum.emplace_back(key, q);
}

const Quantity *lookup(const Usage &u, const QString &key) {
    for (const auto &[k, v] : u) {
        if (k == key)
            return &v;
    }
    return nullptr;
}

// "a=1,b=2" with keys sorted, as the quota plugin's prettyPrint does.
QString prettyPrint(const ResourceList &list) {
    QStringList parts;
    for (const auto &[k, q] : list)
        parts.append(k + QLatin1Char('=') + q.toString());
    return parts.join(QLatin1Char(','));
}

QString aggregate(const QStringList &errors) {
    return errors.size() == 1 ? errors.first()
                              : QLatin1Char('[') + errors.join(QStringLiteral(", ")) + QLatin1Char(']');
}

bool isNativeName(const QString &name) {
    return !name.contains(QLatin1Char('/')) || name.contains(QLatin1String("kubernetes.io/"));
}

// GPUs and other extended resources (and hugepages) cannot be overcommitted.
bool overcommitAllowed(const QString &name) {
    return isNativeName(name) && !name.startsWith(QLatin1String("hugepages-"));
}

QJsonArray containersOf(const QJsonObject &spec, bool init) {
    return spec.value(init ? QLatin1String("initContainers") : QLatin1String("containers")).toArray();
}

ResourceList containerList(const QJsonObject &c, QLatin1String which) {
    return parseList(c.value(QLatin1String("resources")).toObject().value(which));
}

// Effective pod requests or limits: max(sum over app containers, largest init
// container), per resource, over the resources any container names.
ResourceList podEffective(const QJsonObject &pod, QLatin1String which) {
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    ResourceList sum;
    for (const QJsonValue &c : containersOf(spec, false)) {
        for (const auto &[k, q] : containerList(c.toObject(), which))
            addTo(sum, k, q);
    }
    for (const QJsonValue &c : containersOf(spec, true)) {
        for (const auto &[k, q] : containerList(c.toObject(), which)) {
            auto it = sum.find(k);
            if (it == sum.end())
                sum.emplace(k, q);
            else if (q > it->second)
                it->second = q;
        }
    }
    return sum;
}

QJsonObject canonicalList(const QJsonObject &list) {
    QJsonObject out;
    for (auto it = list.begin(); it != list.end(); ++it) {
        auto q = parseQuantity(it.value());
        out.insert(it.key(), q ? QJsonValue(q->toString()) : it.value());
    }
    return out;
}

QString badQuantityPath(const QJsonObject &list, const QString &path) {
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (!parseQuantity(it.value()))
            return path + QLatin1Char('[') + it.key() + QLatin1Char(']');
    }
    return {};
}

FieldError invalid(const QString &field, const QString &value, const QString &detail) {
    return {FieldError::Type::Invalid, field, FieldError::quote(value), detail};
}

FieldError required(const QString &field, const QString &detail = {}) {
    return {FieldError::Type::Required, field, {}, detail};
}

[[maybe_unused]] QStringList containerNames(const QJsonObject &spec, bool init) {
    QStringList names;
    for (const QJsonValue &c : containersOf(spec, init))
        names.append(c.toObject().value(QLatin1String("name")).toString());
    return names;
}

} // namespace

bool podIsTerminal(const QString &phase) {
    return phase == QLatin1String("Succeeded") || phase == QLatin1String("Failed");
}

Usage podUsage(const QJsonObject &pod) {
    Usage u;
    u.emplace_back(QStringLiteral("pods"), Quantity::fromInt(1));
    u.emplace_back(QStringLiteral("count/pods"), Quantity::fromInt(1));
    static const QSet<QString> aliased = {QStringLiteral("cpu"), QStringLiteral("memory"),
                                          QStringLiteral("ephemeral-storage")};
    for (const auto &[k, q] : podEffective(pod, QLatin1String("requests"))) {
        u.emplace_back(QStringLiteral("requests.") + k, q);
        if (aliased.contains(k))
            u.emplace_back(k, q);
    }
    for (const auto &[k, q] : podEffective(pod, QLatin1String("limits")))
        u.emplace_back(QStringLiteral("limits.") + k, q);
    return u;
}

QJsonObject computeQuotaStatus(const Store &store, const QJsonObject &quota) {
    const QJsonObject meta = quota.value(QLatin1String("metadata")).toObject();
    const QString ns = meta.value(QLatin1String("namespace")).toString();
    const QString name = meta.value(QLatin1String("name")).toString();
    const ResourceList hard =
        parseList(quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")));
    const std::vector<ScopeRequirement> scopes = quotaScopes(quota);
    Usage used;
    auto [first, last] = store.range(Resource::Pod, ns);
    for (auto it = first; it != last; ++it) {
        if (podIsTerminal(it->second.phase) || !podMatchesScopes(scopes, it->second.scopeFacts))
            continue;
        for (const auto &[k, q] : it->second.usage) {
            if (hard.count(k))
                addTo(used, k, q);
        }
    }
    QJsonObject usedJson;
    for (const auto &[k, limit] : hard) {
        Q_UNUSED(limit);
        if (k == QLatin1String("resourcequotas") || k == QLatin1String("count/resourcequotas")) {
            auto [qf, ql] = store.range(Resource::ResourceQuota, ns);
            qint64 n = std::distance(qf, ql);
            if (!store.find(Resource::ResourceQuota, ns, name))
                ++n;
            usedJson.insert(k, QString::number(n));
            continue;
        }
        if (k.startsWith(QLatin1String("count/")) && k != QLatin1String("count/pods")) {
            const auto r = resourceFromPlural(QStringView(k).mid(6));
            qint64 n = 0;
            if (r) {
                auto [f, l] = store.range(*r, ns);
                n = std::distance(f, l);
            }
            usedJson.insert(k, QString::number(n));
            continue;
        }
        const Quantity *q = lookup(used, k);
        usedJson.insert(k, q ? q->toString() : QStringLiteral("0"));
    }
    QJsonObject status;
    status.insert(QLatin1String("hard"), toJson(hard));
    status.insert(QLatin1String("used"), usedJson);
    return status;
}

std::optional<ApiError> checkDecodable(Resource r, const QJsonObject &object) {
    QString bad;
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (r == Resource::ResourceQuota) {
        bad = badQuantityPath(spec.value(QLatin1String("hard")).toObject(), QStringLiteral("spec.hard"));
    } else if (r == Resource::LimitRange) {
        const QJsonArray limits = spec.value(QLatin1String("limits")).toArray();
        for (qsizetype i = 0; i < limits.size() && bad.isEmpty(); ++i) {
            for (const char *f : {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"}) {
                bad = badQuantityPath(limits.at(i).toObject().value(QLatin1String(f)).toObject(), QString());
                if (!bad.isEmpty())
                    break;
            }
        }
    } else if (r == Resource::Pod) {
        for (bool init : {false, true}) {
            for (const QJsonValue &c : containersOf(spec, init)) {
                const QJsonObject res = c.toObject().value(QLatin1String("resources")).toObject();
                for (const char *f : {"requests", "limits"}) {
                    if (bad.isEmpty())
                        bad = badQuantityPath(res.value(QLatin1String(f)).toObject(), QString());
                }
            }
        }
    }
    if (bad.isEmpty())
        return std::nullopt;
    const QString kind = resourceInfo(r).kind;
    return ApiError::badRequest(kind + QStringLiteral(" in version \"v1\" cannot be handled as a ") + kind +
                                QStringLiteral(": ") + kQuantityRegexText);
}

void applyDefaults(Resource r, QJsonObject &object) {
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    // Go's omitempty: empty maps and lists in metadata are not sent.
    for (const char *key : {"labels", "annotations", "finalizers", "ownerReferences"}) {
        const QJsonValue v = meta.value(QLatin1String(key));
        if ((v.isObject() && v.toObject().isEmpty()) || (v.isArray() && v.toArray().isEmpty()) || v.isNull())
            meta.remove(QLatin1String(key));
    }
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    switch (r) {
    case Resource::Namespace: {
        QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
        labels.insert(QLatin1String("kubernetes.io/metadata.name"), meta.value(QLatin1String("name")));
        meta.insert(QLatin1String("labels"), labels);
        if (!spec.contains(QLatin1String("finalizers")))
            spec.insert(QLatin1String("finalizers"), QJsonArray{QStringLiteral("kubernetes")});
        QJsonObject status = object.value(QLatin1String("status")).toObject();
        if (status.value(QLatin1String("phase")).toString().isEmpty())
            status.insert(QLatin1String("phase"), QLatin1String("Active"));
        object.insert(QLatin1String("status"), status);
        break;
    }
    case Resource::ResourceQuota:
        if (spec.contains(QLatin1String("hard")))
            spec.insert(QLatin1String("hard"), canonicalList(spec.value(QLatin1String("hard")).toObject()));
        break;
    case Resource::LimitRange: {
        QJsonArray limits = spec.value(QLatin1String("limits")).toArray();
        for (qsizetype i = 0; i < limits.size(); ++i) {
            QJsonObject item = limits.at(i).toObject();
            for (const char *f : {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"}) {
                if (item.contains(QLatin1String(f)))
                    item.insert(QLatin1String(f), canonicalList(item.value(QLatin1String(f)).toObject()));
            }
            if (item.value(QLatin1String("type")).toString() == QLatin1String("Container")) {
                // SetDefaults_LimitRangeItem: default <- max, defaultRequest <- default, then min.
                QJsonObject def = item.value(QLatin1String("default")).toObject();
                QJsonObject defReq = item.value(QLatin1String("defaultRequest")).toObject();
                const QJsonObject max = item.value(QLatin1String("max")).toObject();
                const QJsonObject min = item.value(QLatin1String("min")).toObject();
                for (auto it = max.begin(); it != max.end(); ++it) {
                    if (!def.contains(it.key()))
                        def.insert(it.key(), it.value());
                }
                for (auto it = def.begin(); it != def.end(); ++it) {
                    if (!defReq.contains(it.key()))
                        defReq.insert(it.key(), it.value());
                }
                for (auto it = min.begin(); it != min.end(); ++it) {
                    if (!defReq.contains(it.key()))
                        defReq.insert(it.key(), it.value());
                }
                if (!def.isEmpty())
                    item.insert(QLatin1String("default"), def);
                if (!defReq.isEmpty())
                    item.insert(QLatin1String("defaultRequest"), defReq);
            }
            limits[i] = item;
        }
        spec.insert(QLatin1String("limits"), limits);
        break;
    }
    case Resource::Pod: {
        for (const char *field : {"containers", "initContainers"}) {
            if (!spec.contains(QLatin1String(field)))
                continue;
            QJsonArray containers = spec.value(QLatin1String(field)).toArray();
            for (qsizetype i = 0; i < containers.size(); ++i) {
                QJsonObject c = containers.at(i).toObject();
                QJsonObject res = c.value(QLatin1String("resources")).toObject();
                QJsonObject limits = canonicalList(res.value(QLatin1String("limits")).toObject());
                QJsonObject requests = canonicalList(res.value(QLatin1String("requests")).toObject());
                // SetDefaults_Pod: a limit without a request implies an equal request.
                for (auto it = limits.begin(); it != limits.end(); ++it) {
                    if (!requests.contains(it.key()))
                        requests.insert(it.key(), it.value());
                }
                res = QJsonObject();
                if (!limits.isEmpty())
                    res.insert(QLatin1String("limits"), limits);
                if (!requests.isEmpty())
                    res.insert(QLatin1String("requests"), requests);
                c.insert(QLatin1String("resources"), res);
                const QString image = c.value(QLatin1String("image")).toString();
                if (!c.contains(QLatin1String("imagePullPolicy"))) {
                    const bool latest = !image.section(QLatin1Char('/'), -1).contains(QLatin1Char(':')) ||
                                        image.endsWith(QLatin1String(":latest"));
                    c.insert(QLatin1String("imagePullPolicy"),
                             latest ? QLatin1String("Always") : QLatin1String("IfNotPresent"));
                }
                if (!c.contains(QLatin1String("terminationMessagePath")))
                    c.insert(QLatin1String("terminationMessagePath"), QLatin1String("/dev/termination-log"));
                if (!c.contains(QLatin1String("terminationMessagePolicy")))
                    c.insert(QLatin1String("terminationMessagePolicy"), QLatin1String("File"));
                containers[i] = c;
            }
            spec.insert(QLatin1String(field), containers);
        }
        if (!spec.contains(QLatin1String("restartPolicy")))
            spec.insert(QLatin1String("restartPolicy"), QLatin1String("Always"));
        if (!spec.contains(QLatin1String("dnsPolicy")))
            spec.insert(QLatin1String("dnsPolicy"), QLatin1String("ClusterFirst"));
        if (!spec.contains(QLatin1String("schedulerName")))
            spec.insert(QLatin1String("schedulerName"), QLatin1String("default-scheduler"));
        if (!spec.contains(QLatin1String("terminationGracePeriodSeconds")))
            spec.insert(QLatin1String("terminationGracePeriodSeconds"), 30);
        if (!spec.contains(QLatin1String("securityContext")))
            spec.insert(QLatin1String("securityContext"), QJsonObject());
        if (!spec.contains(QLatin1String("priority")))
            spec.insert(QLatin1String("priority"), 0);
        break;
    }
    case Resource::Event: break;
    }
    object.insert(QLatin1String("metadata"), meta);
    if (r != Resource::Event || !spec.isEmpty())
        object.insert(QLatin1String("spec"), spec);
    if (r == Resource::Event)
        object.remove(QLatin1String("spec"));
}

QList<FieldError> validateName(Resource r, const QString &name) {
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    static const QRegularExpression subdomain(
        QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));
    if (name.isEmpty())
        return {
            required(QStringLiteral("metadata.name"), QStringLiteral("name or generateName is required"))};
    if (r == Resource::Namespace || r == Resource::Pod) {
        if (name.size() > 63 || !label.match(name).hasMatch()) {
            return {
                invalid(QStringLiteral("metadata.name"), name,
                        QStringLiteral("a lowercase RFC 1123 label must consist of lower case alphanumeric "
                                       "characters or '-', and must start and end with an alphanumeric "
                                       "character (e.g. 'my-name',  or '123-abc', regex used for validation "
                                       "is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"))};
        }
        return {};
    }
    if (name.size() > 253 || !subdomain.match(name).hasMatch()) {
        return {
            invalid(QStringLiteral("metadata.name"), name,
                    QStringLiteral("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                                   "characters, '-' or '.', and must start and end with an alphanumeric "
                                   "character (e.g. 'example.com', regex used for validation is "
                                   "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"))};
    }
    return {};
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
        for (const QString &k : sorted) {
            const auto mx = max.find(k), mn = min.find(k), d = def.find(k), dr = defReq.find(k);
            const bool hasMax = mx != max.end(), hasMin = mn != min.end(), hasDef = d != def.end(),
                       hasDefReq = dr != defReq.end();
            if (hasMin && hasMax && mn->second > mx->second)
                errors.append(invalid(path("min", k), mn->second.toString(),
                                      QStringLiteral("min value %1 is greater than max value %2")
                                          .arg(mn->second.toString(), mx->second.toString())));
            if (hasDefReq && hasMax && dr->second > mx->second)
                errors.append(invalid(path("defaultRequest", k), dr->second.toString(),
                                      QStringLiteral("default request value %1 is greater than max value %2")
                                          .arg(dr->second.toString(), mx->second.toString())));
            if (hasDefReq && hasMin && mn->second > dr->second)
                errors.append(invalid(path("defaultRequest", k), dr->second.toString(),
                                      QStringLiteral("min value %1 is greater than default request value %2")
                                          .arg(mn->second.toString(), dr->second.toString())));
            if (hasDefReq && hasDef && dr->second > d->second)
                errors.append(
                    invalid(path("defaultRequest", k), dr->second.toString(),
                            QStringLiteral("default request value %1 is greater than default limit value %2")
                                .arg(dr->second.toString(), d->second.toString())));
            if (hasDef && hasMin && mn->second > d->second)
                errors.append(invalid(path("default", k), mn->second.toString(),
                                      QStringLiteral("min value %1 is greater than default value %2")
                                          .arg(mn->second.toString(), d->second.toString())));
            if (hasDef && hasMax && d->second > mx->second)
                errors.append(invalid(path("default", k), d->second.toString(),
                                      QStringLiteral("default value %1 is greater than max value %2")
                                          .arg(d->second.toString(), mx->second.toString())));
            if (hasDef && hasDefReq && !overcommitAllowed(k) && d->second != dr->second)
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

// LimitRanger's MutateLimit for one LimitRange: fill missing container resources.
void mergeLimitRangeDefaults(const QJsonObject &limitRange, QJsonObject &pod, QStringList &annotations) {
    ResourceList def, defReq;
    const QJsonArray items =
        limitRange.value(QLatin1String("spec")).toObject().value(QLatin1String("limits")).toArray();
    for (const QJsonValue &v : items) {
        const QJsonObject item = v.toObject();
        if (item.value(QLatin1String("type")).toString() != QLatin1String("Container"))
            continue;
        for (const auto &[k, q] : parseList(item.value(QLatin1String("default"))))
            def.insert_or_assign(k, q);
        for (const auto &[k, q] : parseList(item.value(QLatin1String("defaultRequest"))))
            defReq.insert_or_assign(k, q);
    }
    if (def.empty() && defReq.empty())
        return;
    QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    for (bool init : {false, true}) {
        QJsonArray containers = containersOf(spec, init);
        for (qsizetype i = 0; i < containers.size(); ++i) {
            QJsonObject c = containers.at(i).toObject();
            QJsonObject res = c.value(QLatin1String("resources")).toObject();
            QJsonObject requests = res.value(QLatin1String("requests")).toObject();
            QJsonObject limits = res.value(QLatin1String("limits")).toObject();
            QStringList setRequests, setLimits;
            for (const auto &[k, q] : def) {
                if (!limits.contains(k)) {
                    limits.insert(k, q.toString());
                    setLimits.append(k);
                }
            }
            for (const auto &[k, q] : defReq) {
                if (!requests.contains(k)) {
                    requests.insert(k, q.toString());
                    setRequests.append(k);
                }
            }
            const QString who =
                (init ? QStringLiteral(" for init container ") : QStringLiteral(" for container ")) +
                c.value(QLatin1String("name")).toString();
            if (!setRequests.isEmpty())
                annotations.append(setRequests.join(QStringLiteral(", ")) + QStringLiteral(" request") + who);
            if (!setLimits.isEmpty())
                annotations.append(setLimits.join(QStringLiteral(", ")) + QStringLiteral(" limit") + who);
            if (!limits.isEmpty())
                res.insert(QLatin1String("limits"), limits);
            if (!requests.isEmpty())
                res.insert(QLatin1String("requests"), requests);
            c.insert(QLatin1String("resources"), res);
            containers[i] = c;
        }
        if (spec.contains(init ? QLatin1String("initContainers") : QLatin1String("containers")))
            spec.insert(init ? QLatin1String("initContainers") : QLatin1String("containers"), containers);
    }
    pod.insert(QLatin1String("spec"), spec);
}

void checkMinMax(const QString &limitType, const QJsonObject &item, const ResourceList &requests,
                 const ResourceList &limits, QStringList &errors) {
    for (const auto &[k, min] : parseList(item.value(QLatin1String("min")))) {
        auto req = requests.find(k);
        auto lim = limits.find(k);
        if (req == requests.end())
            errors.append(QStringLiteral("minimum %1 usage per %2 is %3.  No request is specified")
                              .arg(k, limitType, min.toString()));
        else if (req->second < min)
            errors.append(QStringLiteral("minimum %1 usage per %2 is %3, but request is %4")
                              .arg(k, limitType, min.toString(), req->second.toString()));
        else if (lim != limits.end() && lim->second < min)
            errors.append(QStringLiteral("minimum %1 usage per %2 is %3, but limit is %4")
                              .arg(k, limitType, min.toString(), lim->second.toString()));
    }
    for (const auto &[k, max] : parseList(item.value(QLatin1String("max")))) {
        auto req = requests.find(k);
        auto lim = limits.find(k);
        if (lim == limits.end())
            errors.append(QStringLiteral("maximum %1 usage per %2 is %3.  No limit is specified")
                              .arg(k, limitType, max.toString()));
        else if (lim->second > max)
            errors.append(QStringLiteral("maximum %1 usage per %2 is %3, but limit is %4")
                              .arg(k, limitType, max.toString(), lim->second.toString()));
        else if (req != requests.end() && req->second > max)
            errors.append(QStringLiteral("maximum %1 usage per %2 is %3, but request is %4")
                              .arg(k, limitType, max.toString(), req->second.toString()));
    }
    for (const auto &[k, ratio] : parseList(item.value(QLatin1String("maxLimitRequestRatio")))) {
        auto req = requests.find(k);
        auto lim = limits.find(k);
        if (lim == limits.end())
            continue;
        if (req == requests.end() || req->second.isZero()) {
            errors.append(
                QStringLiteral("%1 max limit to request ratio per %2 is %3, but no request is specified or "
                               "request is 0")
                    .arg(k, limitType, ratio.toString()));
            continue;
        }
        const double observed = lim->second.toDouble() / req->second.toDouble();
        if (observed > ratio.toDouble())
            errors.append(
                QStringLiteral("%1 max limit to request ratio per %2 is %3, but provided ratio is %4")
                    .arg(k, limitType, ratio.toString(), QString::number(observed, 'f', 6)));
    }
}

// For Pod-type limits a resource only has a pod-level value if every container names it.
ResourceList podLevel(const QJsonObject &pod, QLatin1String which) {
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    ResourceList sum = podEffective(pod, which);
    for (auto it = sum.begin(); it != sum.end();) {
        bool all = true;
        for (const QJsonValue &c : containersOf(spec, false))
            all = all && containerList(c.toObject(), which).count(it->first);
        it = all ? std::next(it) : sum.erase(it);
    }
    return sum;
}

} // namespace

QList<FieldError> validateObject(Resource r, const QJsonObject &object, const QJsonObject *old) {
    QList<FieldError> errors;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    errors += validateName(r, meta.value(QLatin1String("name")).toString());
    switch (r) {
    case Resource::ResourceQuota: validateQuota(object, old, errors); break;
    case Resource::LimitRange: validateLimitRange(object, errors); break;
    case Resource::Pod: validatePodSpec(object, errors); break;
    case Resource::Namespace:
    case Resource::Event: break;
    }
    return errors;
}

std::optional<ApiError> admitPod(const Store &store, const QString &ns, QJsonObject &pod) {
    const QString podName =
        pod.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    // LimitRanger, mutating half.
    QStringList annotations;
    std::vector<QJsonObject> limitRanges;
    {
        auto [first, last] = store.range(Resource::LimitRange, ns);
        for (auto it = first; it != last; ++it)
            limitRanges.push_back(QJsonDocument::fromJson(it->second.json).object());
    }
    for (const QJsonObject &lr : limitRanges) {
        QStringList set;
        mergeLimitRangeDefaults(lr, pod, set);
        if (!set.isEmpty())
            annotations = set;
    }
    if (!annotations.isEmpty()) {
        QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
        QJsonObject ann = meta.value(QLatin1String("annotations")).toObject();
        ann.insert(
            QLatin1String("kubernetes.io/limit-ranger"),
            QString(QStringLiteral("LimitRanger plugin set: ") + annotations.join(QStringLiteral("; "))));
        meta.insert(QLatin1String("annotations"), ann);
        pod.insert(QLatin1String("metadata"), meta);
    }

    // Object validation runs after mutating admission, as in the API server.
    const QList<FieldError> invalidFields = validateObject(Resource::Pod, pod, nullptr);
    if (!invalidFields.isEmpty()) {
        QJsonArray causes;
        for (const FieldError &e : invalidFields)
            causes.append(e.toCause());
        return ApiError::invalid(QStringLiteral("Pod"), podName, causes);
    }

    // LimitRanger, validating half.
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    for (const QJsonObject &lr : limitRanges) {
        QStringList errors;
        const QJsonArray items =
            lr.value(QLatin1String("spec")).toObject().value(QLatin1String("limits")).toArray();
        for (const QJsonValue &v : items) {
            const QJsonObject item = v.toObject();
            const QString type = item.value(QLatin1String("type")).toString();
            if (type == QLatin1String("Container")) {
                for (bool init : {false, true}) {
                    for (const QJsonValue &c : containersOf(spec, init))
                        checkMinMax(type, item, containerList(c.toObject(), QLatin1String("requests")),
                                    containerList(c.toObject(), QLatin1String("limits")), errors);
                }
            } else if (type == QLatin1String("Pod")) {
                checkMinMax(type, item, podLevel(pod, QLatin1String("requests")),
                            podLevel(pod, QLatin1String("limits")), errors);
            }
        }
        if (!errors.isEmpty())
            return ApiError::forbidden(QStringLiteral("pods"), podName, aggregate(errors));
    }

    // ResourceQuota. A scoped quota neither counts nor constrains a pod outside
    // its scopes (not even the "must specify" rule below).
    const Usage delta = podUsage(pod);
    const PodScopeFacts facts = podScopeFacts(pod);
    auto [first, last] = store.range(Resource::ResourceQuota, ns);
    for (auto it = first; it != last; ++it) {
        const QJsonObject quota = QJsonDocument::fromJson(it->second.json).object();
        const QString quotaName = it->second.name;
        if (!podMatchesScopes(quotaScopes(quota), facts))
            continue;
        const QJsonObject status = quota.value(QLatin1String("status")).toObject();
        const ResourceList hard = parseList(status.value(QLatin1String("hard")));
        const ResourceList used = parseList(status.value(QLatin1String("used")));

        // Quotas on cpu/memory oblige every container to state them (upstream's
        // "backward compatibility requirement").
        static const QStringList constrained = {
            QStringLiteral("cpu"),    QStringLiteral("limits.cpu"),   QStringLiteral("limits.memory"),
            QStringLiteral("memory"), QStringLiteral("requests.cpu"), QStringLiteral("requests.memory")};
        std::map<QString, QStringList> missing;
        for (bool init : {false, true}) {
            for (const QJsonValue &cv : containersOf(spec, init)) {
                const QJsonObject c = cv.toObject();
                const ResourceList req = containerList(c, QLatin1String("requests"));
                const ResourceList lim = containerList(c, QLatin1String("limits"));
                for (const QString &k : constrained) {
                    if (!hard.count(k))
                        continue;
                    const bool isLimit = k.startsWith(QLatin1String("limits."));
                    const QString base = k.section(QLatin1Char('.'), -1);
                    const bool has = isLimit ? lim.count(base) > 0 : req.count(base) > 0;
                    if (!has)
                        missing[k].append(c.value(QLatin1String("name")).toString());
                }
            }
        }
        if (!missing.empty()) {
            QStringList parts;
            for (auto &[k, names] : missing) {
                names.sort();
                names.removeDuplicates();
                parts.append(k + QStringLiteral(" for: ") + names.join(QLatin1Char(',')));
            }
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("failed quota: ") + quotaName +
                                           QStringLiteral(": must specify ") +
                                           parts.join(QStringLiteral("; ")));
        }

        // hasUsageStats: a resource the quota's status lists as hard but not yet as
        // used cannot be decided. (A quota with no status at all constrains nothing
        // yet: the window between creating a quota and its controller's first sync.)
        QStringList unknown;
        for (const auto &[k, q] : hard) {
            Q_UNUSED(q);
            const bool podResource =
                k == QLatin1String("pods") || k == QLatin1String("count/pods") || k == QLatin1String("cpu") ||
                k == QLatin1String("memory") || k == QLatin1String("ephemeral-storage") ||
                k.startsWith(QLatin1String("requests.")) || k.startsWith(QLatin1String("limits."));
            if (podResource && !used.count(k))
                unknown.append(k);
        }
        if (!unknown.isEmpty())
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("status unknown for quota: ") + quotaName +
                                           QStringLiteral(", resources: ") + unknown.join(QLatin1Char(',')));
        ResourceList requested, usedNow, limited;
        for (const auto &[k, limit] : hard) {
            const Quantity *d = lookup(delta, k);
            if (!d)
                continue;
            auto u = used.find(k);
            const Quantity current = u == used.end() ? Quantity() : u->second;
            auto next = current.plus(*d);
            if (next && *next > limit) {
                requested.emplace(k, *d);
                usedNow.emplace(k, current);
                limited.emplace(k, limit);
            }
        }
        if (!requested.empty()) {
            return ApiError::forbidden(QStringLiteral("pods"), podName,
                                       QStringLiteral("exceeded quota: ") + quotaName +
                                           QStringLiteral(", requested: ") + prettyPrint(requested) +
                                           QStringLiteral(", used: ") + prettyPrint(usedNow) +
                                           QStringLiteral(", limited: ") + prettyPrint(limited));
        }
    }
    return std::nullopt;
}

} // namespace gq::tc
