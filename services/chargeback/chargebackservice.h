#pragma once

#include "core/report/chargeback.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace gq {

class StoreWorker;
class UsageDatabase;
class UsageLane;
class UsageStore;

// What the Chargeback page asks for: a calendar month in a zone, grouped by namespace
// or user, at one rate or from a rates file (its currency, or `currency` when it
// names none).
struct ChargebackRequest {
    int year = 0;
    int month = 0;
    QString zone;
    GroupBy by = GroupBy::Namespace;
    // Set: the namespaces' lines summed into Kueue queues (`by` Namespace).
    ChargebackRegroup regroup;
    qint64 rateMicros = 0;
    QString ratesFile;
    QString currency;
};

// The console's access to the chargeback: the month's report read from the usage
// database (core/report's queryChargeback, the query behind `gpuquota report
// chargeback`) on a lane of a UsageDatabase (a thread with a read-only connection of its
// own, opened there at the first report and reused). A newer request replaces the one
// still out (a report not started yet is skipped); answers come back as signals through
// one JobTracker.
class ChargebackService final : public QObject {
    Q_OBJECT
public:
    explicit ChargebackService(QObject *parent = nullptr)
        : ChargebackService(nullptr, parent) {}
    // On a lane of `database` (null: a database of its own).
    explicit ChargebackService(UsageDatabase *database, QObject *parent = nullptr);
    ~ChargebackService() override;

    // The usage database to read; empty: none (load() then does nothing).
    // `password`: PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass); kept
    // in memory only, never logged.
    void setDatabase(const QString &url, const QString &password = {});
    [[nodiscard]] bool hasDatabase() const { return !m_url.isEmpty(); }
    // reportReady() or failed() follows, unless a newer load() or cancel() comes first.
    void load(const ChargebackRequest &request);
    // Drops the answer still out.
    void cancel() { m_jobs.cancel(); }

signals:
    void reportReady(const gq::ChargebackReport &report);
    void failed(const gq::Error &error);

private:
    QString m_url;
    UsageDatabase *m_database; // the given one, or a child of this object
    std::unique_ptr<UsageLane> m_lane;
    StoreWorker *m_worker; // the lane's
    JobTracker m_jobs{this};
};

// The report for `request` from `store` (blocking, on the store's thread; what load() runs on
// its lane). Public for tests.
[[nodiscard]] Result<ChargebackReport> readChargeback(const UsageStore &store,
                                                      const ChargebackRequest &request, qint64 now);

} // namespace gq
