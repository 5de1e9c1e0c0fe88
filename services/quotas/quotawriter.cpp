#include "services/quotas/quotawriter.h"

#include "core/kube/kubeclient.h"
#include "services/queues/kueuewrite.h"
#include "core/domain/limitrangespec.h"
#include "core/domain/quotaspec.h"
#include "core/domain/specdiff.h"
#include "core/domain/validation.h"

namespace gq {

namespace {

QJsonObject metaOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject();
}
QString rvOf(const QJsonObject &o) {
    return metaOf(o).value(QLatin1String("resourceVersion")).toString();
}

// One Error for the caller to show: the first problem, with its line; its causes only
// when it is the only problem (they belong to it then).
Error firstProblem(const QList<Error> &problems) {
    Error e = problems.first();
    if (problems.size() > 1)
        e.causes.clear();
    return e;
}

// Decodes (from the text when there is one, so errors carry its lines) and validates;
// returns what to send and the spec diff against base. A spec type per kind.
template <typename Spec, typename Validate, typename Diff>
Result<QJsonObject> prepareAs(const QJsonObject &mine, const QString &mineYaml, const QJsonObject &base,
                              Validate validate, Diff diff, const ValidationOptions &options,
                              QString *diffText) {
    auto spec = mineYaml.isEmpty() ? Spec::fromJson(mine) : Spec::fromYaml(mineYaml.toUtf8());
    if (!spec)
        return spec.error();
    const QList<Error> problems = validate(*spec, options);
    if (!problems.isEmpty())
        return firstProblem(problems);
    auto before = base.isEmpty() ? Result<Spec>(Spec()) : Spec::fromJson(base);
    *diffText = diff(before ? *before : Spec(), *spec).toText();
    // A file is sent as written; an editor's text as decoded (unknown fields kept).
    return mineYaml.isEmpty() ? mine : spec->toJson();
}

Result<QJsonObject> prepare(const QuotaWriter::Request &req, QString *diffText) {
    diffText->clear();
    ValidationOptions options;
    options.gpuPolicy = !req.apiRulesOnly;
    if (req.resource == &KubeResource::resourceQuotas())
        return prepareAs<QuotaSpec>(req.mine, req.mineYaml, req.base, &validateQuota, &diffQuota, options,
                                    diffText);
    if (req.resource == &KubeResource::limitRanges())
        return prepareAs<LimitRangeSpec>(req.mine, req.mineYaml, req.base, &validateLimitRange,
                                         &diffLimitRange, options, diffText);
    if (isKueueResource(*req.resource))
        return kueuePrepare(*req.resource, req.mine, req.mineYaml, req.base, diffText);
    // Namespaces carry nothing of ours to validate; the server checks their names.
    if (!req.mineYaml.isEmpty())
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("QuotaWriter decodes text only for quotas and limit ranges"));
    return req.mine;
}

// The fields a writer sets: spec, labels and annotations (the server keeps status,
// resourceVersion and managedFields for itself). `ignoreAuditHead`: the audit head we
// publish on every write is not part of what is compared.
bool sameWrittenFields(const QJsonObject &a, const QJsonObject &b, bool ignoreAuditHead) {
    const QJsonObject ma = metaOf(a), mb = metaOf(b);
    auto annotations = [ignoreAuditHead](const QJsonObject &meta) {
        QJsonObject o = meta.value(QLatin1String("annotations")).toObject();
        if (ignoreAuditHead)
            o.remove(QLatin1String(kAuditHeadAnnotation));
        return o;
    };
    return a.value(QLatin1String("spec")) == b.value(QLatin1String("spec")) &&
           ma.value(QLatin1String("labels")) == mb.value(QLatin1String("labels")) &&
           annotations(ma) == annotations(mb);
}

// kubectl apply's "unchanged": the fields a manifest sets are what the server holds
// (the audit head we publish on every write is ours, not the manifest's).
bool sameContent(const QJsonObject &current, const QJsonObject &mine) {
    return sameWrittenFields(current, mine, true);
}

// One cause per field, so every refused field is named.
Error threeWayConflict(const QList<lastapplied::FieldConflict> &fields) {
    Error e = Error::make(Error::Kind::Conflict, {}, fields.first().path);
    e.reason = QStringLiteral("Conflict");
    for (const lastapplied::FieldConflict &f : fields)
        e.causes.append(
            {f.path,
             QuotaWriter::tr("changed on the server since your last apply (base %1, server %2, yours %3)")
                 .arg(lastapplied::displayValue(f.base), lastapplied::displayValue(f.server),
                      lastapplied::displayValue(f.mine)),
             QStringLiteral("FieldValueConflict")});
    e.message =
        fields.size() == 1
            ? e.causes.first().field + QStringLiteral(": ") + e.causes.first().message
            : QuotaWriter::tr("%1 fields changed on the server since your last apply").arg(fields.size());
    return e;
}

} // namespace

QuotaWriter::QuotaWriter(std::shared_ptr<KubeClient> client, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client)) {}

