#include "models/livegpus/livegpumodel.h"

#include <QBrush>
#include <QDateTime>
#include <QFont>
#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gq {

using namespace gq::metrics;

namespace {

QString number(double v, int decimals) {
    return QLocale().toString(v, 'f', decimals);
}

} // namespace

NamespaceGpuLiveMap namespaceGpuLive(const GpuSnapshot &snapshot) {
    NamespaceGpuLiveMap out;
    QHash<QString, double> weighted, reporting;
    for (const GpuSample &g : snapshot.gpus) {
        if (g.holders.isEmpty())
            continue;
        const double w = gpuWeight(g);
        QSet<QString> seen;
        for (const GpuHolder &h : g.holders) {
            if (h.ns.isEmpty() || seen.contains(h.ns))
                continue;
            seen.insert(h.ns);
            NamespaceGpuLive &n = out[h.ns];
            n.gpus += w;
            if (g.utilPct) {
                weighted[h.ns] += *g.utilPct * w;
                reporting[h.ns] += w;
                n.hasReading = true;
            }
        }
    }
    for (auto it = out.begin(); it != out.end(); ++it)
        if (it->hasReading && reporting.value(it.key()) > 0)
            it->meanUtilPct = weighted.value(it.key()) / reporting.value(it.key());
    return out;
}

StackedChart namespaceUtilizationChart(const QList<GpuTimeline> &history, qint64 fromMs, qint64 toMs,
                                       int buckets, int topN) {
    StackedChart chart;
    buckets = std::max(1, buckets);
    const double width = double(toMs - fromMs) / buckets;
    if (width <= 0)
        return chart;
    struct Acc {
        QList<double> sum, weight;
        double total = 0; // GPU-readings held: ranks the namespaces
    };
    QHash<QString, Acc> byNs;
    for (const GpuTimeline &t : history) {
        const double w = gpuWeight(t.gpu);
        for (const GpuReading &r : t.readings) {
            if (r.tMs < fromMs || r.tMs >= toMs || !r.utilPct)
                continue;
            const int b = std::clamp(int(double(r.tMs - fromMs) / width), 0, buckets - 1);
            QSet<QString> seen;
            for (const GpuHolder &h : r.holders) {
                if (h.ns.isEmpty() || seen.contains(h.ns))
                    continue;
                seen.insert(h.ns);
                Acc &a = byNs[h.ns];
                if (a.sum.isEmpty()) {
                    a.sum.fill(0, buckets);
                    a.weight.fill(0, buckets);
                }
                a.sum[b] += *r.utilPct * w;
                a.weight[b] += w;
                a.total += w;
            }
        }
    }
    QStringList names = byNs.keys();
    std::sort(names.begin(), names.end(), [&](const QString &a, const QString &b) {
        const double ta = byNs.value(a).total, tb = byNs.value(b).total;
        return ta != tb ? ta > tb : a < b;
    });
    if (names.size() > topN)
        names.resize(topN);
    const QLocale locale;
    for (int b = 0; b < buckets; ++b) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(fromMs + qint64(b * width));
        const QDateTime end = QDateTime::fromMSecsSinceEpoch(fromMs + qint64((b + 1) * width));
        chart.categories << locale.toString(start.time(), QStringLiteral("HH:mm"));
        chart.categoryTitles << locale.toString(start.time(), QStringLiteral("HH:mm")) + QStringLiteral("–") +
                                    locale.toString(end.time(), QStringLiteral("HH:mm"));
    }
    const QList<QColor> colors = SubjectColors::forStack(names);
    for (int i = 0; i < names.size(); ++i) {
        const Acc &a = byNs.value(names.at(i));
        StackedChart::Line line;
        line.label = names.at(i);
        line.color = colors.value(i);
        for (int b = 0; b < buckets; ++b)
            line.values << (a.weight.at(b) > 0 ? a.sum.at(b) / a.weight.at(b) : std::nan(""));
        chart.lines << line;
    }
    chart.valueTitle = LiveGpuModel::tr("Util. (%)");
    chart.unit = QStringLiteral("%");
    return chart;
}

LiveGpuFilterModel::LiveGpuFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(LiveGpuModel::SortRole);
    setDynamicSortFilter(true);
}

