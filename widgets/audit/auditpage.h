#pragma once

#include "core/usage/auditentry.h"
#include "core/jobs/jobtracker.h"
#include "widgets/common/page.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace gq {

class AuditFilterModel;
class AuditModel;
class UsageService;

// The Audit tab: who changed what and why, newest first, with the selected entry's
// before -> after shown below. Filters by actor, namespace (or the one selected on the
// left), action and time range, exports what it shows as CSV (the columns of `gpuquota
// audit list -o csv`) and verifies the hash chain (`gpuquota audit verify`): "intact",
// or the first entry that does not match, selected. The entries come from the usage
// database (through the model), not from the connection.
class AuditPage final : public QWidget, public Page {
    Q_OBJECT
public:
    explicit AuditPage(AuditModel *model, QWidget *parent = nullptr);
    void setConnection(ClusterConnection *connection) override { Q_UNUSED(connection) }
    void setNamespace(const QString &ns) override;
    // Where Verify asks (none: the button is disabled).
    void setUsageService(UsageService *service);
    [[nodiscard]] QTableView *view() const { return m_view; }
    [[nodiscard]] AuditFilterModel *filter() const { return m_proxy; }

    // Writes the entries shown to `path` off the GUI thread; exported() follows.
    void exportCsv(const QString &path);
    void verify();

signals:
    void exported(const QString &path, const QString &error);
    void statusMessage(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // The constructor's parts, in the order it runs them.
    void setUpControls();
    void layOutPage();
    void connectFilters();
    void setUpEmptyLabelAndColumns();
    void showSelected();
    void applyFilter();
    void updateEmpty();
    void updateChoices();
    void chooseExportFile();
    void showVerified(const AuditChainReport &report);

    AuditModel *m_model;
    AuditFilterModel *m_proxy;
    QTableView *m_view;
    QPlainTextEdit *m_details;
    QCheckBox *m_onlyThis;
    QComboBox *m_nsFilter;
    QComboBox *m_actorFilter;
    QComboBox *m_actionFilter;
    QCheckBox *m_fromOn;
    QDateTimeEdit *m_from;
    QCheckBox *m_toOn;
    QDateTimeEdit *m_to;
    QPushButton *m_export;
    QPushButton *m_verify;
    QLabel *m_verdict;
    QLabel *m_empty;
    QPointer<UsageService> m_service;
    QString m_ns;
    JobTracker m_jobs{this};
};

} // namespace gq
