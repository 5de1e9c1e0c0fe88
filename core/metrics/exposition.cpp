#include "core/metrics/exposition.h"

#include "core/domain/utf8check.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gq::metrics {

QString labelValue(const Labels &labels, QStringView name) {
    for (const Label &l : labels)
        if (l.name == name)
            return l.value;
    return {};
}

bool hasLabel(const Labels &labels, QStringView name) {
    for (const Label &l : labels)
        if (l.name == name)
            return true;
    return false;
}

QString ParseIssue::toString() const {
    return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(message);
}

namespace {

bool isNameStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isNameChar(char c) {
    return isNameStart(c) || (c >= '0' && c <= '9');
}
bool isBlank(char c) {
    return c == ' ' || c == '\t';
}

// An interned string and its hash. Scrapes repeat a few hundred distinct names and
// values thousands of times; one QString each keeps the parse allocation-light.
struct Interned {
    QString text;
    size_t hash = 0;
};

class Interner {
public:
    // The reference stays valid until the next get() that hits the cap (the map's nodes
    // do not move when it grows); callers copy what they keep before asking again.
    const Interned &get(const char *p, qsizetype n) {
        const std::string_view key(p, size_t(n));
        auto it = m_map.find(key); // no copy for the lookup
        if (it != m_map.end())
            return it->second;
        // A hostile text with millions of distinct values must not grow this without
        // bound: past the cap the table starts afresh (strings already handed out live on).
        if (m_map.size() >= kMaxEntries)
            m_map.clear();
        Interned v{QString::fromUtf8(p, n), qHash(QByteArrayView(p, n))};
        return m_map.emplace(std::string(key), std::move(v)).first->second;
    }

private:
    struct Hash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const {
            return qHash(QByteArrayView(s.data(), qsizetype(s.size())));
        }
    };
    static constexpr size_t kMaxEntries = 200000;
    std::unordered_map<std::string, Interned, Hash, std::equal_to<>> m_map;
};

class Parser {
public:
    explicit Parser(QByteArrayView text)
        : m_p(text.data())
        , m_end(text.data() + text.size()) {}

    Exposition run() {
        int line = 0;
        const char *p = m_p;
        while (p < m_end) {
            ++line;
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(m_end - p)));
            const char *eol = nl ? nl : m_end;
            const char *lineEnd = eol;
            if (lineEnd > p && lineEnd[-1] == '\r')
                --lineEnd;
            parseLine(p, lineEnd, line);
            p = nl ? nl + 1 : m_end;
        }
        m_out.lines = line;
        return std::move(m_out);
    }

