#include "models/quotas/namespacelistmodel.h"

#include "services/cluster/clusterconnection.h"
#include "core/quotas/gpuquotakeys.h"

#include "models/common/quantityformat.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QRegularExpression>
#include <QThreadPool>

#include <algorithm>
#include <memory>

namespace gq {

NamespaceListModel::NamespaceListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int NamespaceListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int NamespaceListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

int NamespaceListModel::ownBadges(const NamespaceSummary &s) {
    int b = NoBadge;
    if (s.nearLimit())
        b |= NearLimitBadge;
    if (s.overBudget)
        b |= OverBudgetBadge;
    if (s.quotaCount == 0)
        b |= NoQuotaBadge;
    if (s.terminating)
        b |= TerminatingBadge;
    if (!s.notEnforced.isEmpty())
        b |= NotEnforcedBadge;
    return b;
}

int NamespaceListModel::badges(int row) const {
    const NamespaceSummary &s = m_rows.at(row);
    int b = ownBadges(s);
    if (m_overBudget.contains(s.name))
        b |= OverBudgetBadge;
    b |= m_budgetBadges.value(s.name);
    // Over (red) says more than "in grace" when another source adds it.
    if (b & OverBudgetBadge)
        b &= ~(InGraceBadge | NearBudgetBadge);
    return b;
}

int NamespaceListModel::statusRank(int b) {
    return (b & TerminatingBadge ? 64 : 0) | (b & OverBudgetBadge ? 32 : 0) | (b & InGraceBadge ? 16 : 0) |
           (b & NotEnforcedBadge ? 8 : 0) | (b & NearLimitBadge ? 4 : 0) | (b & NearBudgetBadge ? 2 : 0) |
           (b & NoQuotaBadge ? 1 : 0);
}

QString NamespaceListModel::terminatingReason() {
    return tr("This namespace is being deleted (Terminating): the API server refuses new objects in it, "
              "so its quotas cannot be created or edited.");
}

QString NamespaceListModel::graceBadgeText(const QString &time) {
    return tr("grace until %1").arg(time);
}

QString NamespaceListModel::localTime(qint64 at, qint64 ref) {
    // Local time: the admin reads the clock on the wall, not the budget's zone.
    const QDateTime t = QDateTime::fromSecsSinceEpoch(at);
    const QLocale locale;
    // Hours and minutes in the locale's order and 12/24-hour style; some short formats
    // (C's among them) carry seconds, which a grace end does not need.
    static const QRegularExpression seconds(QStringLiteral("[.:]s+"));
    const QString time = locale.toString(t.time(), locale.timeFormat(QLocale::ShortFormat).remove(seconds));
    if (t.date() == QDateTime::fromSecsSinceEpoch(ref).date())
        return time;
    return locale.toString(t.date(), QLocale::ShortFormat) + QLatin1Char(' ') + time;
}

QString NamespaceListModel::badgeTime(qint64 at, qint64 ref) {
    const QDateTime t = QDateTime::fromSecsSinceEpoch(at);
    const qint64 days = QDateTime::fromSecsSinceEpoch(ref).date().daysTo(t.date());
    if (days == 0)
        return localTime(at, ref);
    const QLocale locale;
    if (days < 0 || days > 6) {
        // Month and day in the locale's numeric order ("5/31", "31.05", "5/31" in
        // Chinese), without the year; a format that names the month ("31 May", as C's)
        // is wider than a time and takes ISO's "05-31" instead.
        static const QRegularExpression year(QStringLiteral("^y+[^dM]*|[^dM]*y+$"));
        QString format = locale.dateFormat(QLocale::ShortFormat).remove(year);
        if (format.contains(QLatin1String("MMM")) || !format.contains(QLatin1Char('d')))
            format = QStringLiteral("MM-dd");
        return locale.toString(t.date(), format);
    }
    return locale.dayName(t.date().dayOfWeek(), QLocale::ShortFormat);
}

QString NamespaceListModel::graceEnd(const QString &name) const {
    const QList<BudgetUse> uses = m_budgets.value(name);
    const BudgetUse *first = nullptr;
    for (const BudgetUse &u : uses)
        if (u.state() == BudgetUse::State::InGrace && (!first || u.graceEndsAt < first->graceEndsAt))
            first = &u;
    return first ? badgeTime(first->graceEndsAt, first->at) : QString();
}

namespace {
QString barText(const UsageBar &bar, ResourceKind kind) {
    if (!bar.tracked)
        return QStringLiteral("—");
    return formatUsedOfHard(bar.used, bar.hard ? &*bar.hard : nullptr, kind);
}

QString badgeText(int b, const QString &graceEnd) {
    QStringList parts;
    if (b & NamespaceListModel::TerminatingBadge)
        parts << NamespaceListModel::tr("Terminating");
    if (b & NamespaceListModel::OverBudgetBadge)
        parts << NamespaceListModel::tr("over budget");
    if (b & NamespaceListModel::InGraceBadge)
        parts << NamespaceListModel::graceBadgeText(graceEnd);
    if (b & NamespaceListModel::NotEnforcedBadge)
        parts << NamespaceListModel::tr("not yet enforced");
    if (b & NamespaceListModel::NearLimitBadge)
        parts << NamespaceListModel::tr("near limit");
    if (b & NamespaceListModel::NearBudgetBadge)
        parts << NamespaceListModel::tr("near budget");
    if (b & NamespaceListModel::NoQuotaBadge)
        parts << NamespaceListModel::tr("no quota");
    return parts.join(QLatin1String(", "));
}
} // namespace

QVariant NamespaceListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const NamespaceSummary &s = m_rows.at(index.row());
    const UsageBar *bar = nullptr;
    ResourceKind kind = ResourceKind::Other;
    switch (index.column()) {
    case GpuColumn:
        bar = &s.gpu;
        kind = ResourceKind::Gpu;
        break;
    case CpuColumn:
        bar = &s.cpu;
        kind = ResourceKind::Cpu;
        break;
    case MemoryColumn:
        bar = &s.memory;
        kind = ResourceKind::Memory;
        break;
    default: break;
    }

