#include "models/boosts/boostlistmodel.h"

#include "core/usage/budget.h"
#include "core/domain/clock.h"

#include <QDateTime>
#include <QLocale>

namespace gq {

BoostListModel::BoostListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int BoostListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_boosts.size());
}

int BoostListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void BoostListModel::setBoosts(const QList<Boost> &boosts) {
    beginResetModel();
    m_boosts = boosts;
    endResetModel();
}

void BoostListModel::setTimeZone(const QTimeZone &zone) {
    m_zone = zone;
    if (!m_boosts.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int BoostListModel::rowOf(qint64 id) const {
    for (int r = 0; r < m_boosts.size(); ++r)
        if (m_boosts.at(r).id == id)
            return r;
    return -1;
}

QString BoostListModel::stateText(Boost::State s) {
    switch (s) {
    case Boost::State::Scheduled: return tr("scheduled");
    case Boost::State::Applying: return tr("applying");
    case Boost::State::Active: return tr("active");
    case Boost::State::Reverting: return tr("reverting");
    case Boost::State::Expired: return tr("expired");
    case Boost::State::Revoked: return tr("revoked");
    case Boost::State::Failed: return tr("failed");
    }
    return {};
}

QString BoostListModel::namespaceOf(const BoostTarget &t) {
    if (t.kind == BoostTarget::Kind::Quota ||
        (t.kind == BoostTarget::Kind::Budget && t.scope == BudgetScope::Namespace))
        return t.subject;
    return {};
}

QString BoostListModel::targetText(const BoostTarget &t) {
    if (t.kind == BoostTarget::Kind::Quota)
        return tr("%1 / %2: %3").arg(t.subject, t.quota, t.resource);
    if (t.kind == BoostTarget::Kind::ClusterQueue)
        return tr("ClusterQueue %1 / %2: %3 %4").arg(t.subject, t.quota, t.field, t.resource);
    return t.scope == BudgetScope::User ? tr("GPU-hour budget of user %1").arg(t.subject)
                                        : tr("GPU-hour budget of namespace %1").arg(t.subject);
}

QString BoostListModel::deltaText(const Boost &b) {
    QString d = b.delta;
    if (!d.startsWith(QLatin1Char('-')))
        d.prepend(QLatin1Char('+'));
    if (b.target.kind == BoostTarget::Kind::Budget)
        return tr("%1 GPU-h").arg(d);
    if (!b.setValue.isEmpty())
        return tr("%1 (to %2)").arg(d, b.setValue);
    return d;
}

QString BoostListModel::timeText(qint64 t) const {
    if (t <= 0)
        return {};
    // This year's dates without the year: the columns stay narrow enough to read at once.
    const QDateTime at = QDateTime::fromSecsSinceEpoch(t, m_zone);
    const bool thisYear = at.date().year() == Clock::system().nowUtc().toTimeZone(m_zone).date().year();
    return at.toString(thisYear ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm"));
}

QVariant BoostListModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_boosts.size())
        return {};
    const Boost &b = m_boosts.at(index.row());
    switch (role) {
    case IdRole: return b.id;
    case StateRole: return int(b.state);
    case NamespaceRole: return namespaceOf(b.target);
    case SortRole:
        switch (index.column()) {
        case IdColumn: return b.id;
        case FromColumn: return b.start;
        case UntilColumn: return b.expiry;
        default: break;
        }
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (index.column() == NoteColumn)
            return b.note;
        if (index.column() == FailureColumn && !b.reason.isEmpty())
            return b.reason;
        if (index.column() == DeltaColumn && b.recurrence.recurs())
            return QString(data(index, Qt::DisplayRole).toString() + QLatin1Char('\n') +
                           tr("Repeats until %1").arg(timeText(b.recurrence.until)));
        if (index.column() == TargetColumn || index.column() == DeltaColumn)
            return data(index, Qt::DisplayRole);
        return {};
    case Qt::DisplayRole: break;
    default: return {};
    }
    switch (index.column()) {
    case IdColumn: return QString::number(b.id);
    case TargetColumn: return targetText(b.target);
    case DeltaColumn: {
        QString text = deltaText(b);
        if (b.recurrence.recurs()) {
            QString kind;
            switch (b.recurrence.kind) {
            case BoostRecurrence::Kind::Nightly: kind = tr("nightly"); break;
            case BoostRecurrence::Kind::Weekends: kind = tr("weekends"); break;
            case BoostRecurrence::Kind::Weekdays: kind = tr("weekdays"); break;
            case BoostRecurrence::Kind::None: break;
            }
            text = tr("%1, %2 %3 (%4)").arg(text, kind, b.recurrence.window(), b.recurrence.tz);
        }
        return text;
    }
    case StateColumn: return stateText(b.state);
    case FromColumn: return timeText(b.start);
    case UntilColumn: return timeText(b.expiry);
    case ActorColumn: return b.actor;
    case NoteColumn: return QString(b.note).replace(QLatin1Char('\n'), QLatin1Char(' '));
    case FailureColumn:
        if (b.state != Boost::State::Failed)
            return QString();
        return b.nextRetry > 0 ? tr("%1 (next retry %2)").arg(b.reason, timeText(b.nextRetry)) : b.reason;
    default: return {};
    }
}

QVariant BoostListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn: return tr("ID");
    case TargetColumn: return tr("Target");
    case DeltaColumn: return tr("Change");
    case StateColumn: return tr("State");
    case FromColumn: return tr("From");
    case UntilColumn: return tr("Until");
    case ActorColumn: return tr("Who");
    case NoteColumn: return tr("Why");
    case FailureColumn: return tr("Failure");
    default: return {};
    }
}

BoostFilterModel::BoostFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(BoostListModel::SortRole);
}

void BoostFilterModel::setStates(States states) {
    m_states = states;
    invalidateFilter();
}

void BoostFilterModel::setNamespace(const QString &ns) {
    m_ns = ns;
    invalidateFilter();
}

bool BoostFilterModel::inGroup(Boost::State s, States group) {
    switch (group) {
    case States::All: return true;
    case States::Active:
        return s == Boost::State::Applying || s == Boost::State::Active || s == Boost::State::Reverting;
    case States::Scheduled: return s == Boost::State::Scheduled;
    case States::Ended: return s == Boost::State::Expired || s == Boost::State::Revoked;
    case States::Failed: return s == Boost::State::Failed;
    }
    return true;
}

bool BoostFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    const QModelIndex i = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!inGroup(Boost::State(i.data(BoostListModel::StateRole).toInt()), m_states))
        return false;
    return m_ns.isEmpty() || i.data(BoostListModel::NamespaceRole).toString() == m_ns;
}

} // namespace gq
