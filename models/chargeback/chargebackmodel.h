#pragma once

#include "core/report/chargeback.h"

#include <QAbstractTableModel>

namespace gq {

// A chargeback report as a table for the Chargeback page: one row per subject in the
// report's order (highest cost first). Used and idle share come from the idle spans
// the controller records, "not recorded" for a subject without any. The totals are
// not a row (a sorted view would move them): the page shows them below the table.
class ChargebackModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SubjectColumn,
        GpuHoursColumn,
        RateColumn,
        CostColumn,
        UsedColumn,
        IdleColumn,
        ColumnCount
    };
    // The exact value for sorting (GPU-hours in 1e-4 h, rate in micros, cost in cents).
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit ChargebackModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setReport(const ChargebackReport &report);
    void clear();
    [[nodiscard]] const ChargebackReport &report() const { return m_report; }
    [[nodiscard]] bool hasReport() const { return m_hasReport; }

private:
    ChargebackReport m_report;
    bool m_hasReport = false;
};

} // namespace gq
