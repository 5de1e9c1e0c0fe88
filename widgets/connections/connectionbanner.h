#pragma once

#include "services/cluster/clusterconnection.h"
#include "core/domain/error.h"
#include "widgets/common/errorbanner.h"

#include <QDeadlineTimer>
#include <QString>

#include <functional>
#include <optional>

class QTimer;

namespace gq {

// The window's message strip, and what it says about the connection: a lost connection
// with the countdown to the next attempt and Retry now, an untrusted CA or rejected
// credentials, a changed kubeconfig that cannot be used, an unreadable kubeconfig. One
// banner for the whole outage: each retry refreshes its text, not the banner. Any other
// error (showError) takes the strip and ends that story.
//
// It is fed through its slots (the window connects the connection's signals to them)
// and reads the few facts it renders from a source function, at the moment it renders,
// so it depends on nothing of the connection but its State enum. A test can drive it
// with a hand-made Facts.
class ConnectionBanner final : public MessageBanner {
    Q_OBJECT
public:
    using State = ClusterConnection::State;

    // What the banner reads from the connection each time it renders.
    struct Facts {
        State state = State::Disconnected;
        QDeadlineTimer nextAttempt{QDeadlineTimer::Forever}; // the soonest reconnect attempt
        QString server;
        QString context;
        bool listShown = false; // the namespace list has rows (which may now be out of date)
        bool insecure = false;  // the context skips TLS verification (insecure-skip-tls-verify)
    };
    using FactsSource = std::function<Facts()>;

    explicit ConnectionBanner(QWidget *parent = nullptr);
    ~ConnectionBanner() override;

    void setFactsSource(FactsSource source) { m_facts = std::move(source); }
    // True while the banner tells the reconnect story (with Retry now).
    [[nodiscard]] bool showsConnection() const { return m_connectionBanner; }
    // A second strip, for the window to place beside this one: an amber warning that
    // stays, without Close, while the connected context skips TLS verification. It is
    // separate so that no outage or error message can ever hide it.
    [[nodiscard]] MessageBanner *insecureNotice() const { return m_insecureNotice; }

public slots:
    void onStateChanged(gq::ClusterConnection::State state);
    // The connection's nextAttempt() may have moved.
    void onNextAttemptChanged();
    void onConnectionError(const gq::Error &error);
    void onKubeconfigProblem(const gq::Error &error);
    void onKubeconfigOk();
    // Nothing is connected: the kubeconfig could not be read (missing or broken).
    void showUnreadableKubeconfig(const gq::Error &error);
    // Any other error; it replaces whatever the banner said.
    void showError(const QString &message);
    // Another context: nothing said about the old one applies.
    void reset();
    // Shows or hides the insecure-TLS notice from the facts; state changes do it too.
    void updateInsecureNotice();

signals:
    // Retry now was clicked: the connection should start its waiting attempts now.
    void retryRequested();
    // For the status bar; an empty message clears it.
    void statusMessage(const QString &message, int timeoutMs);

private:
    using MessageBanner::clear;
    using MessageBanner::showMessage;

    // Re-rendered by a single-shot timer only while it shows.
    void showConnectionBanner();
    void clearConnectionBanner();
    [[nodiscard]] Facts facts() const { return m_facts ? m_facts() : Facts{}; }

    FactsSource m_facts;
    QTimer *m_countdown;
    MessageBanner *m_insecureNotice;
    bool m_errorFromConnection = false;
    bool m_connectionBanner = false;        // the banner shows the reconnect state (and countdown)
    bool m_kubeconfigBanner = false;        // the banner shows only m_kubeconfigProblem
    bool m_kubeconfigUnreadable = false;    // nothing connected: the kubeconfig could not be read
    std::optional<Error> m_connectionError; // the last failure while reconnecting
    QString m_kubeconfigProblem;            // a changed kubeconfig that cannot be used (connection kept)
};

} // namespace gq
