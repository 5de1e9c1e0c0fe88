#include "models/chargeback/chargebackmodel.h"

#include "core/report/chargebackformat.h"
#include "core/report/money.h"

#include <QColor>
#include <QGuiApplication>
#include <QPalette>

namespace gq {

ChargebackModel::ChargebackModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int ChargebackModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_report.lines.size());
}

int ChargebackModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ChargebackModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_report.lines.size())
        return {};
    const ChargebackLine &l = m_report.lines.at(index.row());
    const int col = index.column();
    if (role == Qt::DisplayRole) {
        switch (col) {
        case SubjectColumn: return l.subject;
        case GpuHoursColumn: return formatHoursE4(l.hoursE4);
        case RateColumn: return QString(lineRate(l) + (l.mixedRate ? QStringLiteral("*") : QString()));
        case CostColumn: return formatCents(l.costCents);
        case UsedColumn: return l.usedE4() ? formatHoursE4(*l.usedE4()) : tr("not recorded");
        case IdleColumn:
            return l.idlePerMille()
                       ? tr("%1 (%2 GPU-h)").arg(formatShare(*l.idlePerMille()), formatHoursE4(*l.idleE4))
                       : tr("not recorded");
        default: return {};
        }
    }
    if (role == SortRole) {
        switch (col) {
        case SubjectColumn: return l.subject;
        case GpuHoursColumn: return l.hoursE4;
        case RateColumn: return l.rateMicros;
        case CostColumn: return l.costCents;
        case UsedColumn: return l.usedE4() ? QVariant(*l.usedE4()) : QVariant(qint64(-1));
        case IdleColumn: return l.idlePerMille() ? QVariant(*l.idlePerMille()) : QVariant(-1);
        default: return {};
        }
    }
    const bool recorded = l.idleE4.has_value();
    if (role == Qt::TextAlignmentRole)
        return (col >= GpuHoursColumn && col <= CostColumn) || (recorded && col == UsedColumn)
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && !recorded && (col == UsedColumn || col == IdleColumn))
        return QGuiApplication::palette().color(QPalette::PlaceholderText);
    if (role == Qt::ToolTipRole) {
        if (!recorded && (col == UsedColumn || col == IdleColumn))
            return tr("No idle spans were recorded for these GPUs in this month: the controller records "
                      "them when it is given a metrics source. What was held is charged either way.");
        if (recorded && (col == UsedColumn || col == IdleColumn))
            return tr("Used = held - idle. Idle: GPU-hours the controller found under the idle threshold "
                      "in this month (idle spans).");
        if (col == RateColumn && l.mixedRate) {
            QStringList parts;
            for (const RatedHours &p : l.parts)
                if (p.hoursE4 > 0)
                    parts << tr("%1: %2 GPU-h at %3")
                                 .arg(p.model.isEmpty() ? p.resource
                                                        : QStringLiteral("%1 (%2)").arg(p.resource, p.model),
                                      formatHoursE4(p.hoursE4), formatRate(p.rateMicros));
            return tr("Effective rate: the cost divided by the GPU-hours, charged as:\n%1")
                .arg(parts.join(QLatin1Char('\n')));
        }
    }
    return {};
}

QVariant ChargebackModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SubjectColumn: {
        const QString kind = subjectKind(m_report);
        if (kind == QLatin1String("clusterqueue"))
            return tr("ClusterQueue");
        if (kind == QLatin1String("localqueue"))
            return tr("LocalQueue");
        return m_report.by == GroupBy::User ? tr("User") : tr("Namespace");
    }
    case GpuHoursColumn: return tr("GPU-hours held");
    case RateColumn: return tr("Rate");
    case CostColumn:
        return m_report.rates.currency.isEmpty() ? tr("Cost") : tr("Cost (%1)").arg(m_report.rates.currency);
    case UsedColumn: return tr("Used");
    case IdleColumn: return tr("Idle share");
    default: return {};
    }
}

void ChargebackModel::setReport(const ChargebackReport &report) {
    beginResetModel();
    m_report = report;
    m_hasReport = true;
    endResetModel();
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void ChargebackModel::clear() {
    beginResetModel();
    m_report = {};
    m_hasReport = false;
    endResetModel();
}

} // namespace gq
