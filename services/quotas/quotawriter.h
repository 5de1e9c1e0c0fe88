#pragma once

#include "core/usage/auditanchor.h"
#include "core/usage/changeaudit.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/kube/kuberequest.h"
#include "core/quotas/lastapplied.h"
#include "core/domain/result.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace gq {

class KubeClient;

// The safe write protocol for ResourceQuota, LimitRange (and Namespace, and Kueue's
// queue objects: kueuewrite.h) objects, as
// one state machine shared by the console's dialogs, `gpuquota apply`, boosts and the
// controller:
//
//   Idle -> Validated -> DryRunning -> AwaitingConfirmation -> Applying -> Applied
//                             |                                   |
//                             +--> FetchingTheirs -> Conflict <---+
//   any step -> Failed;  Validated/DryRunning/AwaitingConfirmation -> Cancelled
//
// The edit is validated locally (a bad edit never reaches the server), then sent with
// dryRun=All; the server's answer and the spec diff wait for an explicit confirm() or
// cancel(), so a GUI shows a dialog and a CLI confirms at once (or stops there for
// --dry-run=server). The write is a PUT conditional on the resourceVersion the edit
// was based on (a POST for a new object). A 409 never overwrites: the object as it is
// now on the server is fetched and the writer ends in Conflict with base, mine and
// theirs. With recordLastApplied (kubectl apply) the applied file is recorded in kubectl's
// last-applied annotation, and adopting an existing object merges the file into it
// three-way against that record (lastapplied.h): a field changed on both sides ends in
// Conflict before anything is sent, unless forced. Server answers come back through a JobTracker on this
// object's thread; no call blocks. One write at a time; start() again once it has ended.
class QuotaWriter final : public QObject {
    Q_OBJECT
public:
    enum class State {
        Idle,
        Validated,            // local validation passed; the dry run is about to be sent
        DryRunning,           // dryRun=All sent (and, when adopting, the current object read)
        AwaitingConfirmation, // preview() holds the server's answer and the diff
        Applying,             // the real write is out; it can no longer be cancelled
        FetchingTheirs,       // the server said 409; reading what is there now
        Applied,              // result() is the stored object (or, Unchanged, the current one)
        Conflict,             // conflict() holds base/mine/theirs; nothing was written
        Failed,               // error() says why; nothing was written by this writer
        Cancelled,            // cancelled before the write; nothing was written
    };
    Q_ENUM(State)

    enum class Operation { Create, Replace, Unchanged };
    Q_ENUM(Operation)

    struct Request {
        const KubeResource *resource = &KubeResource::resourceQuotas(); // quotas, limit ranges, namespaces
        QString ns;                                                     // empty for cluster-scoped objects
        // The server object the edit started from: its resourceVersion makes the PUT
        // conditional, and the diff is taken against it. Empty: create, unless `mine`
        // carries a resourceVersion of its own (a file read from the cluster).
        QJsonObject base;
        QJsonObject mine; // the object to write; ignored when mineYaml is set
        // The text `mine` came from (an editor): when set it is what is decoded and
        // validated, so an Error points at its line, and its decoded form is sent.
        QString mineYaml;
        // Create-or-update (kubectl apply): when a create finds the object exists, base
        // the write on the server's version; Unchanged if nothing would change.
        bool adoptExisting = false;
        // kubectl apply semantics (gpuquota apply): write the last-applied annotation as
        // kubectl does, and adopt an existing object by a three-way merge against it.
        bool recordLastApplied = false;
        // With recordLastApplied: where the server and the file changed a field
        // differently since the last apply, the file's value wins (listed in overwritten()).
        bool force = false;
        // Published on the written object (the gpuquota.io/audit-head annotation, see
        // withAuditHead): added to what is sent only, so it never makes an otherwise
        // unchanged object a write, a diff or a field of kubectl's last-applied record.
        std::optional<AuditHead> auditHead;
        // A machine write (the controller's clamp, a boost) changes a number the admin's
        // quota already holds: it is checked by the API server's rules alone, so a quota
        // that also lists keys the server accepts but our GPU policy refuses
        // (nvidia.com/gpu without requests., limits.nvidia.com/gpu, a fraction) is still
        // clamped or boosted. Editors leave it off and keep the policy.
        bool apiRulesOnly = false;
        WriteOptions options; // its dryRun is ignored: the writer sets it per step
    };

    // What the dry run showed, waiting for confirm() or cancel().
    struct Preview {
        Operation operation = Operation::Create;
        QJsonObject dryRunResult; // the object as the server would store it
        QString diffText;         // the spec diff base -> mine (SpecDiff::toText)
    };

