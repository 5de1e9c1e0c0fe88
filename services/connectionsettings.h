#pragma once

#include <QString>
#include <QStringList>

namespace gq {

class ConsoleSettings;

// Where the live GPU view reads from.
enum class MetricsSource {
    None,       // not configured
    Prometheus, // a Prometheus HTTP API (URL, bearer token, CA)
    Exporters,  // dcgm-exporter /metrics endpoints scraped directly
    Discover,   // dcgm-exporter pods found through the cluster's API
};
[[nodiscard]] QString metricsSourceKey(MetricsSource source); // "prometheus", ...
[[nodiscard]] MetricsSource metricsSourceFromKey(const QString &key);

// What one kubeconfig context connects to besides the API server: the usage database
// (SQLite file or PostgreSQL), the metrics source and the controller. No secrets: the
// database password and the Prometheus token live in the SecretStore
// (settings::usageDatabaseSecret, settings::prometheusToken, keyed by context).
struct ContextConnections {
    QString usageDatabaseUrl; // "sqlite:///…/usage.db", "postgresql://user@host:5432/db"
    MetricsSource metricsSource = MetricsSource::None;
    QString prometheusUrl;
    QString prometheusCaFile; // PEM file; empty: the system trust store
    QStringList exporterEndpoints;
    QString controllerUrl;

    [[nodiscard]] bool metricsConfigured() const;
    friend bool operator==(const ContextConnections &, const ContextConnections &) = default;
};

[[nodiscard]] ContextConnections loadConnections(const ConsoleSettings &settings, const QString &context);
void saveConnections(ConsoleSettings &settings, const QString &context, const ContextConnections &c);

// The embedded SQLite database offered for a context that has none: one file per
// context in `dataDir` (the console's data directory), named after the context.
[[nodiscard]] QString embeddedDatabaseUrl(const QString &dataDir, const QString &context);

} // namespace gq
