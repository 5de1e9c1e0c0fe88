#pragma once

#include "core/usage/budget.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

namespace gq {

// Subjects with their GPU-hours and share of the total, heaviest first, optionally
// with each one's budget state: the table beside a usage chart (every subject, not
// only the chart's top N) and the dashboard's top users.
class RankingModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { SubjectColumn, GpuHoursColumn, ShareColumn, BudgetColumn, ColumnCount };
    enum Role { ValueRole = Qt::UserRole + 1 }; // numbers for sorting

    explicit RankingModel(QObject *parent = nullptr);
    void setSubjectHeader(const QString &header);
    // Budget column shown only when `budgets` is given (a namespace's users).
    void setRows(const QList<std::pair<QString, double>> &rows, const QHash<QString, Decision> &budgets = {},
                 bool withBudgets = false);
    [[nodiscard]] QString subjectAt(int row) const { return m_rows.value(row).first; }
    [[nodiscard]] double total() const { return m_total; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "12.5 of 8.0 GPU-h today", "over: 12.5 of 8.0 GPU-h today", ...; empty without one.
    [[nodiscard]] static QString budgetText(const Decision &d);

private:
    QList<std::pair<QString, double>> m_rows;
    QHash<QString, Decision> m_budgets;
    QString m_subjectHeader;
    double m_total = 0;
    bool m_withBudgets = false;
};

} // namespace gq
