#include "core/domain/yamldoc.h"
#include "core/domain/yamlscalar_p.h"

#include <yaml-cpp/emitter.h>
#include <yaml-cpp/emittermanip.h>
#include <yaml-cpp/null.h>

#include <string>

namespace gq {

using namespace detail;

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

} // namespace gq
