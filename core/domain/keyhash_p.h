#pragma once

// Hashing for key indexes that are looked up by QStringView without building a
// QString (std::unordered_map's transparent lookup). Not public API.

#include <QHash>
#include <QString>
#include <QStringView>

#include <cstddef>
#include <unordered_map>

namespace gq::detail {

struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(QStringView key) const noexcept { return qHash(key); }
};

struct KeyEqual {
    using is_transparent = void;
    bool operator()(QStringView a, QStringView b) const noexcept { return a == b; }
};

// Key -> position of its first entry.
using KeyPositions = std::unordered_map<QString, qsizetype, KeyHash, KeyEqual>;

// Maps and lists this small are searched faster than hashed, and most are small.
inline constexpr std::size_t kIndexFrom = 16;

} // namespace gq::detail
