#include "widgets/boosts/boostdecisiondialog.h"

#include "models/boosts/boostrequestmodel.h"
#include "models/budgets/budgetlistmodel.h"

#include <QDateTimeEdit>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

#include <cmath>

namespace gq {

BoostDecisionDialog::BoostDecisionDialog(Mode mode, const BoostRequest &request, qint64 now, QWidget *parent)
    : NotedDialog(parent)
    , m_mode(mode)
    , m_request(request)
    , m_now(now) {
    const bool approve = mode == Mode::Approve;
    setObjectName(approve ? QStringLiteral("boostApproveDialog") : QStringLiteral("boostDenyDialog"));
    setWindowTitle(approve ? tr("Approve boost request %1").arg(request.id)
                           : tr("Deny boost request %1").arg(request.id));
    noteEdit()->setObjectName(QStringLiteral("boostDecisionNote"));
    whyLabel()->setObjectName(QStringLiteral("boostDecisionWhy"));
    QPushButton *ok = okButton();
    ok->setObjectName(QStringLiteral("boostDecisionOkButton"));
    ok->setText(approve ? tr("Approve") : tr("Deny"));

    auto *what = new QLabel(
        tr("%1 asks for +%2 GPU-h on %3 until %4: %5")
            .arg(request.requester, BudgetListModel::gpuHoursText(request.hours),
                 BoostRequestModel::budgetText(request),
                 QDateTime::fromSecsSinceEpoch(request.until).toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                 request.note),
        this);
    what->setWordWrap(true);
    auto *form = new QFormLayout;
    form->addRow(tr("Request:"), what);
    if (approve) {
        m_hours = new QDoubleSpinBox(this);
        m_hours->setObjectName(QStringLiteral("boostDecisionHours"));
        m_hours->setRange(0.1, 100000);
        m_hours->setDecimals(1);
        m_hours->setSuffix(tr(" GPU-h"));
        m_hours->setValue(request.hours);
        form->addRow(tr("Extra GPU-hours:"), m_hours);
        m_until = new QDateTimeEdit(QDateTime::fromSecsSinceEpoch(request.until), this);
        m_until->setObjectName(QStringLiteral("boostDecisionUntil"));
        m_until->setCalendarPopup(true);
        m_until->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
        form->addRow(tr("Until:"), m_until);
        connect(m_until, &QDateTimeEdit::dateTimeChanged, this, &BoostDecisionDialog::refresh);
    }
    noteEdit()->setPlaceholderText(
        approve ? tr("Your note for the boost (at least %1 characters)").arg(kBoostMinNoteLength)
                : tr("Why is it denied? (at least %1 characters)").arg(kBoostMinNoteLength));
    finish(form, approve ? tr("Note:") : tr("Reason:"));
}

BoostRequestLedger::Decision BoostDecisionDialog::decision(const QString &actor) const {
    BoostRequestLedger::Decision d;
    d.actor = actor;
    d.note = note();
    if (m_hours && std::fabs(m_hours->value() - m_request.hours) > 1e-9)
        d.hours = m_hours->value();
    if (m_until && m_until->dateTime().toSecsSinceEpoch() != m_request.until)
        d.until = m_until->dateTime().toSecsSinceEpoch();
    return d;
}

QString BoostDecisionDialog::reason() const {
    if (!checkBoostNote(note()))
        return tr("Write a note of at least %1 characters saying why (%2 so far).")
            .arg(kBoostMinNoteLength)
            .arg(note().size());
    if (m_until && m_until->dateTime().toSecsSinceEpoch() <= m_now)
        return tr("The end must be in the future.");
    return {};
}

} // namespace gq
