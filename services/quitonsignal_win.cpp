// Windows: Ctrl+C, Ctrl+Break and a closing console window or session arrive as
// console control events on a thread of their own; they become a queued quit().
#include "quitonsignal.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <windows.h>

namespace gq {

namespace {
BOOL WINAPI quitOnControlEvent(DWORD) {
    if (auto *app = QCoreApplication::instance())
        QMetaObject::invokeMethod(app, &QCoreApplication::quit, Qt::QueuedConnection);
    return TRUE;
}
} // namespace

QuitOnSignal::QuitOnSignal(QObject *parent)
    : QObject(parent) {
    SetConsoleCtrlHandler(quitOnControlEvent, TRUE);
}

QuitOnSignal::~QuitOnSignal() {
    SetConsoleCtrlHandler(quitOnControlEvent, FALSE);
}

} // namespace gq
