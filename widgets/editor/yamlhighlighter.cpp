#include "widgets/editor/yamlhighlighter.h"

#include "core/domain/textdiff.h"

#include <QRegularExpression>

namespace gq {

namespace {

// Block state: -1 outside a block scalar, otherwise 1 + the indentation of the line
// that opened it; deeper (or blank) lines belong to the scalar.
constexpr int kNoBlock = -1;

int indentOf(const QString &text) {
    int i = 0;
    while (i < text.size() && text[i] == QLatin1Char(' '))
        ++i;
    return i;
}

const QRegularExpression &quantityPattern() {
    static const QRegularExpression re(
        QStringLiteral(R"(^[+-]?(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$)"));
    return re;
}

const QRegularExpression &numberPattern() {
    static const QRegularExpression re(
        QStringLiteral(R"(^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^0x[0-9a-fA-F]+$)"));
    return re;
}

bool isKeyword(QStringView s) {
    static const QStringList words{QStringLiteral("true"), QStringLiteral("false"), QStringLiteral("null"),
                                   QStringLiteral("True"), QStringLiteral("False"), QStringLiteral("Null"),
                                   QStringLiteral("TRUE"), QStringLiteral("FALSE"), QStringLiteral("NULL"),
                                   QStringLiteral("~"),    QStringLiteral("yes"),   QStringLiteral("no"),
                                   QStringLiteral("on"),   QStringLiteral("off")};
    return words.contains(s.toString());
}

// Index of a comment's '#' (one at the start or after whitespace, outside quotes), or -1.
int commentStart(const QString &text, int from) {
    QChar quote;
    for (int i = from; i < text.size(); ++i) {
        const QChar c = text[i];
        if (!quote.isNull()) {
            if (c == quote) {
                // '' inside single quotes is an escaped quote.
                if (quote == QLatin1Char('\'') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\''))
                    ++i;
                else
                    quote = QChar();
            } else if (c == QLatin1Char('\\') && quote == QLatin1Char('"')) {
                ++i;
            }
            continue;
        }
        if ((c == QLatin1Char('"') || c == QLatin1Char('\'')) &&
            (i == from || text[i - 1].isSpace() || QStringLiteral("[{,:-").contains(text[i - 1])))
            quote = c;
        else if (c == QLatin1Char('#') && (i == 0 || text[i - 1].isSpace()))
            return i;
    }
    return -1;
}

// End (exclusive) of a mapping key starting at `from`, i.e. the index of its ':'
// when followed by a space or the end of line; -1 if the text there is not a key.
int keyEnd(const QString &text, int from, int limit) {
    if (from >= limit)
        return -1;
    const QChar first = text[from];
    if (first == QLatin1Char('"') || first == QLatin1Char('\'')) {
        const int close = text.indexOf(first, from + 1);
        if (close < 0 || close + 1 >= limit || text[close + 1] != QLatin1Char(':'))
            return -1;
        if (close + 2 < limit && !text[close + 2].isSpace())
            return -1;
        return close + 1;
    }
    if (first == QLatin1Char('[') || first == QLatin1Char('{') || first == QLatin1Char('#'))
        return -1;
    for (int i = from; i < limit; ++i) {
        if (text[i] == QLatin1Char(':') && (i + 1 >= limit || text[i + 1].isSpace()))
            return i;
    }
    return -1;
}

} // namespace

YamlHighlighter::YamlHighlighter(QTextDocument *document)
    : QSyntaxHighlighter(document) {
    setDarkTheme(false);
}

void YamlHighlighter::setDarkTheme(bool dark) {
    auto fmt = [](const char *color, bool bold = false, bool italic = false) {
        QTextCharFormat f;
        f.setForeground(QColor(QLatin1StringView(color)));
        if (bold)
            f.setFontWeight(QFont::DemiBold);
        f.setFontItalic(italic);
        return f;
    };
    const auto set = [this](Role r, const QTextCharFormat &f) { m_formats[int(r)] = f; };
    set(Role::Key, fmt(dark ? "#7cb7ff" : "#1d4f91"));
    set(Role::String, fmt(dark ? "#e6b37a" : "#9a3a12"));
    set(Role::Number, fmt(dark ? "#9ad78a" : "#17803d"));
    set(Role::Quantity, fmt(dark ? "#c9a0ff" : "#7a2fb5", true));
    set(Role::Keyword, fmt(dark ? "#6fc3df" : "#0b6e99", true));
    set(Role::Comment, fmt(dark ? "#8b949e" : "#6a737d", false, true));
    set(Role::DocumentMarker, fmt(dark ? "#ffb86c" : "#b35900", true));
    set(Role::Anchor, fmt(dark ? "#56d4c0" : "#0f7b6c"));
    QTextCharFormat conflict = fmt(dark ? "#ffd7d7" : "#8b0000", true);
    conflict.setBackground(QColor(dark ? QStringLiteral("#5a1d1d") : QStringLiteral("#ffd9d9")));
    set(Role::Conflict, conflict);
    rehighlight();
}

