#include "storeservice.h"

#include "clock.h"
#include "storeworker.h"

namespace gq {

StoreService::StoreService(StoreWorker *worker, const QString &threadName, const UsageStore::Options &options,
                           bool withAudit, QObject *parent)
    : QObject(parent)
    , m_worker(worker)
    , m_clock(&Clock::system())
    , m_options(options)
    , m_withAudit(withAudit) {
    m_thread.setObjectName(threadName);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

StoreService::~StoreService() {
    shutDown();
}

void StoreService::shutDown() {
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_jobs.cancel();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->close(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void StoreService::open(const QString &url, const QString &password) {
    UsageStore::Options options = m_options;
    options.password = password;
    m_jobs.runOn(
        m_worker,
        [w = m_worker, url, options, withAudit = m_withAudit]() -> Result<void> {
            return w->open(url, options, withAudit);
        },
        [this](const Result<void> &done) {
            if (!done) {
                emit failed(done.error());
                return;
            }
            m_open = true;
            emit opened();
            whenOpened();
        });
}

} // namespace gq
