#pragma once

// Shares one QString among equal short scalars of a document. Not public API.

#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gq::detail {

// Manifests repeat the same short keys and values ("apiVersion", "v1", "cpu")
// endlessly; sharing one QString for each saves a third of a big List's memory. The
// cache is direct-mapped by a hash of the bytes: a growing table spent more on
// inserting every unique name than sharing saved.
class ScalarInterner {
public:
    QString operator()(const char *data, std::size_t size) {
        constexpr std::size_t kShort = 32;
        constexpr std::size_t kSlots = 4096; // a power of two
        if (size > kShort)
            return QString::fromUtf8(data, qsizetype(size));
        if (m_slots.empty())
            m_slots.resize(kSlots);
        std::uint32_t h = 2166136261u; // FNV-1a
        for (std::size_t i = 0; i < size; ++i)
            h = (h ^ std::uint8_t(data[i])) * 16777619u;
        Slot &slot = m_slots[h & (kSlots - 1)];
        if (!slot.text.isNull() && slot.bytes.size() == size && slot.bytes.compare(0, size, data, size) == 0)
            return slot.text;
        slot.bytes.assign(data, size);
        slot.text = QString::fromUtf8(data, qsizetype(size));
        return slot.text;
    }

private:
    struct Slot {
        std::string bytes;
        QString text;
    };
    std::vector<Slot> m_slots;
};

} // namespace gq::detail
