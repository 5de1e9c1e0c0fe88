#include "testcluster/store.h"

#include "testcluster/admission.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <cmath>
#include <cstdio>

#include <algorithm>

namespace gq::tc {

const ResourceInfo &resourceInfo(Resource r) {
    static const QString kKueueGroup = QStringLiteral("kueue.x-k8s.io");
    static const QString kKueueVersion = QStringLiteral("v1beta2");
    static const ResourceInfo infos[kResourceCount] = {
        {Resource::Namespace,
         QStringLiteral("namespaces"),
         QStringLiteral("namespace"),
         QStringLiteral("Namespace"),
         {QStringLiteral("ns")},
         false,
         true},
        {Resource::ResourceQuota,
         QStringLiteral("resourcequotas"),
         QStringLiteral("resourcequota"),
         QStringLiteral("ResourceQuota"),
         {QStringLiteral("quota")},
         true,
         true},
        {Resource::LimitRange,
         QStringLiteral("limitranges"),
         QStringLiteral("limitrange"),
         QStringLiteral("LimitRange"),
         {QStringLiteral("limits")},
         true,
         false},
        {Resource::Pod,
         QStringLiteral("pods"),
         QStringLiteral("pod"),
         QStringLiteral("Pod"),
         {QStringLiteral("po")},
         true,
         true},
        {Resource::Event,
         QStringLiteral("events"),
         QStringLiteral("event"),
         QStringLiteral("Event"),
         {QStringLiteral("ev")},
         true,
         false},
        {Resource::ConfigMap,
         QStringLiteral("configmaps"),
         QStringLiteral("configmap"),
         QStringLiteral("ConfigMap"),
         {QStringLiteral("cm")},
         true,
         false},
        {Resource::Service,
         QStringLiteral("services"),
         QStringLiteral("service"),
         QStringLiteral("Service"),
         {QStringLiteral("svc")},
         true,
         false},
        {Resource::Node,
         QStringLiteral("nodes"),
         QStringLiteral("node"),
         QStringLiteral("Node"),
         {QStringLiteral("no")},
         false,
         true},
        {Resource::ValidatingWebhookConfiguration,
         QStringLiteral("validatingwebhookconfigurations"),
         QStringLiteral("validatingwebhookconfiguration"),
         QStringLiteral("ValidatingWebhookConfiguration"),
         {},
         false,
         false,
         QStringLiteral("admissionregistration.k8s.io")},
        {Resource::ServiceAccount,
         QStringLiteral("serviceaccounts"),
         QStringLiteral("serviceaccount"),
         QStringLiteral("ServiceAccount"),
         {QStringLiteral("sa")},
         true,
         false},
        {Resource::Secret,
         QStringLiteral("secrets"),
         QStringLiteral("secret"),
         QStringLiteral("Secret"),
         {},
         true,
         false},
        {Resource::Deployment,
         QStringLiteral("deployments"),
         QStringLiteral("deployment"),
         QStringLiteral("Deployment"),
         {QStringLiteral("deploy")},
         true,
         true,
         QStringLiteral("apps")},
        {Resource::CronJob,
         QStringLiteral("cronjobs"),
         QStringLiteral("cronjob"),
         QStringLiteral("CronJob"),
         {QStringLiteral("cj")},
         true,
         true,
         QStringLiteral("batch")},
        {Resource::ClusterRole,
         QStringLiteral("clusterroles"),
         QStringLiteral("clusterrole"),
         QStringLiteral("ClusterRole"),
         {},
         false,
         false,
         QStringLiteral("rbac.authorization.k8s.io")},
        {Resource::ClusterRoleBinding,
         QStringLiteral("clusterrolebindings"),
         QStringLiteral("clusterrolebinding"),
         QStringLiteral("ClusterRoleBinding"),
         {},
         false,
         false,
         QStringLiteral("rbac.authorization.k8s.io")},
        {Resource::Lease,
         QStringLiteral("leases"),
         QStringLiteral("lease"),
         QStringLiteral("Lease"),
         {},
         true,
         false,
         QStringLiteral("coordination.k8s.io")},
        {Resource::Role,
         QStringLiteral("roles"),
         QStringLiteral("role"),
         QStringLiteral("Role"),
         {},
         true,
         false,
         QStringLiteral("rbac.authorization.k8s.io")},
        {Resource::RoleBinding,
         QStringLiteral("rolebindings"),
         QStringLiteral("rolebinding"),
         QStringLiteral("RoleBinding"),
         {},
         true,
         false,
         QStringLiteral("rbac.authorization.k8s.io")},
        {Resource::ResourceFlavor,
         QStringLiteral("resourceflavors"),
         QStringLiteral("resourceflavor"),
         QStringLiteral("ResourceFlavor"),
         {QStringLiteral("rf")},
         false,
         false,
         kKueueGroup,
         kKueueVersion},
        {Resource::ClusterQueue,
         QStringLiteral("clusterqueues"),
         QStringLiteral("clusterqueue"),
         QStringLiteral("ClusterQueue"),
         {QStringLiteral("cq")},
         false,
         true,
         kKueueGroup,
         kKueueVersion},
        {Resource::LocalQueue,
         QStringLiteral("localqueues"),
         QStringLiteral("localqueue"),
         QStringLiteral("LocalQueue"),
         {QStringLiteral("lq"), QStringLiteral("queue"), QStringLiteral("queues")},
         true,
         true,
         kKueueGroup,
         kKueueVersion},
        {Resource::Cohort,
         QStringLiteral("cohorts"),
         QStringLiteral("cohort"),
         QStringLiteral("Cohort"),
         {},
         false,
         true,
         kKueueGroup,
         kKueueVersion},
        {Resource::Workload,
         QStringLiteral("workloads"),
         QStringLiteral("workload"),
         QStringLiteral("Workload"),
         {QStringLiteral("wl")},
         true,
         true,
         kKueueGroup,
         kKueueVersion},
        {Resource::ResourceClaim,
         QStringLiteral("resourceclaims"),
         QStringLiteral("resourceclaim"),
         QStringLiteral("ResourceClaim"),
         {},
         true,
         true,
         QStringLiteral("resource.k8s.io")},
        {Resource::ResourceClaimTemplate,
         QStringLiteral("resourceclaimtemplates"),
         QStringLiteral("resourceclaimtemplate"),
         QStringLiteral("ResourceClaimTemplate"),
         {},
         true,
         false,
         QStringLiteral("resource.k8s.io")},
        {Resource::ResourceSlice,
         QStringLiteral("resourceslices"),
         QStringLiteral("resourceslice"),
         QStringLiteral("ResourceSlice"),
         {},
         false,
         false,
         QStringLiteral("resource.k8s.io")},
        {Resource::DeviceClass,
         QStringLiteral("deviceclasses"),
         QStringLiteral("deviceclass"),
         QStringLiteral("DeviceClass"),
         {},
         false,
         false,
         QStringLiteral("resource.k8s.io")},
    };
    return infos[static_cast<int>(r)];
}

std::optional<Resource> resourceFromPlural(QStringView plural) {
    return resourceFromPlural(QStringView(), QStringView(u"v1"), plural);
}

std::optional<Resource> resourceFromPlural(QStringView group, QStringView version, QStringView plural) {
    for (int i = 0; i < kResourceCount; ++i) {
        const ResourceInfo &info = resourceInfo(static_cast<Resource>(i));
        if (info.plural == plural && info.group == group && info.version == version)
            return static_cast<Resource>(i);
    }
    return std::nullopt;
}

QString storeKey(const QString &ns, const QString &name) {
    return ns.isEmpty() ? name : ns + QLatin1Char('/') + name;
}

namespace {

// A compact JSON writer: Qt's QJsonDocument::toJson builds nested objects by
// inserting into byte arrays and dominated bulk seeding (20 s for 110k objects).
void writeString(QByteArray &out, const QString &s) {
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void writeValue(QByteArray &out, const QJsonValue &v);

void writeObject(QByteArray &out, const QJsonObject &o) {
    out += '{';
    bool first = true;
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!first)
            out += ',';
        first = false;
        writeString(out, it.key());
        out += ':';
        writeValue(out, it.value());
    }
    out += '}';
}

void writeValue(QByteArray &out, const QJsonValue &v) {
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: out += "null"; break;
    case QJsonValue::Bool: out += v.toBool() ? "true" : "false"; break;
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9007199254740992.0)
            out += QByteArray::number(static_cast<qint64>(d));
        else if (std::isfinite(d))
            out += QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
        else
            out += "null";
        break;
    }
    case QJsonValue::String: writeString(out, v.toString()); break;
    case QJsonValue::Array: {
        out += '[';
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (i)
                out += ',';
            writeValue(out, a.at(i));
        }
        out += ']';
        break;
    }
    case QJsonValue::Object: writeObject(out, v.toObject()); break;
    }
}

} // namespace

