#include "core/usage/rollups.h"

#include <algorithm>

namespace gq {

TimeRange DayIndex::dayOf(qint64 t) {
    if (m_starts.size() < 2 || t < m_starts.front() || t >= m_starts.back())
        cover(t);
    const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), t);
    return TimeRange{*(it - 1), *it};
}

void DayIndex::cover(qint64 t) {
    // Extend generously (two months either side) so a bulk load recomputes rarely.
    qint64 lo = t - 62 * 86400, hi = t + 62 * 86400;
    if (m_starts.size() >= 2) {
        lo = std::min(lo, m_starts.front());
        hi = std::max(hi, m_starts.back());
    }
    const std::vector<TimeRange> days = periodsCovering(lo, hi, Period::Day, m_tz);
    m_starts.clear();
    m_starts.reserve(days.size() + 1);
    for (const TimeRange &d : days)
        m_starts.push_back(d.start);
    m_starts.push_back(days.back().end);
}

void accumulate(RollupDelta &delta, DayIndex &days, const QString &nsName, const QString &userName,
                qint64 start, qint64 end, double gpuWeight) {
    for (qint64 h = floorHour(start); h < end; h += kHour) {
        const qint64 a = std::max(h, start), b = std::min(h + kHour, end);
        const double v = double(b - a) * gpuWeight;
        delta.nsHour[RollupKey(nsName, h)] += v;
        delta.userHour[RollupKey(userName, h)] += v;
    }
    for (qint64 t = start; t < end;) {
        const TimeRange day = days.dayOf(t);
        const double v = double(std::min(day.end, end) - t) * gpuWeight;
        delta.nsDay[RollupKey(nsName, day.start)] += v;
        delta.userDay[RollupKey(userName, day.start)] += v;
        t = day.end;
    }
}

bool RollupAccumulator::Interner::intern(const QString &name, quint32 &id) {
    if (!names.empty() && name == lastName) {
        id = lastId;
        return true;
    }
    auto it = ids.constFind(name);
    if (it == ids.cend()) {
        if (names.size() >= (size_t(1) << 24))
            return false;
        it = ids.insert(name, quint32(names.size()));
        names.push_back(name);
        utf8.push_back(name.toUtf8());
    }
    lastName = name;
    lastId = id = *it;
    return true;
}

bool RollupAccumulator::add(const QString &nsName, const QString &userName, qint64 start, qint64 end,
                            double gpuWeight) {
    quint32 n = 0, u = 0;
    if (!m_ns.intern(nsName, n) || !m_user.intern(userName, u))
        return false;
    for (qint64 h = floorHour(start); h < end; h += kHour) {
        const double v = double(std::min(h + kHour, end) - std::max(h, start)) * gpuWeight;
        m_cells[0][keyOf(n, h)] += v;
        m_cells[1][keyOf(u, h)] += v;
    }
    for (qint64 t = start; t < end;) {
        const TimeRange day = m_days.dayOf(t);
        const double v = double(std::min(day.end, end) - t) * gpuWeight;
        m_cells[2][keyOf(n, day.start)] += v;
        m_cells[3][keyOf(u, day.start)] += v;
        t = day.end;
    }
    return true;
}

} // namespace gq

namespace gq {

void RollupCells::grow() {
    std::vector<Slot> old = std::move(m_slots);
    m_slots.assign(old.empty() ? size_t(1024) : old.size() * 2, Slot{});
    const size_t mask = m_slots.size() - 1;
    m_shift = 64;
    for (size_t n = m_slots.size(); n > 1; n >>= 1)
        --m_shift;
    for (const Slot &s : old) {
        if (s.key == kEmpty)
            continue;
        size_t i = slotOf(s.key, mask);
        while (m_slots[i].key != kEmpty)
            i = (i + 1) & mask;
        m_slots[i] = s;
    }
}

std::vector<std::pair<quint64, double>> RollupCells::sorted() const {
    std::vector<std::pair<quint64, double>> out;
    out.reserve(size());
    forEach([&](quint64 k, double v) { out.emplace_back(k, v); });
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::pair<quint64, double>>
RollupAccumulator::cellsInOrder(int table, const std::vector<quint32> &order) const {
    // A counting sort by the subject's rank, then each subject's cells by time: a few
    // hundred cells per sort rather than one sort of millions (#31 item 7).
    std::vector<size_t> start(order.size() + 1, 0);
    m_cells[table].forEach([&](quint64 key, double) { ++start[size_t(key >> 40) + 1]; });
    std::vector<size_t> at(order.size());
    size_t next = 0;
    for (const quint32 id : order) {
        at[id] = next;
        next += start[size_t(id) + 1];
    }
    std::vector<std::pair<quint64, double>> out(next);
    m_cells[table].forEach([&](quint64 key, double v) { out[at[size_t(key >> 40)]++] = {key, v}; });
    // Each subject's cells now end at at[id], in rank order.
    size_t from = 0;
    for (const quint32 id : order) {
        std::sort(out.begin() + qsizetype(from), out.begin() + qsizetype(at[id]));
        from = at[id];
    }
    return out;
}

std::vector<quint32> RollupAccumulator::byteOrder(int table) const {
    const std::vector<QByteArray> &utf8 = interner(table).utf8;
    std::vector<quint32> order(utf8.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = quint32(i);
    std::sort(order.begin(), order.end(), [&](quint32 a, quint32 b) { return utf8[a] < utf8[b]; });
    return order;
}

} // namespace gq
