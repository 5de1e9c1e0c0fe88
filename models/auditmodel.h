#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QList>

namespace gq {

// One audit entry as the Audit tab shows it; the model does not know where it
// was stored, the window adapts the usage store's entries into these.
struct AuditRow {
    QDateTime when; // UTC
    QString actor;
    QString namespaceName;
    QString object; // "ResourceQuota/gpu-quota"
    QString action; // "update", "create", ...
    QString diff;   // before -> after, unified text
    QString note;
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
    [[nodiscard]] const AuditRow &at(int row) const { return m_rows.at(row); }

private:
    QList<AuditRow> m_rows;
};

} // namespace gq
