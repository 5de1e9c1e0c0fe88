#include "models/usage/drilldownmodel.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>

namespace gq {

DrillDownModel::DrillDownModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_zone(QTimeZone::utc()) {}

void DrillDownModel::setDrill(const DrillData &data) {
    beginResetModel();
    m_data = data;
    const auto tz = parseZone(data.query.query.zone);
    m_zone = tz ? *tz : QTimeZone::utc();
    endResetModel();
}

int DrillDownModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_data.rows.size());
}

int DrillDownModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DrillDownModel::sortKey(const DrillRow &row, int column) const {
    const UsageInterval &iv = row.interval;
    switch (column) {
    case PodColumn: return iv.podName;
    case NamespaceColumn: return iv.ns;
    case UserColumn: return iv.user;
    case ResourceColumn: return iv.resource;
    case GpusColumn: return iv.gpus;
    case StartColumn: return iv.start;
    case EndColumn: return iv.end ? *iv.end : std::numeric_limits<qint64>::max();
    case GpuHoursColumn: return row.gpuHoursInBucket;
    }
    return {};
}

QVariant DrillDownModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_data.rows.size())
        return {};
    const DrillRow &row = m_data.rows.at(index.row());
    const UsageInterval &iv = row.interval;
    const QLocale locale;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case StartColumn:
            return locale.toString(QDateTime::fromSecsSinceEpoch(iv.start, m_zone), QLocale::ShortFormat);
        case EndColumn: {
            if (!iv.end)
                return tr("running");
            const QString end =
                locale.toString(QDateTime::fromSecsSinceEpoch(*iv.end, m_zone), QLocale::ShortFormat);
            // The pod vanished while no controller watched: closed at its last heartbeat.
            return iv.endEstimated ? tr("%1 (estimated)").arg(end) : end;
        }
        case GpuHoursColumn: return locale.toString(row.gpuHoursInBucket, 'f', 3);
        default: return sortKey(row, index.column());
        }
    }
    if (role == Qt::UserRole)
        return sortKey(row, index.column());
    if (role == Qt::TextAlignmentRole && (index.column() == GpusColumn || index.column() == GpuHoursColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant DrillDownModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PodColumn: return tr("Pod");
    case NamespaceColumn: return tr("Namespace");
    case UserColumn: return tr("User");
    case ResourceColumn: return tr("Resource");
    case GpusColumn: return tr("GPUs");
    case StartColumn: return tr("Start");
    case EndColumn: return tr("End");
    case GpuHoursColumn: return tr("GPU-hours in bucket");
    }
    return {};
}

void DrillDownModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged();
    std::stable_sort(m_data.rows.begin(), m_data.rows.end(), [&](const DrillRow &a, const DrillRow &b) {
        const QVariant ka = sortKey(a, column), kb = sortKey(b, column);
        const auto c = QVariant::compare(ka, kb);
        return order == Qt::AscendingOrder ? c == QPartialOrdering::Less : c == QPartialOrdering::Greater;
    });
    emit layoutChanged();
}

} // namespace gq
