#pragma once

#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/domain/result.h"
#include "core/usage/usagecharts.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <map>
#include <memory>

namespace gq {

class StoreWorker;
class UsageDatabase;
class UsageLane;

// The usage charts' reads on a lane of the console's UsageDatabase (a thread with a
// connection of its own, so a chart never waits behind a budget refresh and vice versa). Each request
// names a channel (one per chart model, a JobTracker each): a newer request on the same
// channel cancels the older ones, so one that has not started yet is skipped, and its
// future is cancelled, so
// quickly switching namespace or range queues no backlog. The caller drops a result
// that arrives late by watching the future through its JobTracker and cancelling it.
class UsageChartService final : public QObject {
    Q_OBJECT
public:
    explicit UsageChartService(QObject *parent = nullptr)
        : UsageChartService(nullptr, parent) {}
    // On a lane of `database` (null: a database of its own).
    explicit UsageChartService(UsageDatabase *database, QObject *parent = nullptr);
    ~UsageChartService() override;

    // Opens the database (already created by the console's UsageService); opened()
    // or failed() follows. Requests made before are answered after it.
    // `password`: PostgreSQL's, from the keychain (empty: PGPASSWORD / ~/.pgpass).
    void open(const QString &url, const QString &password = {});
    [[nodiscard]] bool isOpen() const { return m_open; }

    [[nodiscard]] QFuture<Result<ChartData>> chart(const QString &channel, const ChartQuery &query);
    [[nodiscard]] QFuture<Result<DrillData>> drillDown(const QString &channel, const DrillQuery &query);

signals:
    void opened();
    void failed(const gq::Error &error);

private:
    // A token for a new request on `channel`, every older one there cancelled.
    JobToken supersede(const QString &channel);

    UsageDatabase *m_database; // the given one, or a child of this object
    std::unique_ptr<UsageLane> m_lane;
    StoreWorker *m_worker; // the lane's
    bool m_open = false;
    std::map<QString, std::unique_ptr<JobTracker>> m_channels; // on this object's thread only
    JobTracker m_jobs{this};                                   // open()'s answer
};

// The computations behind the service, on a store the caller owns (tests and the
// benchmark call them directly on their own thread).
class UsageStore;
[[nodiscard]] Result<ChartData> computeChart(const UsageStore &store, const ChartQuery &query);
[[nodiscard]] Result<DrillData> computeDrillDown(const UsageStore &store, const DrillQuery &query);

} // namespace gq
