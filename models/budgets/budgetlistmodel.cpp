#include "models/budgets/budgetlistmodel.h"

#include "core/usage/newcomer.h"
#include "models/quotas/namespacelistmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include <cmath>

namespace gq {

BudgetListModel::BudgetListModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int BudgetListModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_entries.size());
}

int BudgetListModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void BudgetListModel::setOverview(const BudgetOverview &overview) {
    m_overview = overview;
    rebuild();
}

void BudgetListModel::setQueues(const kueue::QueueAttribution &queues) {
    m_queues = queues;
    if (m_level)
        rebuild();
}

void BudgetListModel::setGrouping(std::optional<kueue::QueueLevel> level) {
    m_level = level;
    rebuild();
}

void BudgetListModel::rebuild() {
    beginResetModel();
    m_entries.clear();
    m_groups = m_level ? groupByQueue(m_overview.rows, m_queues, *m_level) : QList<BudgetGroup>{};
    if (!m_level)
        for (int i = 0; i < m_overview.rows.size(); ++i)
            m_entries.append(Entry{i, -1});
    for (int g = 0; g < m_groups.size(); ++g) {
        m_entries.append(Entry{-1, g});
        for (const int i : m_groups.at(g).members)
            m_entries.append(Entry{i, g});
    }
    endResetModel();
}

const BudgetRow *BudgetListModel::budgetAt(int row) const {
    if (row < 0 || row >= m_entries.size() || m_entries.at(row).budget < 0)
        return nullptr;
    return &m_overview.rows.at(m_entries.at(row).budget);
}

const BudgetGroup *BudgetListModel::groupAt(int row) const {
    if (row < 0 || row >= m_entries.size() || m_entries.at(row).group < 0)
        return nullptr;
    return &m_groups.at(m_entries.at(row).group);
}

QVariant BudgetListModel::groupData(const BudgetGroup &g, int column, int role) const {
    const bool over = g.used > g.limit + kGpuHourTolerance && g.unlimited == 0;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case SubjectColumn: return g.key;
        case LimitColumn:
            return g.unlimited > 0
                       ? tr("%1 GPU-h + %2 without limit").arg(gpuHoursText(g.limit)).arg(g.unlimited)
                       : tr("%1 GPU-h").arg(gpuHoursText(g.limit));
        case RemainingColumn:
            return tr("%1 of %2 GPU-h used").arg(gpuHoursText(g.used), gpuHoursText(g.limit));
        default: return {};
        }
    case SecondLineRole:
        switch (column) {
        case SubjectColumn:
            return tr("%1 · budgets: %2")
                .arg(m_level == kueue::QueueLevel::LocalQueue ? tr("LocalQueue") : tr("ClusterQueue"))
                .arg(g.members.size());
        case LimitColumn: return tr("subtotal of the budgets below");
        case RemainingColumn:
            return over ? tr("%1 GPU-h over").arg(gpuHoursText(g.used - g.limit))
                        : tr("%1 GPU-h left").arg(gpuHoursText(std::max(0.0, g.limit - g.used)));
        default: return {};
        }
    case Qt::ToolTipRole:
        return tr(
            "The sum of the budgets under this queue, each in its own period. A namespace budget is "
            "under its namespace's queue, a user budget under the queues of the namespaces the user ran "
            "in this period (several jointly).");
    case Qt::FontRole: {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    case Qt::BackgroundRole: return QBrush(QColor(0x80, 0x80, 0x80, 0x30));
    case FractionLeftRole: return g.limit > 0 ? std::clamp((g.limit - g.used) / g.limit, 0.0, 1.0) : 1.0;
    case StateRole:
        return int(over                               ? BudgetState::Over
                   : g.limit - g.used < 0.2 * g.limit ? BudgetState::Near
                                                      : BudgetState::Ok);
    default: return {};
    }
}

QString BudgetListModel::gpuHoursText(double h) {
    const double rounded = std::round(h * 10.0) / 10.0;
    const QLocale locale;
    if (std::fabs(rounded - std::round(rounded)) < 1e-9)
        return locale.toString(qint64(std::llround(rounded)));
    return locale.toString(rounded, 'f', 1);
}

