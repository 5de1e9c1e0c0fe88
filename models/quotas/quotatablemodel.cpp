#include "models/quotas/quotatablemodel.h"

#include "core/domain/resourcenames.h"

#include <QColor>
#include <QFont>
#include <QUndoStack>

#include <algorithm>
#include <limits>

namespace gq {

// One resource's row before and after an edit. Rows are found by resource name,
// not index: the row may have moved (rows added or dropped) since the command ran.
class QuotaTableRowCommand final : public QUndoCommand {
public:
    QuotaTableRowCommand(QuotaTableModel *model, const QString &text, const QString &resource,
                         std::optional<QuotaTableModel::Row> before,
                         std::optional<QuotaTableModel::Row> after, QUndoCommand *parent = nullptr)
        : QUndoCommand(text, parent)
        , m_model(model)
        , m_resource(resource)
        , m_before(std::move(before))
        , m_after(std::move(after)) {}

    void undo() override { m_model->applyRowState(m_resource, m_before); }
    void redo() override { m_model->applyRowState(m_resource, m_after); }

private:
    QuotaTableModel *m_model;
    QString m_resource;
    std::optional<QuotaTableModel::Row> m_before;
    std::optional<QuotaTableModel::Row> m_after;
};

QuotaTableModel::QuotaTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_undo(new QUndoStack(this)) {}

QuotaTableModel::~QuotaTableModel() {
    // The stack clears itself on destruction; a model going away is not an undo event.
    m_undo->blockSignals(true);
}

int QuotaTableModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int QuotaTableModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {
double ratioOf(const QuotaTableModel::Row &r) {
    const Quantity used = r.used.value_or(Quantity());
    if (r.hard.isZero())
        return used.isZero() ? 0.0 : std::numeric_limits<double>::infinity();
    return used.toDouble() / r.hard.toDouble();
}
} // namespace

QVariant QuotaTableModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows.at(index.row());
    const ResourceKind kind = resourceKind(r.resource);
    const int col = index.column();
    if (QVariant note = noteData(r, col, role); note.isValid())
        return note;

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case ResourceColumn: return r.resource;
        case UsedColumn: return r.used ? formatQuantity(*r.used, kind) : QString();
        case HardColumn: {
            QString text = formatQuantity(r.hard, kind);
            if (r.original && *r.original != r.hard && !r.removed)
                text = tr("%1 (was %2)").arg(text, formatQuantity(*r.original, kind));
            return text;
        }
        case UsageColumn: {
            const double ratio = ratioOf(r);
            if (r.removed)
                return tr("removed");
            return ratio == std::numeric_limits<double>::infinity()
                       ? tr("over")
                       : QString::number(qRound(ratio * 100)) + QLatin1Char('%');
        }
        default: return {};
        }
    case Qt::EditRole:
        if (col == HardColumn)
            return QVariant::fromValue(r.hard);
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (r.belowUsed())
            return tr("The new limit is below current use (%1). Existing pods keep running, "
                      "but new ones will be rejected until use falls below the limit.")
                .arg(formatQuantity(*r.used, kind));
        if (r.removed)
            return tr("This resource will no longer be limited once applied");
        if (!r.original)
            return tr("New resource, not yet applied");
        if (r.pending())
            return tr("Changed from %1, not yet applied").arg(r.original->toString());
        if (col == HardColumn && m_editable)
            return tr("Double-click to edit the hard limit");
        return {};
    case Qt::BackgroundRole:
        if (r.belowUsed() && (col == HardColumn || col == UsageColumn))
            return QColor(0xfd, 0xe2, 0xe1);
        if (r.pending())
            return QColor(0xff, 0xf4, 0xc2);
        return {};
    case Qt::FontRole:
        if (r.removed || (r.pending() && col == HardColumn)) {
            QFont f;
            f.setStrikeOut(r.removed);
            f.setBold(!r.removed);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        if (col == ResourceColumn)
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case RatioRole: return r.removed ? -1.0 : ratioOf(r);
    case PendingRole: return r.pending();
    case BelowUsedRole: return r.belowUsed();
    case KindRole: return int(kind);
    case RemovedRole: return r.removed;
    case QuantityRole:
        if (col == UsedColumn)
            return r.used ? QVariant::fromValue(*r.used) : QVariant();
        if (col == HardColumn)
            return QVariant::fromValue(r.hard);
        return {};
    default: return {};
    }
}

