#include "usagechartmodel.h"

#include "usagechartservice.h"

namespace gq {

UsageChartModel::UsageChartModel(const QString &channel, QObject *parent)
    : QObject(parent)
    , m_channel(channel)
    , m_subjects(new RankingModel(this))
    , m_users(new RankingModel(this)) {
    m_users->setSubjectHeader(tr("User"));
}

void UsageChartModel::setService(UsageChartService *service) {
    m_service = service;
}

void UsageChartModel::request(const ChartQuery &query) {
    if (!m_service)
        return;
    // Whatever is still out answers an older question: drop it.
    m_jobs.cancel();
    m_since.start();
    if (!m_loading) {
        m_loading = true;
        emit loadingChanged(true);
    }
    m_jobs.watch(m_service->chart(m_channel, query), [this](const Result<ChartData> &r) { deliver(r); });
}

void UsageChartModel::deliver(const Result<ChartData> &result) {
    m_arrivedAt = std::chrono::steady_clock::now();
    m_loading = false;
    emit loadingChanged(false);
    if (!result) {
        emit failed(result.error());
        return;
    }
    m_data = *result;
    m_hasData = true;
    const bool perUser = m_data.query.kind == ChartQuery::Kind::Namespace;
    m_subjects->setSubjectHeader(perUser ? tr("User") : tr("Namespace"));
    m_subjects->setRows(m_data.totals, m_data.subjectBudgets, perUser);
    m_users->setRows(m_data.topUsers);
    emit loaded();
}

void UsageChartModel::setTopN(int n) {
    m_topN = std::max(1, n);
}

StackedChart UsageChartModel::stacked() const {
    StackedChart c = stackTopN(m_data, m_topN, tr("others"));
    c.valueTitle = tr("GPU-hours");
    c.unit = tr("GPU-h");
    return c;
}

} // namespace gq
