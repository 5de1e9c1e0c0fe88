#include "services/controller/idlerecorder.h"

#include "services/controller/configreader.h"
#include "core/net/httptransport.h"
#include "core/metrics/idlequery.h"
#include "core/usage/idlespanstore.h"
#include "core/metrics/scrape.h"
#include "core/usage/timewindow.h"
#include "core/domain/yamldoc.h"

#include <QFile>

#include <cmath>

namespace gq {

using namespace gq::metrics;

namespace {

void readMetrics(ConfigReader &r, const YamlNode &node, const QString &configFile, IdleRecorderConfig &c) {
    if (!r.map(QStringLiteral("metrics"), node,
               {QStringLiteral("prometheus"), QStringLiteral("tokenFile"), QStringLiteral("ca"),
                QStringLiteral("scrape")}))
        return;
    const YamlNode *prom = node.find(u"prometheus");
    const YamlNode *scrape = node.find(u"scrape");
    if (!prom == !scrape) {
        r.add(QStringLiteral("metrics"), node.pos(),
              QStringLiteral("give either prometheus: URL or scrape: [URLs]"));
        return;
    }
    if (prom) {
        c.prometheus.url = r.string(QStringLiteral("metrics.prometheus"), *prom).value_or(QString());
        if (const YamlNode *t = node.find(u"tokenFile"))
            c.prometheus.tokenFile =
                r.file(QStringLiteral("metrics.tokenFile"), *t, configFile).value_or(QString());
        if (const YamlNode *ca = node.find(u"ca")) {
            const QString path = r.file(QStringLiteral("metrics.ca"), *ca, configFile).value_or(QString());
            QFile f(path);
            if (!path.isEmpty() && f.open(QIODevice::ReadOnly)) {
                c.prometheus.caPem = f.read(1 << 20);
                if (!c.prometheus.caPem.contains("-----BEGIN CERTIFICATE-----"))
                    r.add(QStringLiteral("metrics.ca"), ca->pos(),
                          QStringLiteral("%1 holds no PEM certificate").arg(path));
            }
        }
        if (!c.prometheus.url.isEmpty())
            if (auto ok = PrometheusClient::check(c.prometheus); !ok)
                r.add(QStringLiteral("metrics.prometheus"), prom->pos(), ok.error().message);
        return;
    }
    for (const char *key : {"tokenFile", "ca"})
        if (const YamlNode *n = node.find(QString::fromLatin1(key)))
            r.add(QStringLiteral("metrics.") + QLatin1String(key), n->pos(),
                  QStringLiteral("goes with prometheus:, not scrape:"));
    if (!scrape->isSequence() || scrape->items().empty()) {
        r.add(QStringLiteral("metrics.scrape"), scrape->pos(),
              QStringLiteral("must be a list of http(s):// URLs of dcgm-exporter /metrics pages"));
        return;
    }
    for (std::size_t i = 0; i < scrape->items().size(); ++i) {
        const YamlNode &item = scrape->items()[i];
        const QString field = QStringLiteral("metrics.scrape[%1]").arg(i);
        const QString url = r.string(field, item).value_or(QString());
        if (url.isEmpty())
            continue;
        if (auto ok = checkScrapeUrl(url); !ok)
            r.add(field, item.pos(), ok.error().message);
        c.scrape << url;
    }
}

void readIdle(ConfigReader &r, const YamlNode &node, IdleRecorderConfig &c) {
    if (!r.map(QStringLiteral("idle"), node,
               {QStringLiteral("threshold"), QStringLiteral("for"), QStringLiteral("interval")}))
        return;
    if (const YamlNode *t = node.find(u"threshold")) {
        bool ok = false;
        const double v = t->isScalar() ? t->text().toDouble(&ok) : 0;
        if (!ok || !std::isfinite(v) || v <= 0 || v > 100)
            r.add(QStringLiteral("idle.threshold"), t->pos(),
                  QStringLiteral("must be a percentage above 0 and at most 100 (got \"%1\")")
                      .arg(elided(t->text())));
        else
            c.thresholdPct = v;
    }
    if (const YamlNode *f = node.find(u"for"))
        c.forSeconds =
            r.duration(QStringLiteral("idle.for"), *f, QStringLiteral("30m or 1h")).value_or(c.forSeconds);
    if (const YamlNode *i = node.find(u"interval"))
        c.intervalSeconds = r.duration(QStringLiteral("idle.interval"), *i, QStringLiteral("30m or 1h"))
                                .value_or(c.intervalSeconds);
}

double weightOf(const IdleGpu &g) {
    return gpuWeight(g.gpu);
}

} // namespace

Result<std::optional<IdleRecorderConfig>>
parseIdleRecorderConfig(const YamlNode &metrics, const YamlNode &idle, const QString &configFile) {
    if (metrics.isNull() && idle.isNull())
        return std::optional<IdleRecorderConfig>();
    ConfigReader r;
    IdleRecorderConfig c;
    if (metrics.isNull())
        r.add(QStringLiteral("idle"), idle.pos(),
              QStringLiteral("needs a metrics: section (prometheus: URL or scrape: [URLs]) to read from"));
    else
        readMetrics(r, metrics, configFile, c);
    if (!idle.isNull())
        readIdle(r, idle, c);
    if (r.errors.isEmpty())
        return std::optional<IdleRecorderConfig>(std::move(c));
    Error first = r.errors.first();
    for (const Error &p : r.errors)
        first.causes.append({p.field, QStringLiteral("line %1: %2").arg(p.line).arg(p.message), QString()});
    return first;
}

Result<int> idlespans::upsert(UsageStore &store, const QList<IdleGpu> &idle, qint64 tolerance) {
    QList<IdleSpan> spans;
    spans.reserve(idle.size());
    for (const IdleGpu &g : idle) {
        const GpuHolder holder = rowHolder(g);
        IdleSpan s;
        s.ns = holder.ns;
        s.pod = holder.pod;
        s.node = g.gpu.hostname;
        s.gpuKey = gpuKey(g.gpu);
        s.start = g.sinceMs / 1000;
        s.end = (g.lastMs + 999) / 1000;
        s.weight = weightOf(g);
        spans.append(std::move(s));
    }
    return IdleSpanStore(store).upsert(spans, tolerance);
}

QList<IdleHold> idlespans::idleHolds(const QList<IdleGpu> &idle,
                                     const std::function<QString(const QString &, const QString &)> &userOf) {
    QList<IdleHold> out;
    for (const IdleGpu &g : idle) {
        for (const GpuHolder &h : g.holders) {
            IdleHold hold;
            hold.ns = h.ns;
            hold.pod = h.pod;
            hold.user = userOf ? userOf(h.ns, h.pod) : QString();
            hold.gpus = weightOf(g);
            hold.start = g.sinceMs / 1000;
            hold.wastedGpuHours = g.gpuHoursWasted / double(g.holders.size());
            out.append(hold);
        }
    }
    return out;
}

IdleRecorder::IdleRecorder(IdleRecorderConfig config, QString databaseUrl, UsageStore::Options storeOptions,
                           QObject *parent)
    : QObject(parent)
    , m_config(std::move(config))
    , m_databaseUrl(std::move(databaseUrl))
    , m_storeOptions(std::move(storeOptions))
    , m_transport(std::make_shared<HttpTransport>()) {
    if (!m_config.prometheus.url.isEmpty())
        m_client = std::make_shared<PrometheusClient>(m_config.prometheus, m_transport);
    else
        // One missed scrape is a late one; two end a span.
        m_tracker =
            std::make_shared<IdleTracker>(m_config.thresholdPct, m_config.intervalSeconds * 2000 + 1000);
    m_timer.setInterval(int(std::max<qint64>(1, m_config.intervalSeconds) * 1000));
    connect(&m_timer, &QTimer::timeout, this, &IdleRecorder::tick);
}

IdleRecorder::~IdleRecorder() {
    m_jobs.cancel();
    m_transport->shutdown();
}

void IdleRecorder::start() {
    m_timer.start();
    tick();
}

void IdleRecorder::stop() {
    m_timer.stop();
    m_jobs.cancel();
    m_inFlight = false;
}

void IdleRecorder::tick() {
    if (m_inFlight)
        return;
    m_inFlight = true;
    // Detection and the write on a pool thread: the store is opened there and closed
    // again (a connection belongs to its thread), so a database outage costs one round.
    m_jobs.run(
        [config = m_config, url = m_databaseUrl, options = m_storeOptions, client = m_client,
         tracker = m_tracker, transport = m_transport, clock = m_clock]() {
            IdleRecordReport report;
            const qint64 nowMs = clock->nowSecs() * 1000;
            report.at = nowMs / 1000;
            IdleOptions o;
            o.thresholdPct = config.thresholdPct;
            o.minIdleMs = config.forSeconds * 1000;
            if (client) {
                auto found = findIdleThroughPrometheus(*client, o, double(nowMs) / 1000.0);
                if (!found) {
                    report.error = found.error();
                    return report;
                }
                report.idle = found->idle;
                report.warnings = found->warnings;
            } else {
                QList<QFuture<Result<ScrapedText>>> pending;
                for (const QString &u : config.scrape)
                    pending.append(scrape(*transport, ScrapeTarget{u, {}, false, 10000}));
                auto snap = snapshotFromRound(collectScrapes(std::move(pending)));
                if (!snap) {
                    report.error = snap.error();
                    return report;
                }
                // Ticks never overlap (m_inFlight), so the tracker has one user at a time.
                tracker->add(*snap, nowMs);
                o.nowMs = nowMs;
                report.idle = tracker->idle(o);
                report.warnings = snap->warnings;
            }
            auto store = UsageStore::open(url, options);
            if (!store) {
                report.error = store.error();
                return report;
            }
            auto written = idlespans::upsert(**store, report.idle, 2 * config.intervalSeconds);
            if (!written)
                report.error = written.error();
            else
                report.written = *written;
            return report;
        },
        [this](const IdleRecordReport &report) {
            m_inFlight = false;
            emit recorded(report);
        });
}

} // namespace gq
