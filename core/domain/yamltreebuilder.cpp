#include "core/domain/yamltreebuilder_p.h"

#include <algorithm>
#include <iterator>

namespace gq::detail {

TreeBuilder::TreeBuilder(const QByteArray &text, const YamlLoadLimits &limits, int offsetDelta)
    : m_text(text)
    , m_limits(limits)
    , m_offsetDelta(offsetDelta) {
    // Only aliases can make a document bigger than its text ("billion laughs"), and
    // the text is bounded already (boundedread.h), so only the copies aliases make
    // are counted; a small text gets a small allowance.
    m_limits.maxNodes = std::min<qsizetype>(m_limits.maxNodes, 16 * text.size() + 4096);
    m_lineStarts.push_back(0);
    bool ascii = true;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (uchar(text[i]) >= 0x80)
            ascii = false;
        if (text[i] == '\n') {
            m_lineStarts.push_back(int(i + 1));
            m_lineAscii.push_back(ascii);
            ascii = true;
        }
    }
    m_lineAscii.push_back(ascii);
}

SourcePos TreeBuilder::pos(const YAML::Mark &m) const {
    SourcePos p;
    if (m.line < 0 || m.pos < 0)
        return p;
    p.line = m.line + 1;
    p.offset = m.pos + m_offsetDelta;
    p.column = m.column + 1;
    // yaml-cpp counts columns in bytes; count characters so an editor lands right.
    // Events arrive in text order, so counting resumes where the last one stopped:
    // long single-line (JSON-like) documents stay linear.
    const auto line = std::size_t(m.line);
    if (line < m_lineStarts.size() && !m_lineAscii[line]) {
        const int start = m_lineStarts[line];
        if (m.pos >= start && m.pos <= m_text.size()) {
            if (m_cacheLine != m.line || m_cachePos > m.pos) {
                m_cacheLine = m.line;
                m_cachePos = start;
                m_cacheChars = 0;
            }
            for (int i = m_cachePos; i < m.pos; ++i) {
                if ((uchar(m_text[i]) & 0xC0) != 0x80)
                    ++m_cacheChars;
            }
            m_cachePos = m.pos;
            p.column = m_cacheChars + 1;
        }
    }
    return p;
}

Error TreeBuilder::fail(const YAML::Mark &m, QString message) const {
    Error e = Error::make(Error::Kind::Parse, std::move(message));
    const SourcePos p = pos(m);
    e.line = p.line;
    e.column = p.column;
    return e;
}

void TreeBuilder::OnDocumentStart(const YAML::Mark &mark) {
    if (m_error)
        return;
    if (m_documents > 0 && mark.pos == m_lastDocumentPos) {
        setError(
            fail(mark, QStringLiteral("invalid YAML: unexpected content after the document's root node")));
        return;
    }
    ++m_documents;
    m_lastDocumentPos = mark.pos;
    m_stack.clear();
    m_haveRoot = false;
    m_root = YamlNode();
}

void TreeBuilder::OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) {
    YamlNode n;
    n.setPos(pos(mark));
    add(std::move(n), anchor, mark, 1);
}

void TreeBuilder::OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) {
    if (m_error)
        return;
    const auto it = m_anchors.find(anchor);
    if (it == m_anchors.end()) {
        setError(fail(mark, QStringLiteral("invalid YAML: alias to an unknown or unfinished anchor")));
        return;
    }
    m_aliasNodes += it->second.size;
    if (m_aliasNodes > m_limits.maxNodes) {
        setError(fail(mark, QStringLiteral("document too large: its aliases expand to more than %1 nodes")
                                .arg(m_limits.maxNodes)));
        return;
    }
    YamlNode copy = it->second.node;
    add(std::move(copy), 0, mark, it->second.size);
}

