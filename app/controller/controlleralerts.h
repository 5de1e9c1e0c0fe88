#pragma once

#include "core/alerts/alertconfig.h"
#include "core/alerts/alertrecipients.h"
#include "services/controller/alertservice.h"
#include "core/domain/result.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>
#include <optional>

namespace gq {

class HttpTransport;
class Informer;
class KubeClient;
class MetricsRegistry;
class NamespaceInformer;
class UsageStore;
struct ClampEvent;

// The alert service as the controller runs it. Built when the controller starts, not
// when the database first answers, so the "database unwritable" alert is evaluated and
// delivered while the database is away (and recorded in the ledger once it is back).
// The leader feeds it: its store when there is one, the clamps the enforcer makes, the
// users' emails the recorder reads from pods (alerts.userEmailAnnotation), and the
// namespace annotation gpuquota.io/alert-recipients from a namespace informer of its
// own. Deliveries are counted in /metrics as gpuquota_alerts_{sent,failed}_total by
// channel.
class ControllerAlerts final : public QObject {
    Q_OBJECT
public:
    ControllerAlerts(const AlertConfig &config, const AlertRecipients &recipients,
                     std::shared_ptr<MetricsRegistry> metrics, std::shared_ptr<KubeClient> client,
                     QObject *parent = nullptr);
    ~ControllerAlerts() override;

    // The SMTP password and webhook secret (checked by checkControllerConfig already).
    Result<void> loadSecrets() { return m_service.loadSecrets(); }
    // The leader's store; null while the database is away.
    void setStore(UsageStore *store);
    // nullopt: the controller writes to the database again.
    void setDatabaseDown(std::optional<qint64> since, const QString &error = {});
    void addClamp(const ClampEvent &event);
    void addUserEmail(const QString &user, const QString &email);

    // The leader's part: ticks every 30 s (and when something due happens) and watches
    // namespaces for their recipients. Alerts that go to people wait until the cluster
    // has been read once (namespaces, and the pods through `pods`), so the first ones
    // are not raised without the recipients the cluster names. stop() is final.
    void start(Informer *pods);
    void stop();
    [[nodiscard]] AlertService &service() { return m_service; }

private:
    void tick();
    void onNamespacesChanged(const QStringList &added, const QStringList &updated,
                             const QStringList &deleted);
    [[nodiscard]] bool clusterRead() const;

    std::shared_ptr<MetricsRegistry> m_metrics;
    std::shared_ptr<KubeClient> m_client;
    std::shared_ptr<HttpTransport> m_transport;
    AlertService m_service;
    std::unique_ptr<NamespaceInformer> m_namespaces;
    QPointer<Informer> m_pods;
    bool m_haveStore = false;
    QTimer m_timer;
    QTimer m_dueTimer; // the database-down alert's moment
    qint64 m_downSeconds = 0;
    QString m_lastError; // logged once per distinct error
    bool m_running = false;
};

} // namespace gq
