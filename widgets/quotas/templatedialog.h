#pragma once

#include "core/usage/auditanchor.h"
#include "core/jobs/jobtracker.h"
#include "services/quotas/quotawriter.h"
#include "services/quotas/templatestore.h"

#include <QDialog>
#include <QJsonObject>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace gq {

class ClusterConnection;
class YamlEditor;

// Creates ResourceQuotas and LimitRanges from a template in one or many
// namespaces: pick (or edit, or save) a template, tick the namespaces, Preview runs
// a server dry run for every object and shows create/replace per namespace, and
// only then Apply writes them one by one. Every object goes through its own
// QuotaWriter (services/quotas/quotawriter.h), the protocol of the console's other edits:
// local validation, the dry run (Preview), and on Apply the confirmed write, which
// replaces an existing object with the resourceVersion the preview saw; a conflict
// stops that row, never overwrites.
class TemplateDialog final : public QDialog {
    Q_OBJECT
public:
    explicit TemplateDialog(ClusterConnection *session, QWidget *parent = nullptr,
                            const QString &templateDir = {});

    void setTargets(const QStringList &namespaces);
    [[nodiscard]] QStringList checkedTargets() const;
    // Published on every object written (gpuquota.io/audit-head).
    void setAuditHead(const AuditHead &head) { m_auditHead = head; }
    // Where the audit entry of each applied change goes (QuotaWriter decides it).
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }

public slots:
    void preview();
    void applyAll();

signals:
    void applied(const QString &ns, const QString &object, const QString &beforeYaml,
                 const QString &afterYaml, const QString &diffText, const QString &note);

private:
    struct Item {
        QString ns;
        QString kind;
        QString name;
        QJsonObject payload;
        QJsonObject existing; // empty: create
        QString status;
        bool ok = false;
        QuotaWriter *writer = nullptr; // waits in AwaitingConfirmation after a good preview
    };
    void loadTemplates();
    void saveTemplate();
    void setRowStatus(int row, const QString &status, bool ok);
    void clearItems();
    void runNext(int index, bool dryRun);
    void startWriter(int index);
    void onWriterState(int index, QuotaWriter::State state);
    void finish(bool dryRun);

    ClusterConnection *m_session;
    TemplateStore m_store;
    QList<Item> m_items;
    bool m_previewOk = false;
    bool m_applying = false; // Apply is writing; the writers' states are the real writes
    AuditHead m_auditHead;
    std::shared_ptr<ChangeAuditSink> m_auditSink;

    QComboBox *m_templates;
    YamlEditor *m_editor;
    QLineEdit *m_saveName;
    QPushButton *m_save;
    QListWidget *m_targets;
    QTableWidget *m_preview;
    QLabel *m_summary;
    QPushButton *m_previewButton;
    QPushButton *m_apply;
    JobTracker m_jobs{this}; // last: a closed dialog drops the answers still out
};

} // namespace gq
