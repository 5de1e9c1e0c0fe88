// Cluster verbs: `gpuquota get`, `gpuquota apply`, `gpuquota whoami`. They talk to the
// API server through core's KubeClient; output mirrors kubectl's so scripts can switch.
#include "app/cli/verbs.h"

#include "core/kubeclient.h"
#include "core/validation.h"
#include "core/yamldoc.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace gq::cli {
namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}
QTextStream &err() {
    static QTextStream s(stderr);
    return s;
}

int fail(const QString &message, int code = Failed) {
    err() << "error: " << message << '\n';
    err().flush();
    return code;
}

// The flags every cluster verb understands; the rest is left in `rest`.
struct ClusterArgs {
    QString kubeconfig;
    QString context;
    QString ns;
    bool allNamespaces = false;
    QString output;
    QString file;
    QString dryRun;
    QStringList positional;
    QString usageError;
};

ClusterArgs parseArgs(const QStringList &args) {
    ClusterArgs a;
    auto takeValue = [&](qsizetype &i, const QString &arg, const QString &longName, const QString &shortName,
                         QString *into) -> bool {
        if (arg == longName || (!shortName.isEmpty() && arg == shortName)) {
            if (i + 1 >= args.size()) {
                a.usageError = QStringLiteral("flag %1 needs a value").arg(arg);
                return true;
            }
            *into = args.at(++i);
            return true;
        }
        if (arg.startsWith(longName + QLatin1Char('='))) {
            *into = arg.mid(longName.size() + 1);
            return true;
        }
        if (!shortName.isEmpty() && arg.startsWith(shortName) && arg.size() > shortName.size()) {
            *into = arg.mid(shortName.size() + (arg.at(shortName.size()) == QLatin1Char('=') ? 1 : 0));
            return true;
        }
        return false;
    };
    for (qsizetype i = 0; i < args.size() && a.usageError.isEmpty(); ++i) {
        const QString &arg = args.at(i);
        if (takeValue(i, arg, QStringLiteral("--kubeconfig"), {}, &a.kubeconfig) ||
            takeValue(i, arg, QStringLiteral("--context"), {}, &a.context) ||
            takeValue(i, arg, QStringLiteral("--namespace"), QStringLiteral("-n"), &a.ns) ||
            takeValue(i, arg, QStringLiteral("--output"), QStringLiteral("-o"), &a.output) ||
            takeValue(i, arg, QStringLiteral("--filename"), QStringLiteral("-f"), &a.file))
            continue;
        if (arg == QLatin1String("-A") || arg == QLatin1String("--all-namespaces")) {
            a.allNamespaces = true;
        } else if (arg == QLatin1String("--dry-run")) {
            a.dryRun = QStringLiteral("server");
        } else if (arg.startsWith(QLatin1String("--dry-run="))) {
            a.dryRun = arg.mid(10);
        } else if (arg.startsWith(QLatin1Char('-')) && arg != QLatin1String("-")) {
            a.usageError = QStringLiteral("unknown flag %1").arg(arg);
        } else {
            a.positional << arg;
        }
    }
    return a;
}

Result<std::shared_ptr<KubeClient>> connect(const ClusterArgs &a) {
    return KubeClient::fromKubeconfig(a.kubeconfig, a.context);
}

template <typename T> Result<T> wait(QFuture<Result<T>> f) {
    f.waitForFinished();
    return f.result();
}

// kubectl's HumanDuration: coarse, and finer only where it matters.
QString humanAge(const QString &timestamp) {
    const QDateTime t = QDateTime::fromString(timestamp, Qt::ISODate);
    if (!t.isValid())
        return QStringLiteral("<unknown>");
    const qint64 s = std::max<qint64>(0, t.secsTo(QDateTime::currentDateTimeUtc()));
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

void printTable(const QStringList &header, const QList<QStringList> &rows) {
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths << h.size();
    for (const QStringList &r : rows)
        for (qsizetype i = 0; i < r.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], r.at(i).size());
    auto line = [&](const QStringList &cells) {
        QString text;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (i + 1 < cells.size())
                text += cells.at(i).leftJustified(widths.at(i) + 3);
            else
                text += cells.at(i);
        }
        out() << text << '\n';
    };
    line(header);
    for (const QStringList &r : rows)
        line(r);
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

