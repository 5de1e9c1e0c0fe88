#include "storeworker.h"

#include <QCoreApplication>

namespace gq {

Result<void> StoreWorker::ready() const {
    if (!store)
        return Error::make(
            Error::Kind::Database,
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

} // namespace gq