QByteArray toCompactJson(const QJsonObject &object) {
    QByteArray out;
    out.reserve(1024);
    writeObject(out, object);
    return out;
}

QByteArray withKind(Resource r, const QByteArray &json) {
    const ResourceInfo &info = resourceInfo(r);
    QByteArray out;
    out.reserve(json.size() + 48);
    out += "{\"apiVersion\":\"";
    out += info.apiVersion().toLatin1();
    out += "\",\"kind\":\"";
    out += info.kind.toLatin1();
    out += "\",";
    out.append(json.constData() + 1, json.size() - 1);
    return out;
}

const Entry *Store::find(Resource r, const QString &ns, const QString &name) const {
    const Map &m = m_maps[static_cast<int>(r)];
    auto it = m.find(storeKey(ns, name));
    return it == m.end() ? nullptr : &it->second;
}

std::pair<Store::Map::const_iterator, Store::Map::const_iterator> Store::range(Resource r,
                                                                               const QString &ns) const {
    const Map &m = m_maps[static_cast<int>(r)];
    if (ns.isEmpty() || !resourceInfo(r).namespaced)
        return {m.begin(), m.end()};
    const QString prefix = ns + QLatin1Char('/');
    auto first = m.lower_bound(prefix);
    // '0' is the character after '/', so this is the first key past the prefix.
    auto last = m.lower_bound(ns + QLatin1Char('0'));
    return {first, last};
}