void LiveGpuFilterModel::setText(const QString &text) {
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void LiveGpuFilterModel::setHideMigParents(bool hide) {
    m_hideMigParents = hide;
    invalidateFilter();
}

bool LiveGpuFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const {
    const QAbstractItemModel *m = sourceModel();
    if (m_hideMigParents &&
        m->index(sourceRow, 0, sourceParent).data(LiveGpuModel::StateRole).toInt() == LiveGpuModel::MigParent)
        return false;
    if (m_text.isEmpty())
        return true;
    for (int c : {LiveGpuModel::NodeColumn, LiveGpuModel::ModelColumn, LiveGpuModel::MigColumn,
                  LiveGpuModel::HolderColumn, LiveGpuModel::UserColumn})
        if (m->index(sourceRow, c, sourceParent).data().toString().contains(m_text, Qt::CaseInsensitive))
            return true;
    // Every holder, not only the first one the cell names.
    const QString tip =
        m->index(sourceRow, LiveGpuModel::HolderColumn, sourceParent).data(Qt::ToolTipRole).toString();
    return tip.contains(m_text, Qt::CaseInsensitive);
}

LiveGpuModel::LiveGpuModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int LiveGpuModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int LiveGpuModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void LiveGpuModel::setSnapshot(const GpuSnapshot &snapshot) {
    bool sameRows = snapshot.gpus.size() == m_rows.size();
    for (qsizetype i = 0; sameRows && i < m_rows.size(); ++i)
        sameRows = snapshot.gpus.at(i).key() == m_rows.at(i).key();
    m_snapshot = snapshot;
    if (sameRows) {
        m_rows = snapshot.gpus;
        if (!m_rows.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = snapshot.gpus;
    m_migParent = migParentRows(m_rows);
    endResetModel();
}

void LiveGpuModel::setHistory(const QList<GpuTimeline> &history, qint64 sinceMs) {
    m_history.clear();
    for (const GpuTimeline &t : history) {
        QList<double> values;
        for (const GpuReading &r : t.readings)
            if (r.tMs >= sinceMs)
                values.append(r.utilPct ? *r.utilPct : std::nan(""));
        m_history.insert(t.gpu.key(), values);
    }
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, HistoryColumn), index(int(m_rows.size()) - 1, HistoryColumn),
                         {Qt::DisplayRole, HistoryRole});
}

void LiveGpuModel::setUsers(const QHash<QString, QString> &usersByPod) {
    if (usersByPod == m_users)
        return;
    m_users = usersByPod;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, HolderColumn), index(int(m_rows.size()) - 1, UserColumn),
                         {Qt::DisplayRole, Qt::ToolTipRole, SortRole});
}

QStringList LiveGpuModel::usersOf(const GpuSample &g) const {
    QStringList out;
    for (const GpuHolder &h : g.holders) {
        const QString user = m_users.value(h.ns + QLatin1Char('/') + h.pod);
        if (!user.isEmpty() && !out.contains(user))
            out << user;
    }
    return out;
}

void LiveGpuModel::setIdleThreshold(double pct) {
    if (pct == m_threshold)
        return;
    m_threshold = pct;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1), {StateRole});
}

LiveGpuModel::State LiveGpuModel::stateOf(int row) const {
    if (m_migParent.value(row))
        return MigParent;
    const GpuSample &g = m_rows.at(row);
    if (g.holders.isEmpty())
        return Free;
    if (!g.utilPct)
        return NoReading;
    return *g.utilPct < m_threshold ? AllocatedIdle : Busy;
}

LiveGpuSummary LiveGpuModel::summary() const {
    LiveGpuSummary s;
    for (int i = 0; i < m_rows.size(); ++i) {
        switch (stateOf(i)) {
        case Free: ++s.free; break;
        case Busy: ++s.busy; break;
        case AllocatedIdle: ++s.allocatedIdle; break;
        case NoReading: ++s.noReading; break;
        case MigParent: continue;
        }
        if (m_rows.at(i).shared)
            ++s.shared;
    }
    return s;
}

QString LiveGpuModel::utilText(const std::optional<double> &pct) {
    return pct ? tr("%1 %").arg(number(*pct, *pct < 10 && std::floor(*pct) != *pct ? 1 : 0)) : tr("n/a");
}

QString LiveGpuModel::memoryText(const GpuSample &g) {
    if (!g.fbUsedMib)
        return tr("n/a");
    const double used = *g.fbUsedMib / 1024.0;
    if (!g.fbFreeMib)
        return tr("%1 GiB").arg(number(used, 1));
    return tr("%1 / %2 GiB").arg(number(used, 1), number((*g.fbUsedMib + *g.fbFreeMib) / 1024.0, 1));
}

