#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

namespace gq {

// One (type, resource) line of a LimitRange, already as display text; the model
// is read-only because LimitRanges are edited as YAML.
struct LimitRangeRow {
    QString object; // LimitRange name
    QString type;   // Container, Pod, PersistentVolumeClaim
    QString resource;
    QString min, max, defaultLimit, defaultRequest, maxLimitRequestRatio;
    friend bool operator==(const LimitRangeRow &, const LimitRangeRow &) = default;
};

class LimitRangeModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        ObjectColumn,
        TypeColumn,
        ResourceColumn,
        MinColumn,
        MaxColumn,
        DefaultRequestColumn,
        DefaultLimitColumn,
        RatioColumn,
        ColumnCount
    };

    explicit LimitRangeModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRows(QList<LimitRangeRow> rows);
    [[nodiscard]] const LimitRangeRow &at(int row) const { return m_rows.at(row); }

private:
    QList<LimitRangeRow> m_rows;
};

} // namespace gq
