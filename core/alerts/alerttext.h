#pragma once

#include "core/usage/alert.h"

#include <QCoreApplication>
#include <QString>

namespace gq {

// What an alert says to people, in the language of the installed translator (the
// controller loads English or Simplified Chinese by its `alerts.language`). One short
// title (the email subject, the first line of a chat message) and a few lines of body.
class AlertText {
    Q_DECLARE_TR_FUNCTIONS(gq::AlertText)
public:
    [[nodiscard]] static QString title(const Alert &alert);
    // Plain lines, without the title.
    [[nodiscard]] static QStringList lines(const Alert &alert);
    // "Sent by gpuquota-controller at 2026-12-01 14:05 UTC": the footer of every message.
    [[nodiscard]] static QString footer(const Alert &alert);
    // Instants in messages: "2026-12-01 14:05 UTC".
    [[nodiscard]] static QString instant(qint64 secs);
};

} // namespace gq
