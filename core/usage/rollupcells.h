#pragma once

#include <QtGlobal>

#include <algorithm>
#include <utility>
#include <vector>

namespace gq {

// Rollup cells of one table during a bulk load: 64-bit key -> GPU-seconds in one flat
// open-addressing array (linear probing). A load touches several cells per interval
// hour, millions in all; std::unordered_map allocated a node per cell, and walking
// its nodes to sort them cost as much as the adds.
class RollupCells {
public:
    [[nodiscard]] size_t size() const { return m_size + (m_hasEmptyKey ? 1 : 0); }
    [[nodiscard]] bool empty() const { return size() == 0; }
    // Keeps the capacity: a load that flushes part of its cells fills them again.
    void clear() {
        std::fill(m_slots.begin(), m_slots.end(), Slot{});
        m_size = 0;
        m_hasEmptyKey = false;
        m_emptyKeyValue = 0;
    }

    double &operator[](quint64 key) {
        if (key == kEmpty) {
            m_hasEmptyKey = true;
            return m_emptyKeyValue;
        }
        if ((m_size + 1) * 4 > m_slots.size() * 3)
            grow();
        const size_t mask = m_slots.size() - 1;
        for (size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
            Slot &s = m_slots[i];
            if (s.key == key)
                return s.value;
            if (s.key == kEmpty) {
                s.key = key;
                ++m_size;
                return s.value;
            }
        }
    }
    // Null when the key has no cell.
    [[nodiscard]] const double *find(quint64 key) const {
        if (key == kEmpty)
            return m_hasEmptyKey ? &m_emptyKeyValue : nullptr;
        if (m_slots.empty())
            return nullptr;
        const size_t mask = m_slots.size() - 1;
        for (size_t i = slotOf(key, mask);; i = (i + 1) & mask) {
            const Slot &s = m_slots[i];
            if (s.key == key)
                return &s.value;
            if (s.key == kEmpty)
                return nullptr;
        }
    }
    template <typename Fn> void forEach(Fn fn) const {
        for (const Slot &s : m_slots)
            if (s.key != kEmpty)
                fn(s.key, s.value);
        if (m_hasEmptyKey)
            fn(kEmpty, m_emptyKeyValue);
    }
    // All cells ordered by key (subject, then time): B-tree inserts in key order.
    [[nodiscard]] std::vector<std::pair<quint64, double>> sorted() const;

private:
    static constexpr quint64 kEmpty = ~quint64(0);
    struct Slot {
        quint64 key = kEmpty;
        double value = 0;
    };
    // Fibonacci hashing (the product's top bits): keys differ mostly in their low
    // (time) bits, in steps of an hour or a day.
    [[nodiscard]] size_t slotOf(quint64 key, size_t mask) const {
        return size_t((key * 0x9E3779B97F4A7C15ULL) >> m_shift) & mask;
    }
    void grow();

    std::vector<Slot> m_slots;
    size_t m_size = 0;
    int m_shift = 64;
    bool m_hasEmptyKey = false;
    double m_emptyKeyValue = 0;
};

} // namespace gq