QString LiveGpuModel::holdersText(const GpuSample &g) {
    if (g.holders.isEmpty())
        return {};
    const GpuHolder &h = g.holders.first();
    QString text = h.ns + QLatin1Char('/') + (h.pod.isEmpty() ? QStringLiteral("?") : h.pod);
    if (!h.claim.isEmpty()) // DRA: the claim the GPU is held through
        text += tr(" (claim %1)").arg(h.claim.section(QLatin1Char('/'), 1));
    if (g.holders.size() > 1)
        text += tr(" +%1").arg(g.holders.size() - 1);
    return text;
}

QVariant LiveGpuModel::display(const GpuSample &g, int row, int column) const {
    switch (column) {
    case NodeColumn: return g.hostname;
    case IndexColumn: return g.gpu ? QVariant(*g.gpu) : QVariant(QStringLiteral("–"));
    case ModelColumn: return g.model;
    case MigColumn:
        if (g.isMigInstance())
            return tr("%1 #%2").arg(g.migProfile, g.gpuInstance);
        return m_migParent.value(row) ? QVariant(tr("MIG GPU")) : QVariant();
    case UtilColumn: return utilText(g.utilPct);
    case MemoryColumn: return memoryText(g);
    case PowerColumn: return g.powerW ? tr("%1 W").arg(number(*g.powerW, 0)) : tr("n/a");
    case TempColumn: return g.tempC ? tr("%1 °C").arg(number(*g.tempC, 0)) : tr("n/a");
    case HolderColumn: return holdersText(g);
    case UserColumn: return usersOf(g).join(QStringLiteral(", "));
    case SharedColumn: return g.shared ? tr("shared ×%1").arg(g.holders.size()) : QString();
    default: return {};
    }
}

QVariant LiveGpuModel::sortValue(const GpuSample &g, int row, int column) const {
    auto num = [](const std::optional<double> &v) { return v ? *v : -1.0; };
    switch (column) {
    case NodeColumn:
        // Node, then index, then MIG instance: what a reader expects under "Node".
        return QString(g.hostname + QLatin1Char(0x1f) +
                       QString::number(g.gpu.value_or(-1) + 1).rightJustified(4, u'0') + g.uuid +
                       QLatin1Char(0x1f) + g.gpuInstance.rightJustified(4, u'0'));
    case IndexColumn: return g.gpu.value_or(-1);
    case UtilColumn: return num(g.utilPct);
    case MemoryColumn: return num(g.fbUsedMib);
    case PowerColumn: return num(g.powerW);
    case TempColumn: return num(g.tempC);
    case SharedColumn: return int(g.holders.size()) * (g.shared ? 1 : 0);
    case HistoryColumn: {
        // By the mean of the window: the GPUs that were idle longest come first.
        const QList<double> h = m_history.value(g.key());
        double sum = 0;
        int n = 0;
        for (double v : h)
            if (!std::isnan(v)) {
                sum += v;
                ++n;
            }
        return n ? sum / n : -1.0;
    }
    default: return display(g, row, column);
    }
}

QVariant LiveGpuModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GpuSample &g = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(g, index.row(), index.column());
    case Qt::ToolTipRole:
        if (index.column() == HolderColumn || index.column() == SharedColumn ||
            index.column() == UserColumn) {
            QStringList lines;
            for (const GpuHolder &h : g.holders) {
                QString line = h.container.isEmpty()
                                   ? tr("%1/%2").arg(h.ns, h.pod)
                                   : tr("%1/%2 (container %3)").arg(h.ns, h.pod, h.container);
                if (const QString user = m_users.value(h.ns + QLatin1Char('/') + h.pod); !user.isEmpty())
                    line += tr(", user %1").arg(user);
                lines << line;
            }
            if (g.shared)
                lines.prepend(tr("Shared by %n holder(s):", nullptr, int(g.holders.size())));
            return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
        }
        if (index.column() == NodeColumn && !g.uuid.isEmpty())
            return g.uuid;
        if (index.column() == HistoryColumn)
            return tr("Utilization over the last 15 minutes");
        return {};
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IndexColumn:
        case UtilColumn:
        case MemoryColumn:
        case PowerColumn:
        case TempColumn: return int(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    case SortRole: return sortValue(g, index.row(), index.column());
    case UtilRole: return g.utilPct ? QVariant(*g.utilPct) : QVariant();
    case HistoryRole: return QVariant::fromValue(m_history.value(g.key()));
    case NamespaceRole: return g.holders.isEmpty() ? QString() : g.holders.first().ns;
    case StateRole: return int(stateOf(index.row()));
    case KeyRole: return g.key();
    default: return {};
    }
}