// What an ignored key or another owner changes in a row's cells; invalid: nothing.
QVariant QuotaTableModel::noteData(const Row &r, int col, int role) const {
    const bool ignored = !r.removed && isIgnoredByQuota(r.resource);
    if (ignored) {
        if (role == Qt::DisplayRole && col == UsedColumn)
            return tr("not counted");
        if (role == Qt::DisplayRole && col == UsageColumn)
            return tr("ignored");
        if (role == RatioRole)
            return -1.0;
        if (role == Qt::ToolTipRole)
            return ignoredReason(r.resource);
        if (role == Qt::ForegroundRole)
            return QColor(0x80, 0x80, 0x80);
    }
    if (role == IgnoredRole)
        return ignored;
    if (role == OwnerRole)
        return otherOwner(r.resource);
    const QString owner = otherOwner(r.resource);
    if (!owner.isEmpty() && role == Qt::ToolTipRole && (col == HardColumn || col == ResourceColumn))
        return tr("Managed by %1: your change will be reverted on its next sync").arg(owner);
    return {};
}

bool QuotaTableModel::isIgnoredByQuota(const QString &resource) {
    // DRA: <class>.deviceclass.resource.k8s.io/devices is counted by quota (claims' devices).
    if (resource.contains(QLatin1String(".deviceclass.resource.k8s.io/")))
        return false;
    const ResourceNameKind kind = classifyResourceName(resource).kind;
    return kind == ResourceNameKind::Extended || kind == ResourceNameKind::QuotaLimits;
}

QString QuotaTableModel::ignoredReason(const QString &resource) {
    const ResourceNameInfo info = classifyResourceName(resource);
    const QString base = info.kind == ResourceNameKind::QuotaLimits ? info.base : resource;
    return tr("The API server accepts %1 but quota never counts it: extended resources are limited in "
              "quota only as requests.%2. This entry limits nothing.")
        .arg(resource, base);
}

QStringList QuotaTableModel::ignoredResources() const {
    QStringList out;
    for (const Row &r : m_rows)
        if (!r.removed && isIgnoredByQuota(r.resource))
            out << r.resource;
    return out;
}

void QuotaTableModel::setOtherOwners(const QMap<QString, QString> &owners) {
    if (owners == m_owners)
        return;
    m_owners = owners;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

QStringList QuotaTableModel::ownerWarnings(bool pendingOnly) const {
    QStringList out;
    for (const Row &r : m_rows) {
        const QString owner = otherOwner(r.resource);
        if (!owner.isEmpty() && (!pendingOnly || r.pending()))
            out << tr("%1 is managed by %2: your change will be reverted on its next sync")
                       .arg(r.resource, owner);
    }
    return out;
}

bool QuotaTableModel::setData(const QModelIndex &index, const QVariant &value, int role) {
    if (role != Qt::EditRole || index.column() != HardColumn || !m_editable ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    if (value.canConvert<Quantity>() && value.metaType() == QMetaType::fromType<Quantity>())
        return setHard(index.row(), value.value<Quantity>());
    auto parsed = Quantity::parse(value.toString().trimmed());
    if (!parsed)
        return false;
    return setHard(index.row(), *parsed);
}

Qt::ItemFlags QuotaTableModel::flags(const QModelIndex &index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == HardColumn && m_editable && !m_rows.at(index.row()).removed)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant QuotaTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ResourceColumn: return tr("Resource");
    case UsedColumn: return tr("Used");
    case HardColumn: return tr("Hard limit");
    case UsageColumn: return tr("Usage");
    default: return {};
    }
}

void QuotaTableModel::load(const QMap<QString, Quantity> &hard, const QMap<QString, Quantity> &used) {
    beginResetModel();
    m_rows.clear();
    for (auto it = hard.constBegin(); it != hard.constEnd(); ++it) {
        Row r;
        r.resource = it.key();
        if (auto u = used.constFind(it.key()); u != used.constEnd())
            r.used = *u;
        r.original = it.value();
        r.hard = it.value();
        m_rows.append(r);
    }
    endResetModel();
    m_undo->clear();
    notifyDirty();
}

void QuotaTableModel::updateUsed(const QMap<QString, Quantity> &used) {
    for (int i = 0; i < m_rows.size(); ++i) {
        Row &r = m_rows[i];
        std::optional<Quantity> u;
        if (auto it = used.constFind(r.resource); it != used.constEnd())
            u = *it;
        if (u != r.used) {
            r.used = u;
            emit dataChanged(index(i, 0), index(i, ColumnCount - 1));
        }
    }
}

