#include "widgets/common/noteddialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gq {

NotedDialog::NotedDialog(QWidget *parent)
    : QDialog(parent)
    , m_note(new QPlainTextEdit(this))
    , m_why(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    m_note->setTabChangesFocus(true);
    m_note->setFixedHeight(m_note->fontMetrics().lineSpacing() * 3 + 14);
    m_why->setWordWrap(true);
    m_why->setStyleSheet(QStringLiteral("color: #b03a2e;"));
    setMinimumWidth(520);
}

QString NotedDialog::note() const {
    return m_note->toPlainText().trimmed();
}

QPushButton *NotedDialog::okButton() const {
    return m_buttons->button(QDialogButtonBox::Ok);
}

void NotedDialog::finish(QFormLayout *form, const QString &noteLabel) {
    form->addRow(noteLabel, m_note);
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_why, 1);
    bottom->addWidget(m_buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(bottom);
    connect(m_note, &QPlainTextEdit::textChanged, this, &NotedDialog::refresh);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (reason().isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    refresh();
}

void NotedDialog::refresh() {
    const QString why = reason();
    m_why->setText(why);
    okButton()->setEnabled(why.isEmpty());
    okButton()->setToolTip(why);
}

} // namespace gq
