#pragma once

// The key index of big YAML maps, and from what size maps and lists get one. Not
// public API.

#include "positionindex_p.h"

#include <cstddef>

namespace gq::detail {

// A big map's key index (YamlNode): trusted only while count is its number of entries.
// The YAML loader builds it while it checks for duplicate keys, and hands it over.
struct KeyIndex {
    PositionIndex positions; // into the map's entries, by key
    std::size_t count = 0;   // entries indexed
};

// Maps and lists this small are searched faster than hashed, and most are small.
inline constexpr std::size_t kIndexFrom = 16;

} // namespace gq::detail
