// The audit trail on the command line: `gpuquota audit list|verify|checkpoint`. list
// filters and prints entries (table, CSV, JSON); verify walks the chain against its
// MACs and an anchor kept outside the database (exit 0 intact, 1 broken); checkpoint
// exports a signed head to keep elsewhere.
#include "core/usage/auditcsv.h"
#include "services/audit/auditheads.h"
#include "core/usage/auditlog.h"
#include "app/cli/boostcluster.h"
#include "core/usage/timewindow.h"
#include "app/cli/usageverbs.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <limits>

namespace gq::cli {
namespace {

using namespace usageverbs;

// --key-file, else GQ_AUDIT_KEY_FILE; --checkpoint, else GQ_AUDIT_CHECKPOINT.
Result<AuditSigning> signingFrom(const Args &a) {
    AuditSigning s;
    if (a.has(QStringLiteral("key-file"))) {
        auto key = AuditKey::fromFile(a.value(QStringLiteral("key-file")));
        if (!key)
            return key.error();
        s.key = *key;
    } else {
        auto env = AuditSigning::fromEnvironment();
        if (!env)
            return env.error();
        s.key = env->key;
    }
    s.checkpointPath = a.value(QStringLiteral("checkpoint"), qEnvironmentVariable("GQ_AUDIT_CHECKPOINT"));
    return s;
}

QJsonObject entryJson(const AuditEntry &e) {
    return QJsonObject{{QStringLiteral("seq"), e.seq},
                       {QStringLiteral("at"), formatInstantUtc(e.at)},
                       {QStringLiteral("actor"), e.actor},
                       {QStringLiteral("action"), e.action},
                       {QStringLiteral("target"), e.target},
                       {QStringLiteral("before"), e.before},
                       {QStringLiteral("after"), e.after},
                       {QStringLiteral("note"), e.note},
                       {QStringLiteral("prev_hash"), e.prevHash},
                       {QStringLiteral("hash"), e.hash},
                       {QStringLiteral("mac"), e.mac}};
}

int runList(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("actor"), QStringLiteral("namespace"),
                         QStringLiteral("action"), QStringLiteral("target"), QStringLiteral("from"),
                         QStringLiteral("to"), QStringLiteral("limit"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    AuditLog::Filter f;
    f.actor = a.value(QStringLiteral("actor"));
    f.namespaceName = a.value(QStringLiteral("namespace"));
    f.action = a.value(QStringLiteral("action"));
    f.target = a.value(QStringLiteral("target"));
    f.limit = std::numeric_limits<int>::max();
    if (a.has(QStringLiteral("from"))) {
        auto t = instantFlag(a, QStringLiteral("from"));
        if (!t)
            return failWith(t.error());
        f.since = *t;
    }
    if (a.has(QStringLiteral("to"))) {
        auto t = instantFlag(a, QStringLiteral("to"));
        if (!t)
            return failWith(t.error());
        f.until = *t;
    }
    if (f.since > 0 && f.until > 0 && f.until <= f.since)
        return fail(QStringLiteral("--to must be after --from"), UsageError);
    if (a.has(QStringLiteral("limit"))) {
        bool ok = false;
        f.limit = a.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || f.limit < 1)
            return fail(QStringLiteral("--limit must be a positive number"), UsageError);
    }
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table, csv or json"), UsageError);
    auto db = openDb(a, DbAccess::ReadOnly); // reads only: works on a read-only file system
    if (!db)
        return failWith(db.error());
    AuditLog log(**db, AuditSigning{});
    auto entries = log.list(f);
    if (!entries)
        return failWith(entries.error());
    QList<AuditEntry> rows = *entries;
    std::reverse(rows.begin(), rows.end()); // the newest `limit`, printed oldest first like a log
    if (format == QLatin1String("csv")) {
        out() << QString::fromUtf8(auditCsv(rows));
    } else if (format == QLatin1String("json")) {
        QJsonArray arr;
        for (const AuditEntry &e : rows)
            arr.append(entryJson(e));
        out() << QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("entries"), arr}}).toJson(QJsonDocument::Indented));
    } else {
        QList<QStringList> table{{QStringLiteral("SEQ"), QStringLiteral("TIME"), QStringLiteral("ACTOR"),
                                  QStringLiteral("ACTION"), QStringLiteral("TARGET"),
                                  QStringLiteral("NOTE")}};
        for (const AuditEntry &e : rows)
            table << QStringList{QString::number(e.seq),
                                 formatInstantUtc(e.at),
                                 e.actor,
                                 e.action,
                                 e.target,
                                 QString(e.note).replace(QLatin1Char('\n'), QLatin1Char(' '))};
        printTable(table);
        out() << rows.size() << (rows.size() == 1 ? " entry\n" : " entries\n");
    }
    return Ok;
}

