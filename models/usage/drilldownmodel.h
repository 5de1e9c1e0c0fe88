#pragma once

#include "core/usage/usagecharts.h"

#include <QAbstractTableModel>

namespace gq {

// The intervals behind one bar segment, sortable by any column; total() is what
// the bar shows.
class DrillDownModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        PodColumn,
        NamespaceColumn,
        UserColumn,
        ResourceColumn,
        GpusColumn,
        StartColumn,
        EndColumn,
        GpuHoursColumn,
        ColumnCount
    };

    explicit DrillDownModel(QObject *parent = nullptr);
    void setDrill(const DrillData &data);
    [[nodiscard]] const DrillData &drill() const { return m_data; }
    [[nodiscard]] double total() const { return m_data.total(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

private:
    [[nodiscard]] QVariant sortKey(const DrillRow &row, int column) const;
    DrillData m_data;
    QTimeZone m_zone;
};

} // namespace gq
