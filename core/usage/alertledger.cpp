#include "core/usage/alertledger.h"

#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"

#include <QJsonDocument>
#include <QSqlQuery>

namespace gq {

AlertLedger::AlertLedger(const UsageStore &store)
    : m_conn(storeConnection(store)) {}

QString channelName(AlertDelivery::Channel c) {
    return c == AlertDelivery::Channel::Email ? QStringLiteral("email") : QStringLiteral("webhook");
}

QString deliveryStateName(AlertDelivery::State s) {
    switch (s) {
    case AlertDelivery::State::Pending: return QStringLiteral("pending");
    case AlertDelivery::State::Sending: return QStringLiteral("sending");
    case AlertDelivery::State::Sent: return QStringLiteral("sent");
    case AlertDelivery::State::Failed: return QStringLiteral("failed");
    }
    return {};
}

namespace {

AlertDelivery::State parseState(const QString &s) {
    if (s == QLatin1String("sending"))
        return AlertDelivery::State::Sending;
    if (s == QLatin1String("sent"))
        return AlertDelivery::State::Sent;
    if (s == QLatin1String("failed"))
        return AlertDelivery::State::Failed;
    return AlertDelivery::State::Pending;
}

// Due: never tried, failed with a retry time reached, or claimed by a process whose
// claim ran out.
const char kDueCondition[] =
    "(state = 'pending' OR (state = 'failed' AND next_retry_s > 0 AND next_retry_s <= ?)"
    " OR (state = 'sending' AND claim_until_s < ?))";

const char kDeliveryColumns[] = "d.alert_key, d.channel, d.recipient, d.state, d.attempts, d.next_retry_s, "
                                "d.last_error, d.sent_s, a.payload";

AlertDelivery readDelivery(const QSqlQuery &q) {
    AlertDelivery d;
    d.alertKey = q.value(0).toString();
    d.channel = q.value(1).toString() == QLatin1String("webhook") ? AlertDelivery::Channel::Webhook
                                                                  : AlertDelivery::Channel::Email;
    d.recipient = q.value(2).toString();
    d.state = parseState(q.value(3).toString());
    d.attempts = q.value(4).toInt();
    d.nextRetry = q.value(5).toLongLong();
    d.lastError = q.value(6).toString();
    d.sentAt = q.value(7).toLongLong();
    if (auto a = alertFromJson(QJsonDocument::fromJson(q.value(8).toString().toUtf8()).object()))
        d.alert = *a;
    return d;
}

} // namespace

Result<bool> AlertLedger::raise(const Alert &a, const QList<Target> &targets, qint64 now) {
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("INSERT INTO alerts (alert_key, kind, scope, subject, budget_id, period_start_s,"
                           " threshold, fired_s, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                           " ON CONFLICT (alert_key) DO NOTHING"));
        !r)
        return r.error();
    const bool budget = a.kind == Alert::Kind::BudgetThreshold;
    q.addBindValue(a.key);
    q.addBindValue(alertKindName(a.kind));
    q.addBindValue(budget ? scopeName(a.scope) : QStringLiteral(""));
    q.addBindValue(nonNull(budget ? a.subject : (a.user.isEmpty() ? a.ns : a.user)));
    q.addBindValue(a.budgetId);
    q.addBindValue(a.periodStart);
    q.addBindValue(a.threshold);
    q.addBindValue(now);
    q.addBindValue(QString::fromUtf8(QJsonDocument(alertToJson(a)).toJson(QJsonDocument::Compact)));
    if (auto r = m_conn.exec(q, QStringLiteral("recording an alert")); !r)
        return r.error();
    if (q.numRowsAffected() != 1)
        return false; // raised before, by this process or another
    for (const Target &t : targets) {
        QSqlQuery ins(m_conn.database());
        if (auto r = m_conn.prepare(
                ins, QStringLiteral("INSERT INTO alert_deliveries (alert_key, channel, recipient,"
                                    " state, next_retry_s) VALUES (?, ?, ?, 'pending', ?)"
                                    " ON CONFLICT DO NOTHING"));
            !r)
            return r.error();
        ins.addBindValue(a.key);
        ins.addBindValue(channelName(t.channel));
        ins.addBindValue(nonNull(t.recipient));
        ins.addBindValue(now);
        if (auto r = m_conn.exec(ins, QStringLiteral("recording an alert delivery")); !r)
            return r.error();
    }
    m_conn.noteWrite();
    if (auto r = tx.commit(); !r)
        return r.error();
    return true;
}

Result<QList<AlertDelivery>> AlertLedger::due(qint64 now, int limit) const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT %1 FROM alert_deliveries d JOIN alerts a ON a.alert_key = d.alert_key"
                              " WHERE %2 ORDER BY a.fired_s, d.alert_key, d.channel, d.recipient LIMIT %3")
                   .arg(QLatin1String(kDeliveryColumns),
                        QString::fromLatin1(kDueCondition)
                            .replace(QLatin1String("state"), QLatin1String("d.state")))
                   .arg(limit));
        !r)
        return r.error();
    q.addBindValue(now);
    q.addBindValue(now);
    if (auto r = m_conn.exec(q, QStringLiteral("reading due alert deliveries")); !r)
        return r.error();
    QList<AlertDelivery> out;
    while (q.next())
        out << readDelivery(q);
    return out;
}

