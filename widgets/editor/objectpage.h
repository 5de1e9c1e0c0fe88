#pragma once

#include "widgets/editor/applyflow.h"
#include "services/cluster/clusterconnection.h"
#include "services/quotas/draftstore.h"
#include "widgets/common/page.h"

#include <QFrame>
#include <QJsonObject>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QPushButton;

namespace gq {

class YamlEditor;

// A non-modal bar above an editor, in the manner of KMessageWidget: "An unsaved
// draft of team-a/gpu-quota from 14:02 was found. [Restore] [Show diff] [Discard]".
// It only reports which button was pressed; the page decides what that means.
class DraftOfferBar final : public QFrame {
    Q_OBJECT
public:
    explicit DraftOfferBar(QWidget *parent = nullptr);

    void offer(const QString &message);
    [[nodiscard]] QString text() const;

signals:
    void restoreRequested();
    void diffRequested();
    void discardRequested();

private:
    QLabel *m_label;
};

// What the Quotas and Limit ranges tabs share: one Kubernetes object of the selected
// namespace at a time (picked in a combo box), edited as YAML (and by the subclass in
// its own way), applied through ApplyFlow, watched so that a server-side change under
// a pending edit opens the three-way view, SelfSubjectAccessReview deciding what is
// enabled, and drafts that autosave and are offered back (never put back unasked).
class ObjectPage : public QWidget, public Page {
    Q_OBJECT
public:
    ~ObjectPage() override;

    void setConnection(ClusterConnection *connection) override;
    void setNamespace(const QString &ns) override;
    // The audit log's head to publish on each object applied (gpuquota.io/audit-head).
    void setAuditHeadSource(std::function<AuditHead()> source) { m_auditHead = std::move(source); }
    // Where the audit entry of an applied change goes (QuotaWriter decides it).
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }
    [[nodiscard]] QString namespaceName() const { return m_ns; }
    [[nodiscard]] QString currentObject() const { return m_name; }
    [[nodiscard]] virtual bool hasPendingEdit() const;
    [[nodiscard]] YamlEditor *editor() const { return m_editor; }
    [[nodiscard]] DraftOfferBar *draftOffer() const { return m_draftBar; }
    // True while a found draft waits for Restore / Show diff / Discard.
    [[nodiscard]] bool isDraftOffered() const { return m_offered.has_value(); }

public slots:
    void apply();
    void revert();
    // The choices of the draft bar, also reachable directly.
    void restoreDraft();
    void showDraftDiff();
    void discardDraft();

signals:
    // A change was written ("Kind/name" in ns); its audit entry went to the audit sink.
    void applied(const QString &ns, const QString &object);
    void templateRequested();
    void statusMessage(const QString &message);
    void errorMessage(const QString &message);

protected:
    ObjectPage(DraftStore *drafts, ApplyFlow::Kind kind, QWidget *parent);

    // The connection's objects of this kind (none without a connection).
    [[nodiscard]] virtual QList<StoredObject> objectsIn(const QString &ns) const = 0;
    [[nodiscard]] virtual std::optional<StoredObject> objectNamed(const QString &ns,
                                                                  const QString &name) const = 0;
    // Show `object` (the new base; empty: none selected) wherever the subclass shows
    // it besides the editor, which already holds baseYaml().
    virtual void showBase(const QJsonObject &object) = 0;
    // Only the status of the base moved (its spec is the same); pending edits stay.
    virtual void baseStatusMoved(const QJsonObject &object) { Q_UNUSED(object) }
    // Something of this kind changed in the namespace (any object of it).
    virtual void namespaceObjectsChanged() {}
    [[nodiscard]] virtual bool mayUpdate(const EditPermissions &p) const = 0;
    [[nodiscard]] virtual bool mayCreate(const EditPermissions &p) const = 0;
    [[nodiscard]] virtual QString denyUpdateText(const EditPermissions &p) const = 0;
    [[nodiscard]] virtual QString denyCreateText() const = 0;
    [[nodiscard]] virtual QString noObjectText() const = 0;
    // The edit as YAML, wherever it is being made (the table or the editor).
    [[nodiscard]] virtual QString pendingYaml() const;
    // Whether the YAML editor is where the user edits now (validation gates Apply).
    [[nodiscard]] virtual bool editingYaml() const { return true; }
    // Brings the YAML editor to the front (a restored draft or a merge is YAML).
    virtual void showEditor() {}
    virtual void revertOtherEdits() {}
    [[nodiscard]] virtual QStringList applyWarnings() const { return {}; }
    // Refreshes enabled states and tooltips; subclasses extend it.
    virtual void updateControls();

    // Autosaves an edit made outside the editor (the quota table) as this object's
    // draft, or forgets the draft when the text is the server's again. Does nothing
    // while a found draft is on offer: that one is only replaced by the user's answer.
    void saveEditAsDraft(const QString &text);

    // "Kind:" combo, stretch, template button.
    [[nodiscard]] QHBoxLayout *makeTopRow(const QString &label);
    // stretch, Revert, Apply.
    [[nodiscard]] QHBoxLayout *makeBottomRow();

    [[nodiscard]] ClusterConnection *session() const { return m_session; }
    [[nodiscard]] QString kindName() const { return ApplyFlow::kindName(m_kind); }
    [[nodiscard]] DraftKey draftKey() const;
    [[nodiscard]] bool hasObject() const { return !m_base.isEmpty(); }
    [[nodiscard]] bool isBusy() const { return m_flow && m_flow->isRunning(); }
    // Editing waits for SelfSubjectAccessReview and, like Kate with a swap file, for the
    // answer to a found draft: an edit started before it could only overwrite the
    // draft or go unsaved.
    [[nodiscard]] bool mayEdit() const;
    [[nodiscard]] QString whyNoEdit() const;
    [[nodiscard]] QString baseYaml() const { return m_baseYaml; }
    [[nodiscard]] const QJsonObject &base() const { return m_base; }

    QComboBox *m_objects;
    QPushButton *m_template;
    YamlEditor *m_editor;
    DraftOfferBar *m_draftBar;
    QPushButton *m_revert;
    QPushButton *m_apply;
    // Set by the page that asks the session for SelfSubjectAccessReview answers, so
    // two pages of one window do not both ask.
    bool m_requestsPermissions = false;

private:
    void showNamespace(const QString &ns);
    void reloadObjects();
    void loadObject(const QString &name);
    void adopt(const QJsonObject &server);
    void offerDraftOrBind();
    void bindDraft();
    void forgetDraft();
    void onObjectsChanged(const QString &ns);
    void onPermissionsChanged(const QString &ns);
    void onFlowFailed(const Error &error);
    void onConflictResolved(int resolution, const QString &text, const QJsonObject &server);
    void showServerChangeConflict(const QJsonObject &server);

    QPointer<ClusterConnection> m_session;
    DraftStore *m_drafts;
    ApplyFlow::Kind m_kind;
    QString m_ns;
    QString m_name;
    QJsonObject m_base;
    QString m_baseYaml;
    bool m_canUpdate = false;
    QString m_denyReason;
    bool m_terminating = false; // the namespace is being deleted: no edits, no templates
    QPointer<ApplyFlow> m_flow;
    bool m_conflictOpen = false;
    std::optional<Draft> m_offered;
    std::function<AuditHead()> m_auditHead;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
};

} // namespace gq
