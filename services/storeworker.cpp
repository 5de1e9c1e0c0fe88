#include "storeworker.h"

#include <QCoreApplication>
#include <QThread>

namespace gq {

Result<void> StoreWorker::ready() const {
    if (!store)
        return Error::make(Error::Kind::Database,
                           QCoreApplication::translate("gq::BudgetService", "The usage database is not open."));
    return {};
}

Result<void> StoreWorker::open(const QString &url, const UsageStore::Options &options, bool withAudit) {
    auto opened = UsageStore::open(url, options);
    if (!opened)
        return opened.error();
    store = std::move(*opened);
    if (withAudit)
        audit = std::make_unique<AuditLog>(*store);
    return {};
}

void StoreWorker::close() {
    const QObjectList kids = children(); // a copy: each delete shortens children()
    qDeleteAll(kids);
    audit.reset();
    store.reset();
}

void StoreWorker::start(StoreWorker *worker, QThread &thread, const QString &name) {
    thread.setObjectName(name);
    worker->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
    thread.start();
}

void StoreWorker::stop(StoreWorker *worker, QThread &thread) {
    QMetaObject::invokeMethod(worker, [worker] { worker->close(); }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
}

} // namespace gq
