#include "services/controller/metricsregistry.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace gq {

namespace {

QString escapeHelp(const QString &s) {
    QString out = s;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return out;
}

QString escapeLabelValue(const QString &s) {
    QString out = s;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1Char('"'), QLatin1String("\\\""));
    out.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return out;
}

// Go's strconv formatting as Prometheus prints it: integers without a fraction,
// otherwise the shortest round-trip form; NaN and infinities by name.
QString formatValue(double v) {
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return QString::number(v, 'g', QLocale::FloatingPointShortest);
}

} // namespace

bool MetricsRegistry::isValidName(const QString &name) {
    static const QRegularExpression re(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    return re.match(name).hasMatch();
}

bool MetricsRegistry::isValidLabelName(const QString &name) {
    static const QRegularExpression re(QStringLiteral("^[a-zA-Z_][a-zA-Z0-9_]*$"));
    return re.match(name).hasMatch() && !name.startsWith(QLatin1String("__"));
}

bool MetricsRegistry::describe(const QString &name, Type type, const QString &help, bool labelled) {
    if (!isValidName(name) || (type == Type::Counter) != name.endsWith(QLatin1String("_total")))
        return false;
    std::lock_guard lock(m_mutex);
    const auto it = m_metrics.find(name);
    if (it != m_metrics.end())
        return it->second.type == type && it->second.help == help;
    m_metrics[name] = Metric{type, help, labelled, {}};
    return true;
}

bool MetricsRegistry::isDescribed(const QString &name) const {
    std::lock_guard lock(m_mutex);
    return m_metrics.count(name) > 0;
}

MetricLabels MetricsRegistry::normalized(const MetricLabels &labels) {
    MetricLabels out;
    for (const auto &l : labels)
        if (isValidLabelName(l.first))
            out.append(l);
    std::sort(out.begin(), out.end());
    return out;
}

MetricsRegistry::Metric *MetricsRegistry::find(const QString &name) {
    const auto it = m_metrics.find(name);
    return it == m_metrics.end() ? nullptr : &it->second;
}

void MetricsRegistry::set(const QString &name, const MetricLabels &labels, double value) {
    std::lock_guard lock(m_mutex);
    if (Metric *m = find(name); m && m->type == Type::Gauge)
        m->series[normalized(labels)] = value;
}

void MetricsRegistry::add(const QString &name, const MetricLabels &labels, double delta) {
    std::lock_guard lock(m_mutex);
    Metric *m = find(name);
    if (!m || (m->type == Type::Counter && !(delta >= 0)))
        return;
    m->series[normalized(labels)] += delta;
}

void MetricsRegistry::replaceAll(const QString &name, const QList<QPair<MetricLabels, double>> &series) {
    std::lock_guard lock(m_mutex);
    Metric *m = find(name);
    if (!m || m->type != Type::Gauge)
        return;
    m->series.clear();
    for (const auto &[labels, v] : series)
        m->series[normalized(labels)] = v;
}

double MetricsRegistry::value(const QString &name, const MetricLabels &labels) const {
    std::lock_guard lock(m_mutex);
    const auto it = m_metrics.find(name);
    if (it == m_metrics.end())
        return 0;
    const auto s = it->second.series.find(normalized(labels));
    return s == it->second.series.end() ? 0 : s->second;
}

QByteArray MetricsRegistry::render() const {
    std::lock_guard lock(m_mutex);
    QString out;
    for (const auto &[name, m] : m_metrics) {
        out += QStringLiteral("# HELP %1 %2\n").arg(name, escapeHelp(m.help));
        out += QStringLiteral("# TYPE %1 %2\n")
                   .arg(name, m.type == Type::Counter ? QStringLiteral("counter") : QStringLiteral("gauge"));
        if (m.series.empty()) {
            if (!m.labelled)
                out += name + QStringLiteral(" 0\n");
            continue;
        }
        for (const auto &[labels, v] : m.series) {
            out += name;
            if (!labels.isEmpty()) {
                QStringList parts;
                for (const auto &[k, val] : labels)
                    parts.append(QStringLiteral("%1=\"%2\"").arg(k, escapeLabelValue(val)));
                out += QLatin1Char('{') + parts.join(QLatin1Char(',')) + QLatin1Char('}');
            }
            out += QLatin1Char(' ') + formatValue(v) + QLatin1Char('\n');
        }
    }
    return out.toUtf8();
}

void registerControllerMetrics(MetricsRegistry &r) {
    using namespace metricnames;
    using T = MetricsRegistry::Type;
    struct Description {
        const char *name;
        T type;
        const char *help;
    };
    // The metrics whose every series has labels (namespace, user, kind, channel, code).
    static const char *const kLabelled[] = {kNamespaceUsed, kNamespaceRemaining, kNamespaceLimit, kUserUsed,
                                            kUserRemaining, kUserLimit,          kBoostsActive,   kAlertsSent,
                                            kAlertsFailed,  kSelfServiceRequests};
    static constexpr Description kDescriptions[] = {
        {kNamespaceUsed, T::Gauge,
         "GPU-seconds (GPU-hours x 3600) a namespace used in its current budget period (running pods up to "
         "now)."},
        {kNamespaceRemaining, T::Gauge,
         "GPU-seconds left of a namespace's budget this period (limit incl. boosts minus used; negative when "
         "over)."},
        {kNamespaceLimit, T::Gauge,
         "A namespace's GPU-hour budget in GPU-seconds this period, active boosts included."},
        {kUserUsed, T::Gauge,
         "GPU-seconds a user used in the current budget period (only when per-user metrics are enabled)."},
        {kUserRemaining, T::Gauge,
         "GPU-seconds left of a user's budget this period (only when per-user metrics are enabled)."},
        {kUserLimit, T::Gauge,
         "A user's GPU-hour budget in GPU-seconds this period, active boosts included (only when per-user "
         "metrics are enabled)."},
        {kBoostsActive, T::Gauge, "Boosts in effect now, by kind."},
        {kClampsActive, T::Gauge,
         "Namespaces whose GPU quota the controller has clamped because the budget is spent."},
        {kClampsNotEnforced, T::Gauge,
         "Clamped ResourceQuotas whose status.hard does not show the clamp yet: quota admission still "
         "applies the old limit until kube-controller-manager copies it (never while it is down)."},
        {kClampsReverted, T::Gauge,
         "Clamped ResourceQuotas another field manager (Argo CD, Flux, Helm) keeps reverting: the "
         "enforcer backs off instead of writing them every tick (README: GitOps)."},
        {kSpoolDepth, T::Gauge, "Usage intervals waiting in the spool file for the database to return."},
        {kIntervalsHeld, T::Gauge,
         "Interval states held in memory because neither the database nor the spool could take them (a full "
         "disk with the database away); written first once either can."},
        {kIntervalsLost, T::Counter,
         "Interval states dropped because more than the controller can hold in memory were waiting."},
        {kLeader, T::Gauge,
         "1 while this replica leads (records, enforces, reconciles boosts, sends alerts), else 0; with "
         "leader election the sum over the replicas should be 1."},
        {kSpoolSkipped, T::Counter,
         "Spool entries a replay found torn (a write cut short, e.g. by a full disk) or unreadable and "
         "skipped; each is logged."},
        {kAlertsSent, T::Counter, "Alerts delivered, by channel."},
        {kAlertsFailed, T::Counter, "Alert delivery attempts that failed, by channel (each retry counts)."},
        {kReconcileLag, T::Gauge,
         "Seconds since the last completed reconcile (boost and clamp transitions)."},
        {kSelfServiceRequests, T::Counter,
         "Self-service requests (/quota, /quota/status), by HTTP status code."},
        {kAdmissionReviews, T::Counter,
         "Admission reviews this replica's webhook answered, by result (allowed, denied, error: HTTP "
         "4xx/5xx, "
         "where the API server applies the failurePolicy)."},
        {kAdmissionLastReview, T::Gauge,
         "When this replica's webhook last answered an admission review (epoch seconds, 0: never)."},
        {kWebhookCertExpiry, T::Gauge, "When the webhook's serving certificate expires (epoch seconds)."},
        {kWebhookUncheckedPods, T::Gauge,
         "GPU pods the leader saw created (longer than webhook.uncheckedAfter ago) with no admission review "
         "at any replica since: the API server is not calling the webhook."},
    };
    for (const Description &d : kDescriptions)
        r.describe(QLatin1String(d.name), d.type, QString::fromUtf8(d.help),
                   std::any_of(std::begin(kLabelled), std::end(kLabelled),
                               [&d](const char *n) { return qstrcmp(n, d.name) == 0; }));
}

} // namespace gq
