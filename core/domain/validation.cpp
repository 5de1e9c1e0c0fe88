#include "core/domain/validation.h"

#include "core/domain/resourcenames.h"
#include "core/domain/specio_p.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gq {

using namespace detail;

namespace {

constexpr qsizetype kMaxAnnotationsBytes = 256 * 1024;

// Collects errors and gives each one its source position from the spec's tree.
class Sink {
public:
    explicit Sink(const YamlNode &root)
        : m_root(root) {}
    void add(Error e, bool atKey = false) {
        setErrorPosition(e, m_root, atKey);
        m_errors << std::move(e);
    }
    QList<Error> take() { return std::move(m_errors); }

private:
    const YamlNode &m_root;
    QList<Error> m_errors;
};

QString joinList(const QStringList &values) {
    QStringList q;
    for (const QString &v : values)
        q << quoted(v);
    return u'[' + q.join(QStringLiteral(", ")) + u']';
}

void validateObjectMeta(const ObjectMeta &meta, Sink &sink) {
    if (meta.name.isEmpty() && meta.generateName.isEmpty()) {
        sink.add(requiredValue(QStringLiteral("metadata.name"),
                               QStringLiteral("name or generateName is required")));
    } else if (!meta.name.isEmpty()) {
        for (const QString &msg : dns1123SubdomainErrors(meta.name))
            sink.add(invalidValue(QStringLiteral("metadata.name"), meta.name, msg));
    }
    if (!meta.generateName.isEmpty()) {
        // A generated name gets a suffix, so a trailing dash is fine here.
        QString base = meta.generateName;
        if (base.endsWith(u'-'))
            base.chop(1);
        for (const QString &msg : dns1123SubdomainErrors(base))
            sink.add(invalidValue(QStringLiteral("metadata.generateName"), meta.generateName, msg));
    }
    if (!meta.namespaceName.isEmpty()) {
        for (const QString &msg : dns1123LabelErrors(meta.namespaceName))
            sink.add(invalidValue(QStringLiteral("metadata.namespace"), meta.namespaceName, msg));
    }
    for (auto it = meta.labels.constBegin(); it != meta.labels.constEnd(); ++it) {
        const QString field = QStringLiteral("metadata.labels[") + it.key() + u']';
        for (const QString &msg : qualifiedNameErrors(it.key()))
            sink.add(invalidValue(field, it.key(), msg), true);
        for (const QString &msg : labelValueErrors(it.value()))
            sink.add(invalidValue(field, it.value(), msg));
    }
    qsizetype total = 0;
    for (auto it = meta.annotations.constBegin(); it != meta.annotations.constEnd(); ++it) {
        const QString field = QStringLiteral("metadata.annotations[") + it.key() + u']';
        for (const QString &msg : qualifiedNameErrors(it.key().toLower()))
            sink.add(invalidValue(field, it.key(), msg), true);
        total += it.key().toUtf8().size() + it.value().toUtf8().size();
    }
    if (total > kMaxAnnotationsBytes)
        sink.add(
            invalidShape(QStringLiteral("metadata.annotations"),
                         QStringLiteral("Too long: must have at most %1 bytes").arg(kMaxAnnotationsBytes)));
}

// Common ways of writing the GPU resource that the API server rejects or ignores.
QString gpuNameHint(const QString &name) {
    static const QStringList typos = {QStringLiteral("gpu"),          QStringLiteral("gpus"),
                                      QStringLiteral("requests.gpu"), QStringLiteral("limits.gpu"),
                                      QStringLiteral("nvidia/gpu"),   QStringLiteral("nvidia.com/gpus"),
                                      QStringLiteral("requests.gpus")};
    return typos.contains(name.toLower()) ? QStringLiteral("; did you mean 'requests.nvidia.com/gpu'?")
                                          : QString();
}

// ValidateResourceQuantityValue: non-negative, whole numbers for integer resources.
template <typename Field>
void validateQuotaQuantity(const Field &field, const QString &resource, const Quantity &q, Sink &sink) {
    if (q.sign() < 0)
        sink.add(invalidValue(field(), q.toString(), QStringLiteral("must be greater than or equal to 0")));
    if (isIntegerResourceName(resource) && !q.isInteger())
        sink.add(invalidValue(field(), q.toString(), QStringLiteral("must be an integer")));
}

void validateQuotaList(const QString &path, const ResourceList &list, bool gpuPolicy, Sink &sink) {
    for (const ResourceList::Entry &e : list) {
        // Spelled only for a problem: a 200k-entry spec.hard is mostly good entries.
        const auto field = [&]() -> QString { return path + u'[' + e.name + u']'; };
        const QStringList nameErrors = quotaResourceNameErrors(e.name);
        for (const QString &msg : nameErrors)
            sink.add(invalidValue(field(), e.name, msg + gpuNameHint(e.name)), true);
        validateQuotaQuantity(field, e.name, e.quantity, sink);
        if (!gpuPolicy || !nameErrors.isEmpty())
            continue;
        // DRA: quota counts the devices a namespace's claims request from the class as is
        // (an integer, as for any extended name: checked above).
        if (e.name.endsWith(QLatin1String(".deviceclass.resource.k8s.io/devices")))
            continue;
        const ResourceNameInfo info = classifyResourceName(e.name);
        if (info.kind == ResourceNameKind::Extended) {
            sink.add(invalidValue(field(), e.name,
                                  QStringLiteral("extended resources are only counted in quota with the "
                                                 "'requests.' prefix; use 'requests.%1'")
                                      .arg(elided(e.name))),
                     true);
        } else if (info.kind == ResourceNameKind::QuotaLimits) {
            sink.add(invalidValue(
                         field(), e.name,
                         QStringLiteral("quota never enforces limits of extended resources (they cannot be "
                                        "overcommitted); use 'requests.%1'")
                             .arg(elided(info.base))),
                     true);
        } else if (info.kind == ResourceNameKind::QuotaRequests && isGpuResource(info.base) &&
                   !e.quantity.isInteger()) {
            sink.add(
                invalidValue(field(), e.quantity.toString(),
                             QStringLiteral("must be an integer (GPUs and MIG slices are whole devices)")));
        }
    }
}

// The standard resources of spec.hard a scope does not apply to, worked out once per
// distinct scope: scopes x resources made a long list of scopes quadratic.
using ScopeMisfits = QHash<QString, QStringList>;
const QStringList &resourcesOutsideScope(const QuotaSpec &spec, const QString &scope, ScopeMisfits &cache) {
    auto it = cache.find(scope);
    if (it == cache.end()) {
        QStringList names;
        for (const ResourceList::Entry &e : spec.hard) {
            if (isStandardQuotaResourceName(e.name) && !isQuotaScopeValidForResource(scope, e.name))
                names << e.name;
        }
        it = cache.insert(scope, names);
    }
    return *it;
}

void validateScopes(const QuotaSpec &spec, Sink &sink) {
    if (spec.scopes.isEmpty())
        return;
    const QString field = QStringLiteral("spec.scopes");
    QSet<QString> seen;
    ScopeMisfits outside;
    for (qsizetype i = 0; i < spec.scopes.size(); ++i) {
        const QString &scope = spec.scopes[i];
        const QString itemField = field + u'[' + QString::number(i) + u']';
        if (!isStandardQuotaScope(scope)) {
            sink.add(notSupported(itemField, scope, standardQuotaScopes()));
        }
        for (const QString &name : resourcesOutsideScope(spec, scope, outside))
            sink.add(invalidValue(itemField, scope,
                                  QStringLiteral("unsupported scope applied to resource: scope %1 does not "
                                                 "apply to %2")
                                      .arg(elided(scope), elided(name))));
        seen.insert(scope);
    }
    if ((seen.contains(QStringLiteral("BestEffort")) && seen.contains(QStringLiteral("NotBestEffort"))) ||
        (seen.contains(QStringLiteral("Terminating")) && seen.contains(QStringLiteral("NotTerminating"))))
        sink.add(invalidValue(field, joinList(spec.scopes), QStringLiteral("conflicting scopes")));
}

void validateScopeSelector(const QuotaSpec &spec, Sink &sink) {
    if (!spec.hasScopeSelector)
        return;
    const QString base = QStringLiteral("spec.scopeSelector.matchExpressions");
    QSet<QString> seen;
    ScopeMisfits outside;
    QStringList names;
    for (qsizetype i = 0; i < spec.scopeSelector.size(); ++i) {
        const ScopedResourceSelectorRequirement &r = spec.scopeSelector[i];
        const QString path = base + u'[' + QString::number(i) + u']';
        if (r.scopeName.isEmpty())
            sink.add(requiredValue(path + QStringLiteral(".scopeName")));
        else if (!isStandardQuotaScope(r.scopeName))
            sink.add(notSupported(path + QStringLiteral(".scopeName"), r.scopeName, standardQuotaScopes()));
        for (const QString &name : resourcesOutsideScope(spec, r.scopeName, outside))
            sink.add(invalidValue(path + QStringLiteral(".scopeName"), r.scopeName,
                                  QStringLiteral("unsupported scope applied to resource: scope %1 does not "
                                                 "apply to %2")
                                      .arg(elided(r.scopeName), elided(name))));
        if (quotaScopeRequiresExists(r.scopeName) && r.op != u"Exists")
            sink.add(invalidValue(
                path + QStringLiteral(".operator"), r.op,
                QStringLiteral("must be 'Exists' when scope is any of Terminating, NotTerminating, "
                               "BestEffort, NotBestEffort or CrossNamespacePodAffinity")));
        if (r.op == u"In" || r.op == u"NotIn") {
            if (r.values.isEmpty())
                sink.add(requiredValue(path + QStringLiteral(".values"),
                                       QStringLiteral("must be at least one value when `operator` is 'In' or "
                                                      "'NotIn' for scope selector")));
        } else if (r.op == u"Exists" || r.op == u"DoesNotExist") {
            if (!r.values.isEmpty())
                sink.add(invalidValue(path + QStringLiteral(".values"), joinList(r.values),
                                      QStringLiteral("must be no value when `operator` is 'Exist' or "
                                                     "'DoesNotExist' for scope selector")));
        } else if (r.op.isEmpty()) {
            sink.add(requiredValue(path + QStringLiteral(".operator")));
        } else {
            sink.add(notSupported(path + QStringLiteral(".operator"), r.op,
                                  {QStringLiteral("In"), QStringLiteral("NotIn"), QStringLiteral("Exists"),
                                   QStringLiteral("DoesNotExist")}));
        }
        seen.insert(r.scopeName);
        names << r.scopeName;
    }
    if ((seen.contains(QStringLiteral("BestEffort")) && seen.contains(QStringLiteral("NotBestEffort"))) ||
        (seen.contains(QStringLiteral("Terminating")) && seen.contains(QStringLiteral("NotTerminating"))))
        sink.add(invalidValue(base, joinList(names), QStringLiteral("conflicting scopes")));
}

// --- LimitRange ------------------------------------------------------------------

QStringList limitRangeResourceNameErrors(const QString &type, const QString &name) {
    if (type == u"Pod" || type == u"Container")
        return containerResourceNameErrors(name);
    return resourceNameErrors(name);
}

// The values one resource k has in the item's lists: in order (min <= default request
// <= default <= max), a ratio that max/min allows, equal defaults where it cannot be
// overcommitted.
void checkLimitRangeOrder(const LimitRangeItem &item, const QString &path, const QString &k,
                          const ResourceList &defaults, const ResourceList &defaultRequests, Sink &sink) {
    const Quantity *min = item.min.find(k);
    const Quantity *max = item.max.find(k);
    const Quantity *def = defaults.find(k);
    const Quantity *defReq = defaultRequests.find(k);
    const Quantity *ratio = item.maxLimitRequestRatio.find(k);
    const auto at = [&](const char *list) -> QString {
        return path + u'.' + QLatin1String(list) + u'[' + k + u']';
    };

    // One ordering rule: lower must not exceed upper; reported at list[k] with the
    // value the API server shows (not always the field's own).
    const auto ordered = [&](const Quantity *lower, const Quantity *upper, const char *list,
                             const Quantity *shown, const char *message) {
        if (lower && upper && *lower > *upper)
            sink.add(invalidValue(at(list), shown->toString(),
                                  QString::fromLatin1(message).arg(lower->toString(), upper->toString())));
    };
    ordered(min, max, "min", min, "min value %1 is greater than max value %2");
    ordered(min, defReq, "defaultRequest", defReq, "min value %1 is greater than default request value %2");
    ordered(defReq, max, "defaultRequest", defReq, "default request value %1 is greater than max value %2");
    ordered(defReq, def, "defaultRequest", defReq,
            "default request value %1 is greater than default limit value %2");
    ordered(min, def, "default", min, "min value %1 is greater than default value %2");
    ordered(def, max, "default", max, "default value %1 is greater than max value %2");
    if (ratio && *ratio < Quantity::fromInt(1))
        sink.add(invalidValue(at("maxLimitRequestRatio"), ratio->toString(),
                              QStringLiteral("ratio %1 is less than 1").arg(ratio->toString())));
    if (ratio && min && max) {
        // Upstream compares in floating point on milli-values; so do we, to agree
        // on the boundary.
        const double minMilli = double(min->milliValue());
        const double maxMilli = double(max->milliValue());
        const double ratioValue = double(ratio->milliValue()) / 1000.0;
        if (minMilli > 0) {
            const double limit = maxMilli / minMilli;
            if (ratioValue > limit)
                sink.add(invalidValue(at("maxLimitRequestRatio"), ratio->toString(),
                                      QStringLiteral("ratio %1 is greater than max/min = %2")
                                          .arg(ratio->toString(), QString::number(limit, 'f', 6))));
        }
    }
    // GPUs, hugepages and other resources that cannot be overcommitted: a
    // container's request must equal its limit, so the two defaults must agree.
    if (!isOvercommitAllowed(k) && def && defReq && !(*def == *defReq))
        sink.add(invalidValue(at("defaultRequest"), defReq->toString(),
                              QStringLiteral("default value %1 must equal to defaultRequest value %2 in %3")
                                  .arg(def->toString(), defReq->toString(), elided(k))));
}

void validateLimitRangeItem(const LimitRangeItem &item, int index, const ValidationOptions &options,
                            Sink &sink) {
    Q_UNUSED(options);
    const QString path = QStringLiteral("spec.limits[") + QString::number(index) + u']';
    const bool isPod = item.type == u"Pod";

    // Names, in document order of the lists; remember every resource mentioned.
    QStringList keys;
    QSet<QString> seenKeys; // keys.contains() made a big list quadratic
    auto checkNames = [&](const ResourceList &list, const QString &key) {
        for (const ResourceList::Entry &e : list) {
            const QString field = path + u'.' + key + u'[' + e.name + u']';
            for (const QString &msg : limitRangeResourceNameErrors(item.type, e.name))
                sink.add(invalidValue(field, e.name, msg), true);
            if (e.quantity.sign() < 0)
                sink.add(invalidValue(field, e.quantity.toString(),
                                      QStringLiteral("must be greater than or equal to 0")));
            if (!seenKeys.contains(e.name)) {
                seenKeys.insert(e.name);
                keys << e.name;
            }
        }
    };
    checkNames(item.max, QStringLiteral("max"));
    checkNames(item.min, QStringLiteral("min"));
    if (isPod) {
        if (!item.defaultLimit.isEmpty())
            sink.add(forbidden(path + QStringLiteral(".default"),
                               QStringLiteral("may not be specified when `type` is 'Pod'")),
                     true);
        if (!item.defaultRequest.isEmpty())
            sink.add(forbidden(path + QStringLiteral(".defaultRequest"),
                               QStringLiteral("may not be specified when `type` is 'Pod'")),
                     true);
    } else {
        checkNames(item.defaultLimit, QStringLiteral("default"));
        checkNames(item.defaultRequest, QStringLiteral("defaultRequest"));
    }
    if (item.type == u"PersistentVolumeClaim" && !item.min.contains(u"storage") &&
        !item.max.contains(u"storage"))
        sink.add(requiredValue(
            path + QStringLiteral(".limits"),
            QStringLiteral("either minimum or maximum storage value is required, but neither was "
                           "provided")));
    checkNames(item.maxLimitRequestRatio, QStringLiteral("maxLimitRequestRatio"));

    const ResourceList noDefaults;
    const ResourceList &defaults = isPod ? noDefaults : item.defaultLimit;
    const ResourceList &defaultRequests = isPod ? noDefaults : item.defaultRequest;
    for (const QString &k : keys)
        checkLimitRangeOrder(item, path, k, defaults, defaultRequests, sink);
}

QString typeName(const YamlNode &n) {
    switch (n.type()) {
    case YamlNode::Type::Null: return QStringLiteral("an empty document");
    case YamlNode::Type::Scalar: return QStringLiteral("a scalar");
    case YamlNode::Type::Sequence: return QStringLiteral("a list");
    case YamlNode::Type::Map: return QStringLiteral("a map");
    }
    return {};
}

} // namespace