void printDocument(const QJsonObject &doc, const QString &format) {
    if (format == QLatin1String("json")) {
        out() << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else {
        out() << QString::fromUtf8(emitYaml(YamlNode::fromJson(doc)));
    }
}

int runGet(const QStringList &args) {
    const ClusterArgs a = parseArgs(args);
    if (!a.usageError.isEmpty())
        return fail(a.usageError + QStringLiteral(" (see gpuquota --help)"), UsageError);
    if (a.positional.isEmpty() || a.positional.size() > 2)
        return fail(QStringLiteral("usage: gpuquota get namespaces|quotas|limitranges [NAME] [-n NS | -A] "
                                   "[-o table|yaml|json]"),
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
            return fail(obj.error().message);
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
            return fail(l.error().message);
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
    return Ok;
}

QString lowerKind(const QString &kind) {
    return kind.toLower();
}

int runApply(const QStringList &args) {
    const ClusterArgs a = parseArgs(args);
    if (!a.usageError.isEmpty())
        return fail(a.usageError + QStringLiteral(" (see gpuquota --help)"), UsageError);
    if (a.file.isEmpty() || !a.positional.isEmpty())
        return fail(QStringLiteral("usage: gpuquota apply -f FILE [-n NS] [--dry-run=server]"), UsageError);
    if (!a.dryRun.isEmpty() && a.dryRun != QLatin1String("server") && a.dryRun != QLatin1String("none"))
        return fail(
            QStringLiteral("--dry-run must be \"server\" or \"none\" (client-side dry run is `gpuquota "
                           "validate`)"),
            UsageError);
    const bool dryRun = a.dryRun == QLatin1String("server");

    QByteArray text;
    if (a.file == QLatin1String("-")) {
        QFile in;
        if (!in.open(stdin, QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read standard input"));
        text = in.readAll();
    } else {
        QFile in(a.file);
        if (!in.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read %1: %2").arg(a.file, in.errorString()));
        text = in.readAll();
    }
    auto doc = loadYaml(text);
    if (!doc) {
        Error e = doc.error();
        return fail(formatDiagnostic(a.file, e));
    }
    if (doc->objects.isEmpty())
        return fail(QStringLiteral("no objects passed to apply in %1").arg(a.file));

    // Validate everything locally before anything is sent.
    struct Pending {
        const KubeResource *res;
        QJsonObject object;
        QString label;
    };
    QList<Pending> pending;
    bool invalid = false;
    for (const YamlObject &obj : doc->objects) {
        const QString kind = obj.kind();
        const KubeResource *res = KubeResource::find(kind);
        if (!res || res->kind != kind ||
            (res != &KubeResource::resourceQuotas() && res != &KubeResource::limitRanges() &&
             res != &KubeResource::namespaces())) {
            Error e = Error::make(
                Error::Kind::Invalid,
                QStringLiteral("gpuquota applies ResourceQuota, LimitRange and Namespace objects, "
                               "not \"%1\"")
                    .arg(kind),
                QStringLiteral("kind"));
            setErrorPosition(e, obj.root);
            err() << formatDiagnostic(a.file, e) << '\n';
            invalid = true;
            continue;
        }
        if (res != &KubeResource::namespaces()) {
            const QList<Error> problems = validateObject(obj);
            for (const Error &e : problems)
                err() << formatDiagnostic(a.file, e) << '\n';
            if (!problems.isEmpty()) {
                invalid = true;
                continue;
            }
        }
        QJsonObject json = obj.root.toJsonObject();
        json.insert(QStringLiteral("kind"), kind);
        if (!json.contains(QLatin1String("apiVersion")))
            json.insert(QStringLiteral("apiVersion"), res->apiVersion());
        pending.append({res, json, lowerKind(kind) + QLatin1Char('/') + obj.name()});
    }
    if (invalid)
        return fail(QStringLiteral("%1 is not valid; nothing was applied").arg(a.file));

    auto client = connect(a);
    if (!client)
        return fail(client.error().toString());
    KubeClient &kc = **client;
    WriteOptions wo;
    wo.dryRun = dryRun;
    const QString suffix = dryRun ? QStringLiteral(" (server dry run)") : QString();
    int failures = 0;

    for (Pending &p : pending) {
        QJsonObject metadata = p.object.value(QLatin1String("metadata")).toObject();
        QString ns;
        if (p.res->namespaced) {
            const QString fileNs = metadata.value(QLatin1String("namespace")).toString();
            if (!a.ns.isEmpty() && !fileNs.isEmpty() && fileNs != a.ns) {
                err() << "error: " << p.label << ": the namespace from the provided object \"" << fileNs
                      << "\" does not match the namespace \"" << a.ns << "\"\n";
                ++failures;
                continue;
            }
            ns = !fileNs.isEmpty() ? fileNs : !a.ns.isEmpty() ? a.ns : kc.defaultNamespace();
            metadata.insert(QStringLiteral("namespace"), ns);
            p.object.insert(QStringLiteral("metadata"), metadata);
        }
        const QString name = metadata.value(QLatin1String("name")).toString();
        const bool fileHasVersion = !metadata.value(QLatin1String("resourceVersion")).toString().isEmpty();
        Result<QJsonObject> result = Error::make(Error::Kind::Internal, QStringLiteral("not attempted"));
        QString verb;
        if (fileHasVersion) {
            // The file was read from the cluster: replace exactly that version, or conflict.
            result = wait(kc.replace(*p.res, ns, p.object, wo));
            verb = QStringLiteral("configured");
        } else {
            result = wait(kc.create(*p.res, ns, p.object, wo));
            verb = QStringLiteral("created");
            if (!result && result.error().kind == Error::Kind::AlreadyExists) {
                auto current = wait(kc.get(*p.res, ns, name));
                if (!current) {
                    result = current.error();
                } else {
                    metadata.insert(QStringLiteral("resourceVersion"),
                                    meta(*current).value(QLatin1String("resourceVersion")));
                    p.object.insert(QStringLiteral("metadata"), metadata);
                    const bool same =
                        current->value(QLatin1String("spec")) == p.object.value(QLatin1String("spec")) &&
                        meta(*current).value(QLatin1String("labels")) ==
                            metadata.value(QLatin1String("labels")) &&
                        meta(*current).value(QLatin1String("annotations")) ==
                            metadata.value(QLatin1String("annotations"));
                    if (same) {
                        result = *current;
                        verb = QStringLiteral("unchanged");
                    } else {
                        result = wait(kc.replace(*p.res, ns, p.object, wo));
                        verb = QStringLiteral("configured");
                    }
                }
            }
        }
        if (result) {
            out() << p.label << ' ' << verb << suffix << '\n';
            continue;
        }
        ++failures;
        const Error &e = result.error();
        err() << "error: " << p.label << ": " << e.message << '\n';
        for (const Error::Cause &c : e.causes)
            err() << "  " << (c.field.isEmpty() ? QString() : c.field + QStringLiteral(": ")) << c.message
                  << '\n';
        if (e.kind == Error::Kind::Conflict)
            err()
                << "  the object changed on the server since it was read; nothing was overwritten. Fetch it "
                   "again (gpuquota get ... -o yaml), re-apply your change, and retry.\n";
    }
    out().flush();
    err().flush();
    return failures ? Failed : Ok;
}

int runWhoami(const QStringList &args) {
    const ClusterArgs a = parseArgs(args);
    if (!a.usageError.isEmpty() || !a.positional.isEmpty())
        return fail(a.usageError.isEmpty() ? QStringLiteral("usage: gpuquota whoami [-o table|json|yaml]")
                                           : a.usageError,
                    UsageError);
    auto client = connect(a);
    if (!client)
        return fail(client.error().toString());
    auto who = wait((*client)->whoAmI());
    if (!who)
        return fail(who.error().message);
    if (a.output == QLatin1String("json") || a.output == QLatin1String("yaml")) {
        QJsonObject info{{QStringLiteral("username"), who->username},
                         {QStringLiteral("groups"), QJsonArray::fromStringList(who->groups)}};
        if (!who->uid.isEmpty())
            info.insert(QStringLiteral("uid"), who->uid);
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
    printTable({QStringLiteral("ATTRIBUTE"), QStringLiteral("VALUE")}, rows);
    if ((*client)->insecureSkipTlsVerify())
        err() << "warning: TLS certificate verification is disabled for this cluster "
                 "(insecure-skip-tls-verify)\n";
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("get"), QStringLiteral("get namespaces|quotas|limitranges [-n NS|-A] [-o F]"),
                 QStringLiteral("list objects from the cluster (table, yaml or json)"), 40, &runGet);
GQ_REGISTER_VERB(QStringLiteral("apply"), QStringLiteral("apply -f FILE [--dry-run=server]"),
                 QStringLiteral("create or replace quotas/limit ranges; conflicts are never forced"), 41,
                 &runApply);
GQ_REGISTER_VERB(QStringLiteral("whoami"), QStringLiteral("whoami"),
                 QStringLiteral("who the cluster thinks you are (SelfSubjectReview)"), 42, &runWhoami);

} // namespace gq::cli
