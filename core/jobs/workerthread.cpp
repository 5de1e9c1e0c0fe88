#include "core/jobs/workerthread.h"

namespace gq {

WorkerThread::WorkerThread(QObject *worker, const QString &name)
    : m_worker(worker) {
    m_thread.setObjectName(name);
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

void WorkerThread::shutDown(const std::function<void()> &last) {
    if (m_down)
        return;
    m_down = true;
    QMetaObject::invokeMethod(
        m_worker,
        [last] {
            if (last)
                last();
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace gq
