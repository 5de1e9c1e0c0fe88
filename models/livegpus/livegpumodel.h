#pragma once

#include "core/metrics/gpusample.h"
#include "core/metrics/idle.h"

#include "models/usage/stackedchart.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSortFilterProxyModel>

namespace gq {

// The cluster at a glance: what the Live GPU page's summary line counts. A physical GPU
// split into MIG instances counts through its instances, not once more itself.
struct LiveGpuSummary {
    int busy = 0;          // allocated, at or over the idle threshold
    int allocatedIdle = 0; // allocated, under the threshold now
    int free = 0;          // no holder
    int shared = 0;        // allocated to several holders (time-slicing, MPS, vGPU)
    int noReading = 0;     // allocated, but the source reports no utilization
    [[nodiscard]] int total() const { return busy + allocatedIdle + free + noReading; }
};

// One namespace's live share of the fleet, for the namespace list ("8 GPUs · 3%").
struct NamespaceGpuLive {
    double gpus = 0;        // GPUs held now (a MIG slice counts its fraction)
    double meanUtilPct = 0; // weighted by the GPUs held; only over GPUs that report
    bool hasReading = false;
    friend bool operator==(const NamespaceGpuLive &, const NamespaceGpuLive &) = default;
};
using NamespaceGpuLiveMap = QHash<QString, NamespaceGpuLive>;

// A snapshot's GPUs per namespace (a shared GPU counts for each namespace holding it).
[[nodiscard]] NamespaceGpuLiveMap namespaceGpuLive(const metrics::GpuSnapshot &snapshot);

// Mean utilization per namespace over [fromMs, toMs) in `buckets` equal buckets, one line
// per namespace (the `topN` holding the most GPU time), from query_range timelines.
// A bucket where a namespace held no reporting GPU has NaN (no point).
[[nodiscard]] StackedChart namespaceUtilizationChart(const QList<metrics::GpuTimeline> &history,
                                                     qint64 fromMs, qint64 toMs, int buckets, int topN);

// The live GPU table: one row per GPU and MIG instance of the latest snapshot, with the
// last minutes of utilization per row for a sparkline. A refresh with the same GPUs (the
// usual case) updates the rows in place, so views keep selection and scroll position and
// repaint only what is visible; a changed fleet resets.
class LiveGpuModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NodeColumn,
        IndexColumn,
        ModelColumn,
        MigColumn,
        UtilColumn,
        MemoryColumn,
        PowerColumn,
        TempColumn,
        HolderColumn,
        UserColumn,
        SharedColumn,
        HistoryColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for numeric columns; missing values sort first
        UtilRole,                    // double 0..100, invalid without a reading
        HistoryRole,                 // QList<double>: utilization, oldest first (NaN: no reading)
        NamespaceRole,               // the first holder's namespace; empty when free
        StateRole,                   // int State
        KeyRole,                     // GpuSample::key()
    };
    enum State { Free, Busy, AllocatedIdle, NoReading, MigParent };
    Q_ENUM(State)

    explicit LiveGpuModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setSnapshot(const metrics::GpuSnapshot &snapshot);
    // Utilization over the last minutes per GPU (from query_range), newest last;
    // `sinceMs`: readings before it are left out (the sparkline's window).
    void setHistory(const QList<metrics::GpuTimeline> &history, qint64 sinceMs);
    // Under this utilization an allocated GPU counts as idle (the summary, the tile colour).
    void setIdleThreshold(double pct);
    // The holders' users, "ns/pod" -> the pod's user label (GpuMonitor::usersAvailable).
    void setUsers(const QHash<QString, QString> &usersByPod);
    // The users of a row's holders, in holder order, each once; empty where unknown.
    [[nodiscard]] QStringList usersOf(const metrics::GpuSample &g) const;
    [[nodiscard]] double idleThreshold() const { return m_threshold; }

    [[nodiscard]] const metrics::GpuSample &gpuAt(int row) const { return m_rows.at(row); }
    [[nodiscard]] const metrics::GpuSnapshot &snapshot() const { return m_snapshot; }
    [[nodiscard]] LiveGpuSummary summary() const;
    [[nodiscard]] State stateOf(int row) const;

    // "3g.40gb #1", "37 %", "20.0 / 80.0 GiB", ... as the table shows them.
    [[nodiscard]] static QString utilText(const std::optional<double> &pct);
    [[nodiscard]] static QString memoryText(const metrics::GpuSample &g);
    [[nodiscard]] static QString holdersText(const metrics::GpuSample &g);

private:
    [[nodiscard]] QVariant display(const metrics::GpuSample &g, int row, int column) const;
    [[nodiscard]] QVariant sortValue(const metrics::GpuSample &g, int row, int column) const;

    metrics::GpuSnapshot m_snapshot;
    QList<metrics::GpuSample> m_rows;
    QList<bool> m_migParent;                 // row is a physical GPU with MIG instances below it
    QHash<QString, QList<double>> m_history; // by GpuSample::key()
    QHash<QString, QString> m_users;         // "ns/pod" -> user
    double m_threshold = 5;
};

// Filter-as-you-type over every text column (node, model, MIG profile, holder) and
// numeric sorting by SortRole. The tile view hides the physical rows of MIG GPUs (their
// instances have tiles of their own).
class LiveGpuFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LiveGpuFilterModel(QObject *parent = nullptr);
    void setText(const QString &text);
    void setHideMigParents(bool hide);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_text;
    bool m_hideMigParents = false;
};

// The idle GPUs list: allocated GPUs under the threshold for the duration, largest
// waste first (any column sorts; SortRole holds the numbers).
class IdleGpuModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NodeColumn,
        IndexColumn,
        MigColumn,
        NamespaceColumn,
        PodColumn,
        SinceColumn,
        ForColumn,
        MeanUtilColumn,
        WasteColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1, NamespaceRole };

    explicit IdleGpuModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setIdle(const QList<metrics::IdleGpu> &idle);
    [[nodiscard]] const metrics::IdleGpu &idleAt(int row) const { return m_rows.at(row); }
    [[nodiscard]] double totalWaste() const;

    // "1 h 25 min", "12 min", "40 s".
    [[nodiscard]] static QString durationText(qint64 ms);

private:
    QList<metrics::IdleGpu> m_rows;
};

} // namespace gq
