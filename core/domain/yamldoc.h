#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringView>

#include <memory>
#include <optional>
#include <vector>

namespace gq {

namespace detail {
struct KeyIndex; // keyindex_p.h
} // namespace detail

// Where a node came from in the source text. line/column are 1-based (column counts
// characters, not bytes); offset is the 0-based byte offset in the UTF-8 text, -1 when
// the node was not loaded from text (built in code or from JSON).
struct SourcePos {
    int line = 0;
    int column = 0;
    int offset = -1;
    [[nodiscard]] bool isValid() const { return line > 0; }
    friend bool operator==(const SourcePos &, const SourcePos &) = default;
};

// `e` placed at `pos`: what every reader of YAML settings reports a bad field with.
[[nodiscard]] inline Error errorAt(Error e, const SourcePos &pos) {
    e.line = pos.line;
    e.column = pos.column;
    return e;
}
// A Config error for `field`, placed at `pos`, appended to `errors`.
inline void addConfigError(QList<Error> *errors, const QString &field, const SourcePos &pos,
                           const QString &message) {
    errors->append(errorAt(Error::make(Error::Kind::Config, message, field), pos));
}

// An ordered, copyable document tree: what both YAML and JSON describe. It keeps map
// key order, every field (known or not) and the source position of every key and
// value, so typed views can write back into it without losing anything and errors can
// point at a line. Plain value semantics: copies are independent. Children are shared
// between copies until one of them is modified (copy on write), so handing a
// 100k-object List's items around does not copy them.
class YamlNode {
public:
    enum class Type : quint8 { Null, Scalar, Sequence, Map };
    struct Entry;

    YamlNode() = default;
    static YamlNode scalar(QString text, bool isString = true);
    static YamlNode sequence();
    static YamlNode map();

    [[nodiscard]] Type type() const { return m_type; }
    [[nodiscard]] bool isNull() const { return m_type == Type::Null; }
    [[nodiscard]] bool isScalar() const { return m_type == Type::Scalar; }
    [[nodiscard]] bool isSequence() const { return m_type == Type::Sequence; }
    [[nodiscard]] bool isMap() const { return m_type == Type::Map; }

    // Scalars. text() is the scalar's value ("" for null and collections). isString()
    // is true when the scalar must stay a string: it was quoted in YAML (or written
    // as a block scalar), or it was a JSON string. A plain `4` or `true` is not.
    [[nodiscard]] const QString &text() const { return m_text; }
    [[nodiscard]] bool isString() const { return m_isString; }
    void setScalar(QString text, bool isString = true);
    // True when the scalar reads as a string: quoted, or plain text that is not a
    // null, boolean or number in the YAML 1.2 core schema (`name: q` == `name: "q"`).
    [[nodiscard]] bool resolvesAsString() const;

    // Sequences.
    [[nodiscard]] qsizetype size() const; // items, or entries for a map, 0 otherwise
    [[nodiscard]] const std::vector<YamlNode> &items() const;
    [[nodiscard]] std::vector<YamlNode> &items();
    void append(YamlNode item);

    // Maps, in document order. find() returns nullptr when absent or not a map.
    // Big maps carry a key index so find() stays O(1) (a 200k-key map would otherwise
    // make every caller that looks keys up quadratic). Mutable entries() drops the
    // index (the next non-const find() or indexKeys() rebuilds it); do not rename keys
    // through a reference kept across a find().
    [[nodiscard]] const std::vector<Entry> &entries() const;
    [[nodiscard]] std::vector<Entry> &entries();
    // Builds the key index of this map when it is big enough to need one (loadYaml
    // and fromJson do it for every map they build).
    void indexKeys();
    // Takes the key index a loader built while it checked for duplicate keys, when it
    // covers every entry; otherwise builds one as indexKeys() does.
    void adoptKeyIndex(std::shared_ptr<detail::KeyIndex> index);
    [[nodiscard]] const YamlNode *find(QStringView key) const;
    [[nodiscard]] YamlNode *find(QStringView key);
    [[nodiscard]] const Entry *findEntry(QStringView key) const;
    [[nodiscard]] bool contains(QStringView key) const { return find(key) != nullptr; }
    // Replaces the value in place (keeping its position in the order) or appends.
    YamlNode &insert(const QString &key, YamlNode value);
    // The child map at key, created (appended) when missing or not a map.
    YamlNode &mapAt(const QString &key);
    bool remove(QStringView key);

    // Convenience: text of a scalar child, or fallback when absent / not a scalar.
    [[nodiscard]] QString scalarAt(QStringView key, const QString &fallback = {}) const;

    [[nodiscard]] const SourcePos &pos() const { return m_pos; }
    void setPos(SourcePos pos) { m_pos = pos; }

    // Looks a field path ("spec.hard[requests.nvidia.com/gpu]", "spec.limits[0].max[cpu]")
    // up in this tree and returns the position of the node it names (its value, or
    // with atKey its key). For a path that goes below what exists (a missing field)
    // it returns the key of the deepest map entry found on the way ("metadata:").
    [[nodiscard]] SourcePos locate(QStringView fieldPath, bool atKey = false) const;

