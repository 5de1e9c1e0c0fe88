#include "models/quotas/limitrangemodel.h"

namespace gq {

LimitRangeModel::LimitRangeModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int LimitRangeModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LimitRangeModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LimitRangeModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LimitRangeRow &r = m_rows.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() >= MinColumn ? int(Qt::AlignRight | Qt::AlignVCenter)
                                           : int(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case ObjectColumn: return r.object;
    case TypeColumn: return r.type;
    case ResourceColumn: return r.resource;
    case MinColumn: return r.min;
    case MaxColumn: return r.max;
    case DefaultRequestColumn: return r.defaultRequest;
    case DefaultLimitColumn: return r.defaultLimit;
    case RatioColumn: return r.maxLimitRequestRatio;
    default: return {};
    }
}

QVariant LimitRangeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ObjectColumn: return tr("Name");
    case TypeColumn: return tr("Type");
    case ResourceColumn: return tr("Resource");
    case MinColumn: return tr("Min");
    case MaxColumn: return tr("Max");
    case DefaultRequestColumn: return tr("Default request");
    case DefaultLimitColumn: return tr("Default limit");
    case RatioColumn: return tr("Max limit/request");
    default: return {};
    }
}

void LimitRangeModel::setRows(QList<LimitRangeRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

} // namespace gq
