#pragma once

#include "widgets/editor/applyflow.h"
#include "core/jobs/jobtracker.h"

#include <QDialog>
#include <QJsonObject>
#include <QPointer>

#include <functional>
#include <memory>

class QLabel;
class QPushButton;

namespace gq {

class KubeClient;
class YamlEditor;

// The YAML editor for one of Kueue's queue objects (ClusterQueue, LocalQueue,
// ResourceFlavor, Cohort), with the quotas' protocol: the text is checked as it is typed
// with Kueue's own rules (errors marked at their line, naming the field), then Apply
// takes ApplyFlow's steps: server dry run, diff with a note for the audit log, PUT with
// the resourceVersion read here, the three-way view on a 409 (a resolution puts its
// text in the editor, based on the server's version, for another Apply).
class QueueYamlDialog final : public QDialog {
    Q_OBJECT
public:
    // `resource` at the version in use (kueue::resource()); `ns` empty unless a LocalQueue.
    QueueYamlDialog(std::shared_ptr<KubeClient> client, const KubeResource &resource, const QString &ns,
                    const QString &name, QWidget *parent = nullptr);
    void setAuditHeadSource(std::function<AuditHead()> source) { m_auditHead = std::move(source); }
    // Where applied changes' audit entries go (changeaudit.h); none: no entry.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }

    [[nodiscard]] YamlEditor *editor() const { return m_editor; }
    [[nodiscard]] QString statusText() const;
    // Starts the apply (the Apply button).
    void apply();

signals:
    void loaded();
    // As ObjectPage::applied: object is "Kind/NAME".
    void applied(const QString &ns, const QString &object);
    void statusMessage(const QString &message);

private:
    void onLoaded(const Result<QJsonObject> &result);
    void updateControls();

    std::shared_ptr<KubeClient> m_client;
    KubeResource m_resource;
    QString m_ns;
    QString m_name;
    QJsonObject m_base;
    QString m_baseYaml;
    std::function<AuditHead()> m_auditHead;
    std::shared_ptr<ChangeAuditSink> m_auditSink;
    QPointer<ApplyFlow> m_flow;
    QLabel *m_headline;
    YamlEditor *m_editor;
    QLabel *m_status;
    QPushButton *m_apply;
    JobTracker m_jobs{this};
};

} // namespace gq
