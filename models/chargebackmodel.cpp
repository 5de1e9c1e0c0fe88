#include "chargebackmodel.h"

#include "money.h"

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
        case RateColumn:
            return QString(formatRate(l.rateMicros) + (l.mixedRate ? QStringLiteral("*") : QString()));
        case CostColumn: return formatCents(l.costCents);
        case UsedColumn:
        case IdleColumn: return tr("not recorded");
        default: return {};
        }
    }
    if (role == SortRole) {
        switch (col) {
        case SubjectColumn: return l.subject;
        case GpuHoursColumn: return l.hoursE4;
        case RateColumn: return l.rateMicros;
        case CostColumn: return l.costCents;
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole)
        return col >= GpuHoursColumn && col <= CostColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                          : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && (col == UsedColumn || col == IdleColumn))
        return QGuiApplication::palette().color(QPalette::PlaceholderText);
    if (role == Qt::ToolTipRole) {
        if (col == UsedColumn || col == IdleColumn)
            return tr("The usage database records which GPUs were held, not how busy they were, so what "
                      "was used and the idle share cannot be shown yet.");
        if (col == RateColumn && l.mixedRate) {
            QStringList parts;
            for (auto it = l.resourceGpuHours.cbegin(); it != l.resourceGpuHours.cend(); ++it)
                parts << tr("%1: %2 GPU-h at %3")
                             .arg(it.key(), formatHoursE4(hoursE4(it.value())),
                                  formatRate(m_report.rates.rateFor(it.key())));
            return tr("Average of the resources' rates, weighted by GPU-hours:\n%1")
                .arg(parts.join(QLatin1Char('\n')));
        }
    }
    return {};
}

QVariant ChargebackModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SubjectColumn: return m_report.by == GroupBy::User ? tr("User") : tr("Namespace");
    case GpuHoursColumn: return tr("GPU-hours held");
    case RateColumn: return tr("Rate");
    case CostColumn: return tr("Cost");
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