    if (index.column() == QueueColumn && role != BadgesRole && role != NameRole)
        return queueData(s.name, role);
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return s.name;
        if (index.column() == StatusColumn)
            return badgeText(badges(index.row()), graceEnd(s.name));
        if (index.column() == GpuColumn && bar) {
            const auto live = m_live.constFind(s.name);
            if (live != m_live.cend() && live->hasReading)
                return tr("%1 · %2%").arg(barText(*bar, kind)).arg(qRound(live->meanUtilPct));
        }
        return bar ? barText(*bar, kind) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == GpuColumn && bar) {
            const auto live = m_live.constFind(s.name);
            QString tip = barToolTip(*bar, index.column());
            if (live != m_live.cend() && live->hasReading)
                tip += (tip.isEmpty() ? QString() : QStringLiteral("\n")) +
                       tr("Live: %1 GPU(s) held at %2% mean utilization")
                           .arg(QLocale().toString(live->gpus, 'g', 4))
                           .arg(qRound(live->meanUtilPct));
            return tip.isEmpty() ? QVariant() : QVariant(tip);
        }
        if (bar)
            return barToolTip(*bar, index.column());
        if (index.column() == NameColumn && !s.alertRecipients.trimmed().isEmpty())
            return tr("Alerts go to: %1").arg(alertRecipientsText(s.alertRecipients));
        if (index.column() == StatusColumn) {
            const QString tip = statusToolTip(index.row());
            return tip.isEmpty() ? QVariant() : QVariant(tip);
        }
        return {};
    case RatioRole: return bar ? bar->ratio() : QVariant();
    case BadgesRole: return badges(index.row());
    case NameRole: return s.name;
    case GraceEndRole: return graceEnd(s.name);
    case SortRole:
        if (bar)
            return bar->ratio();
        if (index.column() == StatusColumn)
            return statusRank(badges(index.row()));
        return s.name;
    default: return {};
    }
}