QVariant LiveGpuModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn: return tr("Node");
    case IndexColumn: return tr("GPU");
    case ModelColumn: return tr("Model");
    case MigColumn: return tr("MIG");
    case UtilColumn: return tr("Utilization");
    case MemoryColumn: return tr("Memory used / total");
    case PowerColumn: return tr("Power");
    case TempColumn: return tr("Temp.");
    case HolderColumn: return tr("Holder (namespace/pod)");
    case UserColumn: return tr("User");
    case SharedColumn: return tr("Shared");
    case HistoryColumn: return tr("Last 15 min");
    default: return {};
    }
}

// --- IdleGpuModel ---

IdleGpuModel::IdleGpuModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int IdleGpuModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int IdleGpuModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

void IdleGpuModel::setIdle(const QList<IdleGpu> &idle) {
    beginResetModel();
    m_rows = idle;
    endResetModel();
}

double IdleGpuModel::totalWaste() const {
    double total = 0;
    for (const IdleGpu &g : m_rows)
        total += g.gpuHoursWasted;
    return total;
}

QString IdleGpuModel::durationText(qint64 ms) {
    const qint64 s = ms / 1000;
    if (s < 60)
        return tr("%1 s").arg(s);
    const qint64 m = s / 60;
    if (m < 60)
        return tr("%1 min").arg(m);
    return tr("%1 h %2 min").arg(m / 60).arg(m % 60);
}

QVariant IdleGpuModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const IdleGpu &g = m_rows.at(index.row());
    const QString ns = g.holders.isEmpty() ? QString() : g.holders.first().ns;
    QStringList pods;
    for (const GpuHolder &h : g.holders)
        pods << h.pod;
    if (role == NamespaceRole)
        return ns;
    if (role == SortRole) {
        switch (index.column()) {
        case IndexColumn: return g.gpu.gpu.value_or(-1);
        case SinceColumn: return g.sinceMs;
        case ForColumn: return g.idleMs;
        case MeanUtilColumn: return g.meanUtilPct;
        case WasteColumn: return g.gpuHoursWasted;
        default: break;
        }
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case IndexColumn:
        case ForColumn:
        case MeanUtilColumn:
        case WasteColumn: return int(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == SinceColumn)
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(g.sinceMs), QLocale::LongFormat);
    // The namespace reads as a link: one click opens it and its quota.
    if (index.column() == NamespaceColumn && !ns.isEmpty()) {
        if (role == Qt::ToolTipRole)
            return tr("Open %1 and its quota").arg(ns);
        if (role == Qt::ForegroundRole)
            return QBrush(QGuiApplication::palette().color(QPalette::Link));
        if (role == Qt::FontRole) {
            QFont f;
            f.setUnderline(true);
            return f;
        }
    }
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case NodeColumn: return g.gpu.hostname;
    case IndexColumn: return g.gpu.gpu ? QVariant(*g.gpu.gpu) : QVariant(QStringLiteral("–"));
    case MigColumn:
        return g.gpu.isMigInstance() ? QVariant(tr("%1 #%2").arg(g.gpu.migProfile, g.gpu.gpuInstance))
                                     : QVariant();
    case NamespaceColumn: return ns;
    case PodColumn: return pods.join(QStringLiteral(", "));
    case SinceColumn: {
        const QDateTime since = QDateTime::fromMSecsSinceEpoch(g.sinceMs);
        const bool today = since.date() == QDate::currentDate();
        return QLocale().toString(since,
                                  today ? QStringLiteral("HH:mm") : QStringLiteral("yyyy-MM-dd HH:mm"));
    }
    case ForColumn: return durationText(g.idleMs);
    case MeanUtilColumn:
        // Spans read back from the usage database carry no utilization (NaN).
        return std::isnan(g.meanUtilPct) ? tr("not recorded") : LiveGpuModel::utilText(g.meanUtilPct);
    case WasteColumn: return QLocale().toString(g.gpuHoursWasted, 'f', 2);
    default: return {};
    }
}

QVariant IdleGpuModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NodeColumn: return tr("Node");
    case IndexColumn: return tr("GPU");
    case MigColumn: return tr("MIG");
    case NamespaceColumn: return tr("Namespace");
    case PodColumn: return tr("Pod");
    case SinceColumn: return tr("Idle since");
    case ForColumn: return tr("For");
    case MeanUtilColumn: return tr("Mean util.");
    case WasteColumn: return tr("GPU-h wasted");
    default: return {};
    }
}

} // namespace gq
