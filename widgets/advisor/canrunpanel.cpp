#include "widgets/advisor/canrunpanel.h"

#include "models/budgets/budgetlistmodel.h"

#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gq {

CanRunPanel::CanRunPanel(BudgetService *service, QWidget *parent)
    : QGroupBox(tr("Can this run?"), parent)
    , m_service(service)
    , m_user(new QLineEdit(this))
    , m_ns(new QLineEdit(this))
    , m_gpus(new QDoubleSpinBox(this))
    , m_hours(new QDoubleSpinBox(this))
    , m_check(new QPushButton(tr("Check"), this))
    , m_plan(new QPushButton(tr("Plan a fine-tune…"), this))
    , m_verdict(new QLabel(this))
    , m_details(new QLabel(this)) {
    setObjectName(QStringLiteral("canRunPanel"));
    m_user->setObjectName(QStringLiteral("canRunUserEdit"));
    m_ns->setObjectName(QStringLiteral("canRunNamespaceEdit"));
    m_gpus->setObjectName(QStringLiteral("canRunGpusSpin"));
    m_hours->setObjectName(QStringLiteral("canRunHoursSpin"));
    m_check->setObjectName(QStringLiteral("canRunCheckButton"));
    m_verdict->setObjectName(QStringLiteral("canRunVerdictLabel"));
    m_details->setObjectName(QStringLiteral("canRunDetailsLabel"));
    m_user->setPlaceholderText(tr("user"));
    m_ns->setPlaceholderText(tr("namespace (optional)"));
    m_gpus->setRange(0, 10000);
    m_gpus->setDecimals(0);
    m_gpus->setValue(1);
    m_hours->setRange(0, 10000);
    m_hours->setDecimals(2);
    m_hours->setValue(4);
    m_hours->setSuffix(tr(" h"));
    m_verdict->setWordWrap(true);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Two rows of fields: the panel sits under the budgets and should take little room.
    auto *grid = new QGridLayout;
    auto label = [this](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, this);
        l->setBuddy(buddy);
        return l;
    };
    grid->addWidget(label(tr("User:"), m_user), 0, 0);
    grid->addWidget(m_user, 0, 1);
    grid->addWidget(label(tr("Namespace:"), m_ns), 0, 2);
    grid->addWidget(m_ns, 0, 3);
    grid->addWidget(label(tr("GPUs:"), m_gpus), 1, 0);
    grid->addWidget(m_gpus, 1, 1);
    grid->addWidget(label(tr("Expected hours:"), m_hours), 1, 2);
    grid->addWidget(m_hours, 1, 3);
    grid->addWidget(m_check, 1, 4);
    m_plan->setObjectName(QStringLiteral("canRunPlanButton"));
    grid->addWidget(m_plan, 0, 4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addWidget(m_verdict);
    layout->addWidget(m_details);
    layout->addStretch(1);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);

    connect(m_check, &QPushButton::clicked, this, &CanRunPanel::ask);
    connect(m_plan, &QPushButton::clicked, this,
            [this] { emit planRequested(m_user->text().trimmed(), m_ns->text().trimmed()); });
    connect(m_user, &QLineEdit::returnPressed, this, &CanRunPanel::ask);
    connect(m_ns, &QLineEdit::returnPressed, this, &CanRunPanel::ask);
    connect(m_service, &BudgetService::answered, this, &CanRunPanel::show);
}

void CanRunPanel::setNamespace(const QString &ns) {
    if (m_ns->text().isEmpty() || !m_ns->isModified())
        m_ns->setText(ns);
}

void CanRunPanel::ask() {
    AdmissionQuestion q;
    q.user = m_user->text().trimmed();
    q.ns = m_ns->text().trimmed();
    q.gpus = m_gpus->value();
    q.hours = m_hours->value();
    if (q.user.isEmpty() && q.ns.isEmpty()) {
        m_verdict->setText(tr("Enter a user or a namespace."));
        m_details->clear();
        return;
    }
    m_verdict->setText(tr("Checking…"));
    m_details->clear();
    m_service->check(q);
}

QString CanRunPanel::answerText(const AdmissionAnswer &a) {
    QStringList lines;
    for (const Decision &d : a.each) {
        const QString who = d.budget.scope == BudgetScope::User ? tr("user %1").arg(d.budget.subject)
                                                                : tr("namespace %1").arg(d.budget.subject);
        const QString verdict = d.outcome == Decision::Outcome::Denied ? tr("denied") : tr("allowed");
        lines << tr("%1, per %2: %3 used + %4 needed of %5 GPU-h (%6 left): %7")
                     .arg(who, BudgetListModel::periodText(d.budget.period), formatGpuHours(d.used),
                          formatGpuHours(d.required), formatGpuHours(d.limit),
                          formatGpuHours(std::max(0.0, d.remaining)), verdict);
    }
    if (a.each.isEmpty())
        lines << tr("No GPU-hour budget applies to this user or namespace.");
    return lines.join(QLatin1Char('\n'));
}

void CanRunPanel::show(const AdmissionAnswer &a) {
    const Decision &d = a.decision;
    QString verdict;
    QString color;
    if (!d.hasBudget) {
        verdict = tr("Yes: no GPU-hour budget applies (%1 GPU-h).").arg(formatGpuHours(d.required));
        color = QStringLiteral("#2e7d32");
    } else if (d.allowed()) {
        verdict = tr("Yes: %1 GPU-h fit in the %2 GPU-h left.")
                      .arg(formatGpuHours(d.required), formatGpuHours(d.remaining));
        color = QStringLiteral("#2e7d32");
    } else {
        verdict =
            tr("No: it needs %1 GPU-h, only %2 are left (limit %3 per %4 of %5).")
                .arg(formatGpuHours(d.required), formatGpuHours(std::max(0.0, d.remaining)),
                     formatGpuHours(d.limit), BudgetListModel::periodText(d.budget.period), d.budget.subject);
        color = QStringLiteral("#c62828");
    }
    m_verdict->setText(QStringLiteral("<b style=\"color:%1\">%2</b>").arg(color, verdict.toHtmlEscaped()));
    m_details->setText(answerText(a));
}

} // namespace gq
