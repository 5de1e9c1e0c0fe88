#include "core/yamldoc.h"

#include <QJsonArray>

// GCC 12 at -O2 reports a false -Wdangling-pointer inside yaml-cpp 0.7's node/impl.h
// (a temporary in Node::operator[]); the warning sits in the library's header, so it is
// silenced for this file only, where that header is used.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <sstream>
#include <string>
#include <unordered_map>

namespace gq {

// --- YamlNode ----------------------------------------------------------------------

YamlNode YamlNode::scalar(QString text, bool isString) {
    YamlNode n;
    n.m_type = Type::Scalar;
    n.m_text = std::move(text);
    n.m_isString = isString;
    return n;
}

YamlNode YamlNode::sequence() {
    YamlNode n;
    n.m_type = Type::Sequence;
    return n;
}

YamlNode YamlNode::map() {
    YamlNode n;
    n.m_type = Type::Map;
    return n;
}

void YamlNode::setScalar(QString text, bool isString) {
    m_type = Type::Scalar;
    m_text = std::move(text);
    m_isString = isString;
    m_items.clear();
    m_entries.clear();
}

qsizetype YamlNode::size() const {
    if (m_type == Type::Sequence)
        return qsizetype(m_items.size());
    if (m_type == Type::Map)
        return qsizetype(m_entries.size());
    return 0;
}

void YamlNode::append(YamlNode item) {
    if (m_type != Type::Sequence) {
        *this = sequence();
    }
    m_items.push_back(std::move(item));
}

const YamlNode::Entry *YamlNode::findEntry(QStringView key) const {
    if (m_type != Type::Map)
        return nullptr;
    for (const Entry &e : m_entries) {
        if (e.key == key)
            return &e;
    }
    return nullptr;
}

const YamlNode *YamlNode::find(QStringView key) const {
    const Entry *e = findEntry(key);
    return e ? &e->value : nullptr;
}

YamlNode *YamlNode::find(QStringView key) {
    if (m_type != Type::Map)
        return nullptr;
    for (Entry &e : m_entries) {
        if (e.key == key)
            return &e.value;
    }
    return nullptr;
}

YamlNode &YamlNode::insert(const QString &key, YamlNode value) {
    if (m_type != Type::Map)
        *this = map();
    if (YamlNode *existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    m_entries.push_back(Entry{key, SourcePos{}, std::move(value)});
    return m_entries.back().value;
}

YamlNode &YamlNode::mapAt(const QString &key) {
    YamlNode *existing = find(key);
    if (existing && existing->isMap())
        return *existing;
    if (existing) {
        const SourcePos pos = existing->pos();
        *existing = map();
        existing->setPos(pos);
        return *existing;
    }
    return insert(key, map());
}

bool YamlNode::remove(QStringView key) {
    if (m_type != Type::Map)
        return false;
    const auto it =
        std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry &e) { return e.key == key; });
    if (it == m_entries.end())
        return false;
    m_entries.erase(it);
    return true;
}

QString YamlNode::scalarAt(QStringView key, const QString &fallback) const {
    const YamlNode *n = find(key);
    return n && n->isScalar() ? n->text() : fallback;
}

namespace {

// Splits "spec.limits[0].max[cpu]" into steps: {name "spec"}, {name "limits"},
// {index "0"}, {name "max"}, {index "cpu"}. Bracketed keys may contain dots and slashes.
struct PathStep {
    QStringView key;
    bool bracketed = false;
};

QList<PathStep> splitFieldPath(QStringView path) {
    QList<PathStep> steps;
    qsizetype i = 0;
    const qsizetype n = path.size();
    while (i < n) {
        if (path[i] == u'.') {
            ++i;
            continue;
        }
        if (path[i] == u'[') {
            const qsizetype close = path.indexOf(u']', i + 1);
            if (close < 0)
                break;
            steps.append(PathStep{path.mid(i + 1, close - i - 1), true});
            i = close + 1;
            continue;
        }
        qsizetype j = i;
        while (j < n && path[j] != u'.' && path[j] != u'[')
            ++j;
        steps.append(PathStep{path.mid(i, j - i), false});
        i = j;
    }
    return steps;
}

} // namespace