QString NamespaceListModel::alertRecipientsText(const QString &annotation) {
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    return annotation.split(separators, Qt::SkipEmptyParts).join(QStringLiteral(", "));
}

QString NamespaceListModel::barToolTip(const UsageBar &bar, int column) const {
    if (!bar.tracked)
        return {};
    QString tip;
    if (!bar.hard)
        tip = tr("No quota limits this resource");
    else
        tip = tr("%1 of the limit used").arg(QString::number(qRound(bar.ratio() * 100)) + QLatin1Char('%'));
    if (column == GpuColumn && bar.countsMigSlices())
        return tr("Counts MIG slices (%1), not whole GPUs: this namespace's quota limits only those.")
                   .arg(bar.resource) +
               QLatin1Char('\n') + tip;
    if (column == GpuColumn)
        if (const QString cls = gpukeys::deviceClassOf(bar.resource); !cls.isEmpty())
            return tr("GPUs from DRA claims of the device class %1 (%2)").arg(cls, bar.resource) +
                   QLatin1Char('\n') + tip;
    if (!bar.resource.isEmpty())
        return tr("Counts %1").arg(bar.resource) + QLatin1Char('\n') + tip;
    return tip;
}

QVariant NamespaceListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == GpuColumn)
        return tr("Whole GPUs (requests.nvidia.com/gpu). Where a namespace's quota limits only MIG slices, "
                  "its row counts those slices; the cell's tooltip names the resource.");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Namespace");
    case GpuColumn: return m_migRows > 0 ? tr("GPUs / MIG") : tr("GPUs");
    case CpuColumn: return tr("CPU (cores)");
    case MemoryColumn: return tr("Memory");
    case StatusColumn: return tr("Status");
    case QueueColumn: return tr("Kueue queue");
    default: return {};
    }
}

namespace {
QString graceText(qint64 seconds) {
    if (seconds > 0 && seconds % 3600 == 0)
        return NamespaceListModel::tr("%n h", nullptr, int(seconds / 3600));
    if (seconds > 0 && seconds % 60 == 0)
        return NamespaceListModel::tr("%n min", nullptr, int(seconds / 60));
    return NamespaceListModel::tr("%n s", nullptr, int(seconds));
}
} // namespace

QString NamespaceListModel::statusToolTip(int row) const {
    const int b = badges(row);
    QStringList lines;
    const QString &name = m_rows.at(row).name;
    const QList<BudgetUse> budgets = m_budgets.value(name);
    if (b & TerminatingBadge)
        lines << terminatingReason();
    if (b & NotEnforcedBadge)
        lines << tr("Not enforced yet: quota admission still applies the old value until "
                    "kube-controller-manager copies the new limit to the quota's status (%1).")
                     .arg(m_rows.at(row).notEnforced.join(QStringLiteral("; ")));
    for (const BudgetUse &u : budgets) {
        switch (u.state()) {
        case BudgetUse::State::Over:
            lines << (u.graceSeconds > 0
                          ? tr("Over its GPU-hour budget: %1 — grace (%2) is over; new and running jobs are "
                               "denied")
                                .arg(u.text(), graceText(u.graceSeconds))
                          : tr("Over its GPU-hour budget: %1 — no grace; new and running jobs are denied")
                                .arg(u.text()));
            break;
        case BudgetUse::State::InGrace:
            lines << tr("Over its GPU-hour budget: %1 — running jobs may continue until %2 (grace %3); new "
                        "jobs are denied")
                         .arg(u.text(), localTime(u.graceEndsAt, u.at), graceText(u.graceSeconds));
            break;
        case BudgetUse::State::Near:
            lines << tr("Near its GPU-hour budget: %1 (%2)")
                         .arg(u.text(), QString::number(qRound(100 * u.usedGpuHours / u.limitGpuHours)) +
                                            QLatin1Char('%'));
            break;
        case BudgetUse::State::Within: lines << tr("GPU-hour budget: %1").arg(u.text()); break;
        }
    }
    if ((b & OverBudgetBadge) && budgets.isEmpty())
        lines << tr("Over its GPU-hour budget");
    if (const QStringList users = m_usersOver.value(name); !users.isEmpty()) {
        constexpr int kNamed = 5;
        QString named = QStringList(users.mid(0, kNamed)).join(QLatin1String(", "));
        if (users.size() > kNamed)
            named += QStringLiteral(", …");
        lines << tr("%n user(s) running here over their own GPU-hour budget: %1", nullptr, int(users.size()))
                     .arg(named);
    }
    if (b & NearLimitBadge)
        lines << tr("At least one resource is at 80% of its hard limit or more");
    if (b & NoQuotaBadge)
        lines << tr("No ResourceQuota limits this namespace; create one from a template");
    return lines.join(QLatin1Char('\n'));
}

