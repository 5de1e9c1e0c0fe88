#include "app/cli/settingsdefaults.h"

#include "services/settings/connectionsettings.h"
#include "services/settings/consolesettings.h"
#include "core/kube/kubeconfig.h"

namespace gq::cli {

namespace {
QString &settingsFileOption() {
    static QString file;
    return file;
}
} // namespace

void setSettingsFile(const QString &file) {
    settingsFileOption() = file;
}

QString settingsFile() {
    return settingsFileOption();
}

SettingsDefaults settingsDefaults(const QString &kubeconfig, const QString &context) {
    SettingsDefaults d;
    d.context = context;
    QString server;
    // No kubeconfig is no error here: there is simply no context to take defaults for
    // (or no server to tell it from a same-named context of another kubeconfig).
    if (auto config = KubeConfig::load(kubeconfig)) {
        if (d.context.isEmpty())
            d.context = config->currentContext();
        if (auto ctx = config->context(d.context))
            if (auto cluster = config->cluster(ctx->cluster))
                server = cluster->server;
    }
    // Secrets are not needed: the CLI reads URLs only (libpq takes PGPASSWORD).
    const auto settings =
        settingsFile().isEmpty()
            ? std::make_unique<ConsoleSettings>()
            : std::make_unique<ConsoleSettings>(settingsFile(), std::make_unique<MemorySecretStore>());
    d.file = settings->fileName();
    if (d.context.isEmpty())
        return d;
    const ContextConnections c = loadConnections(*settings, ContextId{d.context, server});
    d.usageDatabase = c.usageDatabaseUrl;
    if (c.metricsSource == MetricsSource::Prometheus) {
        d.prometheusUrl = c.prometheusUrl;
        d.prometheusCaFile = c.prometheusCaFile;
    } else if (c.metricsSource == MetricsSource::Exporters) {
        d.exporterEndpoints = c.exporterEndpoints;
    } else if (c.metricsSource == MetricsSource::Discover) {
        d.discoverExporters = true;
    }
    return d;
}

} // namespace gq::cli
