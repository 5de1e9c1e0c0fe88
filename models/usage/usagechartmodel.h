#pragma once

#include "core/domain/error.h"
#include "core/usage/usagecharts.h"
#include "models/usage/rankingmodel.h"
#include "models/usage/stackedchart.h"
#include "services/usage/usagechartservice.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

#include <chrono>
#include <functional>

namespace gq {

// One usage chart's data: asks the chart service (off the GUI thread) on its own
// channel, where a newer request drops the older ones (a replaced request never
// shows) and the model's destruction drops them all, and adapts
// it for the views: the stacked top N, the subject table, the top users, CSV.
class UsageChartModel final : public QObject {
    Q_OBJECT
public:
    // `channel` names this model's requests in the service (one per chart).
    explicit UsageChartModel(const QString &channel, QObject *parent = nullptr);
    ~UsageChartModel() override;

    void setService(UsageChartService *service);
    [[nodiscard]] UsageChartService *service() const { return m_service; }
    // Asks again with `query`; loadingChanged(true) now, loaded() or failed() later.
    void request(const ChartQuery &query);
    [[nodiscard]] bool isLoading() const { return m_loading; }
    // Milliseconds the newest request has been out (0 when none is).
    [[nodiscard]] qint64 loadingMs() const { return m_loading ? m_since.elapsed() : 0; }
    [[nodiscard]] bool hasData() const { return m_hasData; }
    [[nodiscard]] const ChartData &data() const { return m_data; }
    // When the newest result reached this thread (the benchmark's "data arrived").
    [[nodiscard]] std::chrono::steady_clock::time_point arrivedAt() const { return m_arrivedAt; }

    // Cluster charts: each namespace's GPU-hours summed into the subject `subjectOf`
    // names (a Kueue queue), under the header `subjectHeader`; empty: per namespace.
    // Applies to the data shown now too.
    void setRegroup(std::function<QString(const QString &)> subjectOf, const QString &subjectHeader = {});
    // The namespaces behind `subjects` of the chart shown (themselves when not regrouped):
    // what a drill-down into a regrouped band reads.
    [[nodiscard]] QStringList namespacesOf(const QStringList &subjects) const;

    void setTopN(int n);
    [[nodiscard]] int topN() const { return m_topN; }
    // The chart as drawn: the top N and "others".
    [[nodiscard]] StackedChart stacked() const;
    // Every subject of the chart (with budget states for a namespace's users).
    [[nodiscard]] RankingModel *subjects() const { return m_subjects; }
    // Cluster charts: every user with use in the range.
    [[nodiscard]] RankingModel *users() const { return m_users; }

signals:
    void loadingChanged(bool loading);
    void loaded();
    void failed(const gq::Error &error);

private:
    void deliver(const Result<ChartData> &result);
    void show();

    QString m_channel;
    QPointer<UsageChartService> m_service;
    ChartData m_raw;  // as the service answered
    ChartData m_data; // as shown: m_raw regrouped
    std::function<QString(const QString &)> m_regroup;
    QString m_regroupHeader;
    QHash<QString, QStringList> m_members; // regrouped subject -> its namespaces
    RankingModel *m_subjects;
    RankingModel *m_users;
    QElapsedTimer m_since;
    std::chrono::steady_clock::time_point m_arrivedAt;
    int m_topN = 10;
    bool m_loading = false;
    bool m_hasData = false;
};

} // namespace gq