QuotaWriter::~QuotaWriter() = default;

bool QuotaWriter::isFinal(State state) {
    return state == State::Applied || state == State::Conflict || state == State::Failed ||
           state == State::Cancelled;
}

bool QuotaWriter::isRunning() const {
    return m_state != State::Idle && !isFinal(m_state);
}

// Emitting is the last thing every step does: a receiver may call confirm() or
// cancel() from its slot, which moves the state on before the emit returns.
void QuotaWriter::setState(State state) {
    m_state = state;
    emit stateChanged(state);
    if (m_state != state)
        return; // a slot has moved it on already
    switch (state) {
    case State::AwaitingConfirmation: emit awaitingConfirmation(m_preview); break;
    case State::Applied: emit applied(m_result, m_preview.operation); break;
    case State::Conflict: emit conflicted(m_conflict); break;
    case State::Failed: emit failed(m_error); break;
    case State::Cancelled: emit cancelled(); break;
    default: break;
    }
}

void QuotaWriter::fail(const Error &error) {
    m_error = error;
    setState(State::Failed);
}

bool QuotaWriter::replacing() const {
    return !m_base.isEmpty() || !rvOf(m_payload).isEmpty();
}

QFuture<Result<QJsonObject>> QuotaWriter::write(bool dryRun) {
    WriteOptions options = m_req.options;
    options.dryRun = dryRun;
    const QJsonObject payload = m_req.auditHead ? withAuditHead(m_payload, *m_req.auditHead) : m_payload;
    return replacing() ? m_client->replace(*m_req.resource, m_req.ns, payload, options)
                       : m_client->create(*m_req.resource, m_req.ns, payload, options);
}

void QuotaWriter::start(const Request &request) {
    if (isRunning())
        return;
    m_jobs.cancel();
    m_req = request;
    m_base = request.base;
    m_preview = {};
    m_conflict = {};
    m_rebases = 0;
    m_overwritten.clear();
    m_auditError.reset();
    m_error = {};
    m_result = {};
    m_name.clear();
    if (!m_client) {
        fail(Error::make(Error::Kind::Config, tr("Not connected to a cluster.")));
        return;
    }
    auto prepared = prepare(m_req, &m_preview.diffText);
    if (!prepared) {
        fail(prepared.error());
        return;
    }
    m_payload = *prepared;
    QJsonObject meta = metaOf(m_payload);
    const QString baseName = metaOf(m_base).value(QLatin1String("name")).toString();
    m_name = meta.value(QLatin1String("name")).toString();
    if (!baseName.isEmpty() && m_name != baseName) {
        fail(Error::make(Error::Kind::Invalid,
                         tr("The name cannot change from \"%1\" to \"%2\"; create a new object instead.")
                             .arg(baseName, m_name),
                         QStringLiteral("metadata.name")));
        return;
    }
    if (m_req.resource->namespaced) {
        const QString metaNs = meta.value(QLatin1String("namespace")).toString();
        if (!metaNs.isEmpty() && metaNs != m_req.ns) {
            fail(Error::make(
                Error::Kind::Invalid,
                tr("The object names namespace \"%1\" but is being applied to \"%2\".").arg(metaNs, m_req.ns),
                QStringLiteral("metadata.namespace")));
            return;
        }
        meta.insert(QLatin1String("namespace"), m_req.ns);
    }
    if (m_req.recordLastApplied) {
        // What kubectl records: the object as applied (namespace filled in), before
        // any resourceVersion of a base is added.
        QJsonObject applied = m_payload;
        applied.insert(QLatin1String("metadata"), meta);
        QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
        annotations.insert(lastapplied::kAnnotation, lastapplied::annotationFor(applied));
        meta.insert(QLatin1String("annotations"), annotations);
    }
    if (!m_base.isEmpty())
        meta.insert(QLatin1String("resourceVersion"), rvOf(m_base));
    m_payload.insert(QLatin1String("metadata"), meta);
    setState(State::Validated);
    if (m_state == State::Validated)
        sendDryRun();
}

void QuotaWriter::sendDryRun() {
    m_preview.operation = replacing() ? Operation::Replace : Operation::Create;
    m_jobs.watch(write(true), [this](const Result<QJsonObject> &r) { onDryRun(r); });
    if (m_state != State::DryRunning)
        setState(State::DryRunning);
}

void QuotaWriter::onDryRun(const Result<QJsonObject> &r) {
    if (!r) {
        const Error::Kind kind = r.error().kind;
        if (kind == Error::Kind::AlreadyExists && m_req.adoptExisting && !replacing()) {
            m_jobs.watch(m_client->get(*m_req.resource, m_req.ns, m_name),
                         [this](const Result<QJsonObject> &current) { adopt(current); });
        } else if (kind == Error::Kind::Conflict) {
            fetchTheirs(r.error(), false);
        } else {
            fail(r.error());
        }
        return;
    }
    m_preview.dryRunResult = *r;
    setState(State::AwaitingConfirmation);
}

