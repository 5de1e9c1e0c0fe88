#pragma once

#include "core/usage/budget.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace gq {

// Create, edit or delete one GPU-hour budget. The note (why) is mandatory: OK stays
// disabled until there is one, and every field is checked with validateBudget()
// before the dialog accepts, the error shown under the fields.
class BudgetDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Mode { Create, Edit, Delete };
    BudgetDialog(Mode mode, const std::optional<Budget> &budget, QWidget *parent = nullptr);

    [[nodiscard]] Mode mode() const { return m_mode; }
    // What the fields say (valid once accepted).
    [[nodiscard]] Budget budget() const;
    [[nodiscard]] const std::optional<Budget> &original() const { return m_original; }
    [[nodiscard]] QString note() const;
    // The zone a new budget's periods start in (default UTC; the Preferences' zone).
    void setZone(const QString &id);

    void accept() override;

private:
    void updateOk();

    Mode m_mode;
    std::optional<Budget> m_original;
    QComboBox *m_scope;
    QLineEdit *m_subject;
    QComboBox *m_period;
    QDoubleSpinBox *m_limit;
    QLineEdit *m_grace;
    QComboBox *m_zone;
    QPlainTextEdit *m_note;
    QLabel *m_error;
    QDialogButtonBox *m_buttons;
};

} // namespace gq