void QuotaTableModel::setEditable(bool editable) {
    if (m_editable == editable)
        return;
    m_editable = editable;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

bool QuotaTableModel::setHard(int row, const Quantity &q) {
    if (row < 0 || row >= m_rows.size() || q.sign() < 0)
        return false;
    const Row &r = m_rows.at(row);
    if (r.hard == q && r.hard.toString() == q.toString())
        return true;
    Row after = r;
    after.hard = q;
    pushRowChange(tr("Set %1 to %2").arg(r.resource, formatQuantity(q, resourceKind(r.resource))), row,
                  after);
    return true;
}

bool QuotaTableModel::addResource(const QString &resource, const Quantity &hard) {
    const int existing = rowOf(resource);
    Row after;
    if (existing >= 0) {
        // Re-adding a row marked for removal brings it back.
        if (!m_rows.at(existing).removed)
            return false;
        after = m_rows.at(existing);
        after.removed = false;
    } else {
        after.resource = resource;
    }
    after.hard = hard;
    pushRowChange(tr("Add %1").arg(resource), existing, after);
    return true;
}

void QuotaTableModel::removeResource(int row) {
    if (row < 0 || row >= m_rows.size() || m_rows.at(row).removed)
        return;
    const Row &r = m_rows.at(row);
    std::optional<Row> after;
    if (r.original) {
        after = r;
        after->removed = true;
    }
    pushRowChange(tr("Remove %1").arg(r.resource), row, after);
}

void QuotaTableModel::revert() {
    if (!isDirty())
        return;
    auto *all = new QUndoCommand(tr("Revert all changes"));
    for (const Row &r : std::as_const(m_rows)) {
        if (!r.pending())
            continue;
        std::optional<Row> after;
        if (r.original) {
            after = r;
            after->hard = *r.original;
            after->removed = false;
        }
        new QuotaTableRowCommand(this, QString(), r.resource, r, after, all);
    }
    m_undo->push(all);
}

void QuotaTableModel::pushRowChange(const QString &text, int row, const std::optional<Row> &after) {
    std::optional<Row> before;
    if (row >= 0)
        before = m_rows.at(row);
    const QString resource = after ? after->resource : before->resource;
    m_undo->push(new QuotaTableRowCommand(this, text, resource, before, after));
}

void QuotaTableModel::applyRowState(const QString &resource, const std::optional<Row> &state) {
    const int at = rowOf(resource);
    if (!state) {
        if (at >= 0) {
            beginRemoveRows({}, at, at);
            m_rows.removeAt(at);
            endRemoveRows();
        }
    } else if (at >= 0) {
        // used follows the server, not the history.
        const std::optional<Quantity> used = m_rows.at(at).used;
        m_rows[at] = *state;
        m_rows[at].used = used;
        emit dataChanged(index(at, 0), index(at, ColumnCount - 1));
    } else {
        auto pos = std::lower_bound(m_rows.cbegin(), m_rows.cend(), resource,
                                    [](const Row &r, const QString &name) { return r.resource < name; });
        const int insertAt = int(pos - m_rows.cbegin());
        beginInsertRows({}, insertAt, insertAt);
        m_rows.insert(insertAt, *state);
        endInsertRows();
    }
    notifyDirty();
}

bool QuotaTableModel::isDirty() const {
    return std::any_of(m_rows.cbegin(), m_rows.cend(), [](const Row &r) { return r.pending(); });
}

QMap<QString, Quantity> QuotaTableModel::originalHard() const {
    QMap<QString, Quantity> m;
    for (const Row &r : m_rows)
        if (r.original)
            m.insert(r.resource, *r.original);
    return m;
}

QMap<QString, Quantity> QuotaTableModel::editedHard() const {
    QMap<QString, Quantity> m;
    for (const Row &r : m_rows)
        if (!r.removed)
            m.insert(r.resource, r.hard);
    return m;
}

QStringList QuotaTableModel::resourcesBelowUsed() const {
    QStringList out;
    for (const Row &r : m_rows)
        if (r.belowUsed())
            out << r.resource;
    return out;
}

int QuotaTableModel::rowOf(const QString &resource) const {
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).resource == resource)
            return i;
    return -1;
}

void QuotaTableModel::notifyDirty() {
    const bool d = isDirty();
    if (d != m_lastDirty) {
        m_lastDirty = d;
        emit dirtyChanged(d);
    }
}

} // namespace gq
