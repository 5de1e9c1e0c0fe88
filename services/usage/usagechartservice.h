#pragma once

#include "core/domain/error.h"
#include "core/domain/result.h"
#include "core/jobs/jobtracker.h"
#include "core/usage/usagecharts.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>

namespace gq {

class StoreWorker;
class UsageDatabase;
class UsageLane;

// The usage charts' reads on a lane of the console's UsageDatabase (a thread with a
// connection of its own, so a chart never waits behind a budget refresh and vice versa).
// Each request names a channel (one per chart model or dialog, a JobTracker each) and
// hands its result to a callback on this object's thread. A newer request on the same
// channel cancels the older ones: one that has not started yet is skipped, one that
// has is dropped when it ends, so quickly switching namespace or range queues no
// backlog and never shows an older answer. A receiver that goes away first calls
// cancel(channel): nothing reaches it after that.
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

    using ChartDone = std::function<void(const Result<ChartData> &)>;
    using DrillDone = std::function<void(const Result<DrillData> &)>;
    void chart(const QString &channel, const ChartQuery &query, ChartDone done);
    void drillDown(const QString &channel, const DrillQuery &query, DrillDone done);
    // Drops every request still out on `channel` (and forgets the channel).
    void cancel(const QString &channel);

signals:
    void opened();
    void failed(const gq::Error &error);

private:
    // The tracker of `channel`, every request still out there cancelled.
    JobTracker &supersede(const QString &channel);

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
