#include "testcluster/tables.h"

#include <QStringList>

#include <algorithm>

namespace gq::tc {

namespace {

QJsonObject column(const QString &name, const QString &type, const QString &format,
                   const QString &description, int priority = 0) {
    return QJsonObject{{QLatin1String("name"), name},
                       {QLatin1String("type"), type},
                       {QLatin1String("format"), format},
                       {QLatin1String("description"), description},
                       {QLatin1String("priority"), priority}};
}

const QString kNameDescription =
    QStringLiteral("Name must be unique within a namespace. Is required when creating resources, although "
                   "some resources may "
                   "allow a client to request the generation of an appropriate name automatically. Name is "
                   "primarily intended for "
                   "creation idempotence and configuration definition. Cannot be updated. More info: "
                   "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names");
const QString kAgeDescription = QStringLiteral(
    "CreationTimestamp is a timestamp representing the server time when this object was created. It is not "
    "guaranteed to be set in happens-before order across separate operations. Clients may not set this "
    "value. It "
    "is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. "
    "More "
    "info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata");

QString age(const QJsonObject &meta, const QDateTime &now) {
    const QDateTime created =
        QDateTime::fromString(meta.value(QLatin1String("creationTimestamp")).toString(), Qt::ISODate);
    if (!created.isValid())
        return QStringLiteral("<unknown>");
    return humanDuration(created.secsTo(now));
}

// The columns of `kubectl get nodes` (printNode): status from the Ready condition,
// roles from node-role.kubernetes.io/ labels, the kubelet's node info.
QJsonArray nodeCells(const QJsonObject &node, const QDateTime &now) {
    const QJsonObject meta = node.value(QLatin1String("metadata")).toObject();
    const QJsonObject status = node.value(QLatin1String("status")).toObject();
    QString state = QStringLiteral("Unknown");
    for (const QJsonValue &c : status.value(QLatin1String("conditions")).toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value(QLatin1String("type")).toString() == QLatin1String("Ready"))
            state = o.value(QLatin1String("status")).toString() == QLatin1String("True")
                        ? QStringLiteral("Ready")
                        : QStringLiteral("NotReady");
    }
    if (node.value(QLatin1String("spec")).toObject().value(QLatin1String("unschedulable")).toBool())
        state += QStringLiteral(",SchedulingDisabled");
    QStringList roles;
    const QJsonObject labels = meta.value(QLatin1String("labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it) {
        if (it.key().startsWith(QLatin1String("node-role.kubernetes.io/")))
            roles.append(it.key().section(QLatin1Char('/'), 1));
    }
    roles.sort();
    QString internalIp = QStringLiteral("<none>");
    for (const QJsonValue &a : status.value(QLatin1String("addresses")).toArray()) {
        if (a.toObject().value(QLatin1String("type")).toString() == QLatin1String("InternalIP"))
            internalIp = a.toObject().value(QLatin1String("address")).toString();
    }
    const QJsonObject info = status.value(QLatin1String("nodeInfo")).toObject();
    auto orUnknown = [](const QString &v) { return v.isEmpty() ? QStringLiteral("<unknown>") : v; };
    return {meta.value(QLatin1String("name")).toString(),
            state,
            roles.isEmpty() ? QStringLiteral("<none>") : roles.join(QLatin1Char(',')),
            age(meta, now),
            info.value(QLatin1String("kubeletVersion")).toString(),
            internalIp,
            QStringLiteral("<none>"),
            orUnknown(info.value(QLatin1String("osImage")).toString()),
            orUnknown(info.value(QLatin1String("kernelVersion")).toString()),
            orUnknown(info.value(QLatin1String("containerRuntimeVersion")).toString())};
}

} // namespace

namespace {

// "5m", or "5m30s" when the smaller unit is not zero (kubectl's two-unit form).
QString twoUnits(qint64 big, char bigUnit, qint64 small, char smallUnit) {
    QString out = QString::number(big) + QLatin1Char(bigUnit);
    if (small != 0)
        out += QString::number(small) + QLatin1Char(smallUnit);
    return out;
}

} // namespace

QString humanDuration(qint64 seconds) {
    if (seconds < -1)
        return QStringLiteral("<invalid>");
    if (seconds < 0)
        return QStringLiteral("0s");
    if (seconds < 120)
        return QString::number(seconds) + QLatin1Char('s');
    const qint64 minutes = seconds / 60;
    if (minutes < 10)
        return twoUnits(minutes, 'm', seconds % 60, 's');
    if (minutes < 180)
        return QString::number(minutes) + QLatin1Char('m');
    const qint64 hours = seconds / 3600;
    if (hours < 8)
        return twoUnits(hours, 'h', minutes % 60, 'm');
    if (hours < 48)
        return QString::number(hours) + QLatin1Char('h');
    if (hours < 24 * 8)
        return twoUnits(hours / 24, 'd', hours % 24, 'h');
    if (hours < 24 * 365 * 2)
        return QString::number(hours / 24) + QLatin1Char('d');
    if (hours < 24 * 365 * 8)
        return twoUnits(hours / 24 / 365, 'y', (hours / 24) % 365, 'd');
    return QString::number(hours / 24 / 365) + QLatin1Char('y');
}

QJsonArray tableColumns(Resource r) {
    const QString str = QStringLiteral("string");
    QJsonArray cols{column(QStringLiteral("Name"), str, QStringLiteral("name"), kNameDescription)};
    switch (r) {
    case Resource::Namespace:
        cols.append(column(QStringLiteral("Status"), str, {}, QStringLiteral("The status of the namespace")));
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        break;
    case Resource::ResourceQuota:
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        cols.append(
            column(QStringLiteral("Request"), str, {},
                   QStringLiteral(
                       "Request represents a minimum amount of cpu/memory that a container may consume.")));
        cols.append(column(QStringLiteral("Limit"), str, {},
                           QStringLiteral("Limits control the maximum amount of cpu/memory that a container "
                                          "may use independent of contention on the node.")));
        break;
    case Resource::LimitRange:
        cols.append(column(QStringLiteral("Created At"), QStringLiteral("date"), {}, kAgeDescription));
        break;
    case Resource::Node:
        cols.append(column(QStringLiteral("Status"), str, {}, QStringLiteral("The status of the node")));
        cols.append(column(QStringLiteral("Roles"), str, {}, QStringLiteral("The roles of the node")));
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        cols.append(column(QStringLiteral("Version"), str, {},
                           QStringLiteral("Kubelet Version reported by the node.")));
        cols.append(
            column(QStringLiteral("Internal-IP"), str, {}, QStringLiteral("List of internal IPs."), 1));
        cols.append(
            column(QStringLiteral("External-IP"), str, {}, QStringLiteral("List of external IPs."), 1));
        cols.append(column(
            QStringLiteral("OS-Image"), str, {},
            QStringLiteral(
                "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy))."),
            1));
        cols.append(
            column(QStringLiteral("Kernel-Version"), str, {},
                   QStringLiteral(
                       "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
                   1));
        cols.append(column(QStringLiteral("Container-Runtime"), str, {},
                           QStringLiteral("ContainerRuntime Version reported by the node through runtime "
                                          "remote API (e.g. containerd://1.4.2)."),
                           1));
        break;
    case Resource::ValidatingWebhookConfiguration:
        cols.append(
            column(QStringLiteral("Webhooks"), QStringLiteral("integer"), {},
                   QStringLiteral("Webhooks indicates the number of webhooks in this configuration.")));
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        break;
    case Resource::Pod:
        cols.append(
            column(QStringLiteral("Ready"), str, {},
                   QStringLiteral("The aggregate readiness state of this pod for accepting traffic.")));
        cols.append(column(QStringLiteral("Status"), str, {},
                           QStringLiteral("The aggregate status of the containers in this pod.")));
        cols.append(
            column(QStringLiteral("Restarts"), str, {},
                   QStringLiteral("The number of times the containers in this pod have been restarted and "
                                  "when the last container in this pod has restarted.")));
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        cols.append(column(QStringLiteral("IP"), str, {},
                           QStringLiteral("IP address allocated to the pod. Routable at least within the "
                                          "cluster. Empty if not yet allocated."),
                           1));
        cols.append(column(QStringLiteral("Node"), str, {},
                           QStringLiteral("NodeName is a request to schedule this pod onto a specific node."),
                           1));
        cols.append(column(
            QStringLiteral("Nominated Node"), str, {},
            QStringLiteral("nominatedNodeName is set only when this pod preempts other pods on the node."),
            1));
        cols.append(column(
            QStringLiteral("Readiness Gates"), str, {},
            QStringLiteral("If specified, all readiness gates will be evaluated for pod readiness."), 1));
        break;
    case Resource::Event:
        cols = QJsonArray{
            column(
                QStringLiteral("Last Seen"), str, {},
                QStringLiteral("The time at which the most recent occurrence of this event was recorded.")),
            column(QStringLiteral("Type"), str, {}, QStringLiteral("Type of this event (Normal, Warning).")),
            column(QStringLiteral("Reason"), str, {},
                   QStringLiteral("Short, machine understandable string that gives the reason for this event "
                                  "being generated.")),
            column(QStringLiteral("Object"), str, {}, QStringLiteral("The object that this event is about.")),
            column(QStringLiteral("Message"), str, {},
                   QStringLiteral("A human-readable description of the status of this operation."))};
        break;
    case Resource::Lease:
        cols.append(column(QStringLiteral("Holder"), str, {}, QStringLiteral("The holder of the lease")));
        cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription));
        break;
    default: cols.append(column(QStringLiteral("Age"), str, {}, kAgeDescription)); break;
    }
    return cols;
}

