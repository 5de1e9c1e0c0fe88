#pragma once

#include "alertconfig.h"
#include "alertledger.h"
#include "alertrecipients.h"
#include "alertrules.h"
#include "jobtracker.h"

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
// The one exception to the ledger: "cannot write to the database" cannot be recorded
// there, so it is sent once per key from memory (a restart may send it again).
//
// Threading: lives on the thread of the UsageStore (which needs an event loop); the
// database calls are short and synchronous, the network never blocks it.
class AlertService final : public QObject {
    Q_OBJECT
public:
    AlertService(UsageStore &store, std::shared_ptr<HttpTransport> transport, AlertConfig config,
                 AlertRecipients recipients, QObject *parent = nullptr);
    ~AlertService() override;
    Q_DISABLE_COPY_MOVE(AlertService)

    // Reads the SMTP password and the webhook secret (files or environment); call once
    // before the first tick. The Error names the configuration key, never the secret.
    Result<void> loadSecrets();

    // Handed in by the controller between ticks; consumed by the next tick.
    void addClampEvent(const ClampNotice &event);
    void setIdleHolds(const QList<IdleHold> &holds);
    // nullopt: the controller writes fine again.
    void setDatabaseDown(std::optional<qint64> since, const QString &error = {});
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
    void onDelivered(AlertDelivery d, bool ok, const QString &error);
    void finishTickIfDone();

    UsageStore &m_store;
    std::shared_ptr<HttpTransport> m_transport;
    AlertConfig m_config;
    AlertRecipients m_recipients;
    AlertLedger m_ledger;
    QString m_owner;
    QString m_smtpPassword;
    QByteArray m_webhookSecret;

    QList<ClampNotice> m_clamps;
    QList<IdleHold> m_idle;
    std::optional<qint64> m_dbDownSince;
    QString m_dbError;
    QSet<QString> m_sentUnrecorded;

    AlertTickReport m_report;
    int m_outstanding = 0;
    bool m_inTick = false;
    JobTracker m_jobs{this}; // last member: destroyed first
};

} // namespace gq

Q_DECLARE_METATYPE(gq::AlertTickReport)
Q_DECLARE_METATYPE(gq::AlertDelivery)
