#pragma once

#include "core/report/chargeback.h"
#include "core/jobs/jobtracker.h"
#include "widgets/common/page.h"
#include "core/kueue/queueattribution.h"

#include <QWidget>

class QComboBox;
class QDateEdit;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace gq {

class ChargebackModel;
class ChargebackService;

// The Chargeback tab: a month's GPU-hours per namespace, user or Kueue queue times a rate (one
// rate, or a rates file), with the period, zone and rate stated above the table and
// the totals below; exported as CSV or PDF, the same files `gpuquota report
// chargeback` writes. The report comes from the usage database through a
// ChargebackService (services/), which queries off the GUI thread (a changed month or
// zone replaces the query still out); file writes run off it too. The selected
// namespace is highlighted when it has a line.
class ChargebackPage final : public QWidget, public Page {
    Q_OBJECT
public:
    // On `service`, the context's (ContextServices::chargeback(), a lane of the context's
    // one usage database); null: a service with a database of its own (tests).
    explicit ChargebackPage(ChargebackService *service, QWidget *parent = nullptr);
    explicit ChargebackPage(QWidget *parent = nullptr)
        : ChargebackPage(nullptr, parent) {}
    void setConnection(ClusterConnection *connection) override { Q_UNUSED(connection) }
    void setNamespace(const QString &ns) override;
    // The month's zone, the rate (until a rates file replaces it) and the currency
    // shown where a rates file names none.
    void setPreferences(const PagePreferences &preferences) override;
    // The usage database to read; empty shows nothing. Loads the report.
    // `password`: PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass).
    void setDatabaseUrl(const QString &url, const QString &password = {});
    // The cluster's LocalQueues, for charging per ClusterQueue / LocalQueue.
    void setQueues(const kueue::QueueAttribution &queues);

    // What the export buttons do after their file dialog; exportFinished() follows.
    void exportCsv(const QString &path);
    void exportPdf(const QString &path);

    [[nodiscard]] ChargebackModel *model() const { return m_model; }
    [[nodiscard]] bool isLoading() const { return m_loading; }

signals:
    // A report was shown (or failed to load: `error` is then set).
    void reportShown(const QString &error);
    void exportFinished(const QString &path, const QString &error);
    void statusMessage(const QString &message);

private:
    void setUpPeriodControls();
    void setUpRateControls();
    void setUpTable();
    // Returns the rate's label, which hides with the rate while a rates file is set.
    QLabel *layOut();
    void connectControls(QLabel *rateLabel);
    void refresh();
    void showReport(const ChargebackReport &report);
    void showError(const QString &message);
    void chooseRatesFile();
    void chooseExport(bool pdf);
    void selectNamespaceRow();
    [[nodiscard]] QString headerText(const ChargebackReport &report) const;

    ChargebackService *m_service;
    ChargebackModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QDateEdit *m_month;
    QComboBox *m_zone;
    QComboBox *m_by;
    QDoubleSpinBox *m_rate;
    QLineEdit *m_ratesFile;
    QPushButton *m_browse;
    QPushButton *m_csv;
    QPushButton *m_pdf;
    QLabel *m_header;
    QTableView *m_view;
    QLabel *m_total;
    QLabel *m_status;
    QString m_ns;
    kueue::QueueAttribution m_queues;
    QString m_currency;
    bool m_loading = false;
    JobTracker m_exports{this};
};

} // namespace gq
