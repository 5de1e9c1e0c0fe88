#include "core/domain/yamldoc.h"

#include <algorithm>

// The text-preserving rewrite behind fmt (specformat.cpp): byte-range edits of the
// original text, so comments and layout outside the edited scalars stay as written.

namespace gq {

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

} // namespace gq