SourcePos YamlNode::locate(QStringView fieldPath, bool atKey) const {
    const YamlNode *cur = this;
    SourcePos best = m_pos;
    SourcePos lastKey;
    bool lastWasKey = false;
    for (const PathStep &step : splitFieldPath(fieldPath)) {
        const YamlNode *next = nullptr;
        SourcePos keyPos;
        if (cur->isMap()) {
            if (const Entry *e = cur->findEntry(step.key)) {
                next = &e->value;
                keyPos = e->keyPos;
            }
        } else if (cur->isSequence() && step.bracketed) {
            bool ok = false;
            const qsizetype index = step.key.toLongLong(&ok);
            if (ok && index >= 0 && index < cur->size())
                next = &cur->m_items[std::size_t(index)];
        }
        if (!next) {
            // The path goes on below what exists (a missing field): point at the
            // deepest node found, at its key when it has one ("metadata:").
            return lastWasKey ? lastKey : best;
        }
        cur = next;
        lastWasKey = keyPos.isValid();
        lastKey = keyPos;
        if (next->pos().isValid())
            best = next->pos();
        else if (keyPos.isValid())
            best = keyPos;
    }
    if (atKey && lastWasKey)
        return lastKey;
    return best;
}

namespace {

bool isYamlNull(const QString &t) {
    return t.isEmpty() || t == u"~" || t == u"null" || t == u"Null" || t == u"NULL";
}

bool isYamlBool(const QString &t, bool *value) {
    if (t == u"true" || t == u"True" || t == u"TRUE") {
        *value = true;
        return true;
    }
    if (t == u"false" || t == u"False" || t == u"FALSE") {
        *value = false;
        return true;
    }
    return false;
}

// Words YAML 1.1 readers (Go's yaml.v2, used by kubectl for years) take as booleans.
bool isYaml11Bool(const QString &t) {
    static const QStringList words = {
        QStringLiteral("y"),   QStringLiteral("Y"),   QStringLiteral("yes"), QStringLiteral("Yes"),
        QStringLiteral("YES"), QStringLiteral("n"),   QStringLiteral("N"),   QStringLiteral("no"),
        QStringLiteral("No"),  QStringLiteral("NO"),  QStringLiteral("on"),  QStringLiteral("On"),
        QStringLiteral("ON"),  QStringLiteral("off"), QStringLiteral("Off"), QStringLiteral("OFF")};
    return words.contains(t);
}

bool isDigits(QStringView t) {
    if (t.isEmpty())
        return false;
    for (QChar c : t) {
        if (c < u'0' || c > u'9')
            return false;
    }
    return true;
}

// [-+]?[0-9]+
bool isYamlInt(QStringView t) {
    if (t.startsWith(u'-') || t.startsWith(u'+'))
        t = t.mid(1);
    return isDigits(t);
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isYamlFloat(QStringView t) {
    if (t.startsWith(u'-') || t.startsWith(u'+'))
        t = t.mid(1);
    qsizetype e = t.indexOf(u'e');
    if (e < 0)
        e = t.indexOf(u'E');
    QStringView mantissa = e < 0 ? t : t.left(e);
    if (e >= 0) {
        QStringView exp = t.mid(e + 1);
        if (exp.startsWith(u'-') || exp.startsWith(u'+'))
            exp = exp.mid(1);
        if (!isDigits(exp))
            return false;
    }
    const qsizetype dot = mantissa.indexOf(u'.');
    if (dot < 0)
        return isDigits(mantissa);
    const QStringView whole = mantissa.left(dot);
    const QStringView frac = mantissa.mid(dot + 1);
    if (whole.isEmpty())
        return isDigits(frac);
    return isDigits(whole) && (frac.isEmpty() || isDigits(frac));
}

bool needsQuotes(const QString &t) {
    bool b = false;
    return isYamlNull(t) || isYamlBool(t, &b) || isYaml11Bool(t) || isYamlInt(t) || isYamlFloat(t) ||
           t.startsWith(u"0x") || t.startsWith(u"0o") || t == u".inf" || t == u"-.inf" || t == u".nan";
}

// Control characters (a lone CR, a tab at the end), Unicode line separators and a
// stray byte-order mark do not survive as plain scalars; they are emitted quoted.
bool hasControlChars(const QString &t) {
    for (QChar c : t) {
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7F && u <= 0x9F) || u == 0x2028 || u == 0x2029 || u == 0xFEFF)
            return true;
    }
    return false;
}

