#pragma once

#include <QObject>
#include <QString>
#include <QThread>

#include <functional>

namespace gq {

// A thread of its own for one worker object (a usage lane's StoreWorker, the ledger's
// probe): the worker moves there when this is built and is deleted there when the
// thread ends; jobs reach it through JobTracker::runOn(worker(), ...). shutDown() runs
// `last` on the worker's thread after every call already queued to it (so what it
// holds is closed on the thread that opened it), then stops the thread.
class WorkerThread final {
public:
    WorkerThread(QObject *worker, const QString &name);
    ~WorkerThread() { shutDown(); }
    Q_DISABLE_COPY_MOVE(WorkerThread)

    // Waits for the worker's queue up to `last`; again, it does nothing.
    void shutDown(const std::function<void()> &last = {});

private:
    QThread m_thread;
    QObject *const m_worker;
    bool m_down = false;
};

} // namespace gq
