#include "core/domain/yamlfastpath_p.h"

#include "core/domain/keyindex_p.h"

#include <iterator>
#include <limits>
#include <memory>
#include <vector>

// A reader for the plainest block YAML: what `kubectl get -o yaml` of a quota List,
// or a hand-written manifest, mostly is. yaml-cpp's scanner spends about 1,700
// instructions a byte (a 13 MB, 100k-quota List took 1.2 s before any tree was
// built); this reads such text line by line in a small fraction of that. It accepts
// only what it is sure about and declines everything else (flow style, quotes,
// anchors, tags, comments after content, multi-line scalars, several documents,
// tabs, CR, non-ASCII, any irregular indentation, duplicate keys), so yaml-cpp still
// reads those and reports their errors. fuzz_yaml checks that whatever this accepts
// gives the same tree, with the same positions, as yaml-cpp.

namespace gq::detail {

namespace {

struct Line {
    int number = 0; // 0-based, as yaml-cpp's marks count
    int start = 0;  // byte offset of the line
    int indent = 0; // column of the first content byte
    int end = 0;    // byte offset after the content, trailing spaces cut
};

bool isKeyChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '/' || c == '-';
}

bool isValueChar(char c) {
    return isKeyChar(c) || c == ':' || c == '@' || c == '+' || c == '=';
}

// yaml-cpp reports these plain scalars as nulls, not as text, as values and as keys.
bool isNullWord(QByteArrayView text) {
    return text == "null" || text == "Null" || text == "NULL";
}

class Reader {
public:
    Reader(const QByteArray &text, const YamlLoadLimits &limits, ScalarInterner &interner)
        : m_text(text.constData())
        , m_limits(limits)
        , m_interner(interner) {}

    bool splitLines(qsizetype size);
    std::optional<YamlNode> readDocument();

private:
    [[nodiscard]] bool atEnd() const { return m_next >= m_lines.size(); }
    [[nodiscard]] const Line &peek() const { return m_lines[m_next]; }
    [[nodiscard]] bool isItem(const Line &l, int from) const {
        return m_text[from] == '-' && (from + 1 == l.end || m_text[from + 1] == ' ');
    }
    [[nodiscard]] SourcePos at(const Line &l, int offset) const {
        return SourcePos{l.number + 1, offset - l.start + 1, offset};
    }

    // Parses the node that starts at byte `from` of the current line (its column is
    // `indent`): a map or a sequence; false to decline.
    bool readBlock(int from, int depth, YamlNode &out);
    bool readMap(int from, int depth, YamlNode &out);
    bool readSequence(int from, int depth, YamlNode &out);
    // The value after "key:" with nothing on its line: a nested block, or null.
    bool readNestedValue(int keyIndent, int depth, YamlNode &out);
    bool readScalar(const Line &l, int from, YamlNode &out);

