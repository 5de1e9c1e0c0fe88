#pragma once

#include <QByteArrayView>

namespace gq {

// What else, beyond malformed sequences, counts as invalid.
struct Utf8Rules {
    bool rejectNul = false;           // YAML: yaml-cpp would guess UTF-16/32 from NUL bytes
    bool rejectNonCharacters = false; // U+FFFE / U+FFFF, not allowed in YAML
};

// Offset of the first byte that does not start a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF included) or that `rules` reject,
// or -1 when there is none. Plain ASCII is skipped eight bytes at a time.
[[nodiscard]] qsizetype firstInvalidUtf8(QByteArrayView bytes, Utf8Rules rules = {});

} // namespace gq
