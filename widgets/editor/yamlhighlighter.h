#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace gq {

// Colours YAML as a Kubernetes manifest reads: keys, string and number scalars,
// resource quantities ("500m", "16Gi"), comments, document markers ("---", "..."),
// anchors/aliases/tags, and leftover merge-conflict markers. Line based and
// stateless except for block scalars ("|", ">"), which it tracks across lines.
class YamlHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Role { Key, String, Number, Quantity, Keyword, Comment, DocumentMarker, Anchor, Conflict };

    explicit YamlHighlighter(QTextDocument *document);

    // Formats follow the palette: a dark window background gets lighter colours.
    void setDarkTheme(bool dark);
    [[nodiscard]] QTextCharFormat format(Role role) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    void highlightValue(const QString &text, int start, int end);
    void setRole(int start, int count, Role role);

    QTextCharFormat m_formats[9];
};

} // namespace gq