NamespaceListModel::SortKeys NamespaceListModel::computeKeys(int row) const {
    const NamespaceSummary &s = m_rows.at(row);
    return SortKeys{s.gpu.ratio(), s.cpu.ratio(), s.memory.ratio(), statusRank(badges(row))};
}

void NamespaceListModel::rebuildIndex(int fromRow) {
    for (int i = fromRow; i < m_rows.size(); ++i)
        m_index.insert(m_rows.at(i).name, i);
}

void NamespaceListModel::follow(const ClusterConnection *connection) {
    connect(connection, &ClusterConnection::namespacesReset, this, &NamespaceListModel::resetRows);
    connect(connection, &ClusterConnection::namespaceUpdated, this, &NamespaceListModel::upsert);
    connect(connection, &ClusterConnection::namespaceRemoved, this, &NamespaceListModel::remove);
}

void NamespaceListModel::resetRows(NamespaceRows rows) {
    struct Old {
        QList<NamespaceSummary> rows;
        QList<SortKeys> keys;
        QHash<QString, int> index;
    };
    // Plain arithmetic per row (~1 ms for 20,000); the index came ready.
    QList<SortKeys> keys;
    keys.reserve(rows.rows.size());
    for (const NamespaceSummary &s : std::as_const(rows.rows))
        keys.append(SortKeys{s.gpu.ratio(), s.cpu.ratio(), s.memory.ratio(), statusRank(ownBadges(s))});
    beginResetModel();
    auto old = std::make_shared<Old>();
    old->rows.swap(m_rows);
    old->keys.swap(m_keys);
    old->index.swap(m_index);
    m_rows.swap(rows.rows);
    m_keys.swap(keys);
    m_index.swap(rows.index);
    const bool migBefore = m_migRows > 0;
    m_migRows = int(std::count_if(m_rows.cbegin(), m_rows.cend(),
                                  [](const NamespaceSummary &s) { return s.gpu.countsMigSlices(); }));
    // The usage database's budget badges are this model's own: few names, applied here.
    for (const QString &n : std::as_const(m_overBudget))
        if (const int r = rowOf(n); r >= 0)
            m_keys[r].badges = statusRank(badges(r));
    for (auto it = m_budgetBadges.cbegin(); it != m_budgetBadges.cend(); ++it)
        if (const int r = rowOf(it.key()); r >= 0)
            m_keys[r].badges = statusRank(badges(r));
    endResetModel();
    if (migBefore != (m_migRows > 0))
        emit headerDataChanged(Qt::Horizontal, GpuColumn, GpuColumn);
    // 20,000 rows take a few milliseconds to free: let a worker do it.
    if (!old->rows.isEmpty())
        QThreadPool::globalInstance()->start([old]() mutable { old.reset(); });
}

void NamespaceListModel::resetAll(QList<NamespaceSummary> rows) {
    resetRows(NamespaceRows::of(std::move(rows)));
}