Entry Store::makeEntry(Resource r, const QJsonObject &object) const {
    Entry e;
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    e.name = meta.value(QLatin1String("name")).toString();
    e.ns = resourceInfo(r).namespaced ? meta.value(QLatin1String("namespace")).toString() : QString();
    e.rv = meta.value(QLatin1String("resourceVersion")).toString().toULongLong();
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        e.labels.emplace_back(it.key(), it.value().toString());
    if (r == Resource::Pod || r == Resource::Namespace)
        e.phase = object.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString();
    if (r == Resource::Pod) {
        e.nodeName =
            object.value(QLatin1String("spec")).toObject().value(QLatin1String("nodeName")).toString();
        e.usage = podUsage(object);
        e.scopeFacts = podScopeFacts(object);
    }
    QJsonObject stripped = object;
    stripped.remove(QLatin1String("kind"));
    stripped.remove(QLatin1String("apiVersion"));
    e.json = toCompactJson(stripped);
    return e;
}

void Store::record(Resource r, const QByteArray &type, const Entry &entry) {
    m_log.push_back(WatchEvent{entry.rv, r, type, entry});
    while (m_log.size() > m_logLimit) {
        m_compactedRv = m_log.front().rv;
        m_log.pop_front();
    }
    changed.notify_all();
}

const Entry &Store::commit(Resource r, QJsonObject object, const QByteArray &eventType, bool recordEvent) {
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    meta.insert(QLatin1String("resourceVersion"), QString::number(++m_rv));
    object.insert(QLatin1String("metadata"), meta);
    Entry e = makeEntry(r, object);
    Map &m = m_maps[static_cast<int>(r)];
    const QString key = storeKey(e.ns, e.name);
    if (recordEvent)
        record(r, eventType, e);
    auto [it, inserted] = m.insert_or_assign(key, std::move(e));
    return it->second;
}

QJsonObject Store::remove(Resource r, const QString &ns, const QString &name) {
    Map &m = m_maps[static_cast<int>(r)];
    auto it = m.find(storeKey(ns, name));
    if (it == m.end())
        return {};
    QJsonObject last = QJsonDocument::fromJson(it->second.json).object();
    m.erase(it);
    QJsonObject meta = last.value(QLatin1String("metadata")).toObject();
    meta.insert(QLatin1String("resourceVersion"), QString::number(++m_rv));
    last.insert(QLatin1String("metadata"), meta);
    record(r, "DELETED", makeEntry(r, last));
    return last;
}

void Store::load(Resource r, const QJsonObject &object) {
    Entry e = makeEntry(r, object);
    m_rv = std::max(m_rv, e.rv);
    m_compactedRv = m_rv;
    const QString key = storeKey(e.ns, e.name);
    m_maps[static_cast<int>(r)].insert_or_assign(key, std::move(e));
}

void Store::compact() {
    m_log.clear();
    m_compactedRv = m_rv;
    changed.notify_all();
}

std::deque<WatchEvent>::const_iterator Store::eventsAfter(quint64 after) const {
    return std::upper_bound(m_log.cbegin(), m_log.cend(), after,
                            [](quint64 rv, const WatchEvent &ev) { return rv < ev.rv; });
}

std::size_t Store::objectCount() const {
    std::size_t n = 0;
    for (const Map &m : m_maps)
        n += m.size();
    return n;
}

QJsonObject Store::saveState() const {
    QJsonObject objects;
    for (int i = 0; i < kResourceCount; ++i) {
        QJsonArray items;
        for (const auto &[key, entry] : m_maps[i])
            items.append(QJsonDocument::fromJson(entry.json).object());
        objects.insert(resourceInfo(static_cast<Resource>(i)).plural, items);
    }
    QJsonObject state;
    state.insert(QLatin1String("kind"), QLatin1String("GpuQuotaTestClusterState"));
    state.insert(QLatin1String("resourceVersion"), QString::number(m_rv));
    state.insert(QLatin1String("objects"), objects);
    return state;
}

Result<void> Store::loadState(const QJsonObject &state) {
    if (state.value(QLatin1String("kind")).toString() != QLatin1String("GpuQuotaTestClusterState"))
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("not a test cluster state file (kind is not GpuQuotaTestClusterState)"));
    const QJsonObject objects = state.value(QLatin1String("objects")).toObject();
    for (int i = 0; i < kResourceCount; ++i) {
        const auto r = static_cast<Resource>(i);
        const QJsonArray items = objects.value(resourceInfo(r).plural).toArray();
        for (const QJsonValue &v : items)
            load(r, v.toObject());
    }
    m_rv = std::max(m_rv, state.value(QLatin1String("resourceVersion")).toString().toULongLong());
    m_compactedRv = m_rv;
    return {};
}

} // namespace gq::tc
