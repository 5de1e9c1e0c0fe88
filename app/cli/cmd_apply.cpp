// `gpuquota apply -f FILE`: creates or updates quotas, limit ranges and namespaces the
// way kubectl apply does (three-way, through the shared QuotaWriter protocol), and
// records each change in the audit log. The writes run on the application's one event
// loop (QCoreApplication::exec, started here once), never in a nested one.
#include "app/cli/applyaudit.h"
#include "core/domain/boundedread.h"
#include "app/cli/clioutput.h"
#include "app/cli/kubeverbs.h"
#include "app/cli/quotaowners.h"
#include "app/cli/verbs.h"

#include "core/kube/kubeclient.h"
#include "services/quotas/quotawriter.h"
#include "core/domain/validation.h"
#include "core/domain/yamldoc.h"

#include <QCoreApplication>

#include <optional>

namespace gq::cli {
namespace {

using namespace kubeverbs;

// One request per object, each waited for: a 100,000-item List ran for minutes and
// hundreds of MB. Quotas and LimitRanges of a cluster are far fewer.
constexpr qsizetype kMaxApplyObjects = 2000;

struct Pending {
    const KubeResource *res;
    QJsonObject object;
    QString label;
};

QString verbFor(QuotaWriter::Operation operation) {
    switch (operation) {
    case QuotaWriter::Operation::Create: return QStringLiteral("created");
    case QuotaWriter::Operation::Replace: return QStringLiteral("configured");
    case QuotaWriter::Operation::Unchanged: return QStringLiteral("unchanged");
    }
    return {};
}

// The exit code when the flags are wrong; nullopt when apply can go on.
std::optional<int> checkFlags(const ClusterArgs &a) {
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
    return std::nullopt;
}

// One document of the file, checked locally: what to send, or nullopt (the problems
// already printed).
std::optional<Pending> checkObject(const QString &file, const YamlObject &obj) {
    const QString kind = obj.kind();
    const KubeResource *res = KubeResource::find(kind);
    const bool applicable = res && res->kind == kind &&
                            (res == &KubeResource::resourceQuotas() || res == &KubeResource::limitRanges() ||
                             res == &KubeResource::namespaces());
    // A document that is no object, or has no kind, gets validate's own words.
    const bool list = kind == u"List" || kind.endsWith(u"List");
    if (!applicable && obj.root.isMap() && !kind.isEmpty() && !list) {
        Error e =
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("gpuquota applies ResourceQuota, LimitRange and Namespace objects, "
                                       "not \"%1\"")
                            .arg(kind),
                        QStringLiteral("kind"));
        setErrorPosition(e, obj.root);
        err() << formatDiagnostic(file, e) << '\n';
        return std::nullopt;
    }
    if (!applicable || res != &KubeResource::namespaces()) {
        const QList<Error> problems = validateObject(obj);
        for (const Error &e : problems)
            err() << formatDiagnostic(file, e) << '\n';
        if (!problems.isEmpty())
            return std::nullopt;
    }
    QJsonObject json = obj.root.toJsonObject();
    json.insert(QStringLiteral("kind"), kind);
    if (!json.contains(QLatin1String("apiVersion")))
        json.insert(QStringLiteral("apiVersion"), res->apiVersion());
    return Pending{res, json, kind.toLower() + QLatin1Char('/') + obj.name()};
}

// Reads and validates the whole file before anything is sent: the exit code when it
// cannot be applied, nullopt with `pending` filled when it can.
std::optional<int> readFile(const QString &file, QList<Pending> &pending) {
    // The same input limit as validate and fmt (`apply -f /dev/zero` read until the
    // kernel killed it).
    auto text = readInputFile(file);
    if (!text)
        return fail(text.error().message, UsageError);
    auto doc = loadYaml(*text);
    if (!doc) {
        Error e = doc.error();
        return fail(formatDiagnostic(file, e));
    }
    if (doc->objects.isEmpty())
        return fail(QStringLiteral("no objects passed to apply in %1").arg(file));
    if (doc->objects.size() > kMaxApplyObjects)
        return fail(QStringLiteral("%1 holds %2 objects; apply takes at most %3 at a time (split the file); "
                                   "nothing was applied")
                        .arg(file)
                        .arg(doc->objects.size())
                        .arg(kMaxApplyObjects));
    bool invalid = false;
    for (const YamlObject &obj : doc->objects) {
        if (auto p = checkObject(file, obj))
            pending.append(*p);
        else
            invalid = true;
    }
    if (invalid)
        return fail(QStringLiteral("%1 is not valid; nothing was applied").arg(file));
    return std::nullopt;
}

// The audit log the changes go to, opened (and the actor found) before anything is
// sent; none for a server dry run. The exit code when it cannot be opened.
std::optional<int> openAudit(const ClusterArgs &a, KubeClient &client, std::unique_ptr<ApplyAudit> &audit) {
    auto opened = ApplyAudit::open(a.db, a.kubeconfig, a.context);
    if (!opened)
        return fail(opened.error().message);
    audit = std::move(*opened);
    if (audit->enabled()) {
        QString clusterUser;
        if (a.actor.trimmed().isEmpty())
            if (auto who = wait(client.whoAmI()); who)
                clusterUser = who->username;
        audit->setActor(a.actor, clusterUser);
    }
    return std::nullopt;
}

// The objects one after another through one QuotaWriter, driven by its stateChanged
// signal: confirmed at once, or (a server dry run) left at the confirmation. Each
// settled write is reported from a queued call, after the writer's own signal returned.
class ApplyRun final : public QObject {
public:
    ApplyRun(const ClusterArgs &a, std::shared_ptr<KubeClient> client, std::shared_ptr<ApplyAudit> audit,
             QList<Pending> pending)
        : m_args(a)
        , m_client(client)
        , m_audit(std::move(audit))
        , m_pending(std::move(pending))
        , m_dryRun(a.dryRun == QLatin1String("server"))
        , m_writer(std::move(client)) {
        connect(&m_writer, &QuotaWriter::stateChanged, this, &ApplyRun::onState);
        // The writer records each change by the one audit policy (changeaudit.h).
        if (m_audit && m_audit->enabled()) {
            m_writer.setAuditSink(m_audit);
            m_writer.setAuditNote(a.note);
        }
    }

