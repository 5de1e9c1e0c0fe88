#include "models/boosts/boostrequestmodel.h"

#include "models/budgets/budgetlistmodel.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFont>

#include <algorithm>

namespace gq {

BoostRequestModel::BoostRequestModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int BoostRequestModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int BoostRequestModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void BoostRequestModel::setRequests(const QList<BoostRequestRow> &rows) {
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void BoostRequestModel::setTimeZone(const QTimeZone &zone) {
    beginResetModel();
    m_zone = zone;
    endResetModel();
}

int BoostRequestModel::rowOf(qint64 id) const {
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).request.id == id)
            return i;
    return -1;
}

int BoostRequestModel::pendingCount() const {
    return int(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const BoostRequestRow &r) {
        return r.request.state == BoostRequest::State::Pending;
    }));
}

QString BoostRequestModel::stateText(BoostRequest::State state) {
    switch (state) {
    case BoostRequest::State::Pending: return tr("pending");
    case BoostRequest::State::Approved: return tr("approved");
    case BoostRequest::State::Denied: return tr("denied");
    case BoostRequest::State::Expired: return tr("expired");
    case BoostRequest::State::Withdrawn: return tr("withdrawn");
    }
    return {};
}

QString BoostRequestModel::budgetText(const BoostRequest &r) {
    return r.scope == BudgetScope::User ? tr("user %1").arg(r.subject) : tr("namespace %1").arg(r.subject);
}

QString BoostRequestModel::usageText(const BoostRequestRow &row) {
    if (!row.budget)
        return tr("no budget applies");
    return tr("%1; %2 used")
        .arg(BudgetListModel::batteryText(*row.budget),
             BudgetListModel::gpuHoursText(row.budget->decision.used));
}

QString BoostRequestModel::timeText(qint64 t) const {
    return t > 0 ? QDateTime::fromSecsSinceEpoch(t, m_zone).toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                 : QString();
}

QVariant BoostRequestModel::display(const BoostRequestRow &row, int column) const {
    const BoostRequest &r = row.request;
    switch (column) {
    case IdColumn: return r.id;
    case StateColumn: return stateText(r.state);
    case RequesterColumn: return r.requester;
    case BudgetColumn: return budgetText(r);
    case AskedColumn:
        return tr("+%1 GPU-h until %2").arg(BudgetListModel::gpuHoursText(r.hours), timeText(r.until));
    case UsageColumn: return usageText(row);
    case NoteColumn: return r.note;
    case DecisionColumn:
        if (r.decidedAt <= 0)
            return QString();
        return r.boostId > 0 ? tr("%1 at %2 (boost %3): %4")
                                   .arg(r.decidedBy, timeText(r.decidedAt))
                                   .arg(r.boostId)
                                   .arg(r.decisionNote)
                             : tr("%1 at %2: %3").arg(r.decidedBy, timeText(r.decidedAt), r.decisionNote);
    default: return {};
    }
}

QVariant BoostRequestModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const BoostRequestRow &row = m_rows.at(index.row());
    const bool pending = row.request.state == BoostRequest::State::Pending;
    switch (role) {
    case Qt::DisplayRole: return display(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == NoteColumn || index.column() == DecisionColumn || index.column() == UsageColumn)
            return display(row, index.column());
        return {};
    case Qt::FontRole:
        if (pending) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ForegroundRole:
        if (!pending)
            return QBrush(QColor(0x70, 0x70, 0x70));
        return {};
    case IdRole: return row.request.id;
    case StateRole: return int(row.request.state);
    default: return {};
    }
}

QVariant BoostRequestModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn: return tr("Request");
    case StateColumn: return tr("State");
    case RequesterColumn: return tr("Requester");
    case BudgetColumn: return tr("Budget");
    case AskedColumn: return tr("Asked for");
    case UsageColumn: return tr("Usage now");
    case NoteColumn: return tr("Why");
    case DecisionColumn: return tr("Decision");
    default: return {};
    }
}

} // namespace gq
