#pragma once

#include "core/usage/boosts.h"

#include <QAbstractTableModel>
#include <QList>
#include <QSortFilterProxyModel>
#include <QTimeZone>

#include <optional>

namespace gq {

// Every boost as the Boosts page lists it, newest first: id, target, delta, who, why,
// from, until, state and, for a failed one, why and when it is retried. Times are shown
// in `zone` (the machine's by default).
class BoostListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        StateColumn,
        TargetColumn,
        DeltaColumn,
        FromColumn,
        UntilColumn,
        ActorColumn,
        NoteColumn,
        FailureColumn,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1, // qint64
        StateRole,                 // int: Boost::State
        NamespaceRole,             // QString: the namespace it concerns ("" for a user budget)
        SortRole,
    };

    explicit BoostListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setBoosts(const QList<Boost> &boosts);
    void setTimeZone(const QTimeZone &zone);
    [[nodiscard]] const Boost &at(int row) const { return m_boosts.at(row); }
    [[nodiscard]] int rowOf(qint64 id) const;

    // The texts the page and the grant dialog share.
    [[nodiscard]] static QString stateText(Boost::State state);
    [[nodiscard]] static QString targetText(const BoostTarget &target);
    [[nodiscard]] static QString deltaText(const Boost &boost);
    [[nodiscard]] static QString namespaceOf(const BoostTarget &target);

private:
    [[nodiscard]] QString timeText(qint64 t) const;
    QList<Boost> m_boosts;
    QTimeZone m_zone = QTimeZone::systemTimeZone();
};

// Narrows the list to one group of states and (unless showing all) one namespace.
class BoostFilterModel final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    enum class States { All, Active, Scheduled, Ended, Failed };

    explicit BoostFilterModel(QObject *parent = nullptr);
    void setStates(States states);
    // Empty: every namespace (and users' budget boosts).
    void setNamespace(const QString &ns);
    [[nodiscard]] static bool inGroup(Boost::State state, States group);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    States m_states = States::All;
    QString m_ns;
};

} // namespace gq
