#pragma once

#include "core/domain/result.h"
#include "core/usage/alert.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace gq {

class UsageConnection;
class UsageStore;

// One delivery of one alert: the row of alert_deliveries (schema v5, alertschema.h).
struct AlertDelivery {
    enum class Channel { Email, Webhook };
    enum class State { Pending, Sending, Sent, Failed };
    QString alertKey;
    Channel channel = Channel::Email;
    QString recipient; // an email address, or the webhook URL as messages show it
    State state = State::Pending;
    int attempts = 0;
    qint64 nextRetry = 0; // failed: when it is tried again; 0: given up
    QString lastError;
    qint64 sentAt = 0;
    Alert alert; // read with due()
};
[[nodiscard]] QString channelName(AlertDelivery::Channel c);
[[nodiscard]] QString deliveryStateName(AlertDelivery::State s);

// What the Budgets page shows of one budget: the thresholds fired in the period and
// the last alert sent for it (in any period).
struct BudgetAlertState {
    QList<int> fired;      // thresholds raised in the period asked for, ascending
    int failedNow = 0;     // deliveries of those that failed and are not sent yet
    qint64 lastSentAt = 0; // 0: never
    int lastThreshold = 0;
    QString lastChannel;
    QString lastRecipient;
    friend bool operator==(const BudgetAlertState &, const BudgetAlertState &) = default;
};

// The alert ledger in the usage database. Exactly once per alert key, across replicas
// and restarts:
//  * raise() inserts the alert's key (the primary key is the claim: a second insert of
//    the same key changes nothing) together with one pending delivery per channel and
//    recipient, in one transaction. A raised alert is never forgotten: its deliveries
//    stay until sent or given up.
//  * A delivery is sent by whoever claims it: a compare-and-set from pending, from
//    failed-and-due, or from a sending claim that ran out (its process died), to
//    sending with this owner. The loser of a race skips it.
//  * finish() records sent, or failed with the error, the attempt count and the next
//    retry (backoff), only while the claim is still this owner's.
// A crash between the server accepting a message and finish() sends it again once
// the claim runs out (no protocol can rule that out); the email's Message-ID is the
// same, so mail clients show it once.
class AlertLedger {
public:
    // On the store's connection: its writes join the store's transactions.
    explicit AlertLedger(const UsageStore &store);
    Q_DISABLE_COPY_MOVE(AlertLedger)

    struct Target {
        AlertDelivery::Channel channel;
        QString recipient;
    };
    // True when this call raised it; false when the key was raised before (nothing changes).
    Result<bool> raise(const Alert &alert, const QList<Target> &targets, qint64 now);
    // Deliveries to try at `now`, oldest first, with their alerts.
    [[nodiscard]] Result<QList<AlertDelivery>> due(qint64 now, int limit = 200) const;
    // The compare-and-set described above; true when `owner` now holds it until now + seconds.
    Result<bool> claim(const AlertDelivery &d, const QString &owner, qint64 now, qint64 claimSeconds);
    // nextRetry 0 with !sent: given up.
    Result<void> finish(const AlertDelivery &d, const QString &owner, bool sent, const QString &error,
                        qint64 now, qint64 nextRetry);

    [[nodiscard]] Result<std::optional<Alert>> alert(const QString &key) const;
    [[nodiscard]] Result<QList<AlertDelivery>> deliveries(const QString &key = {}) const;
    // Deliveries per state name ("sent", "failed", "pending", "sending"): what /metrics
    // exports as alerts sent / failed.
    [[nodiscard]] Result<QHash<QString, qint64>> stateCounts() const;
    // Alert state of a budget (by id) in the period starting at periodStart.
    [[nodiscard]] Result<BudgetAlertState> budgetState(qint64 budgetId, qint64 periodStart) const;

private:
    UsageConnection &m_conn;
};

} // namespace gq
