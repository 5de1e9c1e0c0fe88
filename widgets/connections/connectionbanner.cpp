#include "widgets/connections/connectionbanner.h"

#include <QPushButton>
#include <QStringList>
#include <QTimer>

namespace gq {

ConnectionBanner::ConnectionBanner(QWidget *parent)
    : MessageBanner(parent)
    , m_countdown(new QTimer(this))
    , m_insecureNotice(new MessageBanner(parent ? parent : this)) {
    setObjectName(QStringLiteral("errorBanner"));
    m_insecureNotice->setObjectName(QStringLiteral("insecureTlsBanner"));
    actionButton()->setObjectName(QStringLiteral("retryNowButton"));
    connect(this, &MessageBanner::actionTriggered, this, [this] {
        if (!m_connectionBanner)
            return;
        emit retryRequested();
        showConnectionBanner();
    });
    m_countdown->setSingleShot(true);
    connect(m_countdown, &QTimer::timeout, this, [this] {
        if (m_connectionBanner && isVisible())
            showConnectionBanner();
    });
}

ConnectionBanner::~ConnectionBanner() = default;

void ConnectionBanner::reset() {
    m_kubeconfigUnreadable = false;
    clearConnectionBanner();
    m_kubeconfigProblem.clear();
    m_kubeconfigBanner = false;
    clear();
    updateInsecureNotice();
}

// DESIGN.md: insecure-skip-tls-verify is honoured only with a visible warning.
void ConnectionBanner::updateInsecureNotice() {
    const Facts now = facts();
    if (!now.insecure || now.state == State::Disconnected) {
        m_insecureNotice->clear();
        return;
    }
    m_insecureNotice->showMessage(
        MessageBanner::Level::Warning,
        tr("Not secure: TLS certificate verification is off for the context \"%1\" "
           "(insecure-skip-tls-verify in the kubeconfig). Nothing proves that %2 is really your cluster, "
           "and anyone on the network path can read and change what is sent, credentials included.")
            .arg(now.context, now.server),
        false);
}

void ConnectionBanner::showUnreadableKubeconfig(const Error &error) {
    showError(tr("Cannot read the kubeconfig: %1").arg(error.toString()) + QLatin1Char(' ') +
              tr("Fix the file (it is read again when it changes), or open another one with File > Open "
                 "kubeconfig."));
    m_kubeconfigUnreadable = true;
}

void ConnectionBanner::showError(const QString &message) {
    m_kubeconfigUnreadable = false;
    m_errorFromConnection = false;
    m_connectionBanner = false;
    m_kubeconfigBanner = false;
    m_countdown->stop();
    showMessage(MessageBanner::Level::Error, message);
}

void ConnectionBanner::onStateChanged(State state) {
    updateInsecureNotice();
    if (state == State::Live && m_errorFromConnection) {
        clearConnectionBanner();
        clear();
        emit statusMessage(tr("Connection to the cluster restored; the list is current again."), 8000);
        if (!m_kubeconfigProblem.isEmpty()) {
            showMessage(MessageBanner::Level::Warning, m_kubeconfigProblem);
            m_kubeconfigBanner = true;
        }
    }
    // Listing again after a wait is the attempt itself: the banner says so.
    if (state == State::Reconnecting || (m_connectionBanner && state != State::Live))
        showConnectionBanner();
}

void ConnectionBanner::onNextAttemptChanged() {
    if (m_connectionBanner)
        showConnectionBanner();
}

void ConnectionBanner::clearConnectionBanner() {
    m_countdown->stop();
    m_errorFromConnection = false;
    m_connectionBanner = false;
    m_connectionError.reset();
}

// What failed last, which server, when the next attempt is, and a button to try now.
void ConnectionBanner::showConnectionBanner() {
    if (!m_errorFromConnection)
        emit statusMessage(QString(), 0); // e.g. "restored" from the last outage would contradict the banner
    const Facts now = facts();
    QStringList parts;
    if (!m_kubeconfigProblem.isEmpty())
        parts << m_kubeconfigProblem;
    const Error::Kind kind = m_connectionError ? m_connectionError->kind : Error::Kind::Network;
    const QString detail = m_connectionError ? m_connectionError->message : tr("no answer");
    MessageBanner::Level level = MessageBanner::Level::Warning;
    switch (kind) {
    case Error::Kind::Tls:
        parts << tr("The server's certificate is not trusted by the CA in your kubeconfig (%1).").arg(detail)
              << tr("Fix the certificate authority there: the kubeconfig is re-read automatically when it "
                    "changes.");
        level = MessageBanner::Level::Error;
        break;
    case Error::Kind::Unauthorized:
        parts << tr("The cluster rejected the credentials of this context (%1).").arg(detail)
              << tr("The kubeconfig is re-read automatically when it changes.");
        level = MessageBanner::Level::Error;
        break;
    case Error::Kind::Forbidden:
        parts << tr("Forbidden: %1").arg(detail);
        level = MessageBanner::Level::Error;
        break;
    case Error::Kind::Server:
    case Error::Kind::TooManyRequests:
        parts << tr("The cluster answered with an error (%1).").arg(detail);
        break;
    default: parts << tr("Lost the connection to the cluster (%1).").arg(detail); break;
    }
    const QDeadlineTimer next = now.nextAttempt;
    const bool waiting = now.state == State::Reconnecting && !next.isForever() && !next.hasExpired();
    if (waiting) {
        const qint64 remaining = next.remainingTime();
        const int secs = int((remaining + 999) / 1000);
        parts << tr("Reconnecting to %1 \u2014 next attempt in %n s.", nullptr, secs).arg(now.server);
        // Wake when the number shown changes, not before: no timer spins meanwhile.
        const qint64 untilChange = remaining % 1000 == 0 ? 1000 : remaining % 1000;
        m_countdown->start(int(untilChange) + 5);
    } else {
        parts << tr("Connecting to %1\u2026").arg(now.server);
        m_countdown->stop(); // the connection says when the attempt has ended
    }
    if (now.listShown)
        parts << tr("The list may be out of date until then, and your edits are kept.");
    showMessage(level, parts.join(QLatin1Char(' ')), true, tr("Retry now"));
    setActionEnabled(waiting);
    m_errorFromConnection = true;
    m_connectionBanner = true;
    m_kubeconfigBanner = false;
}

void ConnectionBanner::onConnectionError(const Error &error) {
    const State state = facts().state;
    if (m_kubeconfigUnreadable && state == State::Failed) {
        showUnreadableKubeconfig(error); // still unreadable after a change
        return;
    }
    const bool reconnecting = state == State::Reconnecting;
    switch (error.kind) {
    case Error::Kind::Tls:
    case Error::Kind::Network:
    case Error::Kind::Timeout:
        // Only a retry can help: the reconnect banner says what failed and when the next try is.
        m_connectionError = error;
        showConnectionBanner();
        return;
    case Error::Kind::Unauthorized:
    case Error::Kind::Forbidden:
    case Error::Kind::Server:
    case Error::Kind::TooManyRequests:
        if (reconnecting || m_connectionBanner) {
            m_connectionError = error;
            showConnectionBanner();
            return;
        }
        break;
    default: break;
    }
    QString text;
    switch (error.kind) {
    case Error::Kind::Forbidden: text = tr("Forbidden: %1").arg(error.message); break;
    case Error::Kind::Unauthorized:
        text = tr("Not authorized: the credentials of this context were rejected (%1)").arg(error.message);
        break;
    case Error::Kind::Server:
    case Error::Kind::TooManyRequests:
        text = tr("The cluster answered with an error: %1. Retrying automatically.").arg(error.message);
        break;
    default: text = error.toString(); break;
    }
    showMessage(MessageBanner::Level::Error, text);
    m_errorFromConnection = true;
    m_connectionBanner = false;
    m_kubeconfigBanner = false;
    m_countdown->stop();
}

void ConnectionBanner::onKubeconfigProblem(const Error &error) {
    if (error.kind == Error::Kind::NotFound && error.field == QLatin1String("contexts"))
        m_kubeconfigProblem = tr("The context \"%1\" is no longer in the kubeconfig. The console keeps its "
                                 "current connection; choose another context to switch.")
                                  .arg(facts().context);
    else
        m_kubeconfigProblem =
            tr("The kubeconfig changed but cannot be used (%1). The console keeps its current "
               "connection and reads the file again when it changes.")
                .arg(error.toString());
    if (m_connectionBanner) {
        showConnectionBanner();
        return;
    }
    if (isVisible() && !m_kubeconfigBanner)
        return; // another message is up: the problem shows with the next connection banner
    showMessage(MessageBanner::Level::Warning, m_kubeconfigProblem);
    m_kubeconfigBanner = true;
}

void ConnectionBanner::onKubeconfigOk() {
    if (m_kubeconfigUnreadable) {
        m_kubeconfigUnreadable = false;
        clear(); // connecting now; the connection's own state takes over
    }
    if (m_kubeconfigProblem.isEmpty())
        return;
    m_kubeconfigProblem.clear();
    if (m_connectionBanner) {
        showConnectionBanner();
    } else if (m_kubeconfigBanner) {
        clear();
        m_kubeconfigBanner = false;
    }
}

} // namespace gq
