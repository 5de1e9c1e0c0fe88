#pragma once

#include "core/usage/boostrequests.h"

#include "widgets/common/noteddialog.h"

class QDateTimeEdit;
class QDoubleSpinBox;

namespace gq {

// Approve a boost request (optionally changing its GPU-hours and its end, with the
// admin's own note) or deny it (with a reason). Both notes follow the rule of grants
// (at least kBoostMinNoteLength characters); OK stays disabled, with the reason beside
// it, until the note (and for an approval the end) is acceptable.
class BoostDecisionDialog final : public NotedDialog {
    Q_OBJECT
public:
    enum class Mode { Approve, Deny };
    BoostDecisionDialog(Mode mode, const BoostRequest &request, qint64 now, QWidget *parent = nullptr);

    [[nodiscard]] Mode mode() const { return m_mode; }
    [[nodiscard]] const BoostRequest &request() const { return m_request; }
    // Approve: the decision for BoostRequestLedger::approve (0: as asked).
    [[nodiscard]] BoostRequestLedger::Decision decision(const QString &actor) const;
    [[nodiscard]] QString reason() const override;

private:
    Mode m_mode;
    BoostRequest m_request;
    qint64 m_now;
    QDoubleSpinBox *m_hours = nullptr;
    QDateTimeEdit *m_until = nullptr;
};

} // namespace gq
