#pragma once

#include "services/budgets/budgetservice.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <optional>

namespace gq {

// The Budgets page's table: every user and namespace budget with its period, limit,
// grace and zone, what is left of it now (a battery: fraction left and state) and,
// under it, the forecast. Three two-line columns (SecondLineRole), so the page fits
// beside the namespace list. Texts come from the static functions below so tests and the
// delegate read the same words.
//
// Grouped by Kueue queue (setGrouping), each queue has a row of its own above its
// budgets (GroupHeaderRole) with the subtotals of used and limit GPU-hours; a budget goes
// to its queue as groupByQueue() says (budgetservice.h).
class BudgetListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SubjectColumn,   // the subject; second line its scope
        LimitColumn,     // limit per period with boosts; second line grace and zone
        AlertsColumn,    // thresholds alerted this period; second line the last alert sent
        RemainingColumn, // the battery; second line the forecast
        ColumnCount
    };
    enum Role {
        FractionLeftRole = Qt::UserRole + 1, // double 0..1 of the limit left (0 when over)
        StateRole,                           // int: BudgetState
        SortRole,                            // remaining GPU-h in the Remaining column
        SecondLineRole,                      // QString: the smaller second line of a cell
        GroupRole,                           // int: the row's queue group (-1 ungrouped)
        GroupHeaderRole,                     // bool: the row is a queue's subtotal row
    };
    Q_ENUM(Role)

    explicit BudgetListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setOverview(const BudgetOverview &overview);
    // The cluster's LocalQueues, and the queue level the rows are grouped by (none: a
    // flat list).
    void setQueues(const kueue::QueueAttribution &queues);
    void setGrouping(std::optional<kueue::QueueLevel> level);
    [[nodiscard]] std::optional<kueue::QueueLevel> grouping() const { return m_level; }
    [[nodiscard]] const QList<BudgetGroup> &groups() const { return m_groups; }
    // The budget of `row`; null for a queue's subtotal row.
    [[nodiscard]] const BudgetRow *budgetAt(int row) const;
    // The budget of `row`, which must not be a subtotal row.
    [[nodiscard]] const BudgetRow &at(int row) const { return *budgetAt(row); }
    // The queue group of `row` (a subtotal row or a budget under it); null ungrouped.
    [[nodiscard]] const BudgetGroup *groupAt(int row) const;
    [[nodiscard]] qint64 now() const { return m_overview.now; }

    // "2.3 GPU-h left of 8 today", "1.5 GPU-h over 8 this week".
    [[nodiscard]] static QString batteryText(const BudgetRow &row);
    // "at this rate: spent by 15:40 (in 2 h 10 min)", "not at this rate", "" when
    // nothing runs; local wall-clock time.
    [[nodiscard]] static QString forecastText(const BudgetRow &row, qint64 now);
    // "2 h 10 min", "45 min", "3 d 4 h", "less than a minute".
    [[nodiscard]] static QString durationText(qint64 seconds);
    // "8", "7.5": a GPU-hour number without trailing zeros, in the current locale.
    [[nodiscard]] static QString gpuHoursText(double h);
    [[nodiscard]] static QString periodText(Period p);
    [[nodiscard]] static double fractionLeft(const BudgetRow &row);
    // "80% · 100% sent", "none yet this period"; "last: 04:00 by email to lead@example.org".
    [[nodiscard]] static QString alertsText(const BudgetRow &row);
    [[nodiscard]] static QString lastAlertText(const BudgetRow &row, qint64 now);

private:
    struct Entry {
        int budget = -1; // index into m_overview.rows; -1: the group's subtotal row
        int group = -1;  // index into m_groups; -1 ungrouped
    };
    void rebuild();
    [[nodiscard]] QVariant groupData(const BudgetGroup &g, int column, int role) const;

    BudgetOverview m_overview;
    kueue::QueueAttribution m_queues;
    std::optional<kueue::QueueLevel> m_level;
    QList<BudgetGroup> m_groups;
    QList<Entry> m_entries;
};

// Sorts the Budgets table by a column within each queue group, the groups in their
// order and each subtotal row above its budgets, in either direction.
class BudgetSortProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;
};

} // namespace gq