QList<Error> validateQuota(const QuotaSpec &spec, const ValidationOptions &options) {
    Sink sink(spec.source());
    validateObjectMeta(spec.meta, sink);
    validateQuotaList(QStringLiteral("spec.hard"), spec.hard, options.gpuPolicy, sink);
    validateScopes(spec, sink);
    validateScopeSelector(spec, sink);
    validateQuotaList(QStringLiteral("status.hard"), spec.statusHard, false, sink);
    validateQuotaList(QStringLiteral("status.used"), spec.statusUsed, false, sink);
    return sink.take();
}

QList<Error> validateLimitRange(const LimitRangeSpec &spec, const ValidationOptions &options) {
    Sink sink(spec.source());
    validateObjectMeta(spec.meta, sink);
    QSet<QString> types;
    for (qsizetype i = 0; i < spec.limits.size(); ++i) {
        const LimitRangeItem &item = spec.limits[i];
        const QString typeField =
            QStringLiteral("spec.limits[") + QString::number(i) + QStringLiteral("].type");
        if (item.type.isEmpty()) {
            sink.add(requiredValue(
                typeField, QStringLiteral("one of \"Container\", \"Pod\", \"PersistentVolumeClaim\"")));
        } else {
            const QStringList nameErrors = qualifiedNameErrors(item.type);
            for (const QString &msg : nameErrors)
                sink.add(invalidValue(typeField, item.type, msg));
            if (nameErrors.isEmpty() && !item.type.contains(u'/') && !isStandardLimitRangeType(item.type))
                sink.add(notSupported(typeField, item.type,
                                      {QStringLiteral("Container"), QStringLiteral("Pod"),
                                       QStringLiteral("PersistentVolumeClaim")}));
            if (types.contains(item.type))
                sink.add(duplicateValue(typeField, item.type));
            types.insert(item.type);
        }
        validateLimitRangeItem(item, int(i), options, sink);
    }
    return sink.take();
}

