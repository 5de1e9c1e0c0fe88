// Windows: Ctrl+C, Ctrl+Break and a closing console window or session arrive as
// console control events on a thread of their own; they become a queued deliver().
#include "services/platform/quitonsignal.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <windows.h>

namespace gq {

namespace {
QuitOnSignal *g_instance = nullptr;

BOOL WINAPI quitOnControlEvent(DWORD) {
    if (QuitOnSignal *q = g_instance)
        QMetaObject::invokeMethod(
            q, [q] { q->deliver(); }, Qt::QueuedConnection);
    return TRUE;
}
} // namespace

QuitOnSignal::QuitOnSignal(QObject *parent)
    : QObject(parent) {
    g_instance = this;
    SetConsoleCtrlHandler(quitOnControlEvent, TRUE);
}

QuitOnSignal::~QuitOnSignal() {
    SetConsoleCtrlHandler(quitOnControlEvent, FALSE);
    g_instance = nullptr;
}

void QuitOnSignal::deliver() {
    if (m_handler)
        m_handler();
    else
        QCoreApplication::quit();
}

} // namespace gq