void NamespaceListModel::upsert(const NamespaceSummary &row) {
    const int r = rowOf(row.name);
    if (r >= 0) {
        if (m_rows.at(r) == row)
            return;
        const int migDelta = int(row.gpu.countsMigSlices()) - int(m_rows.at(r).gpu.countsMigSlices());
        m_rows[r] = row;
        countMigRows(migDelta);
        m_keys[r] = computeKeys(r);
        emit dataChanged(index(r, 0), index(r, ColumnCount - 1));
        return;
    }
    const int n = int(m_rows.size());
    beginInsertRows({}, n, n);
    m_rows.append(row);
    m_keys.append(SortKeys{});
    m_keys[n] = computeKeys(n);
    m_index.insert(row.name, n);
    endInsertRows();
    countMigRows(row.gpu.countsMigSlices() ? 1 : 0);
}

void NamespaceListModel::countMigRows(int delta) {
    if (delta == 0)
        return;
    const bool before = m_migRows > 0;
    m_migRows += delta;
    if (before != (m_migRows > 0))
        emit headerDataChanged(Qt::Horizontal, GpuColumn, GpuColumn);
}

void NamespaceListModel::remove(const QString &name) {
    const int r = rowOf(name);
    if (r < 0)
        return;
    const bool mig = m_rows.at(r).gpu.countsMigSlices();
    beginRemoveRows({}, r, r);
    m_rows.removeAt(r);
    m_keys.removeAt(r);
    m_index.remove(name);
    rebuildIndex(r);
    endRemoveRows();
    countMigRows(mig ? -1 : 0);
}

void NamespaceListModel::setOverBudget(const QSet<QString> &names) {
    if (names == m_overBudget)
        return;
    const QSet<QString> changed = (names - m_overBudget) + (m_overBudget - names);
    m_overBudget = names;
    for (const QString &n : changed) {
        const int r = rowOf(n);
        if (r >= 0) {
            m_keys[r].badges = statusRank(badges(r));
            emit dataChanged(index(r, StatusColumn), index(r, StatusColumn));
        }
    }
}

void NamespaceListModel::setBudgets(const NamespaceBudgets &budgets) {
    QHash<QString, int> flags;
    for (auto it = budgets.constBegin(); it != budgets.constEnd(); ++it) {
        BudgetUse::State worst = BudgetUse::State::Within;
        for (const BudgetUse &u : it.value())
            worst = std::max(worst, u.state());
        switch (worst) {
        case BudgetUse::State::Over: flags.insert(it.key(), OverBudgetBadge); break;
        case BudgetUse::State::InGrace: flags.insert(it.key(), InGraceBadge); break;
        case BudgetUse::State::Near: flags.insert(it.key(), NearBudgetBadge); break;
        case BudgetUse::State::Within: break;
        }
    }
    // Rows whose badge changes may move (sorted by status); rows whose numbers alone
    // changed only have a new tooltip (and grace end).
    QList<int> flipped, retold;
    QSet<QString> badged(flags.keyBegin(), flags.keyEnd());
    badged.unite(QSet<QString>(m_budgetBadges.keyBegin(), m_budgetBadges.keyEnd()));
    for (const QString &n : std::as_const(badged))
        if (flags.value(n) != m_budgetBadges.value(n))
            if (const int r = rowOf(n); r >= 0)
                flipped << r;
    for (auto it = budgets.constBegin(); it != budgets.constEnd(); ++it)
        if (m_budgets.value(it.key()) != it.value() &&
            flags.value(it.key()) == m_budgetBadges.value(it.key()))
            if (const int r = rowOf(it.key()); r >= 0)
                retold << r;
    for (auto it = m_budgets.constBegin(); it != m_budgets.constEnd(); ++it)
        if (!budgets.contains(it.key()) && !m_budgetBadges.contains(it.key()))
            if (const int r = rowOf(it.key()); r >= 0)
                retold << r;
    m_budgets = budgets;
    m_budgetBadges = flags;
    for (int r : std::as_const(flipped))
        m_keys[r].badges = statusRank(badges(r));
    const QList<int> textRoles{Qt::ToolTipRole, Qt::DisplayRole, GraceEndRole};
    // Thousands of single-row changes would each make a sorting proxy move a row
    // (130 ms for 1,000 flips at 20,000 rows); one ranged change re-sorts once.
    constexpr int kBatch = 64;
    if (flipped.size() + retold.size() > kBatch) {
        const QList<int> all = flipped + retold;
        const auto [lo, hi] = std::minmax_element(all.cbegin(), all.cend());
        emit dataChanged(index(*lo, StatusColumn), index(*hi, StatusColumn),
                         flipped.isEmpty() ? textRoles : QList<int>{});
        return;
    }
    for (int r : std::as_const(flipped))
        emit dataChanged(index(r, StatusColumn), index(r, StatusColumn));
    for (int r : std::as_const(retold))
        emit dataChanged(index(r, StatusColumn), index(r, StatusColumn), textRoles);
}