    const char *m_text;
    const YamlLoadLimits &m_limits;
    ScalarInterner &m_interner;
    std::vector<Line> m_lines;
    std::size_t m_next = 0;
};

bool Reader::splitLines(qsizetype size) {
    if (size > std::numeric_limits<int>::max() / 2)
        return false; // offsets are ints (the input limit is 16 MiB anyway)
    int number = 0;
    for (qsizetype start = 0; start < size; ++number) {
        qsizetype end = start;
        while (end < size && m_text[end] != '\n') {
            const char c = m_text[end];
            if (uchar(c) >= 0x80 || c == '\t' || c == '\r' || (uchar(c) < 0x20) || c == '#' || c == '"' ||
                c == '\'' || c == '&' || c == '*' || c == '!' || c == '|' || c == '>' || c == '{' ||
                c == '}' || c == '[' || c == ']' || c == ',' || c == '%' || c == '`' || c == '?' ||
                c == '\\' || c == '~')
                return false;
            ++end;
        }
        qsizetype first = start;
        while (first < end && m_text[first] == ' ')
            ++first;
        qsizetype last = end;
        while (last > first && m_text[last - 1] == ' ')
            --last;
        if (last > first) {
            if (end - start >= 3 &&
                (QByteArrayView(m_text + start, 3) == "---" || QByteArrayView(m_text + start, 3) == "..."))
                return false; // document markers: yaml-cpp keeps the document bookkeeping
            m_lines.push_back(Line{number, int(start), int(first - start), int(last)});
        }
        start = end + 1;
    }
    return !m_lines.empty();
}

std::optional<YamlNode> Reader::readDocument() {
    const Line first = peek();
    YamlNode root;
    if (!readBlock(first.start + first.indent, 0, root) || !atEnd())
        return std::nullopt;
    return root;
}

bool Reader::readBlock(int from, int depth, YamlNode &out) {
    if (depth >= m_limits.maxDepth)
        return false;
    const Line &l = peek();
    return isItem(l, from) ? readSequence(from, depth, out) : readMap(from, depth, out);
}

bool Reader::readScalar(const Line &l, int from, YamlNode &out) {
    const char first = m_text[from];
    if (first == '-' || first == ':' || first == '@' || m_text[l.end - 1] == ':')
        return false; // indicators, or a key without a value on a sequence item
    for (int i = from; i < l.end; ++i) {
        if (!isValueChar(m_text[i]))
            return false; // spaces (": " pairs, several words) and the rest: yaml-cpp
    }
    const QByteArrayView text(m_text + from, l.end - from);
    if (isNullWord(text))
        out = YamlNode();
    else
        out = YamlNode::scalar(m_interner(text.data(), std::size_t(text.size())), false);
    out.setPos(at(l, from));
    return true;
}

bool Reader::readMap(int from, int depth, YamlNode &out) {
    std::vector<YamlNode::Entry> entries;
    std::shared_ptr<KeyIndex> keys; // see earlierEntry; becomes the map's key index
    const int indent = from - peek().start;
    SourcePos mapPos;
    while (!atEnd()) {
        const Line l = peek();
        if (!entries.empty()) {
            if (l.indent < indent)
                break;
            if (l.indent > indent || isItem(l, l.start + l.indent))
                return false;
            from = l.start + l.indent;
        }
        // key ':' (space value | end of line)
        int colon = from;
        while (colon < l.end && isKeyChar(m_text[colon]))
            ++colon;
        if (colon == from || colon == l.end || m_text[colon] != ':' || m_text[from] == '-')
            return false;
        if (colon + 1 < l.end && m_text[colon + 1] != ' ')
            return false;
        if (isNullWord(QByteArrayView(m_text + from, colon - from)))
            return false; // a null key ("null: x"): yaml-cpp gives it no text; leave it to the tree builder
        YamlNode::Entry entry;
        entry.key = m_interner(m_text + from, std::size_t(colon - from));
        entry.keyPos = at(l, from);
        if (entries.empty())
            mapPos = entry.keyPos;
        // Duplicate keys are an error yaml-cpp's path words and places.
        if (earlierEntry(keys, entries, entry.key) >= 0)
            return false;
        ++m_next;
        int value = colon + 1;
        while (value < l.end && m_text[value] == ' ')
            ++value;
        if (value < l.end) {
            if (!readScalar(l, value, entry.value))
                return false;
            if (!atEnd() && peek().indent > indent)
                return false; // a multi-line plain scalar, or worse
        } else if (!readNestedValue(indent, depth, entry.value)) {
            return false;
        }
        if (entry.value.isNull()) // as TreeBuilder::place: a null value points at its key
            entry.value.setPos(entry.keyPos);
        entries.push_back(std::move(entry));
    }
    out = YamlNode::map();
    out.setPos(mapPos);
    std::vector<YamlNode::Entry> &own = out.entries();
    own.reserve(entries.size());
    std::move(entries.begin(), entries.end(), std::back_inserter(own));
    if (keys) {
        keys->count = keys->positions.size();
        out.adoptKeyIndex(std::move(keys));
    } else {
        out.indexKeys();
    }
    return true;
}

bool Reader::readNestedValue(int keyIndent, int depth, YamlNode &out) {
    if (atEnd()) {
        out = YamlNode();
        return true;
    }
    const Line &l = peek();
    const int from = l.start + l.indent;
    // A sequence may sit at its key's indentation ("items:\n- a"); a map may not.
    if (l.indent > keyIndent || (l.indent == keyIndent && isItem(l, from)))
        return readBlock(from, depth + 1, out);
    out = YamlNode();
    return true;
}

bool Reader::readSequence(int from, int depth, YamlNode &out) {
    std::vector<YamlNode> items;
    const int indent = from - peek().start;
    SourcePos seqPos;
    while (!atEnd()) {
        const Line l = peek();
        if (!items.empty()) {
            // A line at the sequence's column that is not an item ends it: the key
            // after a sequence written at its own key's column ("items:\n- a\nb: 1").
            if (l.indent < indent || (l.indent == indent && !isItem(l, l.start + l.indent)))
                break;
            if (l.indent > indent)
                return false;
            from = l.start + l.indent;
        }
        if (items.empty())
            seqPos = at(l, from);
        int content = from + 1;
        while (content < l.end && m_text[content] == ' ')
            ++content;
        if (content == l.end || isItem(l, content))
            return false; // "-" alone or "- - a": rare, and yaml-cpp marks them its own way
        // "- key: value" opens a map at the key's column; anything else is a scalar.
        int colon = content;
        while (colon < l.end && isKeyChar(m_text[colon]))
            ++colon;
        YamlNode item;
        if (colon < l.end && m_text[colon] == ':' && (colon + 1 == l.end || m_text[colon + 1] == ' ')) {
            if (depth + 1 >= m_limits.maxDepth || !readMap(content, depth + 1, item))
                return false;
        } else {
            if (!readScalar(l, content, item))
                return false;
            ++m_next;
            if (!atEnd() && peek().indent > indent)
                return false;
        }
        items.push_back(std::move(item));
    }
    out = YamlNode::sequence();
    out.setPos(seqPos);
    std::vector<YamlNode> &own = out.items();
    own.reserve(items.size());
    std::move(items.begin(), items.end(), std::back_inserter(own));
    return true;
}

} // namespace

std::optional<YamlNode> readPlainBlockYaml(const QByteArray &text, const YamlLoadLimits &limits,
                                           ScalarInterner &interner) {
    Reader reader(text, limits, interner);
    if (!reader.splitLines(text.size()))
        return std::nullopt;
    return reader.readDocument();
}

} // namespace gq::detail