    // The three versions of an object that changed on the server under the edit.
    struct ConflictView {
        QJsonObject base;   // what the edit started from (empty when it had no base object)
        QJsonObject mine;   // what was sent
        QJsonObject theirs; // what the server holds now
        Error error;        // the server's 409, or the refused three-way merge (one cause per field)
        // A refused three-way apply: the fields both sides changed (base is then the
        // recorded last-applied object); empty for a 409.
        QList<lastapplied::FieldConflict> fields;
    };

    explicit QuotaWriter(std::shared_ptr<KubeClient> client, QObject *parent = nullptr);
    ~QuotaWriter() override;
    Q_DISABLE_COPY_MOVE(QuotaWriter)

    // Begins a write; ignored while one is running. Local validation runs here, so a
    // bad edit ends in Failed before this returns.
    void start(const Request &request);
    // In AwaitingConfirmation: sends the real write. False (and nothing happens) otherwise.
    bool confirm();
    // Before the real write is sent: drops everything outstanding and ends in
    // Cancelled. False (and nothing happens) from Applying on or when idle.
    bool cancel();

    [[nodiscard]] State state() const { return m_state; }
    [[nodiscard]] bool isRunning() const;
    [[nodiscard]] static bool isFinal(State state);
    [[nodiscard]] const Request &request() const { return m_req; }
    [[nodiscard]] const QString &name() const { return m_name; }
    [[nodiscard]] const Preview &preview() const { return m_preview; }
    [[nodiscard]] const ConflictView &conflict() const { return m_conflict; }
    [[nodiscard]] const Error &error() const { return m_error; }
    [[nodiscard]] const QJsonObject &result() const { return m_result; }
    // The server object the write was based on (the request's, or the one adopted);
    // empty for a create.
    [[nodiscard]] const QJsonObject &base() const { return m_base; }
    [[nodiscard]] Operation operation() const { return m_preview.operation; }
    // With force: the fields whose server value the write replaces.
    [[nodiscard]] const QList<lastapplied::FieldConflict> &overwritten() const { return m_overwritten; }

    // The audit of what this writer changes, by the one policy in changeaudit.h: a write
    // that changed the object (not Unchanged, not a dry run) appends one entry to `sink`
    // before Applied is announced. Null: no audit (the caller has no log).
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }
    // The entry's reason; may be set until confirm() (a dialog asks for it there).
    void setAuditNote(const QString &note) { m_auditNote = note; }
    // After Applied: why the sink did not take the entry (the change is made).
    [[nodiscard]] const std::optional<Error> &auditError() const { return m_auditError; }

signals:
    // Every transition. The state's data is readable (preview(), conflict(), error(),
    // result()) when this is emitted; the signals below carry it too.
    void stateChanged(gq::QuotaWriter::State state);
    void awaitingConfirmation(const gq::QuotaWriter::Preview &preview);
    void applied(const QJsonObject &result, gq::QuotaWriter::Operation operation);
    void conflicted(const gq::QuotaWriter::ConflictView &conflict);
    void failed(const gq::Error &error);
    void cancelled();

private:
    void setState(State state);
    void fail(const Error &error);
    void sendDryRun();
    void onDryRun(const Result<QJsonObject> &r);
    void adopt(const Result<QJsonObject> &current);
    void adoptThreeWay();
    void rebaseDiff();
    void onApplied(const Result<QJsonObject> &r);
    void sendApply(); // the real write, with the payload as it stands
    // applying: the conflict came from the real write (else from the dry run).
    void fetchTheirs(const Error &conflict, bool applying);
    // Only what the server keeps (status, resourceVersion, managedFields) changed since
    // the base: re-base on theirs and send again, instead of a conflict to resolve.
    bool rebaseIfOnlyServerFieldsChanged(const QJsonObject &theirs, bool applying);
    [[nodiscard]] bool replacing() const;
    QFuture<Result<QJsonObject>> write(bool dryRun);

    std::shared_ptr<KubeClient> m_client;
    Request m_req;
    QJsonObject m_base; // the request's, or the adopted server object
    QJsonObject m_payload;
    QString m_name;
    State m_state = State::Idle;
    Preview m_preview;
    ConflictView m_conflict;
    int m_rebases = 0; // automatic re-bases of this write (a busy namespace's quota status)
    QList<lastapplied::FieldConflict> m_overwritten;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
    QString m_auditNote;
    std::optional<Error> m_auditError;
    Error m_error;
    QJsonObject m_result;
    JobTracker m_jobs{this}; // last member: destroyed first, so no delivery outlives the rest
};

} // namespace gq