    // Runs every write on the application's event loop; the exit code.
    int exec() {
        QMetaObject::invokeMethod(this, &ApplyRun::next, Qt::QueuedConnection);
        return QCoreApplication::exec();
    }

private:
    bool settled(QuotaWriter::State s) const {
        return QuotaWriter::isFinal(s) || (m_dryRun && s == QuotaWriter::State::AwaitingConfirmation);
    }

    void next() {
        while (++m_index < m_pending.size()) {
            QuotaWriter::Request request;
            if (!prepare(m_pending[m_index], request)) {
                ++m_failures;
                continue;
            }
            m_writing = true;
            m_writer.start(request);
            return;
        }
        finish();
    }

    void onState(QuotaWriter::State s) {
        if (!m_writing)
            return; // the cancel() after a dry run, or a late transition
        if (s == QuotaWriter::State::AwaitingConfirmation && !m_dryRun) {
            m_writer.confirm();
            return;
        }
        if (!settled(s))
            return;
        m_writing = false;
        QMetaObject::invokeMethod(
            this,
            [this, s] {
                report(m_pending.at(m_index), s);
                next();
            },
            Qt::QueuedConnection);
    }

    // The request for one object, its namespace settled; false (said why) when it cannot
    // be sent.
    bool prepare(Pending &p, QuotaWriter::Request &request) {
        QJsonObject metadata = p.object.value(QLatin1String("metadata")).toObject();
        QString ns;
        if (p.res->namespaced) {
            const QString fileNs = metadata.value(QLatin1String("namespace")).toString();
            if (!m_args.ns.isEmpty() && !fileNs.isEmpty() && fileNs != m_args.ns) {
                err() << "error: " << p.label << ": the namespace from the provided object \"" << fileNs
                      << "\" does not match the namespace \"" << m_args.ns << "\"\n";
                return false;
            }
            ns = !fileNs.isEmpty() ? fileNs : !m_args.ns.isEmpty() ? m_args.ns : m_client->defaultNamespace();
            metadata.insert(QStringLiteral("namespace"), ns);
            p.object.insert(QStringLiteral("metadata"), metadata);
        }
        request.resource = p.res;
        request.ns = ns;
        request.mine = p.object;
        // A file read from the cluster (it has a resourceVersion) replaces exactly that
        // version or conflicts; any other file creates, or is merged three-way into what
        // is there against the last-applied record, as kubectl apply does.
        request.adoptExisting = metadata.value(QLatin1String("resourceVersion")).toString().isEmpty();
        request.recordLastApplied = true;
        request.force = m_args.force;
        // The audit log's head goes onto the object with the write (no extra request).
        if (m_audit && m_audit->enabled()) {
            auto head = m_audit->head();
            if (!head) {
                err() << "error: " << p.label << ": reading the audit log: " << head.error().message
                      << "; nothing was applied\n";
                return false;
            }
            if (head->count > 0)
                request.auditHead = *head;
        }
        return true;
    }

