#include "services/usage/usagedatabase.h"

#include "services/usage/storeworker.h"

namespace gq {

void UsageTarget::set(const QString &url, const QString &password) {
    QMutexLocker lock(&m_mutex);
    if (url == m_now.url && password == m_now.password)
        return;
    m_now.url = url;
    m_now.password = password;
    ++m_now.epoch;
}

UsageTarget::Snapshot UsageTarget::get() const {
    QMutexLocker lock(&m_mutex);
    return m_now;
}

UsageLane::UsageLane(std::shared_ptr<UsageTarget> target, StoreWorker *worker, const QString &threadName,
                     const UsageStore::Options &options, bool withAudit)
    : m_worker(worker) {
    m_worker->connectTo(std::move(target), options, withAudit);
    start(threadName);
}

UsageLane::UsageLane(StoreWorker *worker, const QString &threadName, StoreWorker::Opener open, int reopenMs)
    : m_worker(worker) {
    m_worker->openWith(std::move(open), reopenMs);
    start(threadName);
}

void UsageLane::start(const QString &threadName) {
    m_thread.setObjectName(threadName);
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

UsageLane::~UsageLane() {
    shutDown();
}

void UsageLane::shutDown() {
    if (m_down)
        return;
    m_down = true;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->close(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

UsageDatabase::UsageDatabase(QObject *parent)
    : QObject(parent)
    , m_target(std::make_shared<UsageTarget>()) {}

std::unique_ptr<UsageLane> UsageDatabase::lane(StoreWorker *worker, const QString &threadName,
                                               const UsageStore::Options &options, bool withAudit) const {
    return std::make_unique<UsageLane>(m_target, worker, threadName, options, withAudit);
}

} // namespace gq
