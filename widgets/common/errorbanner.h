#pragma once

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace gq {

// A non-modal strip above the content for what the user must know but need not
// acknowledge: a lost connection (with the reconnect countdown), forbidden, an
// invalid edit, or the demo notice. Levels tint it; Close hides it. ConnectionBanner
// adds the connection's story to the window's one.
class MessageBanner : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit MessageBanner(QWidget *parent = nullptr);

    // action: the text of a button beside the message ("Retry now"); empty for none.
    // Clicking it emits actionTriggered().
    void showMessage(Level level, const QString &text, bool closable = true, const QString &action = {});
    void setActionEnabled(bool enabled);
    void clear();
    [[nodiscard]] QString text() const;
    [[nodiscard]] Level level() const { return m_level; }
    [[nodiscard]] QPushButton *actionButton() const { return m_action; }

signals:
    void actionTriggered();

private:
    void setAction(const QString &action);

    QLabel *m_label;
    QPushButton *m_action;
    QToolButton *m_close;
    Level m_level = Level::Info;
    bool m_styled = false; // the style sheet of m_level is applied
};

} // namespace gq