bool isSupportedKind(QStringView kind) {
    return kind == u"ResourceQuota" || kind == u"LimitRange";
}

QList<Error> validateObject(const YamlObject &object, const ValidationOptions &options) {
    const YamlNode &root = object.root;
    QList<Error> errors;
    auto add = [&](Error e, bool atKey = false) {
        setErrorPosition(e, root, atKey);
        errors << std::move(e);
    };
    if (!root.isMap()) {
        Error e = invalidShape(QString(), QStringLiteral("expected a Kubernetes object (a map), found ") +
                                              typeName(root));
        e.line = root.pos().line;
        e.column = root.pos().column;
        errors << e;
        return errors;
    }
    const QString kind = object.kind();
    const YamlNode *kindNode = root.find(u"kind");
    if (kindNode && !kindNode->isNull() && !kindNode->isScalar()) {
        add(invalidShape(QStringLiteral("kind"), QStringLiteral("must be a string")));
        return errors;
    }
    if (kind.isEmpty()) {
        add(requiredValue(QStringLiteral("kind"), QStringLiteral("must be ResourceQuota or LimitRange")));
        return errors;
    }
    if (const YamlNode *items = root.find(u"items");
        (kind == u"List" || kind.endsWith(u"List")) && items && !items->isSequence()) {
        // A List whose items are not a list reached here whole (the loader only opens
        // lists): its items are what is wrong, not its kind.
        add(invalidShape(QStringLiteral("items"), QStringLiteral("must be a list")));
        return errors;
    }
    if (!isSupportedKind(kind)) {
        if (options.ignoreOtherKinds)
            return errors;
        add(notSupported(QStringLiteral("kind"), kind,
                         {QStringLiteral("ResourceQuota"), QStringLiteral("LimitRange")}));
        return errors;
    }
    const YamlNode *apiVersion = root.find(u"apiVersion");
    if (!apiVersion || apiVersion->isNull()) {
        if (object.impliedKind.isEmpty())
            add(requiredValue(QStringLiteral("apiVersion"), QStringLiteral("must be v1")));
    } else if (!apiVersion->isScalar() || apiVersion->text() != u"v1") {
        add(notSupported(QStringLiteral("apiVersion"),
                         apiVersion->isScalar() ? apiVersion->text() : QString(), {QStringLiteral("v1")}));
    }

    QList<Error> problems;
    if (kind == u"ResourceQuota") {
        const QuotaSpec spec = QuotaSpec::decode(root, problems);
        for (Error &p : problems)
            add(std::move(p));
        errors += validateQuota(spec, options);
    } else {
        const LimitRangeSpec spec = LimitRangeSpec::decode(root, problems);
        for (Error &p : problems)
            add(std::move(p));
        errors += validateLimitRange(spec, options);
    }
    std::stable_sort(errors.begin(), errors.end(), [](const Error &a, const Error &b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    return errors;
}

QList<Error> validateYamlText(const QByteArray &text, const ValidationOptions &options, int *objectsChecked) {
    if (objectsChecked)
        *objectsChecked = 0;
    auto doc = loadYaml(text);
    if (!doc)
        return {doc.error()};
    QList<Error> errors;
    for (const YamlObject &o : std::as_const(doc->objects)) {
        if (options.ignoreOtherKinds && o.root.isMap() && !isSupportedKind(o.kind()))
            continue;
        errors += validateObject(o, options);
        if (objectsChecked)
            ++*objectsChecked;
    }
    std::stable_sort(errors.begin(), errors.end(), [](const Error &a, const Error &b) {
        return a.line != b.line ? a.line < b.line : a.column < b.column;
    });
    return errors;
}

QString formatDiagnostic(const QString &fileName, const Error &error) {
    QString out = fileName;
    if (error.line > 0)
        out += u':' + QString::number(error.line) + u':' + QString::number(error.column);
    out += QStringLiteral(": ");
    if (!error.field.isEmpty()) // a path names keys, which may be huge; real ones are < 300
        out += elided(error.field, 300) + QStringLiteral(": ");
    out += error.message;
    return out;
}

} // namespace gq
