#pragma once

#include "services/budgets/budgetservice.h"
#include "services/advisor/fitadvisor.h"
#include "core/jobs/jobtracker.h"

#include <QDialog>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace gq {

class FitMemoryBar;
class KubeClient;

// "Plan a fine-tune…": will a fine-tune fit what the namespace has left? The same inputs
// and the same numbers as `gpuquota advise` (core/advisor, services/advisor/fitadvisor.h): a
// per-GPU memory bar by part, one line per method (fits / why not), the GPU-hours against
// the user's budget (BudgetService::check, the check of "Can this run?") and the ms-swift
// flags to copy. The namespace's free quota GPUs and the nodes' GPU memory are read off
// the GUI thread (JobTracker) when a client is given.
class FitPlanDialog final : public QDialog {
    Q_OBJECT
public:
    FitPlanDialog(std::shared_ptr<KubeClient> client, BudgetService *budgets, QWidget *parent = nullptr);
    // Reads the namespace's quota and the nodes (when a client was given).
    void setNamespace(const QString &ns);
    void setUser(const QString &user);
    // What the inputs ask, as `gpuquota advise` would be asked; nullopt with bad input.
    [[nodiscard]] std::optional<advisor::AdviceRequest> request() const;
    [[nodiscard]] const advisor::Advice &advice() const { return m_advice; }

private:
    QWidget *buildInputs();
    QWidget *buildResults();
    void recompute();
    void showAdvice(const advisor::AdviceRequest &r);
    void applyCluster(const Result<FitClusterFacts> &facts);
    void showBudget(const AdmissionAnswer &answer);
    [[nodiscard]] QString methodLine(const advisor::MethodFit &f) const;
    [[nodiscard]] static QString methodTitle(advisor::Method m);

    std::shared_ptr<KubeClient> m_client;
    BudgetService *m_budgets;
    QComboBox *m_model;
    QLineEdit *m_params;
    QComboBox *m_method;
    QComboBox *m_dtype;
    QComboBox *m_optimizer;
    QComboBox *m_zero;
    QSpinBox *m_gpus;
    QDoubleSpinBox *m_memory;
    QSpinBox *m_seqLen;
    QSpinBox *m_batch;
    QSpinBox *m_rank;
    QCheckBox *m_checkpointing;
    QCheckBox *m_flash;
    QDoubleSpinBox *m_hours;
    QLineEdit *m_ns;
    QLineEdit *m_user;
    QLabel *m_cluster;
    FitMemoryBar *m_bar;
    QLabel *m_summary;
    QLabel *m_methods;
    QLabel *m_gpuHours;
    QLabel *m_budget;
    QLineEdit *m_swift;
    QPushButton *m_copy;
    advisor::Advice m_advice;
    AdmissionQuestion m_asked;
    bool m_budgetPending = false; // a check is out: its failure is shown too
    JobTracker m_jobs{this};
};

} // namespace gq
