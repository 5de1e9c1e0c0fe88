#pragma once

#include "widgets/editor/conflictdialog.h"
#include "core/domain/error.h"
#include "core/kube/kuberequest.h"
#include "services/quotas/quotawriter.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

namespace gq {

class KubeClient;

// The console's face of QuotaWriter (services/quotas/quotawriter.h), which keeps the safety
// promises in order: local validation -> server dry run -> confirmation -> PUT with
// the resourceVersion the edit started from. This adapter only turns the writer's
// states into dialogs: the confirmation with the diff, and on a 409 the three-way
// view; nothing is ever overwritten silently. Dialogs are opened with open(): no
// nested event loop. One flow per apply.
class ApplyFlow final : public QObject {
    Q_OBJECT
public:
    enum class Kind { ResourceQuota, LimitRange };
    Q_ENUM(Kind)

    struct Request {
        Kind kind = Kind::ResourceQuota;
        QString ns;
        QJsonObject base;                       // the server object the edit started from; empty to create
        QString baseYaml;                       // editableYaml(base), what the editor started from
        QString mineYaml;                       // the edited text
        QStringList extraWarnings;              // e.g. limits lowered below current use
        std::optional<AuditHead> auditHead;     // published on the object with the write
        std::shared_ptr<ChangeAuditSink> audit; // the entry of the change goes there (changeaudit.h)
        // Another kind than `kind` (Kueue's ClusterQueue, LocalQueue, ...): written at
        // this resource, described and shown by its kind.
        std::optional<KubeResource> resource;
    };

    ApplyFlow(std::shared_ptr<KubeClient> client, QWidget *dialogParent, QObject *parent = nullptr);

    void start(const Request &request);
    [[nodiscard]] bool isRunning() const { return m_running; }
    [[nodiscard]] static QString kindName(Kind kind);

    // Offers the three-way view for an edit whose object changed on the server.
    // The dialog is returned (already open) so callers and tests can find it.
    static ConflictDialog *openConflict(QWidget *parent, const QString &description, const QString &reason,
                                        const QString &base, const QString &mine, const QString &server);

signals:
    // Stage changes, for the status line ("Checking with the server...").
    void progress(const QString &message);
    // The object is written (its audit entry went to the writer's sink): as the server has it now.
    void applied(const QJsonObject &after);
    void failed(const gq::Error &error);
    // The user cancelled at the confirmation.
    void cancelled();
    // A conflict was resolved in the three-way view: text is what the editor should
    // now hold, `server` the object it is now based on.
    void conflictResolved(gq::ConflictDialog::Resolution resolution, const QString &text,
                          const QJsonObject &server);

private:
    void onStateChanged(QuotaWriter::State state);
    void askConfirmation(const QuotaWriter::Preview &preview);
    void showConflict(const QuotaWriter::ConflictView &conflict);
    [[nodiscard]] QString describe() const;
    [[nodiscard]] QString editable(const QJsonObject &object) const;

    QuotaWriter *m_writer;
    QPointer<QWidget> m_dialogParent;
    Request m_req;
    KubeResource m_resource; // what m_writer writes (its request points here)
    // From start() until a signal above ends the apply: unlike the writer's run, this
    // includes the time the conflict view is open.
    bool m_running = false;
};

} // namespace gq