Result<bool> AlertLedger::claim(const AlertDelivery &d, const QString &owner, qint64 now,
                                qint64 claimSeconds) {
    QSqlQuery q(m_conn.database());
    if (auto r =
            m_conn.prepare(q, QStringLiteral("UPDATE alert_deliveries SET state = 'sending', claim_owner = ?,"
                                             " claim_until_s = ? WHERE alert_key = ? AND channel = ? AND"
                                             " recipient = ? AND %1")
                                  .arg(QLatin1String(kDueCondition)));
        !r)
        return r.error();
    q.addBindValue(owner);
    q.addBindValue(now + claimSeconds);
    q.addBindValue(d.alertKey);
    q.addBindValue(channelName(d.channel));
    q.addBindValue(d.recipient);
    q.addBindValue(now);
    q.addBindValue(now);
    if (auto r = m_conn.exec(q, QStringLiteral("claiming an alert delivery")); !r)
        return r.error();
    m_conn.noteWrite();
    return q.numRowsAffected() == 1;
}

Result<void> AlertLedger::finish(const AlertDelivery &d, const QString &owner, bool sent,
                                 const QString &error, qint64 now, qint64 nextRetry) {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("UPDATE alert_deliveries SET state = ?, attempts = attempts + 1, next_retry_s = ?,"
                           " last_error = ?, sent_s = ?, claim_owner = '', claim_until_s = 0"
                           " WHERE alert_key = ? AND channel = ? AND recipient = ? AND state = 'sending'"
                           " AND claim_owner = ?"));
        !r)
        return r;
    q.addBindValue(sent ? QStringLiteral("sent") : QStringLiteral("failed"));
    q.addBindValue(sent ? qint64(0) : nextRetry);
    q.addBindValue(nonNull(sent ? QString() : error.left(1000)));
    q.addBindValue(sent ? now : qint64(0));
    q.addBindValue(d.alertKey);
    q.addBindValue(channelName(d.channel));
    q.addBindValue(d.recipient);
    q.addBindValue(owner);
    if (auto r = m_conn.exec(q, QStringLiteral("recording an alert delivery")); !r)
        return r;
    m_conn.noteWrite();
    return {};
}

Result<std::optional<Alert>> AlertLedger::alert(const QString &key) const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(q, QStringLiteral("SELECT payload FROM alerts WHERE alert_key = ?")); !r)
        return r.error();
    q.addBindValue(key);
    if (auto r = m_conn.exec(q, QStringLiteral("reading an alert")); !r)
        return r.error();
    if (!q.next())
        return std::optional<Alert>();
    auto a = alertFromJson(QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object());
    if (!a)
        return a.error();
    return std::optional<Alert>(*a);
}

Result<QList<AlertDelivery>> AlertLedger::deliveries(const QString &key) const {
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q, QStringLiteral("SELECT %1 FROM alert_deliveries d JOIN alerts a ON a.alert_key ="
                              " d.alert_key%2 ORDER BY a.fired_s, d.alert_key, d.channel,"
                              " d.recipient")
                   .arg(QLatin1String(kDeliveryColumns),
                        key.isEmpty() ? QString() : QStringLiteral(" WHERE d.alert_key = ?")));
        !r)
        return r.error();
    if (!key.isEmpty())
        q.addBindValue(key);
    if (auto r = m_conn.exec(q, QStringLiteral("reading alert deliveries")); !r)
        return r.error();
    QList<AlertDelivery> out;
    while (q.next())
        out << readDelivery(q);
    return out;
}

Result<QHash<QString, qint64>> AlertLedger::stateCounts() const {
    QSqlQuery q(m_conn.database());
    if (auto r =
            m_conn.execSql(q, QStringLiteral("SELECT state, COUNT(*) FROM alert_deliveries GROUP BY state"));
        !r)
        return r.error();
    QHash<QString, qint64> out;
    while (q.next())
        out.insert(q.value(0).toString(), q.value(1).toLongLong());
    return out;
}

Result<BudgetAlertState> AlertLedger::budgetState(qint64 budgetId, qint64 periodStart) const {
    BudgetAlertState s;
    QSqlQuery q(m_conn.database());
    if (auto r = m_conn.prepare(
            q,
            QStringLiteral("SELECT a.threshold, SUM(CASE WHEN d.state = 'failed' THEN 1 ELSE 0 END)"
                           " FROM alerts a LEFT JOIN alert_deliveries d ON d.alert_key = a.alert_key"
                           " WHERE a.kind = 'budget-threshold' AND a.budget_id = ? AND a.period_start_s = ?"
                           " GROUP BY a.threshold ORDER BY a.threshold"));
        !r)
        return r.error();
    q.addBindValue(budgetId);
    q.addBindValue(periodStart);
    if (auto r = m_conn.exec(q, QStringLiteral("reading a budget's alerts")); !r)
        return r.error();
    while (q.next()) {
        s.fired << q.value(0).toInt();
        s.failedNow += q.value(1).toInt();
    }
    QSqlQuery last(m_conn.database());
    if (auto r = m_conn.prepare(
            last,
            QStringLiteral("SELECT d.sent_s, a.threshold, d.channel, d.recipient FROM alert_deliveries d"
                           " JOIN alerts a ON a.alert_key = d.alert_key WHERE a.kind = 'budget-threshold'"
                           " AND a.budget_id = ? AND d.state = 'sent'"
                           " ORDER BY d.sent_s DESC, d.channel, d.recipient LIMIT 1"));
        !r)
        return r.error();
    last.addBindValue(budgetId);
    if (auto r = m_conn.exec(last, QStringLiteral("reading a budget's last alert")); !r)
        return r.error();
    if (last.next()) {
        s.lastSentAt = last.value(0).toLongLong();
        s.lastThreshold = last.value(1).toInt();
        s.lastChannel = last.value(2).toString();
        s.lastRecipient = last.value(3).toString();
    }
    return s;
}

} // namespace gq
