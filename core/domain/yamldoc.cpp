#include "core/domain/yamldoc.h"

#include "core/domain/keyindex_p.h"

#include <algorithm>

// The YamlNode tree and YamlObject: building, finding, editing and locating nodes.
// Loading (yamlload.cpp, yamltreebuilder.cpp), scalar typing (yamlscalar.cpp), JSON
// (yamljson.cpp), emitting (yamlemit.cpp) and text edits (yamledit.cpp) live apart.

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

// --- children and the key index ---------------------------------------------------------

struct YamlNode::Children {
    std::vector<YamlNode> items;
    std::vector<Entry> entries;
    std::shared_ptr<detail::KeyIndex> index; // may be shared with a copy's Children: copied before a write
};

namespace {
const std::vector<YamlNode> kNoItems;
const std::vector<YamlNode::Entry> kNoEntries;
} // namespace

YamlNode::Children &YamlNode::detach() {
    if (!m_children)
        m_children = std::make_shared<Children>();
    else if (m_children.use_count() > 1)
        m_children = std::make_shared<Children>(*m_children);
    return *m_children;
}

const std::vector<YamlNode> &YamlNode::items() const {
    return m_children ? m_children->items : kNoItems;
}

std::vector<YamlNode> &YamlNode::items() {
    return detach().items;
}

const std::vector<YamlNode::Entry> &YamlNode::entries() const {
    return m_children ? m_children->entries : kNoEntries;
}

std::vector<YamlNode::Entry> &YamlNode::entries() {
    Children &c = detach();
    c.index.reset();
    return c.entries;
}

void YamlNode::setScalar(QString text, bool isString) {
    m_type = Type::Scalar;
    m_text = std::move(text);
    m_isString = isString;
    m_children.reset();
}

qsizetype YamlNode::size() const {
    if (m_type == Type::Sequence)
        return qsizetype(items().size());
    if (m_type == Type::Map)
        return qsizetype(entries().size());
    return 0;
}

void YamlNode::append(YamlNode item) {
    if (m_type != Type::Sequence) {
        *this = sequence();
    }
    detach().items.push_back(std::move(item));
}

void YamlNode::indexKeys() {
    if (!m_children)
        return;
    if (m_type != Type::Map || m_children->entries.size() < detail::kIndexFrom) {
        if (m_children->index)
            detach().index.reset();
        return;
    }
    Children &c = detach();
    auto index = std::make_shared<detail::KeyIndex>();
    index->positions.reserve(c.entries.size());
    for (std::size_t i = 0; i < c.entries.size(); ++i)
        index->positions.insert(c.entries[i].key, qsizetype(i), detail::keysOf(c.entries));
    index->count = c.entries.size();
    c.index = std::move(index);
}

void YamlNode::adoptKeyIndex(std::shared_ptr<detail::KeyIndex> index) {
    if (m_type != Type::Map || !m_children || !index || index->count != m_children->entries.size()) {
        indexKeys();
        return;
    }
    detach().index = std::move(index);
}

qsizetype YamlNode::indexOf(QStringView key) const {
    if (m_type != Type::Map || !m_children)
        return -1;
    const std::vector<Entry> &list = m_children->entries;
    // The index is trusted only while it covers every entry, and a hit is checked,
    // so an edit made through a kept entries() reference cannot give a wrong entry.
    if (const detail::KeyIndex *index = m_children->index.get(); index && index->count == list.size()) {
        return index->positions.find(key, detail::keysOf(list));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        if (list[i].key == key)
            return qsizetype(i);
    }
    return -1;
}

const YamlNode::Entry *YamlNode::findEntry(QStringView key) const {
    const qsizetype i = indexOf(key);
    return i < 0 ? nullptr : &entries()[std::size_t(i)];
}

const YamlNode *YamlNode::find(QStringView key) const {
    const Entry *e = findEntry(key);
    return e ? &e->value : nullptr;
}

YamlNode *YamlNode::find(QStringView key) {
    if (m_type != Type::Map || !m_children)
        return nullptr;
    const std::size_t n = m_children->entries.size();
    if (n >= detail::kIndexFrom && (!m_children->index || m_children->index->count != n))
        indexKeys();
    const qsizetype i = indexOf(key);
    if (i < 0)
        return nullptr;
    return &detach().entries[std::size_t(i)].value; // the caller may write through it
}

YamlNode &YamlNode::insert(const QString &key, YamlNode value) {
    if (m_type != Type::Map)
        *this = map();
    if (YamlNode *existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    Children &c = detach();
    c.entries.push_back(Entry{key, SourcePos{}, std::move(value)});
    if (c.index) {
        if (c.index.use_count() > 1) // shared with a copy of this node
            c.index = std::make_shared<detail::KeyIndex>(*c.index);
        c.index->positions.insert(key, qsizetype(c.entries.size() - 1), detail::keysOf(c.entries));
        c.index->count = c.entries.size();
    } else if (c.entries.size() >= detail::kIndexFrom) {
        indexKeys();
    }
    return c.entries.back().value;
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
    const qsizetype i = indexOf(key);
    if (i < 0)
        return false;
    Children &c = detach();
    c.entries.erase(c.entries.begin() + i);
    c.index.reset(); // positions after i moved
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
                next = &cur->items()[std::size_t(index)];
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

bool operator==(const YamlNode &a, const YamlNode &b) {
    if (a.m_type != b.m_type)
        return false;
    switch (a.m_type) {
    case YamlNode::Type::Null: return true;
    case YamlNode::Type::Scalar: return a.m_text == b.m_text && a.resolvesAsString() == b.resolvesAsString();
    case YamlNode::Type::Sequence: return a.m_children == b.m_children || a.items() == b.items();
    case YamlNode::Type::Map: return a.m_children == b.m_children || a.entries() == b.entries();
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
