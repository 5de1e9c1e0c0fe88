#pragma once

#include "core/usage/ledger.h"
#include "core/domain/result.h"

#include <QString>

#include <optional>
#include <vector>

namespace gq {

// The controller's write-ahead spool for the usage database: while the database is
// unreachable every interval state (an open interval, or the same interval with its
// end) is appended as one JSON line and fsync'd before append() returns, so a crash
// or SIGKILL loses nothing that was accepted; the directory is fsync'd too when the
// file is created and when it is removed after a replay, so the file's existence is as
// durable as its lines. Replay reads the lines in order; the
// database's upsert by (cluster, pod_uid, resource, start) makes a replay idempotent,
// so a crash during replay simply replays again.
//
// Each entry is framed: `GQS1 <length> <checksum> <json>` and a newline, the length
// and an 8-hex-digit checksum (SHA-1 prefix) of the JSON. A torn entry (a crash or
// ENOSPC in the middle of a write) fails its frame and is skipped alone: the next
// append first ends a torn last line, and the reader also finds a frame glued to the
// end of a torn one. Every skipped entry is logged and counted (readAll's `skipped`). Spools
// written before framing (bare JSON lines) are still read.
struct SpoolEntry {
    UsageInterval iv;
    // Only set the end of the stored open row (UsageStore::closeInterval), keeping
    // what the row says otherwise; else an upsert of the whole state.
    bool closeOnly = false;
};

class IntervalSpool {
public:
    explicit IntervalSpool(QString directory);

    [[nodiscard]] QString filePath() const;
    Result<void> append(const SpoolEntry &entry);
    // The whole entries in order. With `skipped`, each torn or unreadable piece is
    // logged (a warning with its line number) and counted there.
    [[nodiscard]] Result<std::vector<SpoolEntry>> readAll(qint64 *skipped = nullptr) const;
    // After a complete replay.
    Result<void> clear();
    [[nodiscard]] qint64 depth() const { return m_depth; } // lines waiting
    // Whether the directory exists (created if not) and the file can be appended to.
    [[nodiscard]] bool writable() const;

    [[nodiscard]] static QByteArray encode(const SpoolEntry &entry);
    // One framed entry (or, for old spools, a bare JSON line).
    [[nodiscard]] static std::optional<SpoolEntry> decode(const QByteArray &line);
    // The entries of one line; `skipped` counts the pieces that are not whole entries.
    [[nodiscard]] static std::vector<SpoolEntry> decodeLine(const QByteArray &line, qint64 &skipped);
    static constexpr char kFrameMagic[] = "GQS1 ";

private:
    QString m_dir;
    qint64 m_depth = 0;
};

} // namespace gq