// --head cluster: the newest head the cluster in use (--context, --kubeconfig) publishes
// (quota and limit range annotations, the controller's ConfigMap) is the head anchor, so
// a restored old checkpoint does not hide deleted entries.
int newestPublishedHead(const Args &a, AuditAnchor &anchor, QStringList &notes) {
    const boostcluster::ClusterPick pick = boostcluster::pickCluster(a);
    if (!pick.client)
        return fail(QStringLiteral("the published heads need the cluster: ") + pick.why,
                    pick.exitCode == Ok ? Failed : pick.exitCode);
    QStringList skipped;
    auto published = auditheads::newestFromCluster(
        *pick.client, a.value(QStringLiteral("controller-namespace"), QStringLiteral("gpuquota-system")),
        &skipped);
    if (!published)
        return fail(QStringLiteral("reading the published audit heads: ") + published.error().message);
    for (const QString &s : std::as_const(skipped))
        notes << QStringLiteral("published heads not read from %1").arg(s);
    if (!*published) {
        notes << QStringLiteral("the cluster publishes no audit head yet");
        return Ok;
    }
    notes << QStringLiteral("newest published head %1 (%2)")
                 .arg((*published)->head.toText(), (*published)->where);
    if (!anchor.head || anchor.head->count < (*published)->head.count)
        anchor.head = (*published)->head;
    return Ok;
}

int runVerify(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("db"), QStringLiteral("checkpoint"), QStringLiteral("key-file"),
                         QStringLiteral("head"), QStringLiteral("output"), QStringLiteral("context"),
                         QStringLiteral("kubeconfig"), QStringLiteral("controller-namespace")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("text"));
    if (format != QLatin1String("text") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be text or json"), UsageError);
    auto signing = signingFrom(a);
    if (!signing)
        return failWith(signing.error(), UsageError);
    AuditAnchor anchor;
    const bool fromCluster = a.value(QStringLiteral("head")) == QLatin1String("cluster");
    if (a.has(QStringLiteral("head")) && !fromCluster) {
        auto h = AuditHead::parse(a.value(QStringLiteral("head")));
        if (!h)
            return fail(QStringLiteral("--head: ") + h.error().message, UsageError);
        anchor.head = *h;
    }
    QStringList clusterNotes;
    if (fromCluster) {
        if (const int code = newestPublishedHead(a, anchor, clusterNotes); code != Ok)
            return code;
    }
    auto db = openDb(a, DbAccess::ReadOnly); // reads only: works on a read-only file system
    if (!db)
        return failWith(db.error());
    const QString cpPath = signing->checkpointPath;
    AuditLog log(**db, *signing);
    if (!cpPath.isEmpty()) {
        if (!QFileInfo::exists(cpPath)) {
            // Gone is as suspicious as altered, unless there is nothing to anchor yet.
            auto h = log.head();
            if (!h)
                return failWith(h.error());
            if (h->count > 0)
                return fail(
                    QStringLiteral("the audit checkpoint %1 does not exist, but the log has %2 entries: "
                                   "it was deleted or the path is wrong")
                        .arg(cpPath)
                        .arg(h->count));
        } else {
            auto cp = AuditCheckpoint::readFile(cpPath);
            if (!cp)
                return failWith(cp.error());
            anchor.checkpoint = *cp;
        }
    }
    auto report = log.verifyChain(anchor);
    if (!report)
        return failWith(report.error());
    const AuditChainReport &r = *report;
    if (format == QLatin1String("json")) {
        const QJsonObject o{{QStringLiteral("status"), statusName(r.status)},
                            {QStringLiteral("ok"), r.ok},
                            {QStringLiteral("checked"), r.checked},
                            {QStringLiteral("firstBadSeq"), r.firstBadSeq},
                            {QStringLiteral("firstMissingSeq"), r.firstMissingSeq},
                            {QStringLiteral("problem"), r.problem},
                            {QStringLiteral("head"), r.head.count > 0 ? r.head.toText() : QString()},
                            {QStringLiteral("macsChecked"), r.macsChecked},
                            {QStringLiteral("keyedFrom"), r.keyedFrom},
                            {QStringLiteral("anchoredUpTo"), r.anchoredUpTo},
                            {QStringLiteral("notes"), QJsonArray::fromStringList(clusterNotes + r.notes)}};
        out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
    } else if (r.ok) {
        out() << "intact: " << r.checked << (r.checked == 1 ? " entry" : " entries");
        if (r.head.count > 0)
            out() << ", head " << r.head.toText();
        out() << '\n';
        if (r.macsChecked && r.keyedFrom > 0)
            out() << "MACs verified from entry " << r.keyedFrom << " on\n";
        if (r.anchoredUpTo > 0)
            out() << "anchored up to entry " << r.anchoredUpTo << '\n';
        for (const QString &n : clusterNotes + r.notes)
            out() << "note: " << n << '\n';
    } else {
        out() << statusName(r.status) << ": " << r.problem << '\n';
        if (r.firstBadSeq > 0)
            out() << "first broken entry: " << r.firstBadSeq << '\n';
        if (r.firstMissingSeq > 0)
            out() << "first missing entry: " << r.firstMissingSeq << '\n';
        for (const QString &n : std::as_const(clusterNotes))
            out() << "note: " << n << '\n';
    }
    out().flush();
    return r.ok ? Ok : Failed;
}

