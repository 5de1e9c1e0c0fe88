#pragma once

#include "core/usage/ledger.h"
#include "core/domain/result.h"

#include <QByteArray>

#include <vector>

class QIODevice;

namespace gq {

// What an imported CSV row must satisfy beyond validateInterval() (see
// UsageStore::ImportOptions): a start before `earliestStart` or a closed interval longer
// than `longestInterval` seconds is rejected, since a row from year 1 or spanning
// decades would write hundreds of thousands of rollup cells.
struct CsvRowLimits {
    qint64 earliestStart = 946684800;       // 2000-01-01T00:00:00Z
    qint64 longestInterval = 366LL * 86400; // a leap year
};

// Reads RFC 4180 records from a device block by block (bounded memory: one block and
// one record), checking that every physical line is valid UTF-8. Records are split
// into fields with the quoting undone; line numbers are 1-based physical lines, a
// record's number is the line it starts on. Blank lines are skipped.
class CsvRecordReader {
public:
    static constexpr qsizetype kMaxRecordBytes = 1 << 20;

    // `tee`, when given, receives every byte read (spooling a pipe for a second pass).
    explicit CsvRecordReader(QIODevice &in, QIODevice *tee = nullptr);

    // False at the end of the input. Errors name the line (Error::line).
    Result<bool> next();
    [[nodiscard]] int line() const { return m_recordLine; }
    [[nodiscard]] int fieldCount() const { return int(m_fields.size()); }
    [[nodiscard]] QByteArrayView field(int i) const {
        const auto &f = m_fields[size_t(i)];
        return QByteArrayView(m_scratch.constData() + f.first, f.second);
    }

private:
    Result<bool> readLine(QByteArrayView &line);
    Error errorAt(const QString &message, int line) const;

    QIODevice &m_in;
    QIODevice *m_tee;
    QByteArray m_buf;
    qsizetype m_pos = 0;
    qsizetype m_end = 0;
    bool m_eof = false;
    bool m_first = true;
    int m_line = 0;
    int m_recordLine = 0;
    QByteArray m_scratch;
    std::vector<std::pair<qsizetype, qsizetype>> m_fields; // offset, length in m_scratch
};

// The rows of the usage CSV (header cluster,namespace,user,pod_uid,pod_name,resource,
// gpus,start,end), each validated as far as possible without the database.
class UsageCsvParser {
public:
    UsageCsvParser(QIODevice &in, const CsvRowLimits &limits, QIODevice *tee = nullptr)
        : m_reader(in, tee)
        , m_limits(limits) {}

    // Reads and checks the header (the first non-blank record).
    Result<void> readHeader();
    // The next row as an interval with the given source; false at the end.
    Result<bool> next(UsageInterval &iv, const QString &source);
    [[nodiscard]] int line() const { return m_reader.line(); }

private:
    CsvRecordReader m_reader;
    CsvRowLimits m_limits;
};

// A fast path for the instants export writes (YYYY-MM-DDTHH:MM:SSZ), else parseInstant().
[[nodiscard]] Result<qint64> parseCsvInstant(QByteArrayView text, const QString &field);

} // namespace gq
