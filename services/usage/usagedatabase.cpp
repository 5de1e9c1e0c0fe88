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
    : m_worker(worker)
    , m_thread(
          [&] {
              worker->connectTo(std::move(target), options, withAudit); // before it moves
              return worker;
          }(),
          threadName) {}

UsageLane::UsageLane(StoreWorker *worker, const QString &threadName, StoreWorker::Opener open, int reopenMs)
    : m_worker(worker)
    , m_thread(
          [&] {
              worker->openWith(std::move(open), reopenMs); // before it moves
              return worker;
          }(),
          threadName) {}

UsageLane::~UsageLane() {
    shutDown();
}

void UsageLane::shutDown() {
    m_thread.shutDown([w = m_worker] { w->close(); });
}

UsageDatabase::UsageDatabase(QObject *parent)
    : QObject(parent)
    , m_target(std::make_shared<UsageTarget>()) {}

std::unique_ptr<UsageLane> UsageDatabase::lane(StoreWorker *worker, const QString &threadName,
                                               const UsageStore::Options &options, bool withAudit) const {
    return std::make_unique<UsageLane>(m_target, worker, threadName, options, withAudit);
}

} // namespace gq
