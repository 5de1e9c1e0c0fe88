#include "connectionsettings.h"

#include "consolesettings.h"

#include <QCryptographicHash>
#include <QDir>
#include <QRegularExpression>

namespace gq {

QString metricsSourceKey(MetricsSource source) {
    switch (source) {
    case MetricsSource::Prometheus: return QStringLiteral("prometheus");
    case MetricsSource::Exporters: return QStringLiteral("exporters");
    case MetricsSource::Discover: return QStringLiteral("discover");
    case MetricsSource::None: break;
    }
    return QString();
}

MetricsSource metricsSourceFromKey(const QString &key) {
    for (MetricsSource s : {MetricsSource::Prometheus, MetricsSource::Exporters, MetricsSource::Discover})
        if (key == metricsSourceKey(s))
            return s;
    return MetricsSource::None;
}

bool ContextConnections::metricsConfigured() const {
    switch (metricsSource) {
    case MetricsSource::Prometheus: return !prometheusUrl.isEmpty();
    case MetricsSource::Exporters: return !exporterEndpoints.isEmpty();
    case MetricsSource::Discover: return true;
    case MetricsSource::None: break;
    }
    return false;
}

ContextConnections loadConnections(const ConsoleSettings &s, const QString &context) {
    ContextConnections c;
    c.usageDatabaseUrl = s.value(settings::usageDatabaseUrl, context);
    c.metricsSource = metricsSourceFromKey(s.value(settings::metricsSource, context));
    c.prometheusUrl = s.value(settings::prometheusUrl, context);
    c.prometheusCaFile = s.value(settings::prometheusCaFile, context);
    c.exporterEndpoints = s.value(settings::exporterEndpoints, context);
    c.controllerUrl = s.value(settings::controllerUrl, context);
    return c;
}

void saveConnections(ConsoleSettings &s, const QString &context, const ContextConnections &c) {
    s.setValue(settings::usageDatabaseUrl, context, c.usageDatabaseUrl);
    s.setValue(settings::metricsSource, context, metricsSourceKey(c.metricsSource));
    s.setValue(settings::prometheusUrl, context, c.prometheusUrl);
    s.setValue(settings::prometheusCaFile, context, c.prometheusCaFile);
    s.setValue(settings::exporterEndpoints, context, c.exporterEndpoints);
    s.setValue(settings::controllerUrl, context, c.controllerUrl);
}

// Readable where the context name is ("prod-eu"), with a short hash so that two names
// that clean up alike ("a/b", "a:b") never share a file.
QString embeddedDatabaseUrl(const QString &dataDir, const QString &context) {
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString stem = context;
    stem.replace(unsafe, QStringLiteral("_"));
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(context.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
    const QString file = QStringLiteral("usage-%1-%2.db").arg(stem.left(40), hash);
    return QStringLiteral("sqlite://") + QDir(dataDir).absoluteFilePath(file);
}

} // namespace gq
