#pragma once

#include <QList>
#include <QPointer>
#include <QTextEdit>
#include <QTimer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace gq {

// An inline find bar for a QPlainTextEdit: type to search, Enter / F3 for next,
// Shift+Enter / Shift+F3 for previous, Escape to close. Every match is highlighted;
// the owner merges highlights() into its extra selections (the editor already uses
// them for the current line and error markers), re-reading on highlightsChanged().
class FindBar final : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(QPlainTextEdit *target, QWidget *parent = nullptr);

    [[nodiscard]] QString searchText() const;
    void setSearchText(const QString &text);
    void setCaseSensitive(bool on);
    [[nodiscard]] int matchCount() const { return m_matchCount; }
    // 1-based index of the match under the cursor, 0 if none.
    [[nodiscard]] int currentMatch() const { return m_current; }
    [[nodiscard]] QList<QTextEdit::ExtraSelection> highlights() const { return m_highlights; }

public slots:
    void activate(); // show, take the selection as the search text, focus the field
    bool findNext();
    bool findPrevious();
    void dismiss(); // hide, clear highlights, give focus back to the text

signals:
    void highlightsChanged();
    void closed();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    bool find(bool backward);
    void refresh();
    void updateLabel();

    QPointer<QPlainTextEdit> m_target;
    QLineEdit *m_field = nullptr;
    QLabel *m_label = nullptr;
    QToolButton *m_prev = nullptr;
    QToolButton *m_next = nullptr;
    QToolButton *m_case = nullptr;
    QList<QTextEdit::ExtraSelection> m_highlights;
    QTimer m_refreshTimer;
    int m_matchCount = 0;
    int m_current = 0;
};

} // namespace gq
