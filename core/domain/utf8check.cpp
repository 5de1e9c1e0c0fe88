#include "core/domain/utf8check.h"

#include <QtGlobal>

#include <cstring>

namespace gq {

qsizetype firstInvalidUtf8(QByteArrayView bytes, Utf8Rules rules) {
    const auto *s = reinterpret_cast<const uchar *>(bytes.data());
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        if (i + 8 <= n) {
            quint64 w;
            std::memcpy(&w, s + i, 8);
            // No high bit set, and (when NUL is refused) no zero byte among the eight.
            const bool ascii = (w & 0x8080808080808080ULL) == 0;
            const bool noZero =
                !rules.rejectNul || ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) == 0;
            if (ascii && noZero) {
                i += 8;
                continue;
            }
        }
        const uchar c = s[i];
        if (c == 0 && rules.rejectNul)
            return i;
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        uint cp = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i; // a continuation byte, C0/C1 (always overlong) or F5..FF
        }
        if (i + len > n)
            return i;
        for (int k = 1; k < len; ++k) {
            const uchar d = s[i + k];
            if ((d & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (d & 0x3F);
        }
        const bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
        const bool nonCharacter = rules.rejectNonCharacters && (cp == 0xFFFE || cp == 0xFFFF);
        if (overlong || surrogate || cp > 0x10FFFF || nonCharacter)
            return i;
        i += len;
    }
    return -1;
}

} // namespace gq
