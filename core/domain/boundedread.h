#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QString>

class QIODevice;

namespace gq {

// The most bytes one input (a manifest, a kubeconfig, a CSV line block) may have
// before we refuse it instead of reading on until memory runs out: `validate
// /dev/zero` or `yes | gpuquota validate -` must end with a clear error.
// GQ_MAX_INPUT_BYTES in the environment overrides it (documented in the README).
inline constexpr qint64 kDefaultMaxInputBytes = 16 * 1024 * 1024;

// The limit in force: GQ_MAX_INPUT_BYTES when it is a positive number, else the default.
[[nodiscard]] qint64 maxInputBytes();

// Reads `device` to its end in chunks, refusing past `limit` bytes. `name` is what the
// error says was being read.
[[nodiscard]] Result<QByteArray> readAllBounded(QIODevice &device, const QString &name, qint64 limit);

// Opens and reads a file ("-" is standard input) under maxInputBytes().
[[nodiscard]] Result<QByteArray> readInputFile(const QString &name);

} // namespace gq
