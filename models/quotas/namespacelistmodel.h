#pragma once

#include "models/livegpus/livegpumodel.h"
#include "services/queues/namespacequeues.h"
#include "core/quotas/namespacesummary.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QSortFilterProxyModel>

namespace gq {

class ClusterConnection;

// The namespace list: one row per namespace with its GPU, CPU and memory bars and
// badges. Built for tens of thousands of rows: a name index makes watch updates
// O(1) to find, and a whole sync arrives as one reset instead of 20,000 inserts.
class NamespaceListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    // QueueColumn: the namespace's Kueue LocalQueue(s) and their ClusterQueue's GPUs
    // (setQueues(); namespacelistqueues.cpp).
    enum Column { NameColumn, GpuColumn, CpuColumn, MemoryColumn, StatusColumn, QueueColumn, ColumnCount };
    // A namespace shows at most one of the three GPU-hour budget badges: the worst
    // state of its budgets (OverBudgetBadge: over and no grace left).
    enum Badge {
        NoBadge = 0,
        NearLimitBadge = 1,
        OverBudgetBadge = 2,
        NoQuotaBadge = 4,
        NearBudgetBadge = 8,
        InGraceBadge = 16,
        TerminatingBadge = 32, // being deleted: no edits (terminatingReason())
        NotEnforcedBadge = 64, // a GPU limit in spec.hard that status.hard does not show yet
    };
    enum Role {
        RatioRole = Qt::UserRole + 1, // double: used/hard, -1 without a limit
        BadgesRole,                   // int: Badge flags
        SortRole,                     // a value that sorts the column meaningfully
        NameRole,                     // QString: the namespace name, any column
        GraceEndRole,                 // QString: local time the grace ends (with InGraceBadge)
    };
    Q_ENUM(Role)

    explicit NamespaceListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Keeps this list to the connection's namespaces: its full lists, updates and
    // removals (the connection summarises them; this model only shows them).
    void follow(const ClusterConnection *connection);

    // A full list with its name index already built (off the GUI thread), so the
    // reset itself is a swap plus the sort keys.
    void resetRows(NamespaceRows rows);
    void resetAll(QList<NamespaceSummary> rows);
    void upsert(const NamespaceSummary &row);
    void remove(const QString &name);
    void setOverBudget(const QSet<QString> &names);
    // GPU-hour budgets from the usage database: sets the budget badges (near, in
    // grace, over) and the numbers the status tooltip shows.
    void setBudgets(const NamespaceBudgets &budgets);
    // Users running in a namespace who are over their own budget (tooltip only).
    void setUsersOverBudget(const UsersOverBudget &users);
    // Live GPU utilization per namespace (from the metrics source): the GPU cell reads
    // "8 / 10 · 3%" so a namespace holding GPUs at low use shows without switching pages.
    // Empty (no source): the cells show quota use only.
    void setLiveGpus(const NamespaceGpuLiveMap &live);
    // Kueue's LocalQueues per namespace; hasQueues() is false without Kueue (the view
    // hides the column then).
    void setQueues(const NamespaceQueueMap &queues);
    [[nodiscard]] bool hasQueues() const { return !m_queues.isEmpty(); }
    // "nlp → cq-nlp 20/16" per LocalQueue, joined with ", ".
    [[nodiscard]] static QString queueText(const QList<NamespaceQueue> &queues);

    // The badge texts, shared with the delegate that paints them.
    [[nodiscard]] static QString graceBadgeText(const QString &time);
    // "14:15" in local time, with the date when `at` is on another local day than `ref`.
    [[nodiscard]] static QString localTime(qint64 at, qint64 ref);
    // The grace end as the status badge shows it, short enough for the column (which
    // must fit a 1200 px window): the time on ref's day, the weekday within the next six
    // days, else month and day (the tooltip has the full time).
    [[nodiscard]] static QString badgeTime(qint64 at, qint64 ref);
    // The gpuquota.io/alert-recipients annotation as the name's tooltip lists it: "a@x, b@y".
    [[nodiscard]] static QString alertRecipientsText(const QString &annotation);
    // Why nothing can be created or edited in a Terminating namespace (tooltips, menus).
    [[nodiscard]] static QString terminatingReason();
    // Sort order of the status column: worst first when descending.
    [[nodiscard]] static int statusRank(int badges);

    [[nodiscard]] int rowOf(const QString &name) const { return m_index.value(name, -1); }
    [[nodiscard]] const NamespaceSummary &at(int row) const { return m_rows.at(row); }
    [[nodiscard]] int badges(int row) const;

    // Precomputed per row so sorting 20,000 rows compares doubles, not quantities.
    struct SortKeys {
        double gpu = -1;
        double cpu = -1;
        double memory = -1;
        int badges = 0; // statusRank() of the badges
    };
    [[nodiscard]] const SortKeys &sortKeys(int row) const { return m_keys.at(row); }

signals:
    // hasQueues() changed: the view shows or hides QueueColumn.
    void queuesShownChanged(bool shown);

private:
    void rebuildIndex(int fromRow);
    [[nodiscard]] SortKeys computeKeys(int row) const;
    [[nodiscard]] static int ownBadges(const NamespaceSummary &s); // without m_overBudget
    [[nodiscard]] QString statusToolTip(int row) const;
    [[nodiscard]] QString barToolTip(const UsageBar &bar, int column) const;
    [[nodiscard]] QVariant queueData(const QString &name, int role) const;
    // The GPU header names MIG slices while some row counts them (m_migRows > 0).
    void countMigRows(int delta);

    QList<NamespaceSummary> m_rows;
    QList<SortKeys> m_keys;
    QHash<QString, int> m_index;
    int m_migRows = 0; // rows whose GPU bar counts MIG slices, not devices
    [[nodiscard]] QString graceEnd(const QString &name) const;

    QSet<QString> m_overBudget;         // setOverBudget(): names only, no numbers
    QHash<QString, int> m_budgetBadges; // from setBudgets(): one budget badge per name
    NamespaceBudgets m_budgets;
    UsersOverBudget m_usersOver;
    NamespaceGpuLiveMap m_live;
    NamespaceQueueMap m_queues;
};

// Filter-as-you-type on the name and sorting by any column. Sorting compares the
// source rows directly: going through QVariant for 20,000 rows costs ~10x more.
class NamespaceFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit NamespaceFilterModel(QObject *parent = nullptr);
    void setSourceModel(QAbstractItemModel *source) override;

    void setNameFilter(const QString &text);
    [[nodiscard]] QString nameFilter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    NamespaceListModel *m_source = nullptr;
    QString m_filter;
};

} // namespace gq
