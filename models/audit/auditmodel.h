#pragma once

#include "core/usage/auditentry.h"
#include "core/jobs/jobtracker.h"

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

namespace gq {

// One audit entry as the Audit tab shows it: rowFromEntry() makes it from what the
// audit log stored.
struct AuditRow {
    QDateTime when; // UTC
    QString actor;
    QString namespaceName;
    QString object; // "ResourceQuota/gpu-quota"
    QString action; // "update", "create", ...
    QString diff;   // before -> after, unified text
    QString note;
    AuditEntry entry; // as stored (seq, target, before/after, hash: export and verify)
    friend bool operator==(const AuditRow &, const AuditRow &) = default;
};

class AuditModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        WhenColumn,
        ActorColumn,
        NamespaceColumn,
        ObjectColumn,
        ActionColumn,
        NoteColumn,
        ColumnCount
    };
    enum Role { DiffRole = Qt::UserRole + 1 };

    explicit AuditModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Newest first, as given.
    void setEntries(QList<AuditRow> rows);
    void prepend(const AuditRow &row);
    // Stored entries, newest first: formatted on the thread pool (a thousand spec
    // diffs), then shown; an entry appended meanwhile lands on top once they are.
    void loadEntries(const QList<gq::AuditEntry> &entries);
    void prependEntry(const gq::AuditEntry &entry);

    // Pure: what the Audit tab shows for an entry (the spec diff when both sides
    // parse as the same kind, else the texts).
    [[nodiscard]] static AuditRow rowFromEntry(const AuditEntry &entry);
    [[nodiscard]] const AuditRow &at(int row) const { return m_rows.at(row); }

private:
    QList<AuditRow> m_rows;
    QList<AuditRow> m_appendedWhileLoading; // oldest first
    bool m_loading = false;
    JobTracker m_jobs{this};
};

} // namespace gq
