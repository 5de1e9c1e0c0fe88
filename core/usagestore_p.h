#pragma once

#include "core/usagestore.h"

#include <QHash>
#include <QPair>
#include <QTimeZone>

#include <vector>

namespace gq {

// Text columns are NOT NULL: a null QString (e.g. from `{}`) would bind as SQL NULL.
inline QString nonNull(const QString &s) {
    return s.isNull() ? QStringLiteral("") : s;
}

// Nested use is allowed: only the outermost guard begins and commits; an inner
// failure is returned to the outer code, whose guard rolls everything back.
class UsageStoreTx {
public:
    explicit UsageStoreTx(UsageStore &s, int &depth)
        : m_store(s)
        , m_depth(depth) {}
    ~UsageStoreTx() {
        if (!m_active)
            return;
        --m_depth;
        if (m_outer && !m_committed)
            m_store.rollback();
    }
    Result<void> begin() {
        m_outer = m_depth == 0;
        ++m_depth;
        m_active = true;
        return m_outer ? m_store.begin() : Result<void>{};
    }
    Result<void> commit() {
        m_committed = true;
        return m_outer ? m_store.commit() : Result<void>{};
    }

private:
    UsageStore &m_store;
    int &m_depth;
    bool m_outer = false;
    bool m_active = false;
    bool m_committed = false;
};

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

} // namespace gq
