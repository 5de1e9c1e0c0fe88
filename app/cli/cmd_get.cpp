// Cluster verbs that read: `gpuquota get` and `gpuquota whoami`. They talk to the API
// server through core's KubeClient; output mirrors kubectl's so scripts can switch.
#include "app/cli/clioutput.h"
#include "core/domain/clock.h"
#include "app/cli/kubeverbs.h"
#include "app/cli/quotaowners.h"
#include "app/cli/verbs.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>

namespace gq::cli {
namespace {

using namespace kubeverbs;

// kubectl's HumanDuration: coarse, and finer only where it matters.
QString humanAge(const QString &timestamp) {
    const QDateTime t = QDateTime::fromString(timestamp, Qt::ISODate);
    if (!t.isValid())
        return QStringLiteral("<unknown>");
    const qint64 s = std::max<qint64>(0, t.secsTo(Clock::system().nowUtc()));
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    const qint64 m = s / 60;
    if (m < 10)
        return s % 60 ? QStringLiteral("%1m%2s").arg(m).arg(s % 60) : QStringLiteral("%1m").arg(m);
    if (m < 180)
        return QStringLiteral("%1m").arg(m);
    const qint64 h = m / 60;
    if (h < 8)
        return m % 60 ? QStringLiteral("%1h%2m").arg(h).arg(m % 60) : QStringLiteral("%1h").arg(h);
    if (h < 48)
        return QStringLiteral("%1h").arg(h);
    const qint64 d = h / 24;
    if (d < 8)
        return h % 24 ? QStringLiteral("%1d%2h").arg(d).arg(h % 24) : QStringLiteral("%1d").arg(d);
    if (d < 365 * 2)
        return QStringLiteral("%1d").arg(d);
    return QStringLiteral("%1y").arg(d / 365);
}

QJsonObject meta(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject();
}

QList<QStringList> tableRows(const KubeResource &res, const QList<QJsonObject> &items, bool withNamespace,
                             QStringList *header) {
    QList<QStringList> rows;
    if (&res == &KubeResource::namespaces()) {
        *header = {QStringLiteral("NAME"), QStringLiteral("STATUS"), QStringLiteral("AGE")};
        for (const QJsonObject &o : items)
            rows.append({meta(o).value(QLatin1String("name")).toString(),
                         o.value(QLatin1String("status")).toObject().value(QLatin1String("phase")).toString(),
                         humanAge(meta(o).value(QLatin1String("creationTimestamp")).toString())});
        return rows;
    }
    if (&res == &KubeResource::resourceQuotas()) {
        *header = {QStringLiteral("NAME"), QStringLiteral("AGE"), QStringLiteral("REQUEST"),
                   QStringLiteral("LIMIT")};
        for (const QJsonObject &o : items) {
            const QJsonObject hard =
                o.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
            const QJsonObject status = o.value(QLatin1String("status")).toObject();
            const QJsonObject used = status.value(QLatin1String("used")).toObject();
            const QJsonObject statusHard = status.value(QLatin1String("hard")).toObject();
            QStringList requests, limits;
            for (auto it = hard.constBegin(); it != hard.constEnd(); ++it) { // sorted keys
                const QString cell = QStringLiteral("%1: %2/%3")
                                         .arg(it.key(), used.value(it.key()).toString(QStringLiteral("0")),
                                              statusHard.value(it.key()).toString(it.value().toString()));
                (it.key().startsWith(QLatin1String("limits")) ? limits : requests) << cell;
            }
            rows.append({meta(o).value(QLatin1String("name")).toString(),
                         humanAge(meta(o).value(QLatin1String("creationTimestamp")).toString()),
                         requests.join(QStringLiteral(", ")), limits.join(QStringLiteral(", "))});
        }
    } else {
        *header = {QStringLiteral("NAME"), QStringLiteral("CREATED AT")};
        for (const QJsonObject &o : items)
            rows.append({meta(o).value(QLatin1String("name")).toString(),
                         meta(o).value(QLatin1String("creationTimestamp")).toString()});
    }
    if (withNamespace) {
        header->prepend(QStringLiteral("NAMESPACE"));
        for (qsizetype i = 0; i < rows.size(); ++i)
            rows[i].prepend(meta(items.at(i)).value(QLatin1String("namespace")).toString());
    }
    return rows;
}

int runGet(const QStringList &args) {
    const ClusterArgs a = parseClusterArgs(args);
    if (!a.usageError.isEmpty())
        return fail(a.usageError, UsageError);
    if (a.force)
        return fail(QStringLiteral("--force is a flag of apply (see gpuquota --help)"), UsageError);
    if (a.positional.isEmpty() || a.positional.size() > 2)
        return fail(QStringLiteral("usage: gpuquota get namespaces|quotas|limitranges [NAME] [-n NS | -A] "
                                   "[-o table|yaml|json] [--request-timeout=30s]"),
                    UsageError);
    const KubeResource *res = KubeResource::find(a.positional.first());
    if (!res || (res != &KubeResource::namespaces() && res != &KubeResource::resourceQuotas() &&
                 res != &KubeResource::limitRanges()))
        return fail(QStringLiteral("unknown resource type \"%1\" (namespaces, quotas or limitranges)")
                        .arg(a.positional.first()),
                    UsageError);
    const QString format = a.output.isEmpty() ? QStringLiteral("table") : a.output;
    if (format != QLatin1String("table") && format != QLatin1String("json") &&
        format != QLatin1String("yaml") && format != QLatin1String("wide"))
        return fail(QStringLiteral("unknown output format \"%1\" (table, yaml or json)").arg(format),
                    UsageError);
    const QString name = a.positional.size() > 1 ? a.positional.at(1) : QString();
    if (a.allNamespaces && !name.isEmpty())
        return fail(QStringLiteral("a resource cannot be retrieved by name across all namespaces"),
                    UsageError);

    auto client = connect(a);
    if (!client)
        return fail(client.error().toString());
    const QString ns = !res->namespaced  ? QString()
                       : a.allNamespaces ? QString()
                       : !a.ns.isEmpty() ? a.ns
                                         : (*client)->defaultNamespace();

    QList<QJsonObject> items;
    std::optional<ObjectList> list;
    if (!name.isEmpty()) {
        auto obj = wait((*client)->get(*res, ns, name));
        if (!obj)
            return fail(requestFailure(a, obj.error()));
        if (format == QLatin1String("json") || format == QLatin1String("yaml")) {
            QJsonObject o = *obj;
            o.insert(QStringLiteral("apiVersion"), res->apiVersion());
            o.insert(QStringLiteral("kind"), res->kind);
            printDocument(o, format);
            return Ok;
        }
        items << *obj;
    } else {
        // Big pages: a one-shot listing gains nothing from small ones but round trips.
        ListOptions lo;
        lo.limit = 5000;
        auto l = wait((*client)->list(*res, ns, lo));
        if (!l)
            return fail(requestFailure(a, l.error()));
        list = std::move(*l);
        if (format == QLatin1String("json") || format == QLatin1String("yaml")) {
            printDocument(list->toListJson(*res), format);
            return Ok;
        }
        items = list->items;
    }
    if (items.isEmpty()) {
        if (ns.isEmpty())
            err() << "No resources found\n";
        else
            err() << "No resources found in " << ns << " namespace.\n";
        return Ok;
    }
    QStringList header;
    const QList<QStringList> rows = tableRows(*res, items, a.allNamespaces && res->namespaced, &header);
    printTable(header, rows);
    if (res == &KubeResource::resourceQuotas())
        warnOtherOwners(items, QStringLiteral("note"));
    return Ok;
}

int runWhoami(const QStringList &args) {
    const ClusterArgs a = parseClusterArgs(args);
    if (!a.usageError.isEmpty() || !a.positional.isEmpty() || a.force)
        return fail(
            a.usageError.isEmpty()
                ? QStringLiteral("usage: gpuquota whoami [-o table|json|yaml] [--request-timeout=30s]")
                : a.usageError,
            UsageError);
    auto client = connect(a);
    if (!client)
        return fail(client.error().toString());
    auto who = wait((*client)->whoAmI());
    if (!who)
        return fail(requestFailure(a, who.error()));
    if (a.output == QLatin1String("json") || a.output == QLatin1String("yaml")) {
        QJsonObject info{{QStringLiteral("username"), who->username},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(who->groups)}};
        if (!who->uid.isEmpty())
            info.insert(QStringLiteral("uid"), who->uid);
        if (!who->extra.isEmpty()) {
            QJsonObject extra;
            for (auto it = who->extra.cbegin(); it != who->extra.cend(); ++it)
                extra.insert(it.key(), QJsonArray::fromStringList(it.value()));
            info.insert(QStringLiteral("extra"), extra);
        }
        printDocument(
            QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("authentication.k8s.io/v1")},
                        {QStringLiteral("kind"), QStringLiteral("SelfSubjectReview")},
                        {QStringLiteral("status"), QJsonObject{{QStringLiteral("userInfo"), info}}}},
            a.output);
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("Username"), who->username}};
    if (!who->uid.isEmpty())
        rows.append({QStringLiteral("UID"), who->uid});
    rows.append(
        {QStringLiteral("Groups"), QLatin1Char('[') + who->groups.join(QLatin1Char(' ')) + QLatin1Char(']')});
    // As kubectl auth whoami prints them (a real API server adds the credential's id).
    for (auto it = who->extra.cbegin(); it != who->extra.cend(); ++it)
        rows.append({QStringLiteral("Extra: ") + it.key(),
                     QLatin1Char('[') + it.value().join(QLatin1Char(' ')) + QLatin1Char(']')});
    printTable({QStringLiteral("ATTRIBUTE"), QStringLiteral("VALUE")}, rows);
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("get"), QStringLiteral("get namespaces|quotas|limitranges [-n NS|-A] [-o F]"),
                 QStringLiteral("list objects from the cluster (table, yaml or json)"), 40, &runGet);
GQ_REGISTER_VERB(QStringLiteral("whoami"), QStringLiteral("whoami"),
                 QStringLiteral("who the cluster thinks you are (SelfSubjectReview)"), 42, &runWhoami);

} // namespace gq::cli
