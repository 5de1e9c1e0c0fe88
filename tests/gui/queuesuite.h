#pragma once

// What the queue GUI suites (tst_queue*.cpp, tst_fitplandialog.cpp) share: loading a
// screenshot translation in initTestCase, and confirming an apply with a note.

#include "widgets/editor/applyconfirmdialog.h"

#include <QCoreApplication>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTest>
#include <QTranslator>

namespace gq::test {

// Screenshots (GQ_SCREENSHOT_DIR) in another language: the .qm that GQ_SCREENSHOT_QM
// names is loaded first and becomes the default locale. Returns the .qm that did not
// load ("" when it did, or when none is named): QVERIFY2(error.isEmpty(), qPrintable(error)).
inline QString loadScreenshotTranslation() {
    const QString qm = qEnvironmentVariable("GQ_SCREENSHOT_QM");
    if (qm.isEmpty())
        return {};
    auto *t = new QTranslator(qApp);
    if (!t->load(qm))
        return qm;
    QCoreApplication::installTranslator(t);
    QLocale::setDefault(QLocale(t->language()));
    return {};
}

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