void NamespaceListModel::setUsersOverBudget(const UsersOverBudget &users) {
    if (users == m_usersOver)
        return;
    QSet<QString> changed;
    for (auto it = users.constBegin(); it != users.constEnd(); ++it)
        if (m_usersOver.value(it.key()) != it.value())
            changed.insert(it.key());
    for (auto it = m_usersOver.constBegin(); it != m_usersOver.constEnd(); ++it)
        if (!users.contains(it.key()))
            changed.insert(it.key());
    m_usersOver = users;
    for (const QString &n : std::as_const(changed))
        if (const int r = rowOf(n); r >= 0)
            emit dataChanged(index(r, StatusColumn), index(r, StatusColumn), {Qt::ToolTipRole});
}

// --- filter -----------------------------------------------------------------

NamespaceFilterModel::NamespaceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(NamespaceListModel::SortRole);
    setDynamicSortFilter(true);
}

void NamespaceFilterModel::setSourceModel(QAbstractItemModel *source) {
    m_source = qobject_cast<NamespaceListModel *>(source);
    QSortFilterProxyModel::setSourceModel(source);
}

void NamespaceFilterModel::setNameFilter(const QString &text) {
    const QString t = text.trimmed();
    if (t == m_filter)
        return;
    m_filter = t;
    invalidateRowsFilter();
}

bool NamespaceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    if (m_filter.isEmpty())
        return true;
    const QString name = m_source ? m_source->at(sourceRow).name
                                  : sourceModel()->index(sourceRow, 0, sourceParent).data().toString();
    return name.contains(m_filter, Qt::CaseInsensitive);
}

bool NamespaceFilterModel::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    if (!m_source)
        return QSortFilterProxyModel::lessThan(left, right);
    const int l = left.row(), r = right.row();
    const NamespaceListModel::SortKeys &a = m_source->sortKeys(l);
    const NamespaceListModel::SortKeys &b = m_source->sortKeys(r);
    auto byName = [&] { return m_source->at(l).name < m_source->at(r).name; };
    auto by = [&](double x, double y) { return x != y ? x < y : byName(); };
    switch (left.column()) {
    case NamespaceListModel::GpuColumn: return by(a.gpu, b.gpu);
    case NamespaceListModel::CpuColumn: return by(a.cpu, b.cpu);
    case NamespaceListModel::MemoryColumn: return by(a.memory, b.memory);
    case NamespaceListModel::StatusColumn: return a.badges != b.badges ? a.badges < b.badges : byName();
    default: return byName();
    }
}

void NamespaceListModel::setLiveGpus(const NamespaceGpuLiveMap &live) {
    if (live == m_live)
        return;
    m_live = live;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, GpuColumn), index(int(m_rows.size()) - 1, GpuColumn),
                         {Qt::DisplayRole, Qt::ToolTipRole});
}

} // namespace gq
