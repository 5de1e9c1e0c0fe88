#pragma once

#include <QDialog>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace gq {

// A dialog that takes an audit note: the note field (three lines, Tab moves on), and
// beside OK/Cancel the reason in red why OK is disabled. A subclass builds its form
// rows, then calls finish(form, noteLabel); reason() says what is still missing ("" when
// OK may be pressed) and is asked again whenever the note changes or the subclass calls
// refresh(). OK accepts only while reason() is empty.
class NotedDialog : public QDialog {
    Q_OBJECT
public:
    [[nodiscard]] QString note() const; // trimmed
    [[nodiscard]] virtual QString reason() const = 0;

protected:
    explicit NotedDialog(QWidget *parent);
    void finish(QFormLayout *form, const QString &noteLabel);
    void refresh();
    [[nodiscard]] QPlainTextEdit *noteEdit() const { return m_note; }
    [[nodiscard]] QLabel *whyLabel() const { return m_why; }
    [[nodiscard]] QPushButton *okButton() const;

private:
    QPlainTextEdit *m_note;
    QLabel *m_why;
    QDialogButtonBox *m_buttons;
};

} // namespace gq
