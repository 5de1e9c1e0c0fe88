#include "models/usage/rankingmodel.h"

#include "core/quotas/namespacesummary.h"
#include "models/usage/stackedchart.h"

#include <QBrush>
#include <QLocale>

namespace gq {

RankingModel::RankingModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_subjectHeader(tr("Subject")) {}

void RankingModel::setSubjectHeader(const QString &header) {
    m_subjectHeader = header;
    emit headerDataChanged(Qt::Horizontal, SubjectColumn, SubjectColumn);
}

void RankingModel::setRows(const QList<std::pair<QString, double>> &rows,
                           const QHash<QString, Decision> &budgets, bool withBudgets) {
    beginResetModel();
    m_rows = rows;
    m_budgets = budgets;
    m_withBudgets = withBudgets;
    m_total = 0;
    for (const auto &r : rows)
        m_total += r.second;
    endResetModel();
}

int RankingModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RankingModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : (m_withBudgets ? ColumnCount : BudgetColumn);
}

QString RankingModel::budgetText(const Decision &d) {
    if (!d.hasBudget)
        return {};
    BudgetUse use;
    use.period = d.budget.period == Period::Week    ? BudgetUse::Period::Week
                 : d.budget.period == Period::Month ? BudgetUse::Period::Month
                                                    : BudgetUse::Period::Day;
    use.usedGpuHours = d.used;
    use.limitGpuHours = d.limit;
    use.inGrace = d.outcome == Decision::Outcome::AllowedInGrace;
    switch (use.state()) {
    case BudgetUse::State::Within: return use.text();
    case BudgetUse::State::Near: return tr("near: %1").arg(use.text());
    case BudgetUse::State::InGrace: return tr("in grace: %1").arg(use.text());
    case BudgetUse::State::Over: return tr("over: %1").arg(use.text());
    }
    return use.text();
}

QVariant RankingModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const auto &[subject, hours] = m_rows.at(index.row());
    const double share = m_total > 0 ? hours / m_total : 0;
    const QLocale locale;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case SubjectColumn: return subject;
        case GpuHoursColumn: return locale.toString(hours, 'f', 2);
        case ShareColumn: return QString(locale.toString(share * 100, 'f', 1) + QLatin1Char('%'));
        case BudgetColumn:
            return m_budgets.contains(subject) ? budgetText(m_budgets.value(subject)) : tr("none");
        }
    } else if (role == ValueRole) {
        switch (index.column()) {
        case SubjectColumn: return subject;
        case GpuHoursColumn: return hours;
        case ShareColumn: return share;
        case BudgetColumn: return m_budgets.value(subject).remaining;
        }
    } else if (role == Qt::TextAlignmentRole && index.column() != SubjectColumn &&
               index.column() != BudgetColumn) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::DecorationRole && index.column() == SubjectColumn) {
        return SubjectColors::base(subject);
    } else if (role == Qt::ForegroundRole && index.column() == BudgetColumn && m_budgets.contains(subject)) {
        if (m_budgets.value(subject).overLimit())
            return QBrush(QColor(0xc6, 0x28, 0x28));
    }
    return {};
}

QVariant RankingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SubjectColumn: return m_subjectHeader;
    case GpuHoursColumn: return tr("GPU-hours");
    case ShareColumn: return tr("Share");
    case BudgetColumn: return tr("Budget");
    }
    return {};
}

} // namespace gq
