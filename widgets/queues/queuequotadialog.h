#pragma once

#include "widgets/editor/applyflow.h"
#include "core/jobs/jobtracker.h"
#include "core/kueue/kueueedit.h"

#include <QDialog>
#include <QJsonObject>
#include <QPointer>

#include <functional>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace gq {

class KubeClient;

// The one-click GPU edit of a ClusterQueue flavor: nominalQuota, borrowingLimit or
// lendingLimit of one GPU resource, shown with the value the server holds now. The new
// value is checked with Kueue's own rules as it is typed (the message names the field);
// "Review and apply" then takes the quotas' protocol through ApplyFlow: a server dry run,
// the diff with a note for the audit log, the PUT with the resourceVersion read here, and
// on a 409 the three-way view. A resolved conflict is applied again only after the
// confirmation; otherwise the dialog reads the queue again. Opened with open().
class QueueQuotaDialog final : public QDialog {
    Q_OBJECT
public:
    // `resource`: clusterqueues at the version in use (kueue::resource()).
    QueueQuotaDialog(std::shared_ptr<KubeClient> client, const KubeResource &resource,
                     QWidget *parent = nullptr);

    // Which number to edit; reads the ClusterQueue (loaded() follows).
    void setTarget(const QString &clusterQueue, const QString &flavor, const QString &gpuResource,
                   kueue::QuotaField field = kueue::QuotaField::NominalQuota);
    void setAuditHeadSource(std::function<AuditHead()> source) { m_auditHead = std::move(source); }
    // Where applied changes' audit entries go (changeaudit.h); none: no entry.
    void setAuditSink(std::shared_ptr<ChangeAuditSink> sink) { m_auditSink = std::move(sink); }

    [[nodiscard]] QString errorText() const;
    [[nodiscard]] QString currentText() const;

signals:
    void loaded();
    // As ObjectPage::applied: the object is "ClusterQueue/NAME", ns empty.
    void applied(const QString &ns, const QString &object);
    void statusMessage(const QString &message);

protected:
    void changeEvent(QEvent *event) override;

private:
    void reload();
    void onLoaded(const Result<QJsonObject> &result);
    void showCurrent();
    // The queue with the edited value, or why Kueue would refuse it.
    [[nodiscard]] Result<QJsonObject> edited() const;
    void revalidate();
    void review();
    void startFlow(const QJsonObject &base, const QString &mineYaml);
    void onConflictResolved(ConflictDialog::Resolution resolution, const QString &text,
                            const QJsonObject &server);
    [[nodiscard]] kueue::QuotaField field() const;
    void retranslate();

    std::shared_ptr<KubeClient> m_client;
    KubeResource m_resource;
    QPointer<ApplyFlow> m_flow; // one per apply
    QString m_queue;
    QString m_flavor;
    QString m_gpuResource;
    QJsonObject m_object; // the ClusterQueue as read
    std::optional<Error> m_readError;
    std::function<AuditHead()> m_auditHead;
    std::shared_ptr<ChangeAuditSink> m_auditSink;

    QList<QLabel *> m_formLabels; // "Field:", "On the server now:", "New value:"
    QLabel *m_headline;
    QComboBox *m_field;
    QLabel *m_current;
    QSpinBox *m_value;
    QCheckBox *m_unset;
    QLabel *m_error;
    QLabel *m_status;
    QPushButton *m_review;
    QPushButton *m_cancel;
    JobTracker m_jobs{this};
};

} // namespace gq
