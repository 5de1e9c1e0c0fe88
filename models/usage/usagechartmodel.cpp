#include "models/usage/usagechartmodel.h"

#include "services/usage/usagechartservice.h"

#include <algorithm>

namespace gq {

UsageChartModel::UsageChartModel(const QString &channel, QObject *parent)
    : QObject(parent)
    , m_channel(channel)
    , m_subjects(new RankingModel(this))
    , m_users(new RankingModel(this)) {
    m_users->setSubjectHeader(tr("User"));
}

UsageChartModel::~UsageChartModel() {
    if (m_service)
        m_service->cancel(m_channel);
}

void UsageChartModel::setService(UsageChartService *service) {
    if (m_service && m_service != service)
        m_service->cancel(m_channel);
    m_service = service;
}

void UsageChartModel::request(const ChartQuery &query) {
    if (!m_service)
        return;
    m_since.start();
    if (!m_loading) {
        m_loading = true;
        emit loadingChanged(true);
    }
    // Whatever is still out on the channel answers an older question: the service drops it.
    m_service->chart(m_channel, query, [this](const Result<ChartData> &r) { deliver(r); });
}

void UsageChartModel::deliver(const Result<ChartData> &result) {
    m_arrivedAt = std::chrono::steady_clock::now();
    m_loading = false;
    emit loadingChanged(false);
    if (!result) {
        emit failed(result.error());
        return;
    }
    m_raw = *result;
    m_hasData = true;
    show();
}

void UsageChartModel::setRegroup(std::function<QString(const QString &)> subjectOf,
                                 const QString &subjectHeader) {
    m_regroup = std::move(subjectOf);
    m_regroupHeader = subjectHeader;
    if (m_hasData)
        show();
}

QStringList UsageChartModel::namespacesOf(const QStringList &subjects) const {
    if (m_members.isEmpty())
        return subjects;
    QStringList out;
    for (const QString &s : subjects)
        out += m_members.value(s);
    return out;
}

void UsageChartModel::show() {
    m_data = m_raw;
    m_members.clear();
    const bool regrouped = m_regroup && m_raw.query.kind == ChartQuery::Kind::Cluster;
    if (regrouped) {
        for (auto &bucket : m_data.values) {
            QHash<QString, double> sums;
            for (auto it = bucket.cbegin(); it != bucket.cend(); ++it)
                sums[m_regroup(it.key())] += it.value();
            bucket = std::move(sums);
        }
        QHash<QString, double> totals;
        for (const auto &[ns, hours] : std::as_const(m_raw.totals)) {
            const QString subject = m_regroup(ns);
            totals[subject] += hours;
            m_members[subject] << ns;
        }
        m_data.totals.clear();
        for (auto it = totals.cbegin(); it != totals.cend(); ++it)
            m_data.totals.append({it.key(), it.value()});
        std::sort(m_data.totals.begin(), m_data.totals.end(), [](const auto &a, const auto &b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
    }
    const bool perUser = m_data.query.kind == ChartQuery::Kind::Namespace;
    m_subjects->setSubjectHeader(perUser ? tr("User") : regrouped ? m_regroupHeader : tr("Namespace"));
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