private:
    void issue(int line, const char *lineStart, const char *at, QString message) {
        ++m_out.issueCount;
        if (m_out.issues.size() < Exposition::kMaxIssues)
            m_out.issues.append(ParseIssue{line, int(at - lineStart) + 1, std::move(message)});
    }

    void parseLine(const char *begin, const char *end, int line) {
        const char *p = begin;
        while (p < end && isBlank(*p))
            ++p;
        if (p == end)
            return;
        if (*p == '#') {
            parseComment(begin, p + 1, end, line);
            return;
        }
        parseSample(begin, p, end, line);
    }

    // "# HELP name text", "# TYPE name type", anything else is a comment.
    void parseComment(const char *lineStart, const char *p, const char *end, int line) {
        while (p < end && isBlank(*p))
            ++p;
        const char *word = p;
        while (p < end && !isBlank(*p))
            ++p;
        const qsizetype wlen = p - word;
        const bool isHelp = wlen == 4 && std::memcmp(word, "HELP", 4) == 0;
        const bool isType = wlen == 4 && std::memcmp(word, "TYPE", 4) == 0;
        if (!isHelp && !isType)
            return;
        while (p < end && isBlank(*p))
            ++p;
        const char *name = p;
        if (p < end && (isNameStart(*p) || *p == ':'))
            ++p;
        while (p < end && (isNameChar(*p) || *p == ':'))
            ++p;
        if (p == name || (p < end && !isBlank(*p))) {
            issue(line, lineStart, p,
                  isHelp ? QStringLiteral("# HELP needs a metric name")
                         : QStringLiteral("# TYPE needs a metric name"));
            return;
        }
        const QString family = m_names.get(name, p - name).text;
        while (p < end && isBlank(*p))
            ++p;
        if (isType) {
            const QByteArrayView t(p, end - p);
            static const char *const kTypes[] = {"counter", "gauge", "histogram",      "summary", "untyped",
                                                 "unknown", "info",  "gaugehistogram", "stateset"};
            QByteArrayView trimmed = t;
            while (!trimmed.isEmpty() && isBlank(trimmed.back()))
                trimmed.chop(1);
            bool known = false;
            for (const char *k : kTypes)
                known = known || trimmed == QByteArrayView(k);
            if (!known) {
                issue(line, lineStart, p,
                      QStringLiteral("unknown metric type '%1' for %2")
                          .arg(QString::fromUtf8(trimmed.data(), trimmed.size()).left(40), family));
                return;
            }
            if (m_out.type.contains(family)) {
                issue(line, lineStart, p, QStringLiteral("second # TYPE line for %1").arg(family));
                return;
            }
            m_out.type.insert(family, QString::fromLatin1(trimmed.data(), trimmed.size()));
            return;
        }
        // HELP: the rest of the line, with \\ and \n unescaped.
        if (const qsizetype bad = firstInvalidUtf8(QByteArrayView(p, end - p)); bad >= 0) {
            issue(line, lineStart, p + bad, QStringLiteral("invalid UTF-8 in the # HELP text"));
            return;
        }
        QByteArray text;
        text.reserve(end - p);
        for (const char *q = p; q < end; ++q) {
            if (*q == '\\' && q + 1 < end && (q[1] == '\\' || q[1] == 'n')) {
                text.append(q[1] == 'n' ? '\n' : '\\');
                ++q;
            } else {
                text.append(*q);
            }
        }
        m_out.help.insert(family, QString::fromUtf8(text));
    }

    void parseSample(const char *lineStart, const char *p, const char *end, int line) {
        const char *name = p;
        if (!(isNameStart(*p) || *p == ':')) {
            issue(line, lineStart, p, QStringLiteral("expected a metric name"));
            return;
        }
        while (p < end && (isNameChar(*p) || *p == ':'))
            ++p;
        const Interned &nameI = m_names.get(name, p - name);
        Sample s;
        s.name = nameI.text;
        s.line = line;
        size_t hash = nameI.hash;
        if (p < end && *p == '{') {
            ++p;
            s.labels.reserve(12); // dcgm-exporter writes 6 to 12
            if (!parseLabels(lineStart, p, end, line, s.labels, hash))
                return;
        }
        if (p == end || !isBlank(*p)) {
            issue(line, lineStart, p,
                  p == end ? QStringLiteral("missing value after %1").arg(s.name)
                           : QStringLiteral("expected a blank before the value"));
            return;
        }
        while (p < end && isBlank(*p))
            ++p;
        const char *v = p;
        while (p < end && !isBlank(*p))
            ++p;
        if (v == p) {
            issue(line, lineStart, v, QStringLiteral("missing value after %1").arg(s.name));
            return;
        }
        if (!parseValue(v, p, &s.value)) {
            issue(line, lineStart, v,
                  QStringLiteral("'%1' is not a number").arg(QString::fromUtf8(v, p - v).left(40)));
            return;
        }
        while (p < end && isBlank(*p))
            ++p;
        if (p < end) {
            const char *t = p;
            while (p < end && !isBlank(*p))
                ++p;
            qint64 ts = 0;
            const auto r = std::from_chars(t, p, ts);
            if (r.ec != std::errc() || r.ptr != p) {
                issue(line, lineStart, t,
                      QStringLiteral("'%1' is not a timestamp (integer milliseconds)")
                          .arg(QString::fromUtf8(t, p - t).left(40)));
                return;
            }
            s.timestampMs = ts;
            while (p < end && isBlank(*p))
                ++p;
            if (p < end) {
                issue(line, lineStart, p, QStringLiteral("unexpected text after the timestamp"));
                return;
            }
        }
        if (s.timestampMs)
            hash ^= std::hash<qint64>{}(*s.timestampMs) * 0x9e3779b97f4a7c15ULL;
        // Duplicate series: compare with every earlier sample of the same hash.
        auto range = m_seen.equal_range(hash);
        for (auto it = range.first; it != range.second; ++it) {
            const Sample &prev = m_out.samples.at(it.value());
            if (sameSeries(prev, s)) {
                issue(line, lineStart, name,
                      QStringLiteral("duplicate series %1 (first at line %2); this one is ignored")
                          .arg(seriesText(s).left(200))
                          .arg(prev.line));
                return;
            }
        }
        m_seen.insert(hash, int(m_out.samples.size()));
        m_out.samples.append(std::move(s));
    }

    static bool sameSeries(const Sample &a, const Sample &b) {
        if (a.name != b.name || a.labels.size() != b.labels.size() || a.timestampMs != b.timestampMs)
            return false;
        for (const Label &l : a.labels)
            if (!b.labels.contains(l))
                return false;
        return true;
    }

    // After '{': label="value" pairs, comma separated, blanks allowed, trailing comma ok.
    bool parseLabels(const char *lineStart, const char *&p, const char *end, int line, Labels &labels,
                     size_t &hash) {
        for (;;) {
            while (p < end && isBlank(*p))
                ++p;
            if (p < end && *p == '}') {
                ++p;
                return true;
            }
            const char *ln = p;
            if (p == end || !isNameStart(*p)) {
                issue(line, lineStart, p,
                      p == end ? QStringLiteral("unterminated label set")
                               : QStringLiteral("expected a label name"));
                return false;
            }
            while (p < end && isNameChar(*p))
                ++p;
            const Interned &labelName = m_names.get(ln, p - ln);
            while (p < end && isBlank(*p))
                ++p;
            if (p == end || *p != '=') {
                issue(line, lineStart, p, QStringLiteral("expected '=' after label %1").arg(labelName.text));
                return false;
            }
            ++p;
            while (p < end && isBlank(*p))
                ++p;
            if (p == end || *p != '"') {
                issue(line, lineStart, p,
                      QStringLiteral("expected '\"' to start the value of label %1").arg(labelName.text));
                return false;
            }
            ++p;
            const char *vs = p;
            bool escaped = false;
            while (p < end && *p != '"') {
                if (*p == '\\') {
                    escaped = true;
                    if (++p == end)
                        break;
                }
                ++p;
            }
            if (p == end) {
                issue(line, lineStart, vs - 1,
                      QStringLiteral("unterminated value of label %1").arg(labelName.text));
                return false;
            }
            const char *ve = p++;
            if (const qsizetype bad = firstInvalidUtf8(QByteArrayView(vs, ve - vs)); bad >= 0) {
                issue(line, lineStart, vs + bad,
                      QStringLiteral("invalid UTF-8 in the value of label %1").arg(labelName.text));
                return false;
            }
            const Interned *value;
            if (!escaped) {
                value = &m_values.get(vs, ve - vs);
            } else {
                m_scratch.clear();
                for (const char *q = vs; q < ve; ++q) {
                    if (*q == '\\' && q + 1 < ve) {
                        const char c = q[1];
                        if (c == 'n' || c == '\\' || c == '"') {
                            m_scratch.append(c == 'n' ? '\n' : c);
                            ++q;
                            continue;
                        }
                    }
                    m_scratch.append(*q);
                }
                value = &m_values.get(m_scratch.constData(), m_scratch.size());
            }
            for (const Label &l : labels) {
                if (l.name == labelName.text) {
                    issue(line, lineStart, ln, QStringLiteral("label %1 appears twice").arg(labelName.text));
                    return false;
                }
            }
            // Order-independent: the same label set in another order hashes alike.
            hash += (labelName.hash * 0x100000001b3ULL) ^ (value->hash + 0x9e3779b97f4a7c15ULL);
            labels.append(Label{labelName.text, value->text});
            while (p < end && isBlank(*p))
                ++p;
            if (p < end && *p == ',') {
                ++p;
                continue;
            }
            if (p < end && *p == '}') {
                ++p;
                return true;
            }
            issue(line, lineStart, p,
                  p == end ? QStringLiteral("unterminated label set")
                           : QStringLiteral("expected ',' or '}' after a label"));
            return false;
        }
    }

    // Go's ParseFloat as the exposition format uses it: decimal floats, NaN, Inf with
    // an optional sign, any case. from_chars takes all of that except a leading '+'.
    static bool parseValue(const char *b, const char *e, double *out) {
        if (b < e && *b == '+') {
            ++b;
            if (b < e && *b == '-')
                return false;
        }
        if (b == e)
            return false;
        const auto r = std::from_chars(b, e, *out);
        if (r.ec == std::errc::result_out_of_range) {
            // 1e999: Go returns ±Inf with an error; Prometheus rejects it. So do we.
            return false;
        }
        if (r.ec != std::errc() || r.ptr != e)
            return false;
        if (std::isnan(*out))
            *out = std::numeric_limits<double>::quiet_NaN(); // drop the sign and payload
        return true;
    }

    const char *m_p;
    const char *m_end;
    Exposition m_out;
    Interner m_names;
    Interner m_values;
    QByteArray m_scratch;
    QMultiHash<size_t, int> m_seen;
};

void appendEscaped(QString &out, const QString &v) {
    for (const QChar c : v) {
        if (c == u'\\')
            out += QLatin1String("\\\\");
        else if (c == u'"')
            out += QLatin1String("\\\"");
        else if (c == u'\n')
            out += QLatin1String("\\n");
        else
            out += c;
    }
}

} // namespace

Exposition parseExposition(QByteArrayView text) {
    return Parser(text).run();
}

QString seriesText(const Sample &sample) {
    QString out = sample.name;
    if (sample.labels.isEmpty())
        return out;
    out += u'{';
    bool first = true;
    for (const Label &l : sample.labels) {
        if (!first)
            out += u',';
        first = false;
        out += l.name + QLatin1String("=\"");
        appendEscaped(out, l.value);
        out += u'"';
    }
    out += u'}';
    return out;
}

} // namespace gq::metrics