int runCheckpoint(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("key-file"), QStringLiteral("out")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    auto signing = signingFrom(a);
    if (!signing)
        return failWith(signing.error(), UsageError);
    auto db = openDb(a, DbAccess::ReadOnly); // reads only: works on a read-only file system
    if (!db)
        return failWith(db.error());
    AuditLog log(**db, *signing);
    auto cp = log.checkpoint();
    if (!cp)
        return failWith(cp.error());
    if (!a.has(QStringLiteral("out"))) {
        out() << QString::fromUtf8(cp->toJson());
    } else {
        const QString path = a.value(QStringLiteral("out"));
        // An explicit export replaces the file whatever it held.
        if (auto r = AuditCheckpoint::writeFile(path, *cp, false); !r)
            return failWith(r.error());
        out() << "checkpoint " << AuditHead{cp->count, cp->head}.toText()
              << (cp->isSigned() ? " (signed)" : " (unsigned)") << " written to " << path << '\n';
    }
    if (!cp->isSigned())
        err() << "warning: no audit key (--key-file or GQ_AUDIT_KEY_FILE): the checkpoint is not signed\n";
    return Ok;
}

int runAudit(const QStringList &argv) {
    QStringList rest = argv;
    const QString sub = takeSubcommand(rest);
    if (sub == QLatin1String("list"))
        return runList(rest);
    if (sub == QLatin1String("verify"))
        return runVerify(rest);
    if (sub == QLatin1String("checkpoint"))
        return runCheckpoint(rest);
    return fail(
        QStringLiteral("audit needs list, verify or checkpoint\n"
                       "  audit list --db URL [--actor A] [--namespace N] [--action X] [--from T --to T] "
                       "[-o table|csv|json]\n"
                       "  audit verify --db URL [--checkpoint FILE] [--key-file FILE] [--head COUNT:HASH] "
                       "[--context NAME] [--kubeconfig FILE] [--controller-namespace NS] "
                       "[-o text|json]\n"
                       "  audit checkpoint --db URL [--key-file FILE] [--out FILE]"),
        UsageError);
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("audit"), QStringLiteral("audit list|verify|checkpoint --db URL ..."),
                 QStringLiteral("list audit entries; verify the chain (exit 0 intact, 1 broken)"), 67,
                 runAudit);

} // namespace gq::cli
