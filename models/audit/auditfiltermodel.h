#pragma once

#include "core/usage/auditentry.h"

#include <QSortFilterProxyModel>

namespace gq {

// The Audit tab's filters over an AuditModel: actor, namespace and action (exact, as
// `gpuquota audit list --actor --namespace --action` match them; empty: any) and a time
// range [from, to) in epoch seconds (0: open).
class AuditFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit AuditFilterModel(QObject *parent = nullptr);

    void setActor(const QString &actor);
    void setNamespace(const QString &ns);
    void setAction(const QString &action);
    void setRange(qint64 from, qint64 to);

    // The entries shown, oldest first (for Export CSV).
    [[nodiscard]] QList<AuditEntry> shownEntries() const;
    // The row showing entry `seq`, or an invalid index.
    [[nodiscard]] QModelIndex indexOfSeq(qint64 seq) const;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_actor;
    QString m_ns;
    QString m_action;
    qint64 m_from = 0;
    qint64 m_to = 0;
};

} // namespace gq
