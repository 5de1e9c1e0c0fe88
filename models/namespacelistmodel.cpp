#include "models/namespacelistmodel.h"

#include "models/quantityformat.h"

#include <QBrush>
#include <QColor>
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
    return b;
}

int NamespaceListModel::badges(int row) const {
    const NamespaceSummary &s = m_rows.at(row);
    int b = ownBadges(s);
    if (m_overBudget.contains(s.name))
        b |= OverBudgetBadge;
    return b;
}

namespace {
QString barText(const UsageBar &bar, ResourceKind kind) {
    if (!bar.tracked)
        return QStringLiteral("—");
    return formatUsedOfHard(bar.used, bar.hard ? &*bar.hard : nullptr, kind);
}

QString badgeText(int b) {
    QStringList parts;
    if (b & NamespaceListModel::OverBudgetBadge)
        parts << NamespaceListModel::tr("over budget");
    if (b & NamespaceListModel::NearLimitBadge)
        parts << NamespaceListModel::tr("near limit");
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

    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return s.name;
        if (index.column() == StatusColumn)
            return badgeText(badges(index.row()));
        return bar ? barText(*bar, kind) : QVariant();
    case Qt::ToolTipRole:
        if (bar && bar->hard)
            return tr("%1 of the limit used")
                .arg(QString::number(qRound(bar->ratio() * 100)) + QLatin1Char('%'));
        if (bar && bar->tracked)
            return tr("No quota limits this resource");
        if (index.column() == StatusColumn) {
            const QString tip = statusToolTip(index.row());
            return tip.isEmpty() ? QVariant() : QVariant(tip);
        }
        return {};
    case RatioRole: return bar ? bar->ratio() : QVariant();
    case BadgesRole: return badges(index.row());
    case NameRole: return s.name;
    case SortRole:
        if (bar)
            return bar->ratio();
        if (index.column() == StatusColumn)
            return badges(index.row());
        return s.name;
    default: return {};
    }
}

QVariant NamespaceListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Namespace");
    case GpuColumn: return tr("GPUs");
    case CpuColumn: return tr("CPU (cores)");
    case MemoryColumn: return tr("Memory");
    case StatusColumn: return tr("Status");
    default: return {};
    }
}

QString NamespaceListModel::statusToolTip(int row) const {
    const int b = badges(row);
    QStringList lines;
    const QList<BudgetUse> budgets = m_budgets.value(m_rows.at(row).name);
    for (const BudgetUse &u : budgets)
        lines << (u.over() ? tr("Over its GPU-hour budget: %1").arg(u.text())
                           : tr("GPU-hour budget: %1").arg(u.text()));
    if ((b & OverBudgetBadge) && budgets.isEmpty())
        lines << tr("Over its GPU-hour budget");
    if (b & NearLimitBadge)
        lines << tr("At least one resource is at 80% of its hard limit or more");
    if (b & NoQuotaBadge)
        lines << tr("No ResourceQuota limits this namespace; create one from a template");
    return lines.join(QLatin1Char('\n'));
}

NamespaceListModel::SortKeys NamespaceListModel::computeKeys(int row) const {
    const NamespaceSummary &s = m_rows.at(row);
    return SortKeys{s.gpu.ratio(), s.cpu.ratio(), s.memory.ratio(), badges(row)};
}

void NamespaceListModel::rebuildIndex(int fromRow) {
    for (int i = fromRow; i < m_rows.size(); ++i)
        m_index.insert(m_rows.at(i).name, i);
}

NamespaceListModel::Prepared NamespaceListModel::prepare(QList<NamespaceSummary> rows) {
    Prepared p;
    p.rows = std::move(rows);
    p.index.reserve(p.rows.size());
    p.keys.reserve(p.rows.size());
    for (int i = 0; i < p.rows.size(); ++i) {
        const NamespaceSummary &s = p.rows.at(i);
        p.index.insert(s.name, i);
        p.keys.append(SortKeys{s.gpu.ratio(), s.cpu.ratio(), s.memory.ratio(), ownBadges(s)});
    }
    return p;
}

