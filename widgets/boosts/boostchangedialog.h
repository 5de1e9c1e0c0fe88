#pragma once

#include "core/usage/boosts.h"

#include "widgets/common/noteddialog.h"

class QDateTimeEdit;

namespace gq {

// Revoke a boost early, or move its end (extend): each asks for a note of at least
// kBoostMinNoteLength characters, the rule `gpuquota boost revoke|extend
// --note` applies. OK stays disabled, with the reason beside it, until the note (and
// for an extension the new end) is acceptable.
class BoostChangeDialog final : public NotedDialog {
    Q_OBJECT
public:
    enum class Mode { Revoke, Extend };
    BoostChangeDialog(Mode mode, const Boost &boost, qint64 now, QWidget *parent = nullptr);

    [[nodiscard]] Mode mode() const { return m_mode; }
    [[nodiscard]] const Boost &boost() const { return m_boost; }
    [[nodiscard]] qint64 newExpiry() const; // Extend
    [[nodiscard]] QString reason() const override;

private:
    Mode m_mode;
    Boost m_boost;
    qint64 m_now;
    QDateTimeEdit *m_end = nullptr;
};

} // namespace gq
