#include "models/auditmodel.h"

namespace gq {

AuditModel::AuditModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int AuditModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AuditRow &r = m_rows.at(index.row());
    if (role == DiffRole)
        return r.diff;
    if (role == Qt::ToolTipRole)
        return r.diff.isEmpty() ? QVariant() : QVariant(r.diff);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case WhenColumn: return r.when.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    case ActorColumn: return r.actor;
    case NamespaceColumn: return r.namespaceName;
    case ObjectColumn: return r.object;
    case ActionColumn: return r.action;
    case NoteColumn: return r.note;
    default: return {};
    }
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case WhenColumn: return tr("When");
    case ActorColumn: return tr("Who");
    case NamespaceColumn: return tr("Namespace");
    case ObjectColumn: return tr("Object");
    case ActionColumn: return tr("Action");
    case NoteColumn: return tr("Note");
    default: return {};
    }
}

void AuditModel::setEntries(QList<AuditRow> rows) {
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

void AuditModel::prepend(const AuditRow &row) {
    beginInsertRows({}, 0, 0);
    m_rows.prepend(row);
    endInsertRows();
}

} // namespace gq
