#include "widgets/common/errorbanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace gq {

MessageBanner::MessageBanner(QWidget *parent)
    : QFrame(parent)
    , m_label(new QLabel(this))
    , m_action(new QPushButton(this))
    , m_close(new QToolButton(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::clear);
    m_action->setObjectName(QStringLiteral("bannerActionButton"));
    m_action->hide();
    connect(m_action, &QPushButton::clicked, this, &MessageBanner::actionTriggered);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_action, 0, Qt::AlignVCenter);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBanner::showMessage(Level level, const QString &text, bool closable, const QString &action) {
    // A retry loop repeats its message every few seconds, and a countdown every second:
    // re-polishing the style sheet each time would make the banner flicker for nothing.
    if (!isHidden() && level == m_level && m_styled) {
        if (m_label->text() != text)
            m_label->setText(text);
        setAction(action);
        m_close->setVisible(closable);
        return;
    }
    m_level = level;
    m_styled = true;
    QColor bg, border;
    switch (level) {
    case Level::Info:
        bg = QColor(0xe3, 0xf0, 0xfb);
        border = QColor(0x6a, 0xa6, 0xd8);
        break;
    case Level::Warning:
        bg = QColor(0xfd, 0xf3, 0xd6);
        border = QColor(0xe0, 0xa8, 0x2e);
        break;
    case Level::Error:
        bg = QColor(0xfb, 0xe3, 0xe1);
        border = QColor(0xd9, 0x4a, 0x3d);
        break;
    }
    setStyleSheet(
        QStringLiteral("gq--MessageBanner { background: %1; border: 1px solid %2; border-radius: 4px; }"
                       " QLabel { color: #202020; }")
            .arg(bg.name(), border.name()));
    m_label->setText(text);
    setAction(action);
    m_close->setVisible(closable);
    show();
}

void MessageBanner::setAction(const QString &action) {
    if (m_action->text() != action)
        m_action->setText(action);
    m_action->setVisible(!action.isEmpty());
}

void MessageBanner::setActionEnabled(bool enabled) {
    m_action->setEnabled(enabled);
}

void MessageBanner::clear() {
    m_label->clear();
    setAction({});
    hide();
}

QString MessageBanner::text() const {
    return m_label->text();
}

} // namespace gq
