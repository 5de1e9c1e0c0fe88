#include "services/cluster/clusterdiscovery.h"

#include "services/livegpus/exporterdiscovery.h"
#include "core/kube/kubeclient.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace gq {

namespace {

const KubeResource &services() {
    static const KubeResource r{QString(), QStringLiteral("v1"), QStringLiteral("services"),
                                QStringLiteral("Service"), true};
    return r;
}

bool looksSecret(const QString &key) {
    const QString k = key.toLower();
    for (const char *word : {"password", "token", "secret", "key", "credential"})
        if (k.contains(QLatin1String(word)))
            return true;
    return false;
}

// 403/404 are answers ("not there", "may not look"); anything else means the cluster
// could not be asked.
bool isAnswer(const Error &e) {
    return e.kind == Error::Kind::NotFound || e.kind == Error::Kind::Forbidden;
}

QString metricsPort(const QJsonObject &spec) {
    for (const QJsonValue &p : spec.value(QLatin1String("ports")).toArray()) {
        const QJsonObject port = p.toObject();
        if (port.value(QLatin1String("name")).toString().contains(QLatin1String("metrics")))
            return QString::number(port.value(QLatin1String("port")).toInt());
    }
    const QJsonArray ports = spec.value(QLatin1String("ports")).toArray();
    return ports.isEmpty() ? QStringLiteral("9400")
                           : QString::number(ports.first().toObject().value(QLatin1String("port")).toInt());
}
} // namespace

bool DiscoveryReport::foundAnything() const {
    return !proposal.usageDatabaseUrl.isEmpty() || proposal.metricsSource != MetricsSource::None ||
           !proposal.controllerUrl.isEmpty() || !proposal.prometheusUrl.isEmpty();
}

QStringList discovery::exporterSelectors() {
    return {QStringLiteral("app.kubernetes.io/name=dcgm-exporter"),
            QStringLiteral("app=nvidia-dcgm-exporter"), QStringLiteral("app=dcgm-exporter")};
}

namespace {

// The controller's ConfigMap: the settings it advertises (keys that look like secrets
// are ignored and named).
Result<void> readAdvertisedSettings(KubeClient &client, const QString &ns, const QString &name,
                                    DiscoveryReport &report) {
    auto cm = client.get(KubeResource::configMaps(), ns, name).result();
    if (cm) {
        const QJsonObject data = cm->value(QLatin1String("data")).toObject();
        int advertised = 0; // the keys below; others (the controller's config.yaml) are not for us
        for (auto it = data.begin(); it != data.end(); ++it) {
            const QString value = it.value().toString().trimmed();
            if (looksSecret(it.key())) {
                report.ignored << it.key();
                continue;
            }
            if (it.key() == QLatin1String("usageDatabase"))
                report.proposal.usageDatabaseUrl = value;
            else if (it.key() == QLatin1String("metricsSource"))
                report.proposal.metricsSource = metricsSourceFromKey(value);
            else if (it.key() == QLatin1String("prometheusUrl"))
                report.proposal.prometheusUrl = value;
            else if (it.key() == QLatin1String("controllerUrl"))
                report.proposal.controllerUrl = value;
            else
                continue;
            ++advertised;
        }
        if (report.proposal.metricsSource == MetricsSource::None && !report.proposal.prometheusUrl.isEmpty())
            report.proposal.metricsSource = MetricsSource::Prometheus;
        report.findings << QCoreApplication::translate("gq::ClusterDiscovery",
                                                       "ConfigMap %1/%2 found: %3 settings advertised.")
                               .arg(ns, name)
                               .arg(advertised);
        if (!report.ignored.isEmpty())
            report.findings
                << QCoreApplication::translate(
                       "gq::ClusterDiscovery",
                       "Ignored keys that look like secrets (%1): secrets belong in the keychain, "
                       "enter them here.")
                       .arg(report.ignored.join(QStringLiteral(", ")));
    } else if (isAnswer(cm.error())) {
        report.findings << (cm.error().kind == Error::Kind::NotFound
                                ? QCoreApplication::translate(
                                      "gq::ClusterDiscovery",
                                      "No ConfigMap %1/%2 (the controller is not installed, or older).")
                                      .arg(ns, name)
                                : QCoreApplication::translate("gq::ClusterDiscovery",
                                                              "Not allowed to read ConfigMap %1/%2.")
                                      .arg(ns, name));
    } else {
        return cm.error();
    }
    return {};
}

// The controller's Service: its URL, as annotated or in the cluster's DNS.
Result<void> readControllerService(KubeClient &client, const QString &ns, const QString &name,
                                   DiscoveryReport &report) {
    auto svc = client.get(services(), ns, name).result();
    if (svc) {
        const QJsonObject meta = svc->value(QLatin1String("metadata")).toObject();
        const QString advertised = meta.value(QLatin1String("annotations"))
                                       .toObject()
                                       .value(QLatin1String("gpuquota.io/url"))
                                       .toString();
        const QString inCluster =
            QStringLiteral("http://%1.%2.svc:%3")
                .arg(name, ns, metricsPort(svc->value(QLatin1String("spec")).toObject()));
        if (report.proposal.controllerUrl.isEmpty())
            report.proposal.controllerUrl = advertised.isEmpty() ? inCluster : advertised;
        report.findings << QCoreApplication::translate("gq::ClusterDiscovery",
                                                       "Service %1/%2 found: controller at %3.")
                               .arg(ns, name, report.proposal.controllerUrl);
    } else if (!isAnswer(svc.error())) {
        return svc.error();
    }
    return {};
}

// dcgm-exporter: its pods, read through the API server's pod proxy when the source
// is "discover" (see exporterdiscovery.h). Its services are counted for the finding
// only: their cluster-internal names do not resolve on a desktop.
Result<void> countExporters(KubeClient &client, DiscoveryReport &report) {
    auto pods = exporters::findExporterPods(client);
    if (!pods) {
        if (!isAnswer(pods.error()))
            return pods.error();
        report.findings << QCoreApplication::translate(
            "gq::ClusterDiscovery",
            "Not allowed to list pods in all namespaces: dcgm-exporter not looked for.");
        return {};
    }
    report.exporterPods = int(pods->pods.size());
    int exporterServices = 0;
    for (const QString &selector : discovery::exporterSelectors()) {
        ListOptions options;
        options.labelSelector = selector;
        if (auto svcs = client.list(services(), QString(), options).result())
            exporterServices += int(svcs->items.size());
    }
    if (report.exporterPods > 0) {
        report.findings << QCoreApplication::translate("gq::ClusterDiscovery",
                                                       "%1 dcgm-exporter pods found (%2 services).")
                               .arg(report.exporterPods)
                               .arg(exporterServices);
        if (report.proposal.metricsSource == MetricsSource::None)
            report.proposal.metricsSource = MetricsSource::Discover;
    } else {
        report.findings << QCoreApplication::translate("gq::ClusterDiscovery",
                                                       "No dcgm-exporter pods found (labels %1).")
                               .arg(discovery::exporterSelectors().join(QStringLiteral(", ")));
    }
    return {};
}

} // namespace

Result<DiscoveryReport> discovery::discover(const std::shared_ptr<KubeClient> &client) {
    DiscoveryReport report;
    const QString ns = QLatin1String(kNamespace);
    const QString name = QLatin1String(kName);
    if (auto r = readAdvertisedSettings(*client, ns, name, report); !r)
        return r.error();
    if (auto r = readControllerService(*client, ns, name, report); !r)
        return r.error();
    if (auto r = countExporters(*client, report); !r)
        return r.error();
    return report;
}

} // namespace gq