// "---" and "..." at the start of a line end or start a document; a scalar or key
// beginning with them must be quoted to read back as itself.
bool startsLikeDocumentMarker(const QString &t) {
    return t.startsWith(u"---") || t.startsWith(u"...");
}

bool startsLikeNumber(const QString &t) {
    if (t.isEmpty())
        return false;
    const QChar c = t.front();
    return (c >= u'0' && c <= u'9') || c == u'-' || c == u'+' || c == u'.';
}

constexpr double kMaxExactJsonInt = 9007199254740992.0; // 2^53

} // namespace

QJsonValue YamlNode::toJson() const {
    switch (m_type) {
    case Type::Null: return QJsonValue(QJsonValue::Null);
    case Type::Scalar: {
        if (m_isString)
            return QJsonValue(m_text);
        if (isYamlNull(m_text))
            return QJsonValue(QJsonValue::Null);
        bool b = false;
        if (isYamlBool(m_text, &b))
            return QJsonValue(b);
        if (isYamlInt(m_text) || isYamlFloat(m_text)) {
            bool ok = false;
            const double d = m_text.toDouble(&ok);
            // Integers beyond 2^53 and values that do not fit a double would lose
            // digits as JSON numbers; keep their exact text.
            if (ok && std::isfinite(d) && (!isYamlInt(m_text) || std::fabs(d) <= kMaxExactJsonInt))
                return QJsonValue(d);
        }
        return QJsonValue(m_text);
    }
    case Type::Sequence: {
        QJsonArray a;
        for (const YamlNode &n : m_items)
            a.append(n.toJson());
        return a;
    }
    case Type::Map: return toJsonObject();
    }
    return {};
}

QJsonObject YamlNode::toJsonObject() const {
    QJsonObject o;
    if (m_type != Type::Map)
        return o;
    for (const Entry &e : m_entries)
        o.insert(e.key, e.value.toJson());
    return o;
}

YamlNode YamlNode::fromJson(const QJsonValue &value) {
    switch (value.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return YamlNode();
    case QJsonValue::Bool:
        return scalar(value.toBool() ? QStringLiteral("true") : QStringLiteral("false"), false);
    case QJsonValue::Double: {
        const double d = value.toDouble();
        if (std::fabs(d) <= kMaxExactJsonInt && d == std::floor(d))
            return scalar(QString::number(qint64(d)), false);
        return scalar(QString::number(d, 'g', 17), false);
    }
    case QJsonValue::String: return scalar(value.toString(), true);
    case QJsonValue::Array: {
        YamlNode n = sequence();
        const QJsonArray a = value.toArray();
        for (const QJsonValue &v : a)
            n.m_items.push_back(fromJson(v));
        return n;
    }
    case QJsonValue::Object: {
        YamlNode n = map();
        const QJsonObject o = value.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it)
            n.m_entries.push_back(Entry{it.key(), SourcePos{}, fromJson(it.value())});
        return n;
    }
    }
    return YamlNode();
}

bool YamlNode::resolvesAsString() const {
    if (m_type != Type::Scalar)
        return false;
    if (m_isString)
        return true;
    bool b = false;
    return !isYamlNull(m_text) && !isYamlBool(m_text, &b) && !isYamlInt(m_text) && !isYamlFloat(m_text);
}

bool operator==(const YamlNode &a, const YamlNode &b) {
    if (a.m_type != b.m_type)
        return false;
    switch (a.m_type) {
    case YamlNode::Type::Null: return true;
    case YamlNode::Type::Scalar: return a.m_text == b.m_text && a.resolvesAsString() == b.resolvesAsString();
    case YamlNode::Type::Sequence: return a.m_items == b.m_items;
    case YamlNode::Type::Map: return a.m_entries == b.m_entries;
    }
    return false;
}

// --- YamlObject ----------------------------------------------------------------------

QString YamlObject::kind() const {
    const QString k = root.scalarAt(u"kind");
    return k.isEmpty() ? impliedKind : k;
}

QString YamlObject::apiVersion() const {
    return root.scalarAt(u"apiVersion");
}

