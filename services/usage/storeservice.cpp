#include "services/usage/storeservice.h"

#include "core/domain/clock.h"
#include "services/usage/storeworker.h"
#include "services/usage/usagedatabase.h"

namespace gq {

StoreService::StoreService(StoreWorker *worker, const QString &threadName, const UsageStore::Options &options,
                           bool withAudit, UsageDatabase *database, QObject *parent)
    : QObject(parent)
    , m_worker(worker)
    , m_clock(&Clock::system())
    , m_database(database ? database : new UsageDatabase(this))
    , m_lane(m_database->lane(worker, threadName, options, withAudit)) {}

StoreService::~StoreService() {
    shutDown();
}

void StoreService::shutDown() {
    m_jobs.cancel();
    m_lane->shutDown();
}

void StoreService::open(const QString &url, const QString &password) {
    m_database->open(url, password);
    m_jobs.runOn(
        m_worker, [w = m_worker]() -> Result<void> { return w->open(); },
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