void NamespaceListModel::resetPrepared(Prepared prepared) {
    beginResetModel();
    auto old = std::make_shared<Prepared>();
    old->rows.swap(m_rows);
    old->keys.swap(m_keys);
    old->index.swap(m_index);
    m_rows.swap(prepared.rows);
    m_keys.swap(prepared.keys);
    m_index.swap(prepared.index);
    // The usage database's over-budget set is this model's own: few names, applied here.
    for (const QString &n : std::as_const(m_overBudget)) {
        if (const int r = rowOf(n); r >= 0)
            m_keys[r].badges |= OverBudgetBadge;
    }
    endResetModel();
    // 20,000 rows take a few milliseconds to free: let a worker do it.
    if (!old->rows.isEmpty())
        QThreadPool::globalInstance()->start([old]() mutable { old.reset(); });
}

void NamespaceListModel::resetAll(QList<NamespaceSummary> rows) {
    resetPrepared(prepare(std::move(rows)));
}

void NamespaceListModel::upsert(const NamespaceSummary &row) {
    const int r = rowOf(row.name);
    if (r >= 0) {
        if (m_rows.at(r) == row)
            return;
        m_rows[r] = row;
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
}

void NamespaceListModel::remove(const QString &name) {
    const int r = rowOf(name);
    if (r < 0)
        return;
    beginRemoveRows({}, r, r);
    m_rows.removeAt(r);
    m_keys.removeAt(r);
    m_index.remove(name);
    rebuildIndex(r);
    endRemoveRows();
}

void NamespaceListModel::setOverBudget(const QSet<QString> &names) {
    if (names == m_overBudget)
        return;
    const QSet<QString> changed = (names - m_overBudget) + (m_overBudget - names);
    m_overBudget = names;
    for (const QString &n : changed) {
        const int r = rowOf(n);
        if (r >= 0) {
            m_keys[r].badges = badges(r);
            emit dataChanged(index(r, StatusColumn), index(r, StatusColumn));
        }
    }
}

void NamespaceListModel::setBudgets(const NamespaceBudgets &budgets) {
    QSet<QString> over;
    for (auto it = budgets.constBegin(); it != budgets.constEnd(); ++it)
        for (const BudgetUse &u : it.value())
            if (u.over())
                over.insert(it.key());
    // Rows whose badge flips may move (sorted by status); rows whose numbers alone
    // changed only have a new tooltip.
    QList<int> flipped, retold;
    for (const QString &n : (over - m_overBudget) + (m_overBudget - over))
        if (const int r = rowOf(n); r >= 0)
            flipped << r;
    for (auto it = budgets.constBegin(); it != budgets.constEnd(); ++it)
        if (m_budgets.value(it.key()) != it.value() &&
            over.contains(it.key()) == m_overBudget.contains(it.key()))
            if (const int r = rowOf(it.key()); r >= 0)
                retold << r;
    for (auto it = m_budgets.constBegin(); it != m_budgets.constEnd(); ++it)
        if (!budgets.contains(it.key()) && !m_overBudget.contains(it.key()))
            if (const int r = rowOf(it.key()); r >= 0)
                retold << r;
    m_budgets = budgets;
    m_overBudget = over;
    for (int r : std::as_const(flipped))
        m_keys[r].badges = badges(r);
    // Thousands of single-row changes would each make a sorting proxy move a row
    // (130 ms for 1,000 flips at 20,000 rows); one ranged change re-sorts once.
    constexpr int kBatch = 64;
    if (flipped.size() + retold.size() > kBatch) {
        const QList<int> all = flipped + retold;
        const auto [lo, hi] = std::minmax_element(all.cbegin(), all.cend());
        emit dataChanged(index(*lo, StatusColumn), index(*hi, StatusColumn),
                         flipped.isEmpty() ? QList<int>{Qt::ToolTipRole} : QList<int>{});
        return;
    }
    for (int r : std::as_const(flipped))
        emit dataChanged(index(r, StatusColumn), index(r, StatusColumn));
    for (int r : std::as_const(retold))
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

} // namespace gq
