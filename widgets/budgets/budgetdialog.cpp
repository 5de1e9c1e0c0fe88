#include "widgets/budgets/budgetdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimeZone>
#include <QVBoxLayout>

namespace gq {

BudgetDialog::BudgetDialog(Mode mode, const std::optional<Budget> &budget, QWidget *parent)
    : QDialog(parent)
    , m_mode(mode)
    , m_original(budget)
    , m_scope(new QComboBox(this))
    , m_subject(new QLineEdit(this))
    , m_period(new QComboBox(this))
    , m_limit(new QDoubleSpinBox(this))
    , m_grace(new QLineEdit(this))
    , m_zone(new QComboBox(this))
    , m_note(new QPlainTextEdit(this))
    , m_error(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("budgetDialog"));
    setWindowTitle(mode == Mode::Create ? tr("New GPU-hour budget")
                   : mode == Mode::Edit ? tr("Edit GPU-hour budget")
                                        : tr("Delete GPU-hour budget"));
    m_scope->setObjectName(QStringLiteral("budgetScopeCombo"));
    m_scope->addItem(tr("User"), int(BudgetScope::User));
    m_scope->addItem(tr("Namespace"), int(BudgetScope::Namespace));
    m_subject->setObjectName(QStringLiteral("budgetSubjectEdit"));
    m_subject->setPlaceholderText(tr("user name or namespace"));
    m_period->setObjectName(QStringLiteral("budgetPeriodCombo"));
    m_period->addItem(tr("Day"), int(Period::Day));
    m_period->addItem(tr("Week (ISO, from Monday)"), int(Period::Week));
    m_period->addItem(tr("Month"), int(Period::Month));
    m_limit->setObjectName(QStringLiteral("budgetLimitSpin"));
    m_limit->setRange(0, 1e7);
    m_limit->setDecimals(2);
    m_limit->setSuffix(tr(" GPU-h"));
    m_limit->setValue(8);
    m_grace->setObjectName(QStringLiteral("budgetGraceEdit"));
    m_grace->setPlaceholderText(tr("e.g. 30m, 1h30m, 0"));
    m_grace->setText(QStringLiteral("0"));
    m_zone->setObjectName(QStringLiteral("budgetZoneCombo"));
    m_zone->setEditable(true);
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromUtf8(id));
    m_zone->setCurrentText(QStringLiteral("UTC"));
    m_note->setObjectName(QStringLiteral("budgetNoteEdit"));
    m_note->setPlaceholderText(tr("Why? (required; goes into the audit log)"));
    m_note->setTabChangesFocus(true);
    m_note->setFixedHeight(m_note->fontMetrics().lineSpacing() * 4 + 12);
    m_error->setObjectName(QStringLiteral("budgetErrorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->hide();

    if (budget) {
        m_scope->setCurrentIndex(m_scope->findData(int(budget->scope)));
        m_subject->setText(budget->subject);
        m_period->setCurrentIndex(m_period->findData(int(budget->period)));
        m_limit->setValue(budget->limitGpuHours);
        m_grace->setText(formatDuration(budget->graceSeconds));
        m_zone->setCurrentText(budget->tz);
    }
    if (mode == Mode::Delete)
        for (QWidget *w :
             std::initializer_list<QWidget *>{m_scope, m_subject, m_period, m_limit, m_grace, m_zone})
            w->setEnabled(false);

    auto *form = new QFormLayout;
    form->addRow(tr("Scope:"), m_scope);
    form->addRow(tr("Subject:"), m_subject);
    form->addRow(tr("Period:"), m_period);
    form->addRow(tr("Limit:"), m_limit);
    form->addRow(tr("Grace:"), m_grace);
    form->addRow(tr("Time zone:"), m_zone);
    form->addRow(tr("Note:"), m_note);
    auto *layout = new QVBoxLayout(this);
    if (mode == Mode::Delete) {
        auto *warn = new QLabel(tr("Deleting the budget lifts its limit: the subject may use GPUs without a "
                                   "GPU-hour cap."),
                                this);
        warn->setWordWrap(true);
        layout->addWidget(warn);
    }
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)
        ->setText(mode == Mode::Delete   ? tr("Delete")
                  : mode == Mode::Create ? tr("Create")
                                         : tr("Save"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("budgetOkButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &BudgetDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_note, &QPlainTextEdit::textChanged, this, &BudgetDialog::updateOk);
    connect(m_subject, &QLineEdit::textChanged, this, &BudgetDialog::updateOk);
    setMinimumWidth(460);
    updateOk();
}

Budget BudgetDialog::budget() const {
    Budget b;
    if (m_original)
        b.id = m_original->id;
    b.scope = BudgetScope(m_scope->currentData().toInt());
    b.subject = m_subject->text().trimmed();
    b.period = Period(m_period->currentData().toInt());
    b.limitGpuHours = m_limit->value();
    b.graceSeconds = parseDuration(m_grace->text().trimmed()).value_or(-1);
    b.tz = m_zone->currentText().trimmed();
    return b;
}

QString BudgetDialog::note() const {
    return m_note->toPlainText().trimmed();
}

void BudgetDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!note().isEmpty() && !m_subject->text().trimmed().isEmpty());
}

void BudgetDialog::setZone(const QString &id) {
    m_zone->setCurrentText(id);
}

void BudgetDialog::accept() {
    if (m_mode != Mode::Delete) {
        if (auto g = parseDuration(m_grace->text().trimmed()); !g) {
            m_error->setText(tr("Grace: %1").arg(g.error().message));
            m_error->show();
            m_grace->setFocus();
            return;
        }
        if (auto v = validateBudget(budget()); !v) {
            const QString field = v.error().field;
            m_error->setText(field.isEmpty() ? v.error().message
                                             : tr("%1: %2").arg(field, v.error().message));
            m_error->show();
            return;
        }
    }
    if (note().isEmpty())
        return;
    QDialog::accept();
}

} // namespace gq
