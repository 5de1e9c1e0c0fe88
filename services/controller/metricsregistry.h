#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <map>
#include <mutex>
#include <vector>

namespace gq {

// Label pairs of one series; their order does not matter (they are kept sorted).
using MetricLabels = QList<QPair<QString, QString>>;

// The controller's metrics, rendered in the Prometheus text exposition format
// (version 0.0.4) for `GET /metrics`. Thread-safe: the recorder, the enforcer, the
// alerts and the self-service endpoints feed it from their own threads while a scrape
// renders it. A metric is described once (name, type, help); series are created on
// first use. Names and label names must match Prometheus' rules ([a-zA-Z_:][a-zA-Z0-9_:]*,
// counters end in `_total`); a bad one is refused by describe() and ignored by the
// setters, so a typo never produces an exposition promtool rejects.
class MetricsRegistry {
public:
    enum class Type { Gauge, Counter };

    // False (and nothing registered) for an invalid name or a second, different description.
    // A `labelled` metric's series all carry labels (one per namespace, user, channel):
    // it shows no unlabelled 0 sample before its first series.
    bool describe(const QString &name, Type type, const QString &help, bool labelled = false);
    [[nodiscard]] bool isDescribed(const QString &name) const;

    void set(const QString &name, const MetricLabels &labels, double value); // gauges
    void add(const QString &name, const MetricLabels &labels,
             double delta = 1); // counters (delta >= 0) and gauges
    // Replaces every series of a gauge at once (e.g. one per namespace, recomputed), so a
    // namespace that disappeared stops being reported.
    void replaceAll(const QString &name, const QList<QPair<MetricLabels, double>> &series);
    [[nodiscard]] double value(const QString &name, const MetricLabels &labels = {}) const;

    // Every described metric, HELP and TYPE first; a metric without series yet shows one
    // unlabelled 0 sample, so dashboards see it exists (not a labelled one: a series
    // without its labels would be a different, wrong series).
    [[nodiscard]] QByteArray render() const;
    static constexpr const char *kContentType = "text/plain; version=0.0.4; charset=utf-8";

    [[nodiscard]] static bool isValidName(const QString &name);
    [[nodiscard]] static bool isValidLabelName(const QString &name);

private:
    struct Metric {
        Type type = Type::Gauge;
        QString help;
        bool labelled = false;
        std::map<MetricLabels, double> series;
    };
    static MetricLabels normalized(const MetricLabels &labels);
    Metric *find(const QString &name);

    mutable std::mutex m_mutex;
    std::map<QString, Metric> m_metrics;
};

// The names the controller's parts feed (one place, so the README and the dashboards
// name the same series). Registered by registerControllerMetrics().
namespace metricnames {
inline constexpr char kNamespaceUsed[] = "gpuquota_namespace_budget_used_gpu_seconds"; // {namespace, period}
inline constexpr char kNamespaceRemaining[] = "gpuquota_namespace_budget_remaining_gpu_seconds";
inline constexpr char kNamespaceLimit[] = "gpuquota_namespace_budget_limit_gpu_seconds";
inline constexpr char kUserUsed[] = "gpuquota_user_budget_used_gpu_seconds"; // {user, period}
inline constexpr char kUserRemaining[] = "gpuquota_user_budget_remaining_gpu_seconds";
inline constexpr char kUserLimit[] = "gpuquota_user_budget_limit_gpu_seconds";
inline constexpr char kBoostsActive[] = "gpuquota_boosts_active";                     // {kind: budget|quota}
inline constexpr char kClampsActive[] = "gpuquota_clamps_active";                     // the enforcer
inline constexpr char kClampsNotEnforced[] = "gpuquota_clamps_not_enforced";          // the enforcer
inline constexpr char kClampsReverted[] = "gpuquota_clamps_reverted";                 // the enforcer
inline constexpr char kSpoolDepth[] = "gpuquota_spool_intervals";                     // the recorder
inline constexpr char kIntervalsHeld[] = "gpuquota_intervals_held_in_memory";         // the recorder
inline constexpr char kIntervalsLost[] = "gpuquota_intervals_lost_total";             // the recorder
inline constexpr char kLeader[] = "gpuquota_leader";                                  // 1 leading, 0 not
inline constexpr char kSpoolSkipped[] = "gpuquota_spool_skipped_entries_total";       // the recorder
inline constexpr char kAlertsSent[] = "gpuquota_alerts_sent_total";                   // {channel}, the alerts
inline constexpr char kAlertsFailed[] = "gpuquota_alerts_failed_total";               // {channel}
inline constexpr char kReconcileLag[] = "gpuquota_reconcile_lag_seconds";             // the enforcer
inline constexpr char kSelfServiceRequests[] = "gpuquota_selfservice_requests_total"; // {code}
inline constexpr char kAdmissionReviews[] = "gpuquota_admission_reviews_total";       // {result}, the webhook
inline constexpr char kAdmissionLastReview[] = "gpuquota_admission_last_review_timestamp_seconds";
inline constexpr char kWebhookCertExpiry[] = "gpuquota_webhook_certificate_expiry_timestamp_seconds";
inline constexpr char kWebhookUncheckedPods[] = "gpuquota_webhook_unchecked_pods"; // the leader
} // namespace metricnames

void registerControllerMetrics(MetricsRegistry &registry);

} // namespace gq
