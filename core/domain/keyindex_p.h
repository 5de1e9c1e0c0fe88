#pragma once

// The key index of big YAML maps, and from what size maps and lists get one. Not
// public API.

#include "core/domain/positionindex_p.h"
#include "core/domain/yamldoc.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace gq::detail {

// A big map's key index (YamlNode): trusted only while count is its number of entries.
// The YAML loader builds it while it checks for duplicate keys, and hands it over.
struct KeyIndex {
    PositionIndex positions; // into the map's entries, by key
    std::size_t count = 0;   // entries indexed
};

// Maps and lists this small are searched faster than hashed, and most are small.
inline constexpr std::size_t kIndexFrom = 16;

// Reads the keys of a map's entries back for a PositionIndex.
inline auto keysOf(const std::vector<YamlNode::Entry> &entries) {
    return [&entries](qsizetype i) -> const QString & { return entries[std::size_t(i)].key; };
}

// The loaders' duplicate-key check, for a key whose entry will be appended to entries:
// the position of an earlier entry with that key, or -1. Small maps are searched; from
// kIndexFrom entries on (a linear search made big maps quadratic), keys is filled with
// the entries so far the first time, then records each key at the position its entry
// will have, so it can become the map's key index at the end (adoptKeyIndex).
inline qsizetype earlierEntry(std::shared_ptr<KeyIndex> &keys, const std::vector<YamlNode::Entry> &entries,
                              QStringView key) {
    if (entries.size() < kIndexFrom) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].key == key)
                return qsizetype(i);
        }
        return -1;
    }
    if (!keys) {
        keys = std::make_shared<KeyIndex>();
        keys->positions.reserve(4 * kIndexFrom);
        for (std::size_t i = 0; i < entries.size(); ++i)
            keys->positions.insert(entries[i].key, qsizetype(i), keysOf(entries));
    }
    return keys->positions.insert(key, qsizetype(entries.size()), keysOf(entries));
}

} // namespace gq::detail
