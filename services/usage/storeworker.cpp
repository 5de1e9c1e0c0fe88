#include "services/usage/storeworker.h"

#include "services/usage/usagedatabase.h"

#include <QCoreApplication>

namespace gq {

namespace {
Error notOpen() {
    return Error::make(Error::Kind::Database,
                       QCoreApplication::translate("gq::BudgetService", "The usage database is not open."));
}
} // namespace

void StoreWorker::connectTo(std::shared_ptr<UsageTarget> target, const UsageStore::Options &options,
                            bool withAudit) {
    m_target = std::move(target);
    m_options = options;
    m_withAudit = withAudit;
}

void StoreWorker::openWith(Opener open, int reopenMs) {
    m_hasOpener = true;
    m_opener = std::move(open);
    m_reopenMs = reopenMs;
}

Result<void> StoreWorker::readyFromOpener() {
    if (store)
        return {};
    if (m_closed)
        return notOpen();
    if (!m_opener)
        return Error::make(Error::Kind::Config, QStringLiteral("no usage database"));
    if (m_lastFailure && !m_retryAt.hasExpired())
        return *m_lastFailure;
    auto opened = m_opener();
    if (!opened) {
        m_lastFailure = opened.error();
        m_retryAt = QDeadlineTimer(m_reopenMs);
        return opened.error();
    }
    m_lastFailure.reset();
    store = std::move(*opened);
    if (m_withAudit)
        audit = std::make_unique<AuditLog>(*store);
    return {};
}

Result<void> StoreWorker::ready() {
    if (m_hasOpener)
        return readyFromOpener();
    if (m_closed || !m_target)
        return notOpen();
    const quint64 epoch = m_target->get().epoch;
    if (epoch == m_epoch && (store || m_failed))
        return store ? Result<void>() : Result<void>(notOpen()); // a failed open is not retried per job
    if (auto r = open(); !r)
        return notOpen();
    return {};
}

Result<void> StoreWorker::open() {
    if (m_hasOpener) {
        release();
        m_closed = false;
        m_lastFailure.reset();
        return readyFromOpener();
    }
    if (!m_target)
        return notOpen();
    const UsageTarget::Snapshot target = m_target->get();
    release();
    m_closed = false;
    m_epoch = target.epoch;
    m_failed = true;
    if (target.url.isEmpty())
        return notOpen();
    UsageStore::Options options = m_options;
    options.password = target.password;
    auto opened = UsageStore::open(target.url, options);
    if (!opened)
        return opened.error();
    store = std::move(*opened);
    m_failed = false;
    if (m_withAudit)
        audit = std::make_unique<AuditLog>(*store);
    return {};
}

void StoreWorker::release() {
    const QObjectList kids = children(); // a copy: each delete shortens children()
    qDeleteAll(kids);
    audit.reset();
    store.reset();
}

void StoreWorker::drop() {
    release();
    m_failed = false; // not a failed open: the next job opens again
}

void StoreWorker::close() {
    release();
    m_closed = true;
}

} // namespace gq
