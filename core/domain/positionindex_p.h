#pragma once

// PositionIndex: the key index of a big map or resource list. Not public API.

#include <QHash>
#include <QStringView>
#include <QtGlobal>

#include <cstddef>
#include <vector>

namespace gq::detail {

// Finds the items of one vector by key. It holds positions into that vector, not keys
// (each key stays in its item, read back through the keyAt callable every lookup
// takes), in one flat, open-addressed table. The node-based std::unordered_map<QString,
// qsizetype> it replaces cost an allocation and a key copy per item: a third of
// validating a 200k-key map went to building and freeing those nodes.
class PositionIndex {
public:
    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] bool empty() const { return m_size == 0; }

    // Room for n positions without growing.
    void reserve(std::size_t n) {
        std::size_t wanted = 16;
        while (wanted < 2 * n)
            wanted *= 2;
        if (wanted > m_slots.size())
            rehash(wanted);
    }

    // The position whose key (keyAt(position)) equals key, or -1.
    template <typename KeyAt> [[nodiscard]] qsizetype find(QStringView key, const KeyAt &keyAt) const {
        if (m_slots.empty())
            return -1;
        return qsizetype(m_slots[probe(key, hashOf(key), keyAt)].position1) - 1;
    }

    // Adds position for key unless the index has a position with an equal key: then
    // it returns that one (the first stays), otherwise -1. keyAt(position) itself is
    // not read, so an item may be stored after its position is indexed.
    template <typename KeyAt> qsizetype insert(QStringView key, qsizetype position, const KeyAt &keyAt) {
        Q_ASSERT(position >= 0 && quint64(position) < 0xffffffffu);
        if (2 * (m_size + 1) > m_slots.size())
            rehash(m_slots.empty() ? 16 : 2 * m_slots.size());
        const quint32 hash = hashOf(key);
        Slot &s = m_slots[probe(key, hash, keyAt)];
        if (s.position1 != 0)
            return qsizetype(s.position1) - 1;
        s = Slot{quint32(position + 1), hash};
        ++m_size;
        return -1;
    }

private:
    struct Slot {
        quint32 position1 = 0; // position + 1; 0 marks an empty slot
        quint32 hash = 0;
    };

    // The slot holding key, or the empty slot where it would go (the table is never
    // full, so there is one).
    template <typename KeyAt> std::size_t probe(QStringView key, quint32 hash, const KeyAt &keyAt) const {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t i = hash & mask;
        while (m_slots[i].position1 != 0 &&
               !(m_slots[i].hash == hash && keyAt(qsizetype(m_slots[i].position1 - 1)) == key))
            i = (i + 1) & mask;
        return i;
    }

    static quint32 hashOf(QStringView key) {
        const std::size_t h = qHash(key);
        return quint32(h ^ (quint64(h) >> 32));
    }

    // length is a power of two, at least twice the positions held.
    void rehash(std::size_t length) {
        std::vector<Slot> old(length);
        old.swap(m_slots);
        const std::size_t mask = length - 1;
        for (const Slot &s : old) {
            if (s.position1 == 0)
                continue;
            std::size_t i = s.hash & mask;
            while (m_slots[i].position1 != 0)
                i = (i + 1) & mask;
            m_slots[i] = s;
        }
    }

    std::vector<Slot> m_slots; // a power of two long, at most half full
    std::size_t m_size = 0;
};

} // namespace gq::detail
