#include "models/audit/auditmodel.h"

#include "core/domain/limitrangespec.h"
#include "core/domain/quotaspec.h"
#include "core/domain/specdiff.h"

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

void AuditModel::loadEntries(const QList<AuditEntry> &entries) {
    m_jobs.cancel(); // a newer load replaces one still being formatted
    m_loading = true;
    m_appendedWhileLoading.clear();
    m_jobs.run(
        [entries] {
            QList<AuditRow> rows;
            rows.reserve(entries.size());
            for (const AuditEntry &e : entries)
                rows << rowFromEntry(e);
            return rows;
        },
        [this](QList<AuditRow> rows) {
            m_loading = false;
            // Appended after the load was listed: newer than all of it.
            for (const AuditRow &r : std::as_const(m_appendedWhileLoading))
                rows.prepend(r);
            m_appendedWhileLoading.clear();
            setEntries(std::move(rows));
        });
}

void AuditModel::prependEntry(const AuditEntry &entry) {
    // One entry: two small YAML documents, cheap enough here.
    AuditRow row = rowFromEntry(entry);
    if (m_loading)
        m_appendedWhileLoading << std::move(row);
    else
        prepend(row);
}

AuditRow AuditModel::rowFromEntry(const AuditEntry &entry) {
    const QString &target = entry.target;
    const QString &before = entry.before;
    const QString &after = entry.after;
    AuditRow row;
    row.when = QDateTime::fromSecsSinceEpoch(entry.at, Qt::UTC);
    row.actor = entry.actor;
    row.action = entry.action;
    row.note = entry.note;
    row.entry = entry;
    const QStringList parts = target.split(QLatin1Char('/'));
    if (target.startsWith(QLatin1String("budget/"))) {
        // "budget/user/U" is no namespace; "budget/namespace/N" is N's.
        if (parts.size() >= 3 && parts.at(1) == QLatin1String("namespace"))
            row.namespaceName = parts.mid(2).join(QLatin1Char('/'));
        row.object = target;
    } else if (parts.size() >= 3) {
        row.namespaceName = parts.at(0);
        row.object = parts.mid(1).join(QLatin1Char('/'));
    } else {
        row.object = target;
    }
    QString diff;
    if (target.contains(QLatin1String("/ResourceQuota/"))) {
        auto b = before.isEmpty() ? Result<QuotaSpec>(QuotaSpec()) : QuotaSpec::fromYaml(before.toUtf8());
        auto a = after.isEmpty() ? Result<QuotaSpec>(QuotaSpec()) : QuotaSpec::fromYaml(after.toUtf8());
        if (a && b)
            diff = diffQuota(*b, *a).toText();
    } else if (target.contains(QLatin1String("/LimitRange/"))) {
        auto b = before.isEmpty() ? Result<LimitRangeSpec>(LimitRangeSpec())
                                  : LimitRangeSpec::fromYaml(before.toUtf8());
        auto a = after.isEmpty() ? Result<LimitRangeSpec>(LimitRangeSpec())
                                 : LimitRangeSpec::fromYaml(after.toUtf8());
        if (a && b)
            diff = diffLimitRange(*b, *a).toText();
    }
    if (diff.isEmpty())
        diff = QLatin1String("--- before\n") + before + QLatin1String("\n+++ after\n") + after;
    row.diff = diff;
    return row;
}

} // namespace gq