// The object exists already: what is on the server becomes the base of the write.
void QuotaWriter::adopt(const Result<QJsonObject> &current) {
    if (!current) {
        fail(current.error());
        return;
    }
    m_base = *current;
    if (m_req.recordLastApplied) {
        adoptThreeWay();
        return;
    }
    QJsonObject meta = metaOf(m_payload);
    meta.insert(QLatin1String("resourceVersion"), rvOf(m_base));
    m_payload.insert(QLatin1String("metadata"), meta);
    if (sameContent(m_base, m_payload)) {
        m_preview.operation = Operation::Unchanged;
        m_result = m_base;
        setState(State::Applied);
        return;
    }
    rebaseDiff();
    sendDryRun();
}

// kubectl apply onto an existing object: the file merged into what is there, against
// what was applied last. Refused before anything is sent when both sides changed a field.
void QuotaWriter::adoptThreeWay() {
    const std::optional<QJsonObject> recorded = lastapplied::recordedBase(m_base);
    lastapplied::MergeResult merge = lastapplied::merge(recorded, m_base, m_payload, m_req.force);
    if (!merge.conflicts.isEmpty()) {
        m_conflict = {recorded.value_or(m_base), m_payload, m_base, threeWayConflict(merge.conflicts),
                      merge.conflicts};
        setState(State::Conflict);
        return;
    }
    m_overwritten = merge.forced;
    QJsonObject current = m_base;
    current.remove(QLatin1String("status")); // the server's own; never part of a write
    merge.merged.remove(QLatin1String("status"));
    if (merge.merged == current) {
        m_preview.operation = Operation::Unchanged;
        m_result = m_base;
        setState(State::Applied);
        return;
    }
    m_payload = merge.merged; // carries the live resourceVersion: a write in between is a 409
    rebaseDiff();
    sendDryRun();
}

// The diff the preview shows is now against the server's version.
void QuotaWriter::rebaseDiff() {
    QString diffText;
    Request rebased = m_req;
    rebased.mine = m_payload;
    rebased.mineYaml.clear();
    rebased.base = m_base;
    if (prepare(rebased, &diffText))
        m_preview.diffText = diffText;
}

bool QuotaWriter::confirm() {
    if (m_state != State::AwaitingConfirmation)
        return false;
    sendApply();
    return true;
}

void QuotaWriter::sendApply() {
    m_jobs.watch(write(false), [this](const Result<QJsonObject> &r) { onApplied(r); });
    setState(State::Applying);
}

bool QuotaWriter::cancel() {
    if (m_state != State::Validated && m_state != State::DryRunning && m_state != State::AwaitingConfirmation)
        return false;
    m_jobs.cancel();
    setState(State::Cancelled);
    return true;
}

void QuotaWriter::onApplied(const Result<QJsonObject> &r) {
    if (!r) {
        // AlreadyExists: someone created it since the dry run; that is theirs, not ours.
        if (r.error().kind == Error::Kind::Conflict || r.error().kind == Error::Kind::AlreadyExists)
            fetchTheirs(r.error(), true);
        else
            fail(r.error());
        return;
    }
    m_result = *r;
    if (m_auditSink) {
        auto recorded = m_auditSink->append(
            changeaudit::entryFor(m_req.resource->kind, m_req.ns, m_name, m_base, m_result, m_auditNote));
        if (!recorded)
            m_auditError = recorded.error();
    }
    setState(State::Applied);
}

// Someone else wrote the object since the edit began: fetch what is there now, so the
// caller has all three versions to choose from.
void QuotaWriter::fetchTheirs(const Error &conflict, bool applying) {
    m_conflict = {m_base, m_payload, {}, conflict, {}};
    m_jobs.watch(m_client->get(*m_req.resource, m_req.ns, m_name),
                 [this, applying](const Result<QJsonObject> &r) {
                     if (!r) {
                         fail(r.error());
                         return;
                     }
                     if (rebaseIfOnlyServerFieldsChanged(*r, applying))
                         return;
                     m_conflict.theirs = *r;
                     setState(State::Conflict);
                 });
    setState(State::FetchingTheirs);
}

// In a busy namespace every pod start and finish rewrites the quota's status (and so its
// resourceVersion): that is no conflict with an edit of spec, labels or annotations.
bool QuotaWriter::rebaseIfOnlyServerFieldsChanged(const QJsonObject &theirs, bool applying) {
    constexpr int kMaxRebases = 10;
    if (m_base.isEmpty() || m_rebases >= kMaxRebases)
        return false;
    if (!sameWrittenFields(m_base, theirs, false))
        return false;
    ++m_rebases;
    m_base = theirs;
    QJsonObject meta = metaOf(m_payload);
    meta.insert(QLatin1String("resourceVersion"), rvOf(m_base));
    m_payload.insert(QLatin1String("metadata"), meta);
    if (applying)
        sendApply();
    else
        sendDryRun();
    return true;
}

} // namespace gq
