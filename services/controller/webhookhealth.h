#pragma once

#include "core/domain/clock.h"
#include "core/httpd/httpserver.h"
#include "core/httpd/servingcert.h"
#include "core/jobs/jobtracker.h"
#include "core/usage/usagestore.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace gq {

class MetricsRegistry;
class UsageLane;

// What the admission webhook of this replica has done, for /readyz and /metrics: its
// listening address, its serving certificate (expiry; one that expires within
// kCertWarnDays says so), the reviews it answered by result and when it last answered
// one. Every review passes through instrument(); thread-safe (server threads record,
// /readyz and the leader read).
//
// A result is what the API server makes of the answer: allowed or denied (HTTP 200 with
// response.allowed), error for anything else (a malformed review's 400, the database's
// 500: the API server applies the failurePolicy).
class WebhookHealth final {
public:
    enum class Outcome { Allowed, Denied, Error };
    static constexpr int kCertWarnDays = 14;

    explicit WebhookHealth(std::shared_ptr<MetricsRegistry> metrics, const Clock *clock = &Clock::system());

    void setListening(const QString &address);
    void setCertificate(const httpd::CertificateInfo &info);
    // The handler that answers reviews, counting each answer.
    [[nodiscard]] httpd::Handler instrument(httpd::Handler handler);
    void record(const httpd::Response &response);

    [[nodiscard]] static Outcome classify(const httpd::Response &response);
    [[nodiscard]] static QString outcomeName(Outcome outcome);
    [[nodiscard]] qint64 reviews(Outcome outcome) const { return m_counts[int(outcome)].load(); }
    [[nodiscard]] qint64 lastReview() const { return m_lastReview.load(); } // epoch s, 0: never
    // The /readyz lines ("webhook: listening on ...", "webhook certificate: ...",
    // "webhook last review: ..."), each ending in a newline.
    [[nodiscard]] QString readyzText() const;

private:
    std::shared_ptr<MetricsRegistry> m_metrics;
    const Clock *m_clock;
    mutable std::mutex m_mutex;
    QString m_listening;
    std::optional<httpd::CertificateInfo> m_cert;
    std::atomic<qint64> m_counts[3] = {0, 0, 0};
    std::atomic<qint64> m_lastReview{0};
};

// The last review of every replica in the usage database (store_settings rows
// "webhook_review:<replica>"), so the leader knows whether ANY replica is being called:
// the API server keeps its connection to one replica behind the Service for a long time.
// A timer on the owner's thread (which runs an event loop) hands this replica's last
// review, at most every publishMs and only when it changed, to a usage lane of its own
// (a JobTracker job): nothing blocks the reviews nor the owner's thread.
class ReviewBeacon final : public QObject {
public:
    ReviewBeacon(const WebhookHealth &health, QString dbUrl, UsageStore::Options storeOptions,
                 QString replica, int publishMs = 5000);
    ~ReviewBeacon();
    Q_DISABLE_COPY_MOVE(ReviewBeacon)

    static Result<void> publish(UsageStore &store, const QString &replica, qint64 at);
    // The latest review of any replica; 0 when none is recorded.
    static Result<qint64> latest(UsageStore &store);

private:
    void tick();

    const WebhookHealth &m_health;
    QString m_replica;
    std::unique_ptr<UsageLane> m_lane;
    QTimer m_timer;
    qint64 m_published = 0; // the last review the database took
    bool m_busy = false;    // a publish is out
    QString m_lastError;
    JobTracker m_jobs{this}; // last: drops late answers before the rest goes
};

} // namespace gq
