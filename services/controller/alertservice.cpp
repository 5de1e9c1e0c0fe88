#include "services/controller/alertservice.h"

#include "core/alerts/alertchannels.h"
#include "core/net/httptransport.h"
#include "core/usage/usagestore.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSet>
#include <QSysInfo>

namespace gq {

namespace {

constexpr qint64 kRequestLookbackSeconds = 7 * 24 * 3600;

// How long a claimed delivery is this process's before another may take it over: a
// little more than the slowest attempt (the SMTP and webhook timeouts).
qint64 claimSecondsFor(const AlertConfig &c) {
    return std::max(c.smtp.timeoutMs, c.webhook.timeoutMs) / 1000 + 60;
}

QString describe(const HttpResponse &r, AlertDelivery::Channel channel) {
    if (r.transportError)
        return r.transportError->message;
    return channel == AlertDelivery::Channel::Email ? QStringLiteral("SMTP reply %1").arg(r.httpStatus)
                                                    : QStringLiteral("HTTP %1").arg(r.httpStatus);
}

} // namespace

AlertService::AlertService(UsageStore *store, std::shared_ptr<HttpTransport> transport, AlertConfig config,
                           AlertRecipients recipients, QObject *parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_config(std::move(config))
    , m_recipients(std::move(recipients)) {
    setStore(store);
    m_owner = QStringLiteral("%1:%2:%3")
                  .arg(QSysInfo::machineHostName())
                  .arg(QCoreApplication::applicationPid())
                  .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
    for (const QString &a : std::as_const(m_config.admins))
        m_recipients.addAdmin(a);
    if (!m_config.userEmailDomain.isEmpty())
        m_recipients.setUserDomain(m_config.userEmailDomain);
}

AlertService::~AlertService() = default;

Result<void> AlertService::loadSecrets() {
    auto password =
        readSecret(m_config.smtp.passwordFile, m_config.smtp.passwordEnv,
                   m_config.smtp.passwordFile.isEmpty() ? QStringLiteral("alerts.email.passwordEnv")
                                                        : QStringLiteral("alerts.email.passwordFile"));
    if (!password)
        return password.error();
    m_smtpPassword = *password;
    auto secret =
        readSecret(m_config.webhook.secretFile, m_config.webhook.secretEnv,
                   m_config.webhook.secretFile.isEmpty() ? QStringLiteral("alerts.webhook.secretEnv")
                                                         : QStringLiteral("alerts.webhook.secretFile"));
    if (!secret)
        return secret.error();
    m_webhookSecret = secret->toUtf8();
    return {};
}

void AlertService::setStore(UsageStore *store) {
    m_store = store;
    m_ledger = store ? std::make_unique<AlertLedger>(*store) : nullptr;
}

void AlertService::addClampEvent(const ClampNotice &event) {
    m_clamps << event;
}

void AlertService::setIdleHolds(const QList<IdleHold> &holds) {
    m_idle = holds;
}

void AlertService::setDatabaseDown(std::optional<qint64> since, const QString &error) {
    m_dbDownSince = since;
    m_dbError = error;
}

qint64 AlertService::retryDelay(int attempt) const {
    qint64 d = m_config.retryInitialSeconds;
    for (int i = 1; i < attempt && d < m_config.retryMaxSeconds; ++i)
        d *= 2;
    return std::min(d, m_config.retryMaxSeconds);
}

Result<AlertInputs> AlertService::gather(qint64 now) {
    AlertInputs in;
    in.now = now;
    in.clamps = m_clamps;
    in.idle = m_idle;
    in.databaseDownSince = m_dbDownSince;
    in.databaseError = m_dbError;
    in.webhookSilence = m_webhookSilence;
    if (!m_store)
        return Error::make(Error::Kind::Database, QStringLiteral("the usage database is not available"));
    auto budgets = m_store->budgets();
    if (!budgets)
        return budgets.error();
    QSet<QPair<int, QString>> seen;
    for (const Budget &b : *budgets) {
        if (seen.contains({int(b.scope), b.subject}))
            continue;
        seen.insert({int(b.scope), b.subject});
        auto status = m_store->budgetStatus(b.scope, b.subject, now);
        if (!status)
            return status.error();
        in.budgets += *status;
    }
    auto boosts = m_store->boosts();
    if (!boosts)
        return boosts.error();
    for (const Boost &b : *boosts)
        if (b.state == Boost::State::Active)
            in.boosts << b;
    // Decisions of the last week: each is raised once (its key), so re-reading is harmless
    // and a controller that was down a few days still tells the requester.
    auto decided = BoostRequestLedger(*m_store).decidedBetween(now - kRequestLookbackSeconds, now);
    if (!decided)
        return decided.error();
    in.decidedRequests = *decided;
    return in;
}

QList<AlertLedger::Target> AlertService::targetsFor(const Alert &alert) const {
    QList<AlertLedger::Target> out;
    if (m_config.smtp.enabled())
        for (const QString &to : m_recipients.forAlert(alert))
            out.append({AlertDelivery::Channel::Email, to});
    if (m_config.webhook.enabled())
        out.append({AlertDelivery::Channel::Webhook, urlForMessages(m_config.webhook.url)});
    return out;
}

void AlertService::tick(qint64 now) {
    const bool busy = m_outstanding > 0;
    if (!busy)
        m_report = AlertTickReport{};
    m_report.now = now;
    AlertTickReport report; // what this tick did when it cannot deliver
    report.now = now;
    AlertTickReport &r = busy ? report : m_report;

    auto inputs = gather(now);
    if (!inputs) {
        r.error = inputs.error();
        // The database trouble alert needs nothing from the database.
        AlertInputs only;
        only.now = now;
        only.databaseDownSince = m_dbDownSince;
        only.databaseError = m_dbError;
        for (const Alert &a : evaluateAlerts(m_config.rules, only))
            deliverUnrecorded(a);
        if (!busy)
            finishTickIfDone();
        else
            emit tickFinished(report);
        return;
    }
    recordUnrecorded(now);
    bool clampsRecorded = true;
    for (const Alert &a : evaluateAlerts(m_config.rules, *inputs)) {
        if (a.kind == Alert::Kind::DatabaseUnwritable) {
            deliverUnrecorded(a); // readable is not writable: recorded once writes work again
            continue;
        }
        auto raised = m_ledger->raise(a, targetsFor(a), now);
        if (!raised) {
            r.error = raised.error();
            clampsRecorded = false;
            continue;
        }
        r.raised += *raised ? 1 : 0;
    }
    if (clampsRecorded)
        m_clamps.clear(); // recorded: later ticks need not see them again
    if (busy) {
        emit tickFinished(report);
        return;
    }
    m_inTick = true;
    auto due = m_ledger->due(now);
    if (!due) {
        m_report.error = due.error();
    } else {
        for (const AlertDelivery &d : *due) {
            auto claimed = m_ledger->claim(d, m_owner, now, claimSecondsFor(m_config));
            if (!claimed) {
                m_report.error = claimed.error();
                break;
            }
            if (*claimed)
                deliver(d);
        }
    }
    m_inTick = false;
    finishTickIfDone();
}

void AlertService::deliver(AlertDelivery d) {
    ++m_report.attempted;
    HttpRequest request;
    if (d.channel == AlertDelivery::Channel::Email) {
        if (!m_config.smtp.enabled()) {
            onDelivered(std::move(d), false, QStringLiteral("email is no longer configured"));
            return;
        }
        request = smtpRequest(m_config.smtp, m_smtpPassword, d.recipient,
                              buildAlertEmail(d.alert, m_config.smtp.from, d.recipient, m_report.now));
    } else {
        if (!m_config.webhook.enabled()) {
            onDelivered(std::move(d), false, QStringLiteral("the webhook is no longer configured"));
            return;
        }
        request = webhookRequest(m_config.webhook, m_webhookSecret, buildWebhookBody(d.alert), d.alert.key);
    }
    ++m_outstanding;
    const AlertDelivery::Channel channel = d.channel;
    m_transport->start(std::move(request), m_jobs.deliverer<HttpResponse>([this, d = std::move(d),
                                                                           channel](HttpResponse r) mutable {
        --m_outstanding;
        onDelivered(std::move(d), r.ok(), r.ok() ? QString() : describe(r, channel));
    }));
}

void AlertService::onDelivered(AlertDelivery d, bool ok, const QString &error) {
    const int attempts = d.attempts + 1;
    const qint64 nextRetry = ok || attempts >= m_config.maxAttempts ? 0 : m_report.now + retryDelay(attempts);
    // Without a ledger (the database went meanwhile) the claim runs out and the delivery
    // is tried again: at worst twice, with the same Message-ID.
    if (!m_ledger)
        m_report.error = Error::make(Error::Kind::Database, QStringLiteral("delivery outcome not recorded"));
    else if (auto r = m_ledger->finish(d, m_owner, ok, error, m_report.now, nextRetry); !r)
        m_report.error = r.error();
    d.attempts = attempts;
    d.state = ok ? AlertDelivery::State::Sent : AlertDelivery::State::Failed;
    d.nextRetry = nextRetry;
    d.lastError = ok ? QString() : error;
    d.sentAt = ok ? m_report.now : 0;
    ++(ok ? m_report.sent : m_report.failed);
    emit delivered(d);
    finishTickIfDone();
}

// The database cannot record this one: each target gets one try per tick until it
// has it; who has it is remembered in memory until the ledger can take it.
void AlertService::deliverUnrecorded(const Alert &alert) {
    if (m_recordedUnrecorded.contains(alert.key))
        return;
    auto it = m_unrecorded.find(alert.key);
    if (it == m_unrecorded.end())
        it = m_unrecorded.insert(alert.key, Unrecorded{alert, targetsFor(alert), {}, {}});
    for (int i = 0; i < it->targets.size(); ++i) {
        if (it->sent.contains(i) || it->inFlight.contains(i))
            continue;
        const AlertLedger::Target t = it->targets.at(i);
        HttpRequest request =
            t.channel == AlertDelivery::Channel::Email
                ? smtpRequest(m_config.smtp, m_smtpPassword, t.recipient,
                              buildAlertEmail(alert, m_config.smtp.from, t.recipient, alert.at))
                : webhookRequest(m_config.webhook, m_webhookSecret, buildWebhookBody(alert), alert.key);
        it->inFlight.insert(i);
        m_transport->start(std::move(request),
                           m_jobs.deliverer<HttpResponse>([this, key = alert.key, i, t](HttpResponse r) {
                               auto entry = m_unrecorded.find(key);
                               if (entry == m_unrecorded.end())
                                   return;
                               entry->inFlight.remove(i);
                               if (r.ok())
                                   entry->sent.insert(i); // else tried again on the next tick
                               AlertDelivery d;
                               d.alertKey = key;
                               d.channel = t.channel;
                               d.recipient = t.recipient;
                               d.state = r.ok() ? AlertDelivery::State::Sent : AlertDelivery::State::Failed;
                               d.attempts = 1;
                               d.lastError = r.ok() ? QString() : describe(r, t.channel);
                               d.sentAt = r.ok() ? m_report.now : 0;
                               d.alert = entry->alert;
                               emit delivered(d);
                           }));
    }
}

// The database takes writes again: what was sent from memory becomes a raised alert
// with its deliveries sent; the targets it did not reach stay pending and go the
// ledger's way (retries, backoff). One still being tried waits for the next tick.
void AlertService::recordUnrecorded(qint64 now) {
    for (auto it = m_unrecorded.begin(); it != m_unrecorded.end();) {
        Unrecorded &u = *it;
        if (!u.inFlight.isEmpty()) {
            ++it;
            continue;
        }
        auto raised = m_ledger->raise(u.alert, u.targets, now);
        if (!raised)
            return; // still not writable: next tick
        for (int i : std::as_const(u.sent)) {
            if (!*raised)
                break; // another replica, or an earlier run, recorded it
            AlertDelivery d;
            d.alertKey = u.alert.key;
            d.channel = u.targets.at(i).channel;
            d.recipient = u.targets.at(i).recipient;
            auto claimed = m_ledger->claim(d, m_owner, now, claimSecondsFor(m_config));
            if (claimed && *claimed)
                (void)m_ledger->finish(d, m_owner, true, QString(), now, 0);
        }
        m_recordedUnrecorded.insert(u.alert.key);
        it = m_unrecorded.erase(it);
    }
}

void AlertService::finishTickIfDone() {
    if (m_inTick || m_outstanding > 0)
        return;
    emit tickFinished(m_report);
}

} // namespace gq