QString YamlObject::name() const {
    const YamlNode *meta = root.find(u"metadata");
    return meta ? meta->scalarAt(u"name") : QString();
}

QString YamlObject::namespaceName() const {
    const YamlNode *meta = root.find(u"metadata");
    return meta ? meta->scalarAt(u"namespace") : QString();
}

// --- loading -------------------------------------------------------------------------

namespace {

// Builds YamlNode trees straight from yaml-cpp's parser events. Going through
// YAML::Node (YAML::LoadAll) would cost a second tree and, worse, hands control to
// LoadAll's document loop, which never ends on a stray ',' after a root flow node or
// quoted scalar ("{a: 1},") and fills memory with empty documents (yaml-cpp 0.7).
class TreeBuilder final : public YAML::EventHandler {
public:
    // text is what yaml-cpp reads; offsetDelta is how many bytes were cut from the
    // front of the original (a UTF-8 byte-order mark), so offsets point into it.
    TreeBuilder(const QByteArray &text, const YamlLoadLimits &limits, int offsetDelta = 0)
        : m_text(text)
        , m_limits(limits)
        , m_offsetDelta(offsetDelta) {
        // Without aliases a document cannot have many more nodes than bytes; far more
        // means aliases are being expanded ("billion laughs"), so stop early.
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

    SourcePos pos(const YAML::Mark &m) const {
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

    Error fail(const YAML::Mark &m, QString message) const {
        Error e = Error::make(Error::Kind::Parse, std::move(message));
        const SourcePos p = pos(m);
        e.line = p.line;
        e.column = p.column;
        return e;
    }

    [[nodiscard]] const std::optional<Error> &error() const { return m_error; }
    [[nodiscard]] bool hasDocument() const { return m_haveRoot; }
    YamlNode takeDocument() {
        m_haveRoot = false;
        return std::move(m_root);
    }

    void OnDocumentStart(const YAML::Mark &mark) override {
        if (m_error)
            return;
        if (m_documents > 0 && mark.pos == m_lastDocumentPos) {
            setError(fail(mark,
                          QStringLiteral("invalid YAML: unexpected content after the document's root node")));
            return;
        }
        ++m_documents;
        m_lastDocumentPos = mark.pos;
        m_stack.clear();
        m_haveRoot = false;
        m_root = YamlNode();
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override {
        YamlNode n;
        n.setPos(pos(mark));
        add(std::move(n), anchor, mark, 1);
    }

    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override {
        if (m_error)
            return;
        const auto it = m_anchors.find(anchor);
        if (it == m_anchors.end()) {
            setError(fail(mark, QStringLiteral("invalid YAML: alias to an unknown or unfinished anchor")));
            return;
        }
        YamlNode copy = it->second.node;
        add(std::move(copy), 0, mark, it->second.size);
    }

    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override {
        if (m_error)
            return;
        // yaml-cpp tags plain scalars "?" and quoted / block scalars "!".
        const bool plain = tag.empty() || tag == "?" || tag == "tag:yaml.org,2002:int" ||
                           tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:bool" ||
                           tag == "tag:yaml.org,2002:null";
        // An empty plain scalar is a null in YAML, whatever yaml-cpp reports. (Qt drops a
        // leading byte-order mark when decoding, so test after decoding.)
        QString text = QString::fromUtf8(value.data(), qsizetype(value.size()));
        YamlNode n = plain && text.isEmpty() ? YamlNode() : YamlNode::scalar(std::move(text), !plain);
        n.setPos(pos(mark));
        add(std::move(n), anchor, mark, 1);
    }

    void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(YamlNode::sequence(), mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(YamlNode::map(), mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame {
        YamlNode node;
        YAML::anchor_t anchor = 0;
        YAML::Mark mark;
        qsizetype size = 1; // nodes in this subtree, for alias accounting
        bool haveKey = false;
        QString key;
        SourcePos keyPos;
    };
    struct Anchored {
        YamlNode node;
        qsizetype size = 1;
    };

    void setError(Error e) {
        if (!m_error)
            m_error = std::move(e);
    }

    bool count(const YAML::Mark &mark, qsizetype n) {
        m_nodes += n;
        if (m_nodes > m_limits.maxNodes) {
            setError(
                fail(mark, QStringLiteral("document too large: more than %1 nodes (after expanding aliases)")
                               .arg(m_limits.maxNodes)));
            return false;
        }
        return true;
    }

    void open(YamlNode node, const YAML::Mark &mark, YAML::anchor_t anchor) {
        if (m_error)
            return;
        if (int(m_stack.size()) >= m_limits.maxDepth) {
            setError(fail(
                mark,
                QStringLiteral("document nested too deeply (more than %1 levels)").arg(m_limits.maxDepth)));
            return;
        }
        if (!count(mark, 1))
            return;
        node.setPos(pos(mark));
        Frame f;
        f.node = std::move(node);
        f.anchor = anchor;
        f.mark = mark;
        m_stack.push_back(std::move(f));
    }

    void close() {
        if (m_error || m_stack.empty())
            return;
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        if (f.node.isMap() && f.haveKey) {
            // A key without a value ("{a}"): its value is null.
            YamlNode null;
            null.setPos(f.keyPos);
            f.node.entries().push_back(YamlNode::Entry{f.key, f.keyPos, std::move(null)});
        }
        place(std::move(f.node), f.anchor, f.mark, f.size, /*counted=*/true);
    }

    void add(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size) {
        if (m_error)
            return;
        place(std::move(n), anchor, mark, size, /*counted=*/false);
    }

    // Puts a finished node where it belongs: the root, a sequence item, a map key or a
    // map value.
    void place(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size, bool counted) {
        if (!counted && !count(mark, size))
            return;
        if (anchor != 0)
            m_anchors[anchor] = Anchored{n, size};
        if (m_stack.empty()) {
            m_root = std::move(n);
            m_haveRoot = true;
            return;
        }
        Frame &top = m_stack.back();
        top.size += size;
        if (top.node.isSequence()) {
            top.node.items().push_back(std::move(n));
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
            if (const YamlNode::Entry *dup = top.node.findEntry(top.key))
                setError(fail(mark, QStringLiteral("mapping key \"%1\" already defined at line %2")
                                        .arg(top.key)
                                        .arg(dup->keyPos.line)));
            return;
        }
        // A null value has no useful mark of its own; point at its key.
        if (n.isNull() || !n.pos().isValid())
            n.setPos(top.keyPos);
        top.node.entries().push_back(YamlNode::Entry{std::move(top.key), top.keyPos, std::move(n)});
        top.haveKey = false;
        top.key = QString();
    }

    const QByteArray &m_text;
    YamlLoadLimits m_limits;
    std::vector<int> m_lineStarts;
    std::vector<bool> m_lineAscii;
    mutable int m_cacheLine = -1; // column counting resumes from here (see pos())
    mutable int m_cachePos = 0;
    mutable int m_cacheChars = 0;
    std::vector<Frame> m_stack;
    std::unordered_map<YAML::anchor_t, Anchored> m_anchors;
    YamlNode m_root;
    bool m_haveRoot = false;
    std::optional<Error> m_error;
    qsizetype m_nodes = 0;
    int m_documents = 0;
    int m_lastDocumentPos = -1;
    int m_offsetDelta = 0;
};

Error yamlError(const YAML::Exception &ex, const TreeBuilder &builder) {
    // ex.what() repeats the position ("yaml-cpp: error at line 3, column 5: ..."); msg is bare.
    QString msg = QString::fromStdString(ex.msg);
    if (msg.isEmpty())
        msg = QString::fromUtf8(ex.what());
    Error e = builder.fail(ex.mark, QStringLiteral("invalid YAML: ") + msg);
    if (e.line == 0 && !ex.mark.is_null()) {
        e.line = ex.mark.line + 1;
        e.column = ex.mark.column + 1;
    }
    return e;
}

bool isListKind(const QString &kind) {
    return kind == u"List" || kind.endsWith(u"List");
}

// Offset of the first byte that is not part of well-formed UTF-8 (or is NUL), -1 if
// none. yaml-cpp would otherwise guess UTF-16/32 from NUL bytes and read garbage.
qsizetype firstNonUtf8(const QByteArray &text) {
    const auto *p = reinterpret_cast<const uchar *>(text.constData());
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const uchar c = p[i];
        if (c == 0)
            return i;
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len = 0;
        uint cp = 0;
        if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (int k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        const bool overlong =
            (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        // U+FFFE / U+FFFF are not characters, and not allowed in YAML either.
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
            return i;
        i += len;
    }
    return -1;
}

} // namespace

Result<YamlDocument> loadYaml(const QByteArray &utf8, const YamlLoadLimits &limits) {
    // yaml-cpp skips a byte-order mark but then counts positions without it.
    const bool bom = utf8.startsWith("\xEF\xBB\xBF");
    const QByteArray body = bom ? utf8.mid(3) : utf8;
    TreeBuilder builder(body, limits, bom ? 3 : 0);
    if (const qsizetype bad = firstNonUtf8(utf8); bad >= 0) {
        const qsizetype lineStart = utf8.lastIndexOf('\n', bad) + 1;
        const bool nonCharacter = utf8.mid(bad, 2) == "\xEF\xBF";
        Error e =
            Error::make(Error::Kind::Parse,
                        nonCharacter ? QStringLiteral("not YAML text: U+FFFE and U+FFFF are not characters")
                                     : QStringLiteral("not UTF-8 text: byte 0x%1 is not valid UTF-8")
                                           .arg(uint(uchar(utf8[bad])), 2, 16, QLatin1Char('0')));
        e.line = int(utf8.left(bad).count('\n')) + 1;
        e.column = int(QString::fromUtf8(utf8.constData() + lineStart, bad - lineStart).size()) + 1;
        return e;
    }
    YamlDocument result;
    result.text = utf8;
    try {
        std::istringstream in(std::string(body.constData(), std::size_t(body.size())));
        YAML::Parser parser(in);
        int docIndex = 0;
        while (parser.HandleNextDocument(builder)) {
            if (builder.error())
                return *builder.error();
            YamlNode root = builder.hasDocument() ? builder.takeDocument() : YamlNode();
            const int index = docIndex++;
            result.documents.append(root);
            if (root.isNull())
                continue;
            const QString kind = root.scalarAt(u"kind");
            const YamlNode *items = root.find(u"items");
            if (root.isMap() && isListKind(kind) && items && (items->isSequence() || items->isNull())) {
                const QString implied = kind == u"List" ? QString() : kind.left(kind.size() - 4);
                int itemIndex = 0;
                for (const YamlNode &item : items->items())
                    result.objects.append(YamlObject{item, index, itemIndex++, implied});
                continue;
            }
            result.objects.append(YamlObject{std::move(root), index, -1, {}});
        }
        if (builder.error())
            return *builder.error();
    } catch (const YAML::Exception &ex) {
        return yamlError(ex, builder);
    } catch (const std::exception &ex) {
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("invalid YAML: ") + QString::fromUtf8(ex.what()));
    }
    return result;
}

Result<YamlNode> parseYamlNode(const QByteArray &utf8, const YamlLoadLimits &limits) {
    auto doc = loadYaml(utf8, limits);
    if (!doc)
        return doc.error();
    const QList<YamlNode> &docs = doc->documents;
    qsizetype nonEmpty = 0;
    const YamlNode *found = nullptr;
    for (const YamlNode &d : docs) {
        if (!d.isNull()) {
            ++nonEmpty;
            if (!found)
                found = &d;
        }
    }
    if (nonEmpty > 1)
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("expected one YAML document, found %1").arg(nonEmpty));
    return found ? *found : YamlNode();
}

// --- emitting ------------------------------------------------------------------------

namespace {

void emitNode(YAML::Emitter &out, const YamlNode &n) {
    switch (n.type()) {
    case YamlNode::Type::Null: out << YAML::Null; break;
    case YamlNode::Type::Scalar: {
        const QByteArray utf8 = n.text().toUtf8();
        const std::string s(utf8.constData(), std::size_t(utf8.size()));
        // Strings that start like a number (timestamps, "1536Mi", "0012") are quoted
        // too: some YAML 1.1 readers would otherwise take them for a date or a number.
        if ((n.isString() && (needsQuotes(n.text()) || startsLikeNumber(n.text()))) ||
            hasControlChars(n.text()) || startsLikeDocumentMarker(n.text()))
            out << YAML::DoubleQuoted << s;
        else if (!n.isString() && n.text().isEmpty())
            out << YAML::Null;
        else
            out << s;
        break;
    }
    case YamlNode::Type::Sequence:
        if (n.items().empty()) {
            out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
            break;
        }
        out << YAML::BeginSeq;
        for (const YamlNode &c : n.items())
            emitNode(out, c);
        out << YAML::EndSeq;
        break;
    case YamlNode::Type::Map:
        if (n.entries().empty()) {
            out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
            break;
        }
        out << YAML::BeginMap;
        for (const YamlNode::Entry &e : n.entries()) {
            const QByteArray k = e.key.toUtf8();
            out << YAML::Key;
            if (needsQuotes(e.key) || hasControlChars(e.key) || startsLikeDocumentMarker(e.key))
                out << YAML::DoubleQuoted;
            out << std::string(k.constData(), std::size_t(k.size()));
            out << YAML::Value;
            emitNode(out, e.value);
        }
        out << YAML::EndMap;
        break;
    }
}

} // namespace

QByteArray emitYaml(const YamlNode &node) {
    YAML::Emitter out;
    out.SetIndent(2);
    out.SetNullFormat(YAML::LowerNull);
    // Kubernetes style: sequence items at the same indentation as their key.
    out.SetSeqFormat(YAML::Block);
    emitNode(out, node);
    QByteArray result(out.c_str(), qsizetype(out.size()));
    if (!result.endsWith('\n'))
        result.append('\n');
    return result;
}

QByteArray emitYamlDocuments(const QList<YamlNode> &documents) {
    QByteArray result;
    for (qsizetype i = 0; i < documents.size(); ++i) {
        if (i > 0)
            result += "---\n";
        result += emitYaml(documents[i]);
    }
    return result;
}

// --- text edits ----------------------------------------------------------------------

Result<QByteArray> applyTextEdits(const QByteArray &text, QList<TextEdit> edits) {
    std::sort(edits.begin(), edits.end(),
              [](const TextEdit &a, const TextEdit &b) { return a.offset < b.offset; });
    QByteArray out;
    out.reserve(text.size());
    qsizetype cursor = 0;
    for (const TextEdit &e : edits) {
        if (e.offset < cursor || e.length < 0 || qsizetype(e.offset) + e.length > text.size())
            return Error::make(
                Error::Kind::Internal,
                QStringLiteral("text edit at byte %1 overlaps another or is out of range").arg(e.offset));
        out.append(text.constData() + cursor, e.offset - cursor);
        out.append(e.replacement);
        cursor = qsizetype(e.offset) + e.length;
    }
    out.append(text.constData() + cursor, text.size() - cursor);
    return out;
}

bool scalarEdit(const QByteArray &text, const YamlNode &node, const QString &newValue, TextEdit *edit) {
    if (!node.isScalar() || node.pos().offset < 0 || node.pos().offset >= text.size())
        return false;
    const QByteArray value = node.text().toUtf8();
    const QByteArray replacement = newValue.toUtf8();
    qsizetype start = node.pos().offset;
    const char first = text[start];
    if (first == '"' || first == '\'') {
        if (!node.isString())
            return false;
        ++start;
        if (text.size() < start + value.size() + 1 || text.mid(start, value.size()) != value ||
            text[start + value.size()] != first)
            return false;
        if (value.contains(first) || value.contains('\\') || value.contains('\n'))
            return false;
        // The new text must not need escaping inside the same quotes.
        if (replacement.contains(first) || replacement.contains('\\'))
            return false;
    } else {
        if (text.mid(start, value.size()) != value)
            return false;
        const qsizetype end = start + value.size();
        if (end < text.size()) {
            const char next = text[end];
            if (next != '\n' && next != '\r' && next != ' ' && next != '\t' && next != ',' && next != ']' &&
                next != '}')
                return false;
        }
        if (node.isString()) // a block scalar (| or >) or a tagged one: not a simple token
            return false;
    }
    if (edit)
        *edit = TextEdit{int(start), int(value.size()), replacement};
    return true;
}

void setErrorPosition(Error &error, const YamlNode &root, bool atKey) {
    if (error.line > 0)
        return;
    const SourcePos p = root.locate(error.field, atKey);
    if (p.isValid()) {
        error.line = p.line;
        error.column = p.column;
    }
}

} // namespace gq
