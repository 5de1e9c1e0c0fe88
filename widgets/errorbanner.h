#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace gq {

// A non-modal strip above the content for what the user must know but need not
// acknowledge: a lost connection (with the reconnect countdown), forbidden, an
// invalid edit, or the demo notice. Levels tint it; Close hides it.
class MessageBanner final : public QFrame {
    Q_OBJECT
public:
    enum class Level { Info, Warning, Error };
    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(Level level, const QString &text, bool closable = true);
    void clear();
    [[nodiscard]] QString text() const;
    [[nodiscard]] Level level() const { return m_level; }

private:
    QLabel *m_label;
    QToolButton *m_close;
    Level m_level = Level::Info;
    bool m_styled = false; // the style sheet of m_level is applied
};

} // namespace gq