void TreeBuilder::OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                           const std::string &value) {
    if (m_error)
        return;
    // yaml-cpp tags plain scalars "?" and quoted / block scalars "!".
    const bool plain = tag.empty() || tag == "?" || tag == "tag:yaml.org,2002:int" ||
                       tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool" ||
                       tag == "tag:yaml.org,2002:null";
    // An empty plain scalar is a null in YAML, whatever yaml-cpp reports. (Qt drops a
    // leading byte-order mark when decoding, so test after decoding.)
    QString text = m_intern(value.data(), value.size());
    YamlNode n = plain && text.isEmpty() ? YamlNode() : YamlNode::scalar(std::move(text), !plain);
    n.setPos(pos(mark));
    add(std::move(n), anchor, mark, 1);
}

void TreeBuilder::open(YamlNode node, const YAML::Mark &mark, YAML::anchor_t anchor) {
    if (m_error)
        return;
    if (int(m_stack.size()) >= m_limits.maxDepth) {
        setError(fail(
            mark, QStringLiteral("document nested too deeply (more than %1 levels)").arg(m_limits.maxDepth)));
        return;
    }
    node.setPos(pos(mark));
    const std::size_t depth = m_stack.size();
    if (m_items.size() <= depth) {
        m_items.resize(depth + 1);
        m_entries.resize(depth + 1);
    }
    m_items[depth].clear();
    m_entries[depth].clear();
    Frame f;
    f.node = std::move(node);
    f.anchor = anchor;
    f.mark = mark;
    m_stack.push_back(std::move(f));
}

void TreeBuilder::close() {
    if (m_error || m_stack.empty())
        return;
    const std::size_t depth = m_stack.size() - 1;
    Frame f = std::move(m_stack.back());
    m_stack.pop_back();
    std::vector<YamlNode::Entry> &entries = m_entries[depth];
    std::vector<YamlNode> &items = m_items[depth];
    if (f.node.isMap() && f.haveKey) {
        // A key without a value ("{a}"): its value is null.
        YamlNode null;
        null.setPos(f.keyPos);
        entries.push_back(YamlNode::Entry{f.key, f.keyPos, std::move(null)});
    }
    if (!entries.empty()) {
        std::vector<YamlNode::Entry> &own = f.node.entries();
        own.reserve(entries.size());
        std::move(entries.begin(), entries.end(), std::back_inserter(own));
        entries.clear();
    }
    if (!items.empty()) {
        std::vector<YamlNode> &own = f.node.items();
        own.reserve(items.size());
        std::move(items.begin(), items.end(), std::back_inserter(own));
        items.clear();
    }
    if (f.keys) {
        f.keys->count = f.keys->positions.size();
        f.node.adoptKeyIndex(std::move(f.keys)); // checks it covers every entry
    } else {
        f.node.indexKeys();
    }
    place(std::move(f.node), f.anchor, f.mark, f.size);
}

void TreeBuilder::add(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size) {
    if (m_error)
        return;
    place(std::move(n), anchor, mark, size);
}

void TreeBuilder::place(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size) {
    if (anchor != 0)
        m_anchors[anchor] = Anchored{n, size};
    if (m_stack.empty()) {
        m_root = std::move(n);
        m_haveRoot = true;
        return;
    }
    Frame &top = m_stack.back();
    top.size += size;
    const std::size_t depth = m_stack.size() - 1;
    if (top.node.isSequence()) {
        m_items[depth].push_back(std::move(n));
        return;
    }
    if (!top.haveKey) {
        if (!n.isScalar() && !n.isNull()) {
            setError(fail(mark, QStringLiteral("mapping keys must be scalars")));
            return;
        }
        top.key = n.text();
        top.keyPos = n.pos();
        top.haveKey = true;
        const std::vector<YamlNode::Entry> &entries = m_entries[depth];
        if (const qsizetype first = earlierEntry(top.keys, entries, top.key); first >= 0)
            setError(fail(mark, QStringLiteral("mapping key \"%1\" already defined at line %2")
                                    .arg(elided(top.key))
                                    .arg(entries[std::size_t(first)].keyPos.line)));
        return;
    }
    // A null value has no useful mark of its own; point at its key.
    if (n.isNull() || !n.pos().isValid())
        n.setPos(top.keyPos);
    m_entries[depth].push_back(YamlNode::Entry{std::move(top.key), top.keyPos, std::move(n)});
    top.haveKey = false;
    top.key = QString();
}

} // namespace gq::detail