QString BudgetListModel::periodText(Period p) {
    switch (p) {
    case Period::Day: return tr("day");
    case Period::Week: return tr("week");
    case Period::Month: return tr("month");
    case Period::Hour: return tr("hour");
    }
    return {};
}

double BudgetListModel::fractionLeft(const BudgetRow &row) {
    const Decision &d = row.decision;
    if (d.limit <= 0)
        return d.used > kGpuHourTolerance ? 0.0 : 1.0;
    return std::clamp(d.remaining / d.limit, 0.0, 1.0);
}

QString BudgetListModel::batteryText(const BudgetRow &row) {
    const Decision &d = row.decision;
    const QString limit = gpuHoursText(d.limit);
    const bool over = d.remaining < -kGpuHourTolerance;
    const QString amount = gpuHoursText(std::fabs(d.remaining));
    switch (row.budget.period) {
    case Period::Week:
        return over ? tr("%1 GPU-h over %2 this week").arg(amount, limit)
                    : tr("%1 GPU-h left of %2 this week").arg(amount, limit);
    case Period::Month:
        return over ? tr("%1 GPU-h over %2 this month").arg(amount, limit)
                    : tr("%1 GPU-h left of %2 this month").arg(amount, limit);
    default:
        return over ? tr("%1 GPU-h over %2 today").arg(amount, limit)
                    : tr("%1 GPU-h left of %2 today").arg(amount, limit);
    }
}

QString BudgetListModel::durationText(qint64 s) {
    if (s < 60)
        return tr("less than a minute");
    const qint64 minutes = s / 60, hours = minutes / 60, days = hours / 24;
    if (days > 0)
        return hours % 24 ? tr("%1 d %2 h").arg(days).arg(hours % 24) : tr("%1 d").arg(days);
    if (hours > 0)
        // From ten hours on the minutes are noise.
        return minutes % 60 && hours < 10 ? tr("%1 h %2 min").arg(hours).arg(minutes % 60)
                                          : tr("%1 h").arg(hours);
    return tr("%1 min").arg(minutes);
}

QString BudgetListModel::forecastText(const BudgetRow &row, qint64 now) {
    const Forecast &f = row.forecast;
    switch (f.kind) {
    case Forecast::Kind::NothingRunning: return {};
    case Forecast::Kind::NotAtThisRate:
        // In grace that outlasts the period: the rollover ends it.
        if (row.state == BudgetState::Grace)
            return tr("in grace until the period ends (%1)")
                .arg(NamespaceListModel::localTime(row.decision.period.end, now));
        return tr("not at this rate");
    case Forecast::Kind::RunsOut:
        return tr("at this rate: spent by %1 (in %2)")
            .arg(NamespaceListModel::localTime(*f.exhaustsAt, now), durationText(*f.exhaustsAt - now));
    case Forecast::Kind::InGrace:
        return tr("at this rate: grace ends %1 (in %2)")
            .arg(NamespaceListModel::localTime(*f.exhaustsAt, now), durationText(*f.exhaustsAt - now));
    case Forecast::Kind::Spent:
        switch (row.budget.period) {
        case Period::Week: return tr("spent for this week");
        case Period::Month: return tr("spent for this month");
        default: return tr("spent for today");
        }
    }
    return {};
}

QString BudgetListModel::alertsText(const BudgetRow &row) {
    const BudgetAlertState &a = row.alerts;
    if (a.fired.isEmpty())
        return tr("none yet this period");
    QStringList parts;
    for (int t : a.fired)
        parts << QLocale().toString(t) + QLatin1Char('%');
    const QString list = parts.join(QStringLiteral(" · "));
    return a.failedNow > 0 ? tr("%1 (delivery failing, retried)").arg(list) : tr("%1 sent").arg(list);
}

QString BudgetListModel::lastAlertText(const BudgetRow &row, qint64 now) {
    const BudgetAlertState &a = row.alerts;
    if (a.lastSentAt == 0)
        return tr("no alert sent yet");
    const QString when = NamespaceListModel::localTime(a.lastSentAt, now);
    return a.lastChannel == QLatin1String("email")
               ? tr("last: %1% at %2 to %3").arg(a.lastThreshold).arg(when, a.lastRecipient)
               : tr("last: %1% at %2 by webhook").arg(a.lastThreshold).arg(when);
}

