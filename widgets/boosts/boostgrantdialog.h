#pragma once

#include "core/boosts/boostplanner.h"

#include <QDialog>

#include <optional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QRadioButton;
class QStackedWidget;
class QTimeEdit;

namespace gq {

class ClusterConnection;
class Clock;
class QueueBoostTarget;

// Grants a boost: the target (a namespace's ResourceQuota entry, which quota object
// when several list it, a Kueue ClusterQueue flavor's nominalQuota or borrowingLimit,
// or a user/namespace GPU-hour budget), a delta or a new value,
// start now or later, a duration or an end, an optional recurring window, and the
// mandatory note. Every change re-plans with planQuotaBoost / planBudgetBoost (the
// CLI's own checks, against the connection's cached quotas) and shows the preview
// "before -> during -> after"; OK stays disabled, with the reason beside it, until
// the plan is valid. The dialog only plans: the caller records the accepted plan.
class BoostGrantDialog final : public QDialog {
    Q_OBJECT
public:
    BoostGrantDialog(ClusterConnection *session, const Clock &clock, QWidget *parent = nullptr);

    void setQuotaTarget(const QString &ns, const QString &quota = {}, const QString &resource = {});
    void setBudgetTarget(BudgetScope scope, const QString &subject);
    // A Kueue ClusterQueue flavor (read through the connection's client).
    void setQueueTarget(const QString &clusterQueue, const QString &flavor = {}, const QString &resource = {},
                        const QString &field = {});
    [[nodiscard]] QueueBoostTarget *queueTarget() const { return m_queueTarget; }
    void setActor(const QString &actor) { m_actor = actor; }

    // The boost to record (valid once accepted, or while canGrant()).
    [[nodiscard]] const std::optional<Boost> &plannedBoost() const { return m_plan; }
    [[nodiscard]] bool canGrant() const { return m_plan.has_value(); }
    // Why OK is disabled ("" when it is not).
    [[nodiscard]] QString reason() const;

private:
    // The constructor's parts, in the order it runs them (the focus order is the members' order).
    void setObjectNames();
    void buildTargetPages();
    void buildChangeRows();
    void buildStartAndEnd();
    void buildRecurrenceBox();
    void layOutDialog();
    void connectEditors();
    void fillNamespaces();
    void fillQuotas();
    void fillResources();
    void kindChanged();
    void replan();
    // The queue target's plan (planQueueBoost, as `boost grant --clusterqueue`).
    void replanQueue(const BoostWhen &when, QString &problem, qint64 now);
    void showPlanError(const Error &e);
    [[nodiscard]] BoostWhen when(QString *problem) const;
    [[nodiscard]] QString timeText(qint64 t) const;
    [[nodiscard]] QString whenText(const BoostPlan &plan, qint64 now) const;

    ClusterConnection *m_session;
    const Clock &m_clock;
    QString m_actor;
    std::optional<Boost> m_plan;

    QRadioButton *m_quotaKind;
    QRadioButton *m_budgetKind;
    QRadioButton *m_queueKind;
    QueueBoostTarget *m_queueTarget;
    QStackedWidget *m_targetStack;
    QComboBox *m_namespace;
    QComboBox *m_quota;
    QComboBox *m_resource;
    QComboBox *m_budgetScope;
    QLineEdit *m_budgetSubject;
    QStackedWidget *m_changeStack;
    QRadioButton *m_addMode;
    QRadioButton *m_setMode;
    QLineEdit *m_add;
    QLineEdit *m_set;
    QDoubleSpinBox *m_hours;
    QRadioButton *m_startNow;
    QRadioButton *m_startAt;
    QDateTimeEdit *m_start;
    QRadioButton *m_endAfter;
    QRadioButton *m_endAt;
    QLineEdit *m_duration;
    QDateTimeEdit *m_end;
    QGroupBox *m_recur;
    QComboBox *m_recurKind;
    QTimeEdit *m_windowFrom;
    QTimeEdit *m_windowTo;
    QComboBox *m_zone;
    QDateTimeEdit *m_recurUntil;
    QPlainTextEdit *m_note;
    QLabel *m_preview;
    QLabel *m_previewWhen;
    QLabel *m_why;
    QDialogButtonBox *m_buttons;
};

} // namespace gq
