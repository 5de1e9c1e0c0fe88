#include "boostchangedialog.h"

#include "boostlistmodel.h"
#include "boosts.h"

#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gq {

BoostChangeDialog::BoostChangeDialog(Mode mode, const Boost &boost, qint64 now, QWidget *parent)
    : QDialog(parent)
    , m_mode(mode)
    , m_boost(boost)
    , m_now(now)
    , m_note(new QPlainTextEdit(this))
    , m_why(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    const bool revoke = mode == Mode::Revoke;
    setObjectName(revoke ? QStringLiteral("boostRevokeDialog") : QStringLiteral("boostExtendDialog"));
    setWindowTitle(revoke ? tr("Revoke boost %1").arg(boost.id) : tr("Extend boost %1").arg(boost.id));
    m_note->setObjectName(QStringLiteral("boostChangeNote"));
    m_why->setObjectName(QStringLiteral("boostChangeWhy"));
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    ok->setObjectName(QStringLiteral("boostChangeOkButton"));
    ok->setText(revoke ? tr("Revoke") : tr("Extend"));

    auto *what = new QLabel(
        tr("%1, %2 until %3")
            .arg(BoostListModel::targetText(boost.target), BoostListModel::deltaText(boost),
                 QDateTime::fromSecsSinceEpoch(boost.expiry).toString(QStringLiteral("yyyy-MM-dd HH:mm"))),
        this);
    what->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Boost:"), what);
    if (!revoke) {
        m_end =
            new QDateTimeEdit(QDateTime::fromSecsSinceEpoch(std::max(boost.expiry, now)).addDays(1), this);
        m_end->setObjectName(QStringLiteral("boostNewEnd"));
        m_end->setCalendarPopup(true);
        m_end->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
        form->addRow(tr("New end:"), m_end);
        connect(m_end, &QDateTimeEdit::dateTimeChanged, this, &BoostChangeDialog::update);
    }
    m_note->setPlaceholderText(
        revoke ? tr("Why is it taken back early? (at least %1 characters)").arg(kBoostMinNoteLength)
               : tr("Why does it last longer? (at least %1 characters)").arg(kBoostMinNoteLength));
    m_note->setTabChangesFocus(true);
    m_note->setFixedHeight(m_note->fontMetrics().lineSpacing() * 3 + 14);
    form->addRow(tr("Note:"), m_note);
    m_why->setWordWrap(true);
    m_why->setStyleSheet(QStringLiteral("color: #b03a2e;"));
    auto *bottom = new QHBoxLayout;
    bottom->addWidget(m_why, 1);
    bottom->addWidget(m_buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(bottom);
    setMinimumWidth(520);

    connect(m_note, &QPlainTextEdit::textChanged, this, &BoostChangeDialog::update);
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (reason().isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    update();
}

QString BoostChangeDialog::note() const {
    return m_note->toPlainText().trimmed();
}

qint64 BoostChangeDialog::newExpiry() const {
    return m_end ? m_end->dateTime().toSecsSinceEpoch() : 0;
}

QString BoostChangeDialog::reason() const {
    if (!checkBoostNote(note()))
        return tr("Write a note of at least %1 characters saying why (%2 so far).")
            .arg(kBoostMinNoteLength)
            .arg(note().size());
    if (m_end && (newExpiry() <= m_now || newExpiry() <= m_boost.start))
        return tr("The new end must be in the future and after the start.");
    return {};
}

void BoostChangeDialog::update() {
    const QString why = reason();
    m_why->setText(why);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setToolTip(why);
}

} // namespace gq
