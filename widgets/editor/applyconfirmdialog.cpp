#include "widgets/editor/applyconfirmdialog.h"

#include "widgets/editor/diffview.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace gq {

ApplyConfirmDialog::ApplyConfirmDialog(QWidget *parent)
    : QDialog(parent)
    , m_headline(new QLabel(this))
    , m_warnings(new QLabel(this))
    , m_diff(new DiffView(this))
    , m_changes(new QTextBrowser(this))
    , m_note(new QLineEdit(this)) {
    setObjectName(QStringLiteral("applyConfirmDialog"));
    setWindowTitle(tr("Review and apply"));
    setModal(true);
    m_headline->setWordWrap(true);
    QFont f = m_headline->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    m_headline->setFont(f);

    m_warnings->setObjectName(QStringLiteral("applyWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("QLabel { background: #fbe3e1; border: 1px solid #d94a3d; "
                                             "border-radius: 4px; padding: 6px; color: #5a1710; }"));
    m_warnings->hide();

    m_diff->setObjectName(QStringLiteral("applyDiff"));
    m_diff->setTitles(tr("On the server now"), tr("After apply"));
    m_changes->setObjectName(QStringLiteral("applyChanges"));
    m_changes->setMaximumHeight(110);

    m_note->setObjectName(QStringLiteral("applyNote"));
    m_note->setPlaceholderText(tr("Why? (optional, stored in the audit log)"));

    auto *buttons = new QDialogButtonBox(this);
    m_apply = buttons->addButton(tr("Apply"), QDialogButtonBox::AcceptRole);
    m_apply->setObjectName(QStringLiteral("confirmApplyButton"));
    m_apply->setDefault(true);
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancelApplyButton"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout;
    form->addRow(tr("Note:"), m_note);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_warnings);
    layout->addWidget(m_diff, 1);
    layout->addWidget(new QLabel(tr("Changes:"), this));
    layout->addWidget(m_changes);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(960, 640);
}

void ApplyConfirmDialog::setObjectDescription(const QString &description) {
    m_headline->setText(tr("Apply these changes to %1?").arg(description));
}

void ApplyConfirmDialog::setTexts(const QString &serverYaml, const QString &newYaml) {
    m_diff->setTexts(serverYaml, newYaml);
}

void ApplyConfirmDialog::setChanges(const QString &changesText) {
    m_changes->setPlainText(changesText.isEmpty() ? tr("No changes to the specification.") : changesText);
}

void ApplyConfirmDialog::setWarnings(const QStringList &warnings) {
    m_warnings->setVisible(!warnings.isEmpty());
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
}

QString ApplyConfirmDialog::note() const {
    return m_note->text().trimmed();
}

} // namespace gq
