#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QString>

namespace gq {

// Replaces `path` with `bytes` all or nothing: the data goes to a temporary file in the
// same folder, which is flushed, synced and checked before it is renamed over the
// original. Any write error (a full disk, a quota, a read-only folder) leaves the
// original untouched and comes back as an Io error whose message is the operating
// system's own text ("No space left on device"); callers say which file it was.
//
// QSaveFile alone is not enough: a file smaller than its write buffer is written only
// when commit() flushes, and Qt 6.4 renames even when that last flush fails.
[[nodiscard]] Result<void> writeFileAtomically(const QString &path, const QByteArray &bytes);

} // namespace gq
