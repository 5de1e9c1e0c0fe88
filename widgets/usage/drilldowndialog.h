#pragma once

#include "core/usage/usagecharts.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QTableView;

namespace gq {

class DrillDownModel;
class UsageChartService;

// The intervals behind one bar segment (pod, user, resource, GPUs, start, end,
// GPU-hours in the bucket), sortable, with their sum next to the bar's value, and
// CSV export. Reads off the GUI thread.
class DrillDownDialog final : public QDialog {
    Q_OBJECT
public:
    DrillDownDialog(UsageChartService *service, const DrillQuery &query, const QString &title,
                    double barValue, QWidget *parent = nullptr);
    ~DrillDownDialog() override;
    [[nodiscard]] DrillDownModel *model() const { return m_model; }
    [[nodiscard]] bool isLoaded() const { return m_loaded; }

private:
    void exportCsv();
    DrillDownModel *m_model;
    QTableView *m_table;
    QLabel *m_sum;
    double m_barValue;
    bool m_loaded = false;
    QPointer<UsageChartService> m_service;
    QString m_channel; // this dialog's in the service
};

} // namespace gq
