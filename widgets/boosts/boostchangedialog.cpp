#include "widgets/boosts/boostchangedialog.h"

#include "models/boosts/boostlistmodel.h"
#include "core/usage/boosts.h"

#include <QDateTimeEdit>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

namespace gq {

BoostChangeDialog::BoostChangeDialog(Mode mode, const Boost &boost, qint64 now, QWidget *parent)
    : NotedDialog(parent)
    , m_mode(mode)
    , m_boost(boost)
    , m_now(now) {
    const bool revoke = mode == Mode::Revoke;
    setObjectName(revoke ? QStringLiteral("boostRevokeDialog") : QStringLiteral("boostExtendDialog"));
    setWindowTitle(revoke ? tr("Revoke boost %1").arg(boost.id) : tr("Extend boost %1").arg(boost.id));
    noteEdit()->setObjectName(QStringLiteral("boostChangeNote"));
    whyLabel()->setObjectName(QStringLiteral("boostChangeWhy"));
    QPushButton *ok = okButton();
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
        connect(m_end, &QDateTimeEdit::dateTimeChanged, this, &BoostChangeDialog::refresh);
    }
    noteEdit()->setPlaceholderText(
        revoke ? tr("Why is it taken back early? (at least %1 characters)").arg(kBoostMinNoteLength)
               : tr("Why does it last longer? (at least %1 characters)").arg(kBoostMinNoteLength));
    finish(form, tr("Note:"));
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

} // namespace gq
