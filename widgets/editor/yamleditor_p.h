#pragma once

// Internal to the YAML editor's files (yamleditor*.cpp): the gutter widget and the
// palette test they share. Not part of the widgets library's interface.

#include "widgets/editor/yamleditor.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPalette>
#include <QToolTip>
#include <QWidget>

namespace gq {

inline bool isDarkPalette(const QPalette &p) {
    return p.color(QPalette::Base).lightness() < 128;
}

// The line-number gutter: paints through the editor, which owns the layout.
class YamlEditorGutter final : public QWidget {
public:
    explicit YamlEditorGutter(YamlEditor *editor)
        : QWidget(editor)
        , m_editor(editor) {
        setObjectName(QStringLiteral("yamlGutter"));
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }
    bool event(QEvent *event) override {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            if (!m_editor->gutterToolTip(help->pos(), help->globalPos()))
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }
    void mousePressEvent(QMouseEvent *event) override {
        // A click on a line number selects nothing but puts the cursor on that line.
        QTextCursor c = m_editor->cursorForPosition(QPoint(0, int(event->position().y())));
        c.movePosition(QTextCursor::StartOfBlock);
        m_editor->setTextCursor(c);
        m_editor->setFocus(Qt::MouseFocusReason);
    }

private:
    YamlEditor *m_editor;
};

} // namespace gq
