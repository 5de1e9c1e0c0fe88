#pragma once

// The parser-event side of loadYaml(): yaml-cpp events become a YamlNode tree with
// source positions, under the load limits (depth, nodes added by aliases) and
// kubectl's strict keys (no duplicates, scalars only). Not public API.

#include "core/domain/error.h"
#include "core/domain/keyindex_p.h"
#include "core/domain/yamldoc.h"
#include "core/domain/yamlintern_p.h"

#include <QByteArray>
#include <QString>

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gq::detail {

// Builds YamlNode trees straight from yaml-cpp's parser events. Going through
// YAML::Node (YAML::LoadAll) would cost a second tree and, worse, hands control to
// LoadAll's document loop, which never ends on a stray ',' after a root flow node or
// quoted scalar ("{a: 1},") and fills memory with empty documents (yaml-cpp 0.7).
class TreeBuilder final : public YAML::EventHandler {
public:
    // text is what yaml-cpp reads; offsetDelta is how many bytes were cut from the
    // front of the original (a UTF-8 byte-order mark), so offsets point into it.
    TreeBuilder(const QByteArray &text, const YamlLoadLimits &limits, int offsetDelta = 0);

    SourcePos pos(const YAML::Mark &m) const;
    Error fail(const YAML::Mark &m, QString message) const;

    [[nodiscard]] const std::optional<Error> &error() const { return m_error; }
    [[nodiscard]] bool hasDocument() const { return m_haveRoot; }
    YamlNode takeDocument() {
        m_haveRoot = false;
        return std::move(m_root);
    }

    void OnDocumentStart(const YAML::Mark &mark) override;
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override;
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override;
    void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                  const std::string &value) override;

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
        // A big map's keys so far (earlierEntry); it becomes the map's key index at
        // its end. Small maps, most of them, have none.
        std::shared_ptr<KeyIndex> keys;
    };
    struct Anchored {
        YamlNode node;
        qsizetype size = 1;
    };

    void setError(Error e) {
        if (!m_error)
            m_error = std::move(e);
    }

    void open(YamlNode node, const YAML::Mark &mark, YAML::anchor_t anchor);
    void close();
    void add(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size);
    // Puts a finished node where it belongs: the root, a sequence item, a map key or a
    // map value.
    void place(YamlNode n, YAML::anchor_t anchor, const YAML::Mark &mark, qsizetype size);

    const QByteArray &m_text;
    YamlLoadLimits m_limits;
    std::vector<int> m_lineStarts;
    std::vector<bool> m_lineAscii;
    mutable int m_cacheLine = -1; // column counting resumes from here (see pos())
    mutable int m_cachePos = 0;
    mutable int m_cacheChars = 0;
    std::vector<Frame> m_stack;
    // The children of each open container, by depth, moved into the node at its end
    // with one allocation of the exact size: growing each node's own vector took
    // three allocations and a copy for a four-key map, a million times in a big List.
    std::vector<std::vector<YamlNode>> m_items;
    std::vector<std::vector<YamlNode::Entry>> m_entries;
    std::unordered_map<YAML::anchor_t, Anchored> m_anchors;
    ScalarInterner m_intern;
    YamlNode m_root;
    bool m_haveRoot = false;
    std::optional<Error> m_error;
    qsizetype m_aliasNodes = 0; // nodes copied by expanding aliases
    int m_documents = 0;
    int m_lastDocumentPos = -1;
    int m_offsetDelta = 0;
};

} // namespace gq::detail
