#include "core/domain/utf8check.h"
#include "core/domain/yamldoc.h"
#include "core/domain/yamlfastpath_p.h"
#include "core/domain/yamltreebuilder_p.h"

#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <exception>
#include <istream>
#include <streambuf>
#include <string>

// The yaml-cpp boundary: the UTF-8 gate, the parse loop and List flattening. yaml-cpp
// exceptions stop here and become Errors.

namespace gq {

using detail::TreeBuilder;

namespace {

Error yamlError(const YAML::Exception &ex, const TreeBuilder &builder) {
    // ex.what() repeats the position ("yaml-cpp: error at line 3, column 5: ..."); msg is bare.
    QString msg = QString::fromStdString(ex.msg);
    if (msg.isEmpty())
        msg = QString::fromUtf8(ex.what());
    Error e = builder.fail(ex.mark, QStringLiteral("invalid YAML: ") + elided(msg, 200));
    if (e.line == 0 && !ex.mark.is_null()) {
        e.line = ex.mark.line + 1;
        e.column = ex.mark.column + 1;
    }
    return e;
}

// yaml-cpp reads a std::istream; this one reads the bytes where they are. An
// istringstream would copy a 16 MiB manifest twice (into a std::string, then into
// its own buffer).
class BytesBuffer final : public std::streambuf {
public:
    explicit BytesBuffer(const QByteArray &bytes) {
        char *begin = const_cast<char *>(bytes.constData()); // read only: no put area
        setg(begin, begin, begin + bytes.size());
    }
};

bool isListKind(const QString &kind) {
    return kind == u"List" || kind.endsWith(u"List");
}

} // namespace

Result<YamlDocument> loadYaml(const QByteArray &utf8, const YamlLoadLimits &limits) {
    // yaml-cpp skips a byte-order mark but then counts positions without it.
    const bool bom = utf8.startsWith("\xEF\xBB\xBF");
    const QByteArray body = bom ? utf8.mid(3) : utf8;
    if (const qsizetype bad = firstInvalidUtf8(utf8, {.rejectNul = true, .rejectNonCharacters = true});
        bad >= 0) {
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
    int docIndex = 0;
    const auto addDocument = [&](YamlNode root) {
        const int index = docIndex++;
        result.documents.append(root);
        if (root.isNull())
            return;
        const QString kind = root.scalarAt(u"kind");
        const YamlNode *items = root.find(u"items");
        if (root.isMap() && isListKind(kind) && items && (items->isSequence() || items->isNull())) {
            const QString implied = kind == u"List" ? QString() : kind.left(kind.size() - 4);
            int itemIndex = 0;
            for (const YamlNode &item : items->items())
                result.objects.append(YamlObject{item, index, itemIndex++, implied});
            return;
        }
        result.objects.append(YamlObject{std::move(root), index, -1, {}});
    };
    if (limits.plainFastPath && !bom) {
        detail::ScalarInterner interner;
        if (std::optional<YamlNode> root = detail::readPlainBlockYaml(body, limits, interner)) {
            addDocument(std::move(*root));
            return result;
        }
    }
    TreeBuilder builder(body, limits, bom ? 3 : 0);
    try {
        BytesBuffer buffer(body);
        std::istream in(&buffer);
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(builder)) {
            if (builder.error())
                return *builder.error();
            addDocument(builder.hasDocument() ? builder.takeDocument() : YamlNode());
        }
        if (builder.error())
            return *builder.error();
    } catch (const YAML::Exception &ex) {
        // The builder stops at its own depth limit (64) long before yaml-cpp's recursion
        // guard throws ("bad file"); the builder's error says what is wrong.
        if (builder.error())
            return *builder.error();
        return yamlError(ex, builder);
    } catch (const std::exception &ex) {
        if (builder.error())
            return *builder.error();
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

} // namespace gq
