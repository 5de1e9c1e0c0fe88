#pragma once

#include "services/budgets/budgetservice.h"

#include <QGroupBox>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace gq {

// "Can this run?": user, namespace, GPUs and expected hours -> the admission decision
// with its numbers, from the same check as `gpuquota check` (BudgetService::check).
class CanRunPanel final : public QGroupBox {
    Q_OBJECT
public:
    explicit CanRunPanel(BudgetService *service, QWidget *parent = nullptr);
    void setNamespace(const QString &ns);
    // The answer as the panel prints it (also for tests).
    [[nodiscard]] static QString answerText(const AdmissionAnswer &answer);

signals:
    // "Plan a fine-tune…": the user and namespace typed in the panel.
    void planRequested(const QString &user, const QString &ns);

private:
    void ask();
    void show(const AdmissionAnswer &answer);

    BudgetService *m_service;
    QLineEdit *m_user;
    QLineEdit *m_ns;
    QDoubleSpinBox *m_gpus;
    QDoubleSpinBox *m_hours;
    QPushButton *m_check;
    QPushButton *m_plan;
    QLabel *m_verdict;
    QLabel *m_details;
};

} // namespace gq
