#pragma once

#include "core/domain/result.h"

#include <QFuture>
#include <QString>
#include <QStringList>

namespace gq {

class ConsoleSettings;
struct SecretSetting;

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

// A kubeconfig context as its connections are kept: by name and by its cluster's API
// server, so that two kubeconfigs that both call a context "default" (for different
// clusters) keep their connections and secrets apart. Entries kept before under the
// name alone are read for the first context of that name that asks (takeConnections
// moves them to its key, so a second one with another server does not share them).
struct ContextId {
    QString name;
    QString server; // https://host:port; empty: unknown, the name alone keys it

    ContextId() = default;
    ContextId(const QString &name, const QString &server = {}) // NOLINT: a name alone is an id
        : name(name)
        , server(server) {}
    // The name under which settings and secrets are kept: the name, or "name\nserver".
    [[nodiscard]] QString key() const;
    friend bool operator==(const ContextId &, const ContextId &) = default;
};

// The connections kept for `id`, else (nothing kept under its key) those kept under its
// name alone. Reads only.
[[nodiscard]] ContextConnections loadConnections(const ConsoleSettings &settings, const ContextId &id);
// loadConnections(), and connections kept under the name alone move to the id's key.
ContextConnections takeConnections(ConsoleSettings &settings, const ContextId &id);
void saveConnections(ConsoleSettings &settings, const ContextId &id, const ContextConnections &c);
// A secret of the context (database password, Prometheus token): the one kept under
// its key, else one kept under its name alone, which then moves to the key.
[[nodiscard]] QFuture<Result<QString>> contextSecret(ConsoleSettings &settings, const SecretSetting &secret,
                                                     const ContextId &id);

// A password typed into a URL ("postgresql://u:pw@host/db", "https://user:pw@prom"):
// the URL without it and the password (empty: the URL held none, and comes back as it
// was). The console keeps such a password in the SecretStore, never in the settings.
struct UrlPassword {
    QString url;
    QString password;
};
[[nodiscard]] UrlPassword splitUrlPassword(const QString &url);
// `url` with `password` for its user (where it names a user and holds no password).
[[nodiscard]] QString withUrlPassword(const QString &url, const QString &password);

// The embedded SQLite database offered for a context that has none: one file per
// context in `dataDir` (the console's data directory), named after the context.
[[nodiscard]] QString embeddedDatabaseUrl(const QString &dataDir, const QString &context);

} // namespace gq
