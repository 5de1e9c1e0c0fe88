// Cluster verbs: `gpuquota get`, `gpuquota apply`, `gpuquota whoami`. They talk to the
// API server through core's KubeClient; output mirrors kubectl's so scripts can switch.
#include "applyaudit.h"
#include "boundedread.h"
#include "cliargs.h"
#include "clioutput.h"
#include "usageverbs.h"
#include "verbs.h"

#include "kubeclient.h"
#include "quotaowners.h"
#include "quotawriter.h"
#include "requesttimeout.h"
#include "validation.h"
#include "yamldoc.h"

#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace gq::cli {
namespace {

// The flags every cluster verb understands; the rest is left in `rest`.
struct ClusterArgs {
    QString kubeconfig;
    QString context;
    QString ns;
    bool allNamespaces = false;
    QString output;
    QString file;
    QString dryRun;
    QString requestTimeout; // kubectl's syntax; empty: the client's default bounds
    QString db;             // apply: the audit log's usage database
    QString note;           // apply: the audit entry's reason
    QString actor;          // apply: who the audit entry names
    bool force = false;
    QStringList positional;
    QString usageError;
};

ClusterArgs parseArgs(const QStringList &args) {
    const Args p = parseFlags(
        args, {valueFlag(QStringLiteral("namespace"), u'n'), valueFlag(QStringLiteral("output"), u'o'),
               valueFlag(QStringLiteral("filename"), u'f'), valueFlag(QStringLiteral("request-timeout")),
               valueFlag(QStringLiteral("db")), valueFlag(QStringLiteral("note")),
               valueFlag(QStringLiteral("actor")), switchFlag(QStringLiteral("all-namespaces"), u'A'),
               switchFlag(QStringLiteral("dry-run"), {}, QStringLiteral("server"), true),
               switchFlag(QStringLiteral("force"))});
    ClusterArgs a;
    a.usageError = p.error;
    a.kubeconfig = p.value(QStringLiteral("kubeconfig"));
    a.context = p.value(QStringLiteral("context"));
    a.ns = p.value(QStringLiteral("namespace"));
    a.allNamespaces = p.has(QStringLiteral("all-namespaces"));
    a.output = p.value(QStringLiteral("output"));
    a.file = p.value(QStringLiteral("filename"));
    a.dryRun = p.value(QStringLiteral("dry-run"));
    a.requestTimeout = p.value(QStringLiteral("request-timeout"));
    a.db = p.value(QStringLiteral("db"));
    a.note = p.value(QStringLiteral("note"));
    a.actor = p.value(QStringLiteral("actor"));
    a.force = p.has(QStringLiteral("force"));
    a.positional = p.positional;
    if (a.usageError.isEmpty() && p.has(QStringLiteral("request-timeout"))) {
        if (auto t = parseRequestTimeout(a.requestTimeout); !t)
            a.usageError = t.error().message;
    }
    return a;
}

// --request-timeout as kubectl means it: how long one server request may take. Our
// retries happen inside that time, so it is the total for the request too.
KubeClientOptions clientOptions(const ClusterArgs &a) {
    KubeClientOptions o;
    if (!a.requestTimeout.isEmpty()) {
        const int ms = parseRequestTimeout(a.requestTimeout).value_or(0);
        o.requestTimeoutMs = ms;
        o.totalTimeoutMs = ms;
    }
    return o;
}

// A failed request, with what to do about a timeout.
QString requestFailure(const ClusterArgs &a, const Error &e) {
    if (e.kind != Error::Kind::Timeout)
        return e.message;
    const KubeClientOptions defaults;
    return e.message + (a.requestTimeout.isEmpty()
                            ? QStringLiteral(" (--request-timeout sets how long to wait; default: %1 s per "
                                             "attempt, %2 s in all)")
                                  .arg(defaults.requestTimeoutMs / 1000)
                                  .arg(defaults.totalTimeoutMs / 1000)
                            : QStringLiteral(" (--request-timeout=%1)").arg(a.requestTimeout));
}

// Every verb that talks to a cluster connects here, so a connection without TLS
// verification is always said out loud, once per invocation, before any output.
Result<std::shared_ptr<KubeClient>> connect(const ClusterArgs &a) {
    auto client = KubeClient::fromKubeconfig(a.kubeconfig, a.context, clientOptions(a));
    static bool warned = false;
    if (client && !warned) {
        warned = true;
        if ((*client)->insecureSkipTlsVerify())
            err() << "warning: TLS certificate verification is disabled for this cluster "
                     "(insecure-skip-tls-verify)\n";
        if (const QString clear = (*client)->clearTextWarning(); !clear.isEmpty())
            err() << clear << '\n';
        err().flush();
    }
    return client;
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

// kubectl's table: the header, then the rows, in columns three spaces apart.
void printTable(const QStringList &header, const QList<QStringList> &rows) {
    usageverbs::printTable(QList<QStringList>{header} + rows);
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

QString lowerKind(const QString &kind) {
    return kind.toLower();
}

QString verbFor(QuotaWriter::Operation operation) {
    switch (operation) {
    case QuotaWriter::Operation::Create: return QStringLiteral("created");
    case QuotaWriter::Operation::Replace: return QStringLiteral("configured");
    case QuotaWriter::Operation::Unchanged: return QStringLiteral("unchanged");
    }
    return {};
}

// Runs one write through the protocol: confirmed at once, or (a server dry run) left
// at the confirmation. A nested event loop is right here: the CLI has no window to
// freeze, and the writer's answers arrive by queued calls on this thread.
QuotaWriter::State drive(QuotaWriter &writer, const QuotaWriter::Request &request, bool dryRunOnly) {
    QEventLoop loop;
    auto settled = [dryRunOnly](QuotaWriter::State s) {
        return QuotaWriter::isFinal(s) || (dryRunOnly && s == QuotaWriter::State::AwaitingConfirmation);
    };
    const auto connection =
        QObject::connect(&writer, &QuotaWriter::stateChanged, &loop, [&](QuotaWriter::State s) {
            if (s == QuotaWriter::State::AwaitingConfirmation && !dryRunOnly)
                writer.confirm();
            else if (settled(s))
                loop.quit();
        });
    writer.start(request);
    if (!settled(writer.state()))
        loop.exec();
    QObject::disconnect(connection);
    return writer.state();
}

constexpr qsizetype kMaxApplyObjects = 2000;

int runApply(const QStringList &args) {
    const ClusterArgs a = parseArgs(args);
    if (!a.usageError.isEmpty())
        return fail(a.usageError, UsageError);
    if (a.file.isEmpty() || !a.positional.isEmpty())
        return fail(
            QStringLiteral("usage: gpuquota apply -f FILE [-n NS] [--dry-run=server] [--force] [--db URL] "
                           "[--note TEXT] [--actor NAME]"),
            UsageError);
    if (!a.dryRun.isEmpty() && a.dryRun != QLatin1String("server") && a.dryRun != QLatin1String("none"))
        return fail(
            QStringLiteral("--dry-run must be \"server\" or \"none\" (client-side dry run is `gpuquota "
                           "validate`)"),
            UsageError);
    const bool dryRun = a.dryRun == QLatin1String("server");

    // The same input limit as validate and fmt (`apply -f /dev/zero` read until the
    // kernel killed it).
    auto text = readInputFile(a.file);
    if (!text)
        return fail(text.error().message, UsageError);
    auto doc = loadYaml(*text);
    if (!doc) {
        Error e = doc.error();
        return fail(formatDiagnostic(a.file, e));
    }
    if (doc->objects.isEmpty())
        return fail(QStringLiteral("no objects passed to apply in %1").arg(a.file));
    // One request per object, each waited for: a 100,000-item List ran for minutes and
    // hundreds of MB. Quotas and LimitRanges of a cluster are far fewer.
    if (doc->objects.size() > kMaxApplyObjects)
        return fail(QStringLiteral("%1 holds %2 objects; apply takes at most %3 at a time (split the file); "
                                   "nothing was applied")
                        .arg(a.file)
                        .arg(doc->objects.size())
                        .arg(kMaxApplyObjects));

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
        const bool applicable = res && res->kind == kind &&
                                (res == &KubeResource::resourceQuotas() ||
                                 res == &KubeResource::limitRanges() || res == &KubeResource::namespaces());
        // A document that is no object, or has no kind, gets validate's own words.
        const bool list = kind == u"List" || kind.endsWith(u"List");
        if (!applicable && obj.root.isMap() && !kind.isEmpty() && !list) {
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
        if (!applicable || res != &KubeResource::namespaces()) {
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
    std::unique_ptr<ApplyAudit> audit;
    if (!dryRun) {
        auto opened = ApplyAudit::open(a.db, a.kubeconfig, a.context);
        if (!opened)
            return fail(opened.error().message);
        audit = std::move(*opened);
        if (audit->enabled()) {
            QString clusterUser;
            if (a.actor.trimmed().isEmpty())
                if (auto who = wait((*client)->whoAmI()); who)
                    clusterUser = who->username;
            audit->setActor(a.actor, clusterUser);
        }
    }
    int unaudited = 0;
    QuotaWriter writer(*client);
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
            ns = !fileNs.isEmpty() ? fileNs : !a.ns.isEmpty() ? a.ns : (*client)->defaultNamespace();
            metadata.insert(QStringLiteral("namespace"), ns);
            p.object.insert(QStringLiteral("metadata"), metadata);
        }
        QuotaWriter::Request request;
        request.resource = p.res;
        request.ns = ns;
        request.mine = p.object;
        // A file read from the cluster (it has a resourceVersion) replaces exactly that
        // version or conflicts; any other file creates, or is merged three-way into what
        // is there against the last-applied record, as kubectl apply does.
        request.adoptExisting = metadata.value(QLatin1String("resourceVersion")).toString().isEmpty();
        request.recordLastApplied = true;
        request.force = a.force;
        // The audit log's head goes onto the object with the write (no extra request).
        if (audit && audit->enabled()) {
            auto head = audit->head();
            if (!head) {
                err() << "error: " << p.label << ": reading the audit log: " << head.error().message
                      << "; nothing was applied\n";
                ++failures;
                continue;
            }
            if (head->count > 0)
                request.auditHead = *head;
        }
        const QuotaWriter::State end = drive(writer, request, dryRun);
        if (end == QuotaWriter::State::Applied || end == QuotaWriter::State::AwaitingConfirmation) {
            for (const lastapplied::FieldConflict &f : writer.overwritten())
                err() << "warning: " << p.label << ": " << f.path << ": the server's "
                      << lastapplied::displayValue(f.server) << " (changed since your last apply, base "
                      << lastapplied::displayValue(f.base) << ") is overwritten with "
                      << lastapplied::displayValue(f.mine) << " (--force)\n";
            out() << p.label << ' ' << verbFor(writer.operation()) << suffix << '\n';
            if (p.res == &KubeResource::resourceQuotas() &&
                writer.operation() != QuotaWriter::Operation::Unchanged)
                warnOtherOwners({writer.base()}, QStringLiteral("warning"));
            writer.cancel(); // a server dry run stops before the write
            if (audit && end == QuotaWriter::State::Applied &&
                writer.operation() != QuotaWriter::Operation::Unchanged) {
                if (!audit->enabled())
                    ++unaudited;
                else if (auto r = audit->record(p.res->kind, ns, writer.name(), writer.base(),
                                                writer.result(), a.note);
                         !r) {
                    err() << "error: " << p.label
                          << ": applied, but the audit entry could not be written: " << r.error().message
                          << '\n';
                    ++failures;
                }
            }
            continue;
        }
        ++failures;
        if (end == QuotaWriter::State::Conflict && !writer.conflict().fields.isEmpty()) {
            for (const Error::Cause &c : writer.conflict().error.causes)
                err() << "error: " << p.label << ": " << c.field << ": " << c.message
                      << "; re-run with --force to overwrite, or edit the file\n";
            continue;
        }
        const Error &e = end == QuotaWriter::State::Conflict ? writer.conflict().error : writer.error();
        err() << "error: " << p.label << ": " << e.message << '\n';
        for (const Error::Cause &c : e.causes)
            err() << "  " << (c.field.isEmpty() ? QString() : c.field + QStringLiteral(": ")) << c.message
                  << '\n';
        if (e.kind == Error::Kind::Conflict)
            err()
                << "  the object changed on the server since it was read; nothing was overwritten. Fetch it "
                   "again (gpuquota get ... -o yaml), re-apply your change, and retry.\n";
    }
    if (unaudited)
        err() << "warning: no usage database (--db, or the console's connection for this context): "
              << unaudited << (unaudited == 1 ? " change is" : " changes are")
              << " not recorded in the audit log\n";
    out().flush();
    err().flush();
    return failures ? Failed : Ok;
}

int runWhoami(const QStringList &args) {
    const ClusterArgs a = parseArgs(args);
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
GQ_REGISTER_VERB(
    QStringLiteral("apply"),
    QStringLiteral("apply -f FILE [--dry-run=server] [--force] [--db URL --note TEXT]"),
    QStringLiteral("create or update quotas/limit ranges (three-way, like kubectl); "
                   "a field changed on both sides needs --force; each change is an audit entry in --db"),
    41, &runApply);
GQ_REGISTER_VERB(QStringLiteral("whoami"), QStringLiteral("whoami"),
                 QStringLiteral("who the cluster thinks you are (SelfSubjectReview)"), 42, &runWhoami);

} // namespace gq::cli
