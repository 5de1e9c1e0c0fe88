#include "models/audit/auditfiltermodel.h"

#include "models/audit/auditmodel.h"

#include <algorithm>

namespace gq {

AuditFilterModel::AuditFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent) {}

void AuditFilterModel::setActor(const QString &actor) {
    m_actor = actor.trimmed();
    invalidateFilter();
}

void AuditFilterModel::setNamespace(const QString &ns) {
    m_ns = ns.trimmed();
    invalidateFilter();
}

void AuditFilterModel::setAction(const QString &action) {
    m_action = action.trimmed();
    invalidateFilter();
}

void AuditFilterModel::setRange(qint64 from, qint64 to) {
    m_from = from;
    m_to = to;
    invalidateFilter();
}

bool AuditFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    Q_UNUSED(sourceParent)
    const auto *model = qobject_cast<const AuditModel *>(sourceModel());
    if (!model || sourceRow >= model->rowCount())
        return false;
    const AuditRow &r = model->at(sourceRow);
    if (!m_actor.isEmpty() && r.actor != m_actor)
        return false;
    if (!m_ns.isEmpty() && r.namespaceName != m_ns)
        return false;
    if (!m_action.isEmpty() && r.action != m_action)
        return false;
    const qint64 at = r.when.toSecsSinceEpoch();
    if (m_from > 0 && at < m_from)
        return false;
    if (m_to > 0 && at >= m_to)
        return false;
    return true;
}

QList<AuditEntry> AuditFilterModel::shownEntries() const {
    const auto *model = qobject_cast<const AuditModel *>(sourceModel());
    QList<AuditEntry> out;
    if (!model)
        return out;
    for (int r = 0; r < rowCount(); ++r)
        out << model->at(mapToSource(index(r, 0)).row()).entry;
    std::sort(out.begin(), out.end(), [](const AuditEntry &a, const AuditEntry &b) { return a.seq < b.seq; });
    return out;
}

QModelIndex AuditFilterModel::indexOfSeq(qint64 seq) const {
    const auto *model = qobject_cast<const AuditModel *>(sourceModel());
    if (!model)
        return {};
    for (int r = 0; r < rowCount(); ++r) {
        const QModelIndex i = index(r, 0);
        if (model->at(mapToSource(i).row()).entry.seq == seq)
            return i;
    }
    return {};
}

} // namespace gq