    void report(const Pending &p, QuotaWriter::State end) {
        if (end == QuotaWriter::State::Applied || end == QuotaWriter::State::AwaitingConfirmation)
            reportWritten(p, end);
        else
            reportFailed(p, end);
    }

    void reportWritten(const Pending &p, QuotaWriter::State end) {
        for (const lastapplied::FieldConflict &f : m_writer.overwritten())
            err() << "warning: " << p.label << ": " << f.path << ": the server's "
                  << lastapplied::displayValue(f.server) << " (changed since your last apply, base "
                  << lastapplied::displayValue(f.base) << ") is overwritten with "
                  << lastapplied::displayValue(f.mine) << " (--force)\n";
        out() << p.label << ' ' << verbFor(m_writer.operation())
              << (m_dryRun ? QStringLiteral(" (server dry run)") : QString()) << '\n';
        if (p.res == &KubeResource::resourceQuotas() &&
            m_writer.operation() != QuotaWriter::Operation::Unchanged)
            warnOtherOwners({m_writer.base()}, QStringLiteral("warning"));
        m_writer.cancel(); // a server dry run stops before the write
        if (!m_audit || end != QuotaWriter::State::Applied ||
            m_writer.operation() == QuotaWriter::Operation::Unchanged)
            return;
        if (!m_audit->enabled()) {
            ++m_unaudited;
        } else if (const auto &e = m_writer.auditError()) {
            err() << "error: " << p.label
                  << ": applied, but the audit entry could not be written: " << e->message << '\n';
            ++m_failures;
        }
    }

    void reportFailed(const Pending &p, QuotaWriter::State end) {
        ++m_failures;
        if (end == QuotaWriter::State::Conflict && !m_writer.conflict().fields.isEmpty()) {
            for (const Error::Cause &c : m_writer.conflict().error.causes)
                err() << "error: " << p.label << ": " << c.field << ": " << c.message
                      << "; re-run with --force to overwrite, or edit the file\n";
            return;
        }
        const Error &e = end == QuotaWriter::State::Conflict ? m_writer.conflict().error : m_writer.error();
        err() << "error: " << p.label << ": " << e.message << '\n';
        for (const Error::Cause &c : e.causes)
            err() << "  " << (c.field.isEmpty() ? QString() : c.field + QStringLiteral(": ")) << c.message
                  << '\n';
        if (e.kind == Error::Kind::Conflict)
            err()
                << "  the object changed on the server since it was read; nothing was overwritten. Fetch it "
                   "again (gpuquota get ... -o yaml), re-apply your change, and retry.\n";
    }

    void finish() {
        if (m_unaudited)
            err() << "warning: no usage database (--db, or the console's connection for this context): "
                  << m_unaudited << (m_unaudited == 1 ? " change is" : " changes are")
                  << " not recorded in the audit log\n";
        out().flush();
        err().flush();
        QCoreApplication::exit(m_failures ? Failed : Ok);
    }

    const ClusterArgs m_args;
    const std::shared_ptr<KubeClient> m_client;
    const std::shared_ptr<ApplyAudit> m_audit;
    QList<Pending> m_pending;
    const bool m_dryRun;
    QuotaWriter m_writer;
    qsizetype m_index = -1;
    bool m_writing = false;
    int m_failures = 0;
    int m_unaudited = 0;
};

int runApply(const QStringList &args) {
    const ClusterArgs a = parseClusterArgs(args);
    if (const auto code = checkFlags(a))
        return *code;
    QList<Pending> pending;
    if (const auto code = readFile(a.file, pending))
        return *code;
    auto client = connect(a);
    if (!client)
        return fail(client.error().toString());
    std::unique_ptr<ApplyAudit> audit;
    if (a.dryRun != QLatin1String("server"))
        if (const auto code = openAudit(a, **client, audit))
            return *code;
    ApplyRun run(a, *client, std::move(audit), std::move(pending));
    return run.exec();
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("apply"),
    QStringLiteral("apply -f FILE [--dry-run=server] [--force] [--db URL --note TEXT]"),
    QStringLiteral("create or update quotas/limit ranges (three-way, like kubectl); "
                   "a field changed on both sides needs --force; each change is an audit entry in --db"),
    41, &runApply);

} // namespace gq::cli
