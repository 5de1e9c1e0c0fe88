#pragma once

#include "core/usage/rollupcells.h"
#include "core/usage/timewindow.h"

#include <QByteArray>
#include <QHash>
#include <QPair>
#include <QString>
#include <QTimeZone>

#include <vector>

namespace gq {

// The hourly (UTC-hour) and daily (local day of the rollup zone) sums of weighted
// GPU-seconds that chart and budget queries read instead of raw intervals; see
// UsageStore for when they are written.

inline constexpr qint64 kHour = 3600;

inline qint64 floorHour(qint64 t) {
    return t - (((t % kHour) + kHour) % kHour);
}

inline bool alignedToHour(qint64 t) {
    return t % kHour == 0;
}

// Rollup changes accumulated in memory and written in one go (multi-row upserts).
using RollupKey = QPair<QString, qint64>;
using RollupMap = QHash<RollupKey, double>;
struct RollupDelta {
    RollupMap nsHour, userHour, nsDay, userDay;
    [[nodiscard]] qsizetype size() const {
        return nsHour.size() + userHour.size() + nsDay.size() + userDay.size();
    }
    void clear() {
        nsHour.clear();
        userHour.clear();
        nsDay.clear();
        userDay.clear();
    }
};

class DayIndex;
// Adds [start, end) x gpuWeight to the hour and day cells of the namespace and user
// (a negative weight takes a replaced interval's share out again).
void accumulate(RollupDelta &delta, DayIndex &days, const QString &ns, const QString &user, qint64 start,
                qint64 end, double gpuWeight);

// Local day boundaries of the rollup zone, computed once and looked up by binary
// search: a QTimeZone lookup per interval would dominate bulk loads.
class DayIndex {
public:
    explicit DayIndex(QTimeZone tz)
        : m_tz(std::move(tz)) {}
    [[nodiscard]] const QTimeZone &zone() const { return m_tz; }
    // The local day [start, end) containing t.
    TimeRange dayOf(qint64 t);
    [[nodiscard]] bool isDayStart(qint64 t) { return dayOf(t).start == t; }

private:
    void cover(qint64 t);
    QTimeZone m_tz;
    std::vector<qint64> m_starts; // consecutive day starts; the last one is an end bound
};

// The four rollup tables, in the order RollupAccumulator indexes them.
struct RollupTable {
    const char *name;
    const char *subjectColumn;
    const char *timeColumn;
};
inline constexpr RollupTable kRollupTables[4] = {
    {"rollup_ns_hour", "ns", "hour_s"},
    {"rollup_user_hour", "user_name", "hour_s"},
    {"rollup_ns_day", "ns", "day_s"},
    {"rollup_user_day", "user_name", "day_s"},
};

// Rollup cells of a bulk load or a rebuild, kept compact: subjects are interned and
// a cell is one 64-bit key (24-bit subject id, 40-bit time offset) -> GPU-seconds.
// QHash<QPair<QString, qint64>, double> needs about three times the memory and
// hashes strings per hour of every interval.
class RollupAccumulator {
public:
    explicit RollupAccumulator(DayIndex &days)
        : m_days(days) {}
    // False when more than 2^24 distinct subjects were seen (the key cannot hold them).
    bool add(const QString &ns, const QString &user, qint64 start, qint64 end, double gpuWeight);
    [[nodiscard]] size_t size() const {
        return m_cells[0].size() + m_cells[1].size() + m_cells[2].size() + m_cells[3].size();
    }
    void clear() {
        for (auto &c : m_cells)
            c.clear();
    }
    // table: index into kRollupTables; user tables use user ids, ns tables ns ids.
    [[nodiscard]] const RollupCells &cells(int table) const { return m_cells[table]; }
    [[nodiscard]] const QString &nsName(quint64 key) const { return m_ns.names[size_t(key >> 40)]; }
    [[nodiscard]] const QString &userName(quint64 key) const { return m_user.names[size_t(key >> 40)]; }
    [[nodiscard]] const QString &subjectName(int table, quint64 key) const {
        return table % 2 == 0 ? nsName(key) : userName(key);
    }
    // The same name as UTF-8, what the databases store (converted once per subject).
    [[nodiscard]] const QByteArray &subjectUtf8(int table, quint64 key) const {
        return (table % 2 == 0 ? m_ns : m_user).utf8[size_t(key >> 40)];
    }
    // The cells of `table` ordered by subject as `order` ranks them (indexes into the
    // table's interned names, first to last), then by time.
    [[nodiscard]] std::vector<std::pair<quint64, double>>
    cellsInOrder(int table, const std::vector<quint32> &order) const;
    // The table's subjects ordered by their UTF-8 bytes (SQLite's BINARY collation).
    [[nodiscard]] std::vector<quint32> byteOrder(int table) const;
    static qint64 timeOf(quint64 key) { return qint64(key & kTimeMask) - kTimeBias; }
    static quint64 keyOf(quint32 id, qint64 t) {
        return (quint64(id) << 40) | (quint64(t + kTimeBias) & kTimeMask);
    }

    struct Interner {
        QHash<QString, quint32> ids;
        std::vector<QString> names;
        std::vector<QByteArray> utf8;
        QString lastName;
        quint32 lastId = 0;
        bool intern(const QString &name, quint32 &id);
    };
    Interner &interner(int table) { return table % 2 == 0 ? m_ns : m_user; }
    [[nodiscard]] const Interner &interner(int table) const { return table % 2 == 0 ? m_ns : m_user; }

private:
    static constexpr quint64 kTimeMask = (quint64(1) << 40) - 1;
    static constexpr qint64 kTimeBias = qint64(1) << 39; // +-17,000 years of seconds
    DayIndex &m_days;
    Interner m_ns, m_user;
    RollupCells m_cells[4];
};

} // namespace gq
