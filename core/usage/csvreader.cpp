#include "core/usage/csvreader.h"

#include "core/domain/csvfield.h"
#include "core/domain/utf8check.h"

#include <QDate>
#include <QIODevice>

#include <cstring>

namespace gq {

namespace {

constexpr qsizetype kBlock = 256 * 1024;

bool isBlank(QByteArrayView line) {
    for (const char c : line)
        if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f')
            return false;
    return true;
}

const char *const kColumns[] = {"cluster",  "namespace", "user",  "pod_uid", "pod_name",
                                "resource", "gpus",      "start", "end"};
constexpr int kColumnCount = 9;

QString header() {
    QStringList names;
    for (const char *c : kColumns)
        names << QLatin1String(c);
    return names.join(QLatin1Char(','));
}

// Control characters (Unicode category Cc: U+0000-U+001F, U+007F-U+009F) have no
// place in a Kubernetes name, a user or a resource; SQLite would store a NUL as is
// and PostgreSQL refuse it with a confusing message.
int controlCharAt(const QString &v) {
    for (qsizetype i = 0; i < v.size(); ++i) {
        const ushort u = v.at(i).unicode();
        if (u < 0x20 || (u >= 0x7F && u <= 0x9F))
            return int(i);
    }
    return -1;
}

// 366d, 18262d, 2d3h: long intervals in the unit --max-interval is usually given in.
QString daysAndTime(qint64 seconds) {
    const qint64 d = seconds / 86400, rest = seconds % 86400;
    return (d ? QString::number(d) + QLatin1Char('d') : QString()) +
           (rest || !d ? formatDuration(rest) : QString());
}

} // namespace

CsvRecordReader::CsvRecordReader(QIODevice &in, QIODevice *tee)
    : m_in(in)
    , m_tee(tee) {
    m_buf.resize(kBlock);
}

Error CsvRecordReader::errorAt(const QString &message, int line) const {
    Error e = Error::make(Error::Kind::Parse, message);
    e.line = line;
    return e;
}

Result<bool> CsvRecordReader::readLine(QByteArrayView &line) {
    for (;;) {
        const char *base = m_buf.constData();
        const void *nl = m_pos < m_end ? std::memchr(base + m_pos, '\n', size_t(m_end - m_pos)) : nullptr;
        if (nl) {
            const qsizetype len = static_cast<const char *>(nl) - (base + m_pos);
            line = QByteArrayView(base + m_pos, len);
            m_pos += len + 1;
            break;
        }
        if (m_eof) {
            if (m_pos == m_end)
                return false;
            line = QByteArrayView(base + m_pos, m_end - m_pos);
            m_pos = m_end;
            break;
        }
        if (m_pos > 0) {
            std::memmove(m_buf.data(), m_buf.constData() + m_pos, size_t(m_end - m_pos));
            m_end -= m_pos;
            m_pos = 0;
        }
        if (m_end >= kMaxRecordBytes)
            return errorAt(QStringLiteral("line longer than %1 bytes").arg(kMaxRecordBytes), m_line + 1);
        if (m_buf.size() - m_end < kBlock)
            m_buf.resize(m_end + kBlock);
        const qint64 n = m_in.read(m_buf.data() + m_end, m_buf.size() - m_end);
        if (n < 0)
            return Error::make(Error::Kind::Io,
                               QStringLiteral("reading the CSV failed: %1").arg(m_in.errorString()));
        if (n == 0) {
            if (m_in.atEnd() || !m_in.waitForReadyRead(30000))
                m_eof = true;
            continue;
        }
        if (m_tee && m_tee->write(m_buf.constData() + m_end, n) != n)
            return Error::make(Error::Kind::Io,
                               QStringLiteral("spooling the CSV failed: %1").arg(m_tee->errorString()));
        m_end += n;
    }
    ++m_line;
    if (line.endsWith('\r'))
        line.chop(1);
    const qsizetype bad = firstInvalidUtf8(line);
    if (bad >= 0) {
        Error e = errorAt(QStringLiteral("invalid UTF-8 (byte 0x%1 at column %2); the file must be UTF-8")
                              .arg(uint(uchar(line[bad])), 2, 16, QLatin1Char('0'))
                              .arg(bad + 1),
                          m_line);
        e.column = int(bad + 1);
        return e;
    }
    return true;
}

Result<bool> CsvRecordReader::next() {
    m_scratch.clear();
    m_fields.clear();
    QByteArrayView line;
    for (;;) {
        auto r = readLine(line);
        if (!r)
            return r.error();
        if (!*r)
            return false;
        if (m_first) {
            m_first = false;
            if (line.startsWith("\xEF\xBB\xBF"))
                line = line.sliced(3);
        }
        if (!isBlank(line))
            break;
    }
    m_recordLine = m_line;
    qsizetype fieldStart = 0;
    bool quoted = false;
    for (;;) {
        const char *s = line.data();
        const qsizetype n = line.size();
        qsizetype i = 0;
        while (i < n) {
            if (quoted) {
                qsizetype j = i;
                while (j < n && s[j] != '"')
                    ++j;
                m_scratch.append(s + i, j - i);
                if (j == n) {
                    i = j;
                    break;
                }
                if (j + 1 < n && s[j + 1] == '"') {
                    m_scratch.append('"');
                    i = j + 2;
                } else {
                    quoted = false;
                    i = j + 1;
                }
                continue;
            }
            const char c = s[i];
            if (c == '"' && m_scratch.size() == fieldStart) {
                quoted = true;
                ++i;
            } else if (c == ',') {
                m_fields.emplace_back(fieldStart, m_scratch.size() - fieldStart);
                fieldStart = m_scratch.size();
                ++i;
            } else if (c == '\r') {
                ++i;
            } else {
                qsizetype j = i + 1;
                while (j < n && s[j] != ',' && s[j] != '"' && s[j] != '\r')
                    ++j;
                m_scratch.append(s + i, j - i);
                i = j;
            }
        }
        if (!quoted)
            break;
        // A quoted field goes on on the next physical line.
        if (m_scratch.size() > kMaxRecordBytes)
            return errorAt(QStringLiteral("record longer than %1 bytes").arg(kMaxRecordBytes), m_recordLine);
        auto r = readLine(line);
        if (!r)
            return r.error();
        if (!*r)
            return errorAt(QStringLiteral("unterminated quoted field"), m_line);
        m_scratch.append('\n');
    }
    m_fields.emplace_back(fieldStart, m_scratch.size() - fieldStart);
    return true;
}

// --- the usage rows ------------------------------------------------------------------

Result<void> UsageCsvParser::readHeader() {
    auto r = m_reader.next();
    if (!r)
        return r.error();
    QStringList got, names;
    if (*r) {
        for (int i = 0; i < m_reader.fieldCount(); ++i) {
            got << QString::fromUtf8(m_reader.field(i));
            names << got.last().trimmed().toLower();
        }
    }
    if (names.join(QLatin1Char(',')) != header()) {
        Error e = Error::make(
            Error::Kind::Parse,
            QStringLiteral("the header must be '%1', got '%2'").arg(header(), got.join(QLatin1Char(','))));
        e.line = m_reader.line();
        return e;
    }
    return {};
}

Result<bool> UsageCsvParser::next(UsageInterval &iv, const QString &source) {
    auto r = m_reader.next();
    if (!r)
        return r.error();
    if (!*r)
        return false;
    const int line = m_reader.line();
    auto fail = [line](Error e) {
        e.line = line;
        return e;
    };
    if (m_reader.fieldCount() != kColumnCount)
        return fail(Error::make(
            Error::Kind::Parse,
            QStringLiteral("expected %1 fields, got %2").arg(kColumnCount).arg(m_reader.fieldCount())));
    QString *const ids[6] = {&iv.cluster, &iv.ns, &iv.user, &iv.podUid, &iv.podName, &iv.resource};
    for (int i = 0; i < 6; ++i) {
        QString v = QString::fromUtf8(m_reader.field(i)).trimmed();
        if (v.startsWith(QLatin1Char('\'')) && isFormulaLike(v))
            v.remove(0, 1);
        if (const int at = controlCharAt(v); at >= 0)
            return fail(Error::make(
                Error::Kind::Invalid,
                QStringLiteral("contains the control character U+%1 at position %2; "
                               "names must not contain control characters")
                    .arg(
                        QString::number(v.at(at).unicode(), 16).rightJustified(4, QLatin1Char('0')).toUpper())
                    .arg(at + 1),
                QLatin1String(kColumns[i])));
        *ids[i] = std::move(v);
    }
    if (iv.user.isEmpty())
        iv.user = iv.ns; // the same fallback as podUser(): no user label -> the namespace
    bool ok = false;
    iv.gpus = m_reader.field(6).trimmed().toInt(&ok);
    if (!ok)
        return fail(Error::make(
            Error::Kind::Parse,
            QStringLiteral("'%1' is not a whole number of devices").arg(QString::fromUtf8(m_reader.field(6))),
            QStringLiteral("gpus")));
    auto start = parseCsvInstant(m_reader.field(7), QStringLiteral("start"));
    if (!start)
        return fail(start.error());
    iv.start = *start;
    iv.end.reset();
    if (!m_reader.field(8).trimmed().isEmpty()) {
        auto end = parseCsvInstant(m_reader.field(8), QStringLiteral("end"));
        if (!end)
            return fail(end.error());
        iv.end = *end;
    }
    iv.source = source;
    if (auto v = validateInterval(iv); !v)
        return fail(v.error());
    if (iv.start < m_limits.earliestStart)
        return fail(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("%1 is before the earliest accepted start %2")
                            .arg(formatInstantUtc(iv.start), formatInstantUtc(m_limits.earliestStart)),
                        QStringLiteral("start")));
    if (iv.end && *iv.end - iv.start > m_limits.longestInterval)
        return fail(
            Error::make(Error::Kind::Invalid,
                        QStringLiteral("the interval lasts %1, longer than the longest accepted %2")
                            .arg(daysAndTime(*iv.end - iv.start), daysAndTime(m_limits.longestInterval)),
                        QStringLiteral("end")));
    return true;
}

Result<qint64> parseCsvInstant(QByteArrayView text, const QString &field) {
    const QByteArrayView t = text.trimmed();
    auto digits = [&](int from, int n, int &out) {
        out = 0;
        for (int i = from; i < from + n; ++i) {
            const char c = t[i];
            if (c < '0' || c > '9')
                return false;
            out = out * 10 + (c - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (t.size() == 20 && t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' && t[16] == ':' &&
        t[19] == 'Z' && digits(0, 4, y) && digits(5, 2, mo) && digits(8, 2, d) && digits(11, 2, h) &&
        digits(14, 2, mi) && digits(17, 2, s) && y > 0 && h < 24 && mi < 60 && s < 60) {
        const QDate date(y, mo, d);
        if (date.isValid())
            return (date.toJulianDay() - 2440588) * 86400 + h * 3600 + mi * 60 + s;
    }
    return parseInstant(QString::fromUtf8(text), field);
}

} // namespace gq