    // JSON conversion. Plain scalars become JSON numbers / booleans / null when they
    // read as such in YAML 1.2 core schema; everything else becomes a string.
    [[nodiscard]] QJsonValue toJson() const;
    [[nodiscard]] QJsonObject toJsonObject() const; // {} unless a map
    static YamlNode fromJson(const QJsonValue &value);

    // Structural equality: type, texts, resolved type (see resolvesAsString) and
    // order. Positions and quoting style are ignored.
    friend bool operator==(const YamlNode &a, const YamlNode &b);

private:
    struct Children;
    [[nodiscard]] qsizetype indexOf(QStringView key) const;
    Children &detach(); // the children, unshared (copied when other copies hold them)

    Type m_type = Type::Null;
    bool m_isString = false;
    QString m_text;
    SourcePos m_pos;
    std::shared_ptr<Children> m_children; // null while there are none
};

struct YamlNode::Entry {
    QString key;
    SourcePos keyPos;
    YamlNode value;
    friend bool operator==(const Entry &a, const Entry &b) { return a.key == b.key && a.value == b.value; }
};

// One Kubernetes object found in a file: a YAML document, or one item of a List.
struct YamlObject {
    YamlNode root;         // the object itself (a map when well-formed)
    int documentIndex = 0; // 0-based YAML document the object came from
    int itemIndex = -1;    // index in the List's items, -1 when the document itself
    QString impliedKind;   // kind implied by a typed list (ResourceQuotaList), else empty

    // kind / apiVersion as written, or the implied kind for items of typed lists.
    [[nodiscard]] QString kind() const;
    [[nodiscard]] QString apiVersion() const;
    [[nodiscard]] QString name() const;
    [[nodiscard]] QString namespaceName() const;
};

// A whole YAML file: the raw text (kept for text-preserving rewrites) and the
// objects in it. Empty documents are skipped; `kind: List` (and typed lists such as
// ResourceQuotaList) are flattened into their items.
struct YamlDocument {
    QByteArray text;
    QList<YamlObject> objects;
    QList<YamlNode> documents; // the parsed documents themselves, in order
};

struct YamlLoadLimits {
    int maxDepth = 64;            // nesting of maps / sequences
    qsizetype maxNodes = 1000000; // nodes that aliases may add by expansion ("billion
                                  // laughs"), also capped at 16 per input byte + 4096;
                                  // without aliases the input size limit bounds the work
    bool plainFastPath = true;    // false: yaml-cpp reads every text (the fuzz target
                                  // compares the two readers)
};

// Parses YAML (one document, several separated by ---, or a List) into objects.
// Never throws: yaml-cpp exceptions become an Error of kind Parse with line/column.
// The input must be UTF-8 (a byte-order mark is fine); anything else, NUL bytes
// included, is a Parse error pointing at the first bad byte. Duplicate map keys and
// non-scalar keys are Parse errors too (as with kubectl's strict decoding).
[[nodiscard]] Result<YamlDocument> loadYaml(const QByteArray &utf8, const YamlLoadLimits &limits = {});
// Exactly one document, returned as a node (an empty input gives a Null node).
[[nodiscard]] Result<YamlNode> parseYamlNode(const QByteArray &utf8, const YamlLoadLimits &limits = {});

// Block-style YAML for a node, keeping key order. Strings that would read back as
// another type (e.g. "4", "true", "") are quoted. Comments are not kept: for a
// layout-preserving rewrite of existing text use applyTextEdits().
[[nodiscard]] QByteArray emitYaml(const YamlNode &node);
// Several documents joined with "---".
[[nodiscard]] QByteArray emitYamlDocuments(const QList<YamlNode> &documents);

// A replacement of a byte range of the source text.
struct TextEdit {
    int offset = 0; // byte offset in the original text
    int length = 0; // bytes replaced
    QByteArray replacement;
    friend bool operator==(const TextEdit &, const TextEdit &) = default;
};

// Applies non-overlapping edits (any order); overlapping or out-of-range edits are an
// Error of kind Internal and the text is left alone.
[[nodiscard]] Result<QByteArray> applyTextEdits(const QByteArray &text, QList<TextEdit> edits);

// The edit that replaces the scalar `node` (loaded from `text`) by newValue, keeping
// its quoting style. Fails (returns false) for scalars whose source text cannot be
// matched exactly (multi-line, escapes, block scalars): those are left untouched.
[[nodiscard]] bool scalarEdit(const QByteArray &text, const YamlNode &node, const QString &newValue,
                              TextEdit *edit);

// Fills error.line/column (when still 0) from the position of error.field in root:
// the value, or with atKey the key of the last map entry on the path.
void setErrorPosition(Error &error, const YamlNode &root, bool atKey = false);

} // namespace gq