QJsonObject tableRow(Resource r, const QJsonObject &object, IncludeObject include, const QDateTime &now) {
    const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    const QJsonObject status = object.value(QLatin1String("status")).toObject();
    const QString name = meta.value(QLatin1String("name")).toString();
    QJsonArray cells;
    switch (r) {
    case Resource::Namespace:
        cells = {name, status.value(QLatin1String("phase")).toString(), age(meta, now)};
        break;
    case Resource::ResourceQuota: {
        QStringList keys = spec.value(QLatin1String("hard")).toObject().keys();
        std::sort(keys.begin(), keys.end());
        const QJsonObject used = status.value(QLatin1String("used")).toObject();
        const QJsonObject hard = status.value(QLatin1String("hard")).toObject();
        QStringList request, limit;
        for (const QString &k : keys) {
            const QString u = used.value(k).toString(QStringLiteral("0"));
            const QString h = hard.value(k).toString(QStringLiteral("0"));
            (k.startsWith(QLatin1String("limits.")) ? limit : request)
                .append(k + QStringLiteral(": ") + u + QLatin1Char('/') + h);
        }
        cells = {name, age(meta, now), request.join(QStringLiteral(", ")), limit.join(QStringLiteral(", "))};
        break;
    }
    case Resource::LimitRange:
        cells = {name, meta.value(QLatin1String("creationTimestamp")).toString()};
        break;
    case Resource::Node: cells = nodeCells(object, now); break;
    case Resource::ValidatingWebhookConfiguration:
        cells = {name, object.value(QLatin1String("webhooks")).toArray().size(), age(meta, now)};
        break;
    case Resource::Pod: {
        const QJsonArray containers = spec.value(QLatin1String("containers")).toArray();
        const QJsonArray statuses = status.value(QLatin1String("containerStatuses")).toArray();
        int ready = 0;
        qint64 restarts = 0;
        for (const QJsonValue &s : statuses) {
            ready += s.toObject().value(QLatin1String("ready")).toBool() ? 1 : 0;
            restarts += s.toObject().value(QLatin1String("restartCount")).toInteger();
        }
        QString phase = status.value(QLatin1String("phase")).toString();
        if (phase == QLatin1String("Succeeded"))
            phase = QStringLiteral("Completed");
        else if (phase == QLatin1String("Failed"))
            phase = QStringLiteral("Error");
        if (meta.contains(QLatin1String("deletionTimestamp")))
            phase = QStringLiteral("Terminating");
        const QString ip = status.value(QLatin1String("podIP")).toString();
        const QString node = spec.value(QLatin1String("nodeName")).toString();
        cells = {name,
                 QString(QString::number(ready) + QLatin1Char('/') + QString::number(containers.size())),
                 phase,
                 QString::number(restarts),
                 age(meta, now),
                 ip.isEmpty() ? QStringLiteral("<none>") : ip,
                 node.isEmpty() ? QStringLiteral("<none>") : node,
                 QStringLiteral("<none>"),
                 QStringLiteral("<none>")};
        break;
    }
    case Resource::Event: {
        const QJsonObject involved = object.value(QLatin1String("involvedObject")).toObject();
        QString last = object.value(QLatin1String("lastTimestamp")).toString();
        if (last.isEmpty())
            last = object.value(QLatin1String("eventTime")).toString();
        const QDateTime t = QDateTime::fromString(last, Qt::ISODate);
        cells = {t.isValid() ? humanDuration(t.secsTo(now)) : QStringLiteral("<unknown>"),
                 object.value(QLatin1String("type")).toString(),
                 object.value(QLatin1String("reason")).toString(),
                 QString(involved.value(QLatin1String("kind")).toString().toLower() + QLatin1Char('/') +
                         involved.value(QLatin1String("name")).toString()),
                 object.value(QLatin1String("message")).toString()};
        break;
    }
    case Resource::Lease: cells = {name, spec.value(QLatin1String("holderIdentity")).toString(), age(meta, now)}; break;
    default: cells = {name, age(meta, now)}; break;
    }
    QJsonObject row;
    row.insert(QLatin1String("cells"), cells);
    if (include == IncludeObject::Metadata) {
        QJsonObject partial;
        partial.insert(QLatin1String("kind"), QLatin1String("PartialObjectMetadata"));
        partial.insert(QLatin1String("apiVersion"), QLatin1String("meta.k8s.io/v1"));
        partial.insert(QLatin1String("metadata"), meta);
        row.insert(QLatin1String("object"), partial);
    } else if (include == IncludeObject::Object) {
        QJsonObject full = object;
        full.insert(QLatin1String("kind"), resourceInfo(r).kind);
        full.insert(QLatin1String("apiVersion"), resourceInfo(r).apiVersion());
        row.insert(QLatin1String("object"), full);
    }
    return row;
}

QJsonObject tableDocument(Resource r, const QString &version, const QJsonObject &metadata,
                          const QJsonArray &rows, bool withColumns) {
    QJsonObject t;
    t.insert(QLatin1String("kind"), QLatin1String("Table"));
    t.insert(QLatin1String("apiVersion"), QString(QStringLiteral("meta.k8s.io/") + version));
    t.insert(QLatin1String("metadata"), metadata);
    t.insert(QLatin1String("columnDefinitions"), withColumns ? QJsonValue(tableColumns(r)) : QJsonValue());
    t.insert(QLatin1String("rows"), rows);
    return t;
}

const char *tableContentType(const QString &version) {
    return version == QLatin1String("v1") ? "application/json;as=Table;v=v1;g=meta.k8s.io"
                                          : "application/json;as=Table;v=v1beta1;g=meta.k8s.io";
}

IncludeObject includeObjectFrom(const QString &value) {
    if (value == QLatin1String("None"))
        return IncludeObject::None;
    if (value == QLatin1String("Object"))
        return IncludeObject::Object;
    return IncludeObject::Metadata;
}

} // namespace gq::tc
