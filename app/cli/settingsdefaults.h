#pragma once

#include <QString>
#include <QStringList>

namespace gq::cli {

// The console's settings file as the CLI's defaults: what --db (and --prometheus) mean
// when not given is the usage database (and Prometheus URL) set for the context in use
// under the console's Preferences > Connections. The file is ConsoleSettings'
// default (~/.config/gpuquota/gpuquota-console.conf on Linux), or --settings-file FILE.
struct SettingsDefaults {
    QString context;       // --context, else the kubeconfig's current-context
    QString usageDatabase; // empty: not set for that context
    QString prometheusUrl;
    QString prometheusCaFile;       // with prometheusUrl; empty: the system trust store
    QStringList exporterEndpoints;  // direct mode (gpus only): set when the context scrapes exporters
    bool discoverExporters = false; // gpus only: the context finds dcgm-exporter through the cluster
    QString file;                   // the settings file read
};

// The global --settings-file (main() takes it off the command line).
void setSettingsFile(const QString &file);
[[nodiscard]] QString settingsFile();

// kubeconfig/context: the verb's --kubeconfig and --context (empty: the defaults).
[[nodiscard]] SettingsDefaults settingsDefaults(const QString &kubeconfig, const QString &context);

} // namespace gq::cli
