#pragma once

#include "core/domain/quantity.h"
#include "models/common/quantityformat.h"

#include <QAbstractTableModel>
#include <QMap>

#include <optional>

class QUndoStack;

namespace gq {

class QuotaTableRowCommand;

// The editable quota table of one ResourceQuota: one row per resource with used,
// hard and a percent bar. Edits stay pending (highlighted) until applied or
// reverted; the model never talks to the server, it only says what the user wants.
// Every edit (setHard/setData, addResource, removeResource, revert) is a command on
// undoStack(), so the pending-change highlight follows undo and redo; load() starts
// a fresh history, because the edit is now based on a different server object.
class QuotaTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ResourceColumn, UsedColumn, HardColumn, UsageColumn, ColumnCount };
    enum Role {
        RatioRole = Qt::UserRole + 1, // double: used / pending hard, -1 without a limit
        PendingRole,                  // bool: this row differs from the server
        BelowUsedRole,                // bool: pending hard is lower than current use
        KindRole,                     // int: ResourceKind of the row's resource
        QuantityRole,                 // Quantity of the cell (used or pending hard)
        RemovedRole,                  // bool: row is marked for removal
        IgnoredRole,                  // bool: the API server accepts the key, quota never counts it
        OwnerRole,                    // QString: another manager that re-applies this key, or empty
    };

    struct Row {
        QString resource;
        std::optional<Quantity> used;
        std::optional<Quantity> original; // empty for a row the user added
        Quantity hard;                    // pending value
        bool removed = false;

        [[nodiscard]] bool pending() const { return removed || !original || *original != hard; }
        [[nodiscard]] bool belowUsed() const { return !removed && used && hard < *used; }
    };

    explicit QuotaTableModel(QObject *parent = nullptr);
    ~QuotaTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces everything, dropping pending edits: a new object was selected.
    void load(const QMap<QString, Quantity> &hard, const QMap<QString, Quantity> &used);
    // The server's used values moved on; pending edits are kept.
    void updateUsed(const QMap<QString, Quantity> &used);
    void setEditable(bool editable);
    [[nodiscard]] bool isEditable() const { return m_editable; }

    [[nodiscard]] QUndoStack *undoStack() const { return m_undo; }

    bool setHard(int row, const Quantity &q);
    // Adds a resource row with a pending hard value; false if it already exists.
    bool addResource(const QString &resource, const Quantity &hard);
    // Marks a server row for removal, or drops a row that was only added locally.
    void removeResource(int row);
    // Back to the server's values, as one undoable step (nothing happens if clean).
    void revert();

    [[nodiscard]] bool isDirty() const;
    [[nodiscard]] QMap<QString, Quantity> originalHard() const;
    [[nodiscard]] QMap<QString, Quantity> editedHard() const;
    [[nodiscard]] QStringList resourcesBelowUsed() const;
    [[nodiscard]] const Row &row(int r) const { return m_rows.at(r); }
    [[nodiscard]] int rowOf(const QString &resource) const;

    // Keys the API server accepts but quota never counts: an extended resource without the
    // `requests.` prefix (nvidia.com/gpu) or with `limits.` (limits.nvidia.com/gpu). Such a
    // row shows "not counted" instead of a use of 0 that would look like room.
    [[nodiscard]] static bool isIgnoredByQuota(const QString &resource);
    [[nodiscard]] static QString ignoredReason(const QString &resource);
    [[nodiscard]] QStringList ignoredResources() const;
    // Keys another field manager owns and re-applies (Argo CD, Flux, Helm; from the object's
    // managedFields): resource -> manager. Kept across load() until set again.
    void setOtherOwners(const QMap<QString, QString> &owners);
    [[nodiscard]] QString otherOwner(const QString &resource) const { return m_owners.value(resource); }
    // "requests.nvidia.com/gpu is managed by argocd-controller: your change will be reverted
    // on its next sync", for every owned row (pendingOnly: only rows with a pending change).
    [[nodiscard]] QStringList ownerWarnings(bool pendingOnly) const;

signals:
    void dirtyChanged(bool dirty);

private:
    friend class QuotaTableRowCommand;
    // Puts one resource's row into `state` (absent: no row); used by the commands.
    void applyRowState(const QString &resource, const std::optional<Row> &state);
    void pushRowChange(const QString &text, int row, const std::optional<Row> &after);
    void notifyDirty();
    [[nodiscard]] QVariant noteData(const Row &r, int col, int role) const;

    QUndoStack *m_undo;

    QList<Row> m_rows;
    QMap<QString, QString> m_owners;
    bool m_editable = true;
    bool m_lastDirty = false;
};

} // namespace gq
