#pragma once

#include "core/alerts/alertconfig.h"
#include "core/usage/alertledger.h"
#include "core/alerts/alertrecipients.h"
#include "core/alerts/alertrules.h"
#include "core/jobs/jobtracker.h"

#include <QObject>
#include <QSet>
#include <QString>

#include <memory>
#include <optional>

namespace gq {

class HttpTransport;
class UsageStore;

// What one tick did.
struct AlertTickReport {
    qint64 now = 0;
    int raised = 0;    // alerts newly raised (claimed) in the ledger by this tick
    int attempted = 0; // deliveries this tick claimed and tried
    int sent = 0;
    int failed = 0;             // attempts that failed (retried later unless given up)
    std::optional<Error> error; // the tick could not read or write the database
    [[nodiscard]] bool ok() const { return failed == 0 && !error; }
};

// Alerts for the controller: on every tick it evaluates the rules over the budgets
// and boosts in the usage database and what the controller handed in (clamp events,
// idle spans, its own database trouble), raises each new alert in the ledger (once
// per key, whatever the number of replicas or restarts), and delivers every due
// delivery by email (SMTP) and webhook through the shared HttpTransport, off the
// caller's thread; results come back through a JobTracker and are recorded.
//
// The store may come and go (setStore()): while the database is away the service keeps
// evaluating what needs no database and delivering it. That is "cannot write to the
// database", which cannot be recorded when it matters: it is sent once per key and
// target from memory (a restart may send it again), and recorded in the ledger as
// raised (with its deliveries sent, or pending for those still to go) once a store is
// back, so the Budgets page and a restarted controller know of it.
//
// Threading: lives on the thread of the UsageStore (which needs an event loop); the
// database calls are short and synchronous, the network never blocks it.
class AlertService final : public QObject {
    Q_OBJECT
public:
    // store may be null: the database is not there yet (see setStore()).
    AlertService(UsageStore *store, std::shared_ptr<HttpTransport> transport, AlertConfig config,
                 AlertRecipients recipients, QObject *parent = nullptr);
    AlertService(UsageStore &store, std::shared_ptr<HttpTransport> transport, AlertConfig config,
                 AlertRecipients recipients, QObject *parent = nullptr)
        : AlertService(&store, std::move(transport), std::move(config), std::move(recipients), parent) {}
    ~AlertService() override;
    Q_DISABLE_COPY_MOVE(AlertService)

    // Reads the SMTP password and the webhook secret (files or environment); call once
    // before the first tick. The Error names the configuration key, never the secret.
    Result<void> loadSecrets();

    // The usage database to read and record in; null while it is away. The store must
    // outlive the service or be replaced (or cleared) here before it goes.
    void setStore(UsageStore *store);

    // Handed in by the controller between ticks; consumed by the next tick.
    void addClampEvent(const ClampNotice &event);
    void setIdleHolds(const QList<IdleHold> &holds);
    // nullopt: the controller writes fine again.
    void setDatabaseDown(std::optional<qint64> since, const QString &error = {});
    // nullopt: every GPU pod seen was reviewed (the leader's UncheckedPods).
    void setWebhookSilence(std::optional<AlertInputs::WebhookSilence> silence) {
        m_webhookSilence = std::move(silence);
    }
    [[nodiscard]] AlertRecipients &recipients() { return m_recipients; }
    [[nodiscard]] const AlertConfig &config() const { return m_config; }

    // One pass at `now` (from the controller's clock). Returns at once; tickFinished()
    // follows when every delivery it started has an outcome. A tick while the previous
    // one is still delivering only evaluates and records (its deliveries start next time).
    void tick(qint64 now);
    [[nodiscard]] bool isDelivering() const { return m_outstanding > 0; }

    // The wait before retry number `attempt` (1, 2, ...): retry.initial doubling, at most retry.max.
    [[nodiscard]] qint64 retryDelay(int attempt) const;
    // The claim owner of this instance (host:pid:random).
    [[nodiscard]] const QString &owner() const { return m_owner; }

signals:
    void delivered(const gq::AlertDelivery &delivery); // one outcome (state Sent or Failed)
    void tickFinished(const gq::AlertTickReport &report);

private:
    Result<AlertInputs> gather(qint64 now);
    QList<AlertLedger::Target> targetsFor(const Alert &alert) const;
    void deliver(AlertDelivery d);
    void deliverUnrecorded(const Alert &alert);
    void recordUnrecorded(qint64 now);
    void onDelivered(AlertDelivery d, bool ok, const QString &error);
    void finishTickIfDone();

    // An alert sent without the ledger: who has it, who is being tried now.
    struct Unrecorded {
        Alert alert;
        QList<AlertLedger::Target> targets;
        QSet<int> sent;     // indexes into targets
        QSet<int> inFlight; // indexes into targets
    };

    UsageStore *m_store = nullptr;
    std::shared_ptr<HttpTransport> m_transport;
    AlertConfig m_config;
    AlertRecipients m_recipients;
    std::unique_ptr<AlertLedger> m_ledger; // on m_store's connection; null without a store
    QString m_owner;
    QString m_smtpPassword;
    QByteArray m_webhookSecret;

    QList<ClampNotice> m_clamps;
    QList<IdleHold> m_idle;
    std::optional<qint64> m_dbDownSince;
    QString m_dbError;
    std::optional<AlertInputs::WebhookSilence> m_webhookSilence;
    QHash<QString, Unrecorded> m_unrecorded; // by alert key
    QSet<QString> m_recordedUnrecorded;      // moved to the ledger: never sent from memory again

    AlertTickReport m_report;
    int m_outstanding = 0;
    bool m_inTick = false;
    JobTracker m_jobs{this}; // last member: destroyed first
};

} // namespace gq

Q_DECLARE_METATYPE(gq::AlertTickReport)
Q_DECLARE_METATYPE(gq::AlertDelivery)