namespace {
QString graceText(qint64 s) {
    return s > 0 ? BudgetListModel::durationText(s) : BudgetListModel::tr("none");
}
} // namespace

QVariant BudgetListModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries.at(index.row());
    if (role == GroupRole)
        return e.group;
    if (role == GroupHeaderRole)
        return e.budget < 0;
    if (e.budget < 0)
        return role == SortRole ? QVariant() : groupData(m_groups.at(e.group), index.column(), role);
    const BudgetRow &r = m_overview.rows.at(e.budget);
    const Budget &b = r.budget;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SubjectColumn: return b.subject;
        case LimitColumn: {
            const Decision &d = r.decision;
            // Under a newcomer allowance the limit is the allowance's (x factor), or none.
            const double base = d.newcomerUntil > 0 && !d.unlimited ? d.allowanceLimit : b.limitGpuHours;
            QString t = d.unlimited ? tr("no limit / %1").arg(periodText(b.period))
                                    : tr("%1 GPU-h / %2").arg(gpuHoursText(base), periodText(b.period));
            if (!d.unlimited && std::fabs(d.limit - base) > kGpuHourTolerance)
                t += tr(" (+%1 boost)").arg(gpuHoursText(d.limit - base));
            if (d.newcomerUntil > 0)
                t += QStringLiteral(" · ") + tr("newcomer allowance until %1")
                                                 .arg(newcomerLastDay(d).toString(QStringLiteral("MM-dd")));
            return t;
        }
        case RemainingColumn: return batteryText(r);
        case AlertsColumn: return alertsText(r);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == AlertsColumn)
            return tr("Alerts are sent by gpuquota-controller when this budget's use crosses a threshold, "
                      "once per threshold and period.");
        if (index.column() == RemainingColumn)
            return tr("%1 of %2 GPU-h used this %3 (from %4); %5 GPUs held now")
                .arg(gpuHoursText(r.decision.used), gpuHoursText(r.decision.limit), periodText(b.period),
                     NamespaceListModel::localTime(r.decision.period.start, m_overview.now),
                     QLocale().toString(r.decision.runningGpus, 'g', 4));
        return {};
    case SecondLineRole:
        switch (index.column()) {
        case SubjectColumn: return b.scope == BudgetScope::User ? tr("user") : tr("namespace");
        case LimitColumn:
            return b.graceSeconds > 0 ? tr("grace %1 · %2").arg(graceText(b.graceSeconds), b.tz)
                                      : tr("no grace · %1").arg(b.tz);
        case RemainingColumn: return forecastText(r, m_overview.now);
        case AlertsColumn: return lastAlertText(r, m_overview.now);
        default: return {};
        }
    case FractionLeftRole: return fractionLeft(r);
    case StateRole: return int(r.state);
    case SortRole:
        switch (index.column()) {
        case RemainingColumn: return r.decision.remaining;
        case LimitColumn: return r.decision.limit;
        default: return data(index, Qt::DisplayRole);
        }
    default: return {};
    }
}

QVariant BudgetListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SubjectColumn: return tr("Subject");
    case LimitColumn: return tr("Budget");
    case RemainingColumn: return tr("Remaining");
    case AlertsColumn: return tr("Alerts");
    default: return {};
    }
}

} // namespace gq

namespace gq {

bool BudgetSortProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const {
    // Qt sorts descending by asking lessThan(right, left): invert the group order and the
    // subtotal's place for it, so both stay put whichever way the column sorts.
    const bool descending = sortOrder() == Qt::DescendingOrder;
    const int gl = left.data(BudgetListModel::GroupRole).toInt();
    const int gr = right.data(BudgetListModel::GroupRole).toInt();
    if (gl != gr)
        return descending ? gl > gr : gl < gr;
    const bool hl = left.data(BudgetListModel::GroupHeaderRole).toBool();
    const bool hr = right.data(BudgetListModel::GroupHeaderRole).toBool();
    if (hl != hr)
        return descending ? hr : hl;
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace gq
