#pragma once

// What the queue GUI suites (tst_queue*.cpp) share: confirming an apply with a note.
// (A screenshot translation is loaded by guitestutil.h's installScreenshotTranslator.)

#include "widgets/editor/applyconfirmdialog.h"

#include <QLineEdit>
#include <QPushButton>
#include <QTest>

namespace gq::test {

// The confirmation `dialog` opens on apply: waits for it (10 s), types the note and
// confirms. False when no confirmation showed.
[[nodiscard]] inline bool confirmApply(QObject *dialog, const QString &note) {
    ApplyConfirmDialog *confirm = nullptr;
    if (!QTest::qWaitFor(
            [&] { return (confirm = dialog->findChild<ApplyConfirmDialog *>()) && confirm->isVisible(); },
            10000))
        return false;
    QTest::keyClicks(confirm->findChild<QLineEdit *>(QStringLiteral("applyNote")), note);
    QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                      Qt::LeftButton);
    return true;
}

} // namespace gq::test