QTextCharFormat YamlHighlighter::format(Role role) const {
    return m_formats[int(role)];
}

void YamlHighlighter::setRole(int start, int count, Role role) {
    if (count > 0)
        setFormat(start, count, m_formats[int(role)]);
}

void YamlHighlighter::highlightBlock(const QString &text) {
    setCurrentBlockState(kNoBlock);
    const int indent = indentOf(text);
    const int prev = previousBlockState();
    if (prev != kNoBlock && prev > 0) {
        const bool blank = text.trimmed().isEmpty();
        if (blank || indent > prev - 1) {
            setRole(0, int(text.size()), Role::String);
            setCurrentBlockState(prev);
            return;
        }
    }

    if (isConflictMarker(text)) {
        setRole(0, int(text.size()), Role::Conflict);
        return;
    }
    if (text.startsWith(QLatin1Char('%'))) {
        setRole(0, int(text.size()), Role::Keyword);
        return;
    }

    const int hash = commentStart(text, 0);
    const int end = hash >= 0 ? hash : int(text.size());
    if (hash >= 0)
        setRole(hash, int(text.size()) - hash, Role::Comment);

    int pos = indent;
    if ((text.startsWith(QStringLiteral("---")) || text.startsWith(QStringLiteral("..."))) &&
        (text.size() == 3 || text[3].isSpace())) {
        setRole(0, 3, Role::DocumentMarker);
        pos = 3;
        while (pos < end && text[pos].isSpace())
            ++pos;
    }
    // Sequence item dashes, possibly several ("- - a").
    while (pos < end && text[pos] == QLatin1Char('-') && (pos + 1 >= end || text[pos + 1].isSpace())) {
        setRole(pos, 1, Role::Keyword);
        pos += 1;
        while (pos < end && text[pos].isSpace())
            ++pos;
    }
    const int keyStart = pos;
    const int colon = keyEnd(text, pos, end);
    if (colon >= 0) {
        setRole(keyStart, colon - keyStart, Role::Key);
        pos = colon + 1;
        while (pos < end && text[pos].isSpace())
            ++pos;
    }
    // Values that open a block scalar continue on the following, deeper lines.
    const QString rest = text.mid(pos, end - pos).trimmed();
    static const QRegularExpression blockIndicator(QStringLiteral(R"(^[|>][+-]?\d*$)"));
    if (blockIndicator.match(rest).hasMatch()) {
        setRole(pos, int(rest.size()), Role::Keyword);
        setCurrentBlockState(indent + 1);
        return;
    }
    highlightValue(text, pos, end);
}

void YamlHighlighter::highlightValue(const QString &text, int start, int end) {
    int pos = start;
    // Properties before the value: &anchor, *alias, !tag.
    while (pos < end && (text[pos] == QLatin1Char('&') || text[pos] == QLatin1Char('*') ||
                         text[pos] == QLatin1Char('!'))) {
        int e = pos + 1;
        while (e < end && !text[e].isSpace())
            ++e;
        setRole(pos, e - pos, Role::Anchor);
        pos = e;
        while (pos < end && text[pos].isSpace())
            ++pos;
    }
    if (pos >= end)
        return;
    int valueEnd = end;
    while (valueEnd > pos && text[valueEnd - 1].isSpace())
        --valueEnd;
    const QStringView value = QStringView(text).mid(pos, valueEnd - pos);
    if (value.isEmpty())
        return;
    const QChar first = value.front();
    if (first == QLatin1Char('"') || first == QLatin1Char('\'')) {
        setRole(pos, int(value.size()), Role::String);
        if (value.size() >= 2 && value.back() == first) {
            const QStringView inner = value.mid(1, value.size() - 2);
            if (quantityPattern().match(inner).hasMatch())
                setRole(pos + 1, int(inner.size()), Role::Quantity);
        }
        return;
    }
    if (first == QLatin1Char('[') || first == QLatin1Char('{'))
        return; // flow collections keep the plain text colour
    if (isKeyword(value))
        setRole(pos, int(value.size()), Role::Keyword);
    else if (numberPattern().match(value).hasMatch())
        setRole(pos, int(value.size()), Role::Number);
    else if (quantityPattern().match(value).hasMatch())
        setRole(pos, int(value.size()), Role::Quantity);
    else
        setRole(pos, int(value.size()), Role::String);
}

} // namespace gq
