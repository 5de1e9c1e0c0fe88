#pragma once

#include "core/alerts/alertrules.h"
#include "core/metrics/idle.h"
#include "services/livegpus/idlespans.h"
#include "core/jobs/jobtracker.h"
#include "core/metrics/prometheusclient.h"
#include "core/domain/result.h"
#include "core/usage/usagestore.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace gq {

class HttpTransport;
class YamlNode;

// The controller's idle recorder: every `interval` it finds the GPUs that are allocated
// but idle (the same rule and look-back as `gpuquota idle`, idlequery.h) and writes their
// spans to the usage database's idle_spans table, where `gpuquota idle --db`, the
// chargeback's idle share and the console read them without a metrics source of their
// own. Configured by two optional sections of the controller's file:
//
//   metrics:                         # where the readings come from: Prometheus ...
//     prometheus: http://prometheus.monitoring:9090
//     tokenFile: /var/run/secrets/prometheus/token   # optional, read on every query
//     ca: /etc/gpuquota/prometheus-ca.pem             # optional, PEM
//   # ... or the exporters' pages (no history: spans are followed from the recorder's start)
//   #  scrape: [http://gpu-node-1:9400/metrics, http://gpu-node-2:9400/metrics]
//   idle:
//     threshold: 5                   # percent; idle while under it
//     for: 30m                       # recorded once idle this long
//     interval: 1m                   # how often
//
// One row per idle span of a GPU (or MIG instance): node, gpu_uuid (the UUID, with
// "/<GPU_I_ID>" for a MIG instance, "#<index>" when the exporter gives no UUID), the
// holding pod's namespace and name (the first holder by name on a shared GPU), start,
// end and the wasted GPU-seconds (a MIG slice weighs its fraction). Writing is
// idempotent: a row of the same GPU and pod whose span overlaps or touches the new one
// (within two intervals) grows to cover it, so re-runs, restarts and a `since` that moves
// by a step never add a second row for one span.
struct IdleRecorderConfig {
    metrics::PrometheusConfig prometheus; // url set: read Prometheus
    QStringList scrape;                   // else: these exporter pages
    double thresholdPct = 5;
    qint64 forSeconds = 30 * 60;
    qint64 intervalSeconds = 60;
};

// Reads `metrics:` and `idle:` (raw nodes of ControllerConfig; both null: no recorder,
// nullopt). Relative file paths start from configFile's directory. One Error for both
// sections, kind Config: the first problem's message, field and line, every problem in
// causes (as parseAlertConfig does).
[[nodiscard]] Result<std::optional<IdleRecorderConfig>>
parseIdleRecorderConfig(const YamlNode &metrics, const YamlNode &idle, const QString &configFile);

namespace idlespans { // reading them back: idlespans.h
// Writes the spans (see above) in one transaction; the number of rows inserted or grown.
[[nodiscard]] Result<int> upsert(UsageStore &store, const QList<metrics::IdleGpu> &idle,
                                 qint64 toleranceSeconds);

// What the alert rules' idle-GPU alert reads (open holds): one per holding pod, its
// GPUs the GPU's weight, its user from `userOf` (the pod's user label; empty: unknown).
[[nodiscard]] QList<IdleHold>
idleHolds(const QList<metrics::IdleGpu> &idle,
          const std::function<QString(const QString &ns, const QString &pod)> &userOf);
} // namespace idlespans

struct IdleRecordReport {
    qint64 at = 0;
    QList<metrics::IdleGpu> idle; // what was found (and written, unless error)
    int written = 0;
    QStringList warnings; // Prometheus' notes, exporters that did not answer
    std::optional<Error> error;
};

class IdleRecorder final : public QObject {
    Q_OBJECT
public:
    IdleRecorder(IdleRecorderConfig config, QString databaseUrl, UsageStore::Options storeOptions,
                 QObject *parent = nullptr);
    ~IdleRecorder() override;

    // The first round at once, then one per interval; a round never overlaps the last.
    void start();
    void stop();
    [[nodiscard]] bool isRunning() const { return m_timer.isActive(); }
    void tick();

    [[nodiscard]] const IdleRecorderConfig &config() const { return m_config; }
    // What "now" is for a round (samples, spans, the report's time; second precision).
    // Default: the system clock. `clock` must outlive this object.
    void setClock(const Clock *clock) { m_clock = clock; }

signals:
    void recorded(const gq::IdleRecordReport &report);

private:
    IdleRecorderConfig m_config;
    QString m_databaseUrl;
    UsageStore::Options m_storeOptions;
    std::shared_ptr<HttpTransport> m_transport;
    std::shared_ptr<metrics::PrometheusClient> m_client;
    std::shared_ptr<metrics::IdleTracker> m_tracker; // scrape mode: the spans seen so far
    QTimer m_timer;
    bool m_inFlight = false;
    const Clock *m_clock = &Clock::system();
    JobTracker m_jobs{this};
};

} // namespace gq
