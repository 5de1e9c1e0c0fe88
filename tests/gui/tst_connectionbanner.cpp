// The connection banner on its own, fed by hand the way the window feeds it from the
// connection's signals: what it says in each state of an outage, the countdown, Retry
// now, kubeconfig problems, and that another error ends the story. The full story
// against a real cluster behind a relay is tst_reconnect and tst_kubeconfigreload.

#include "widgets/connections/connectionbanner.h"

#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QVBoxLayout>

using namespace gq;
using State = ConnectionBanner::State;

namespace {

const QString kServer = QStringLiteral("https://127.0.0.1:6443");

// The seconds the countdown shows, or -1 when it shows none.
int countdownOf(const ConnectionBanner &banner) {
    static const QRegularExpression re(QStringLiteral("next attempt in (\\d+) s"));
    const QRegularExpressionMatch m = re.match(banner.text());
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestConnectionBanner : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void outageCountsDownToTheNextAttempt();
    void retryNowAsksAndSaysAnAttemptIsUnderWay();
    void restoredClearsAndSaysSoInTheStatusBar();
    void untrustedCertificateIsAnError();
    void rejectedCredentialsOutsideAnOutageAreAPlainError();
    void kubeconfigProblemShowsAloneThenGoes();
    void kubeconfigProblemJoinsTheOutageBanner();
    void otherErrorEndsTheConnectionStory();
    void unreadableKubeconfigStaysUntilItIsRead();
    void resetForgetsEverything();
    void insecureContextKeepsAnAmberWarning();

private:
    void reconnectingIn(qint64 ms) {
        m_facts.state = State::Reconnecting;
        m_facts.nextAttempt = QDeadlineTimer(ms);
    }

    std::unique_ptr<QWidget> m_window;
    ConnectionBanner *m_banner = nullptr;
    ConnectionBanner::Facts m_facts;
};

void TestConnectionBanner::init() {
    m_window = std::make_unique<QWidget>();
    m_banner = new ConnectionBanner(m_window.get());
    auto *layout = new QVBoxLayout(m_window.get());
    layout->addWidget(m_banner);
    layout->addWidget(m_banner->insecureNotice());
    layout->addStretch(1);
    m_facts =
        ConnectionBanner::Facts{.state = State::Live, .server = kServer, .context = QStringLiteral("admin")};
    m_banner->setFactsSource([this] { return m_facts; });
    m_window->resize(800, 200);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_banner->isHidden());
}

void TestConnectionBanner::cleanup() {
    m_window.reset();
    m_banner = nullptr;
}

void TestConnectionBanner::outageCountsDownToTheNextAttempt() {
    QSignalSpy status(m_banner, &ConnectionBanner::statusMessage);
    m_facts.listShown = true;
    reconnectingIn(3500);
    m_banner->onStateChanged(State::Reconnecting);
    QVERIFY(m_banner->isVisible());
    QVERIFY(m_banner->showsConnection());
    QCOMPARE(m_banner->level(), MessageBanner::Level::Warning);
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("Lost the connection to the cluster (no answer).")),
             qPrintable(m_banner->text()));
    QVERIFY2(m_banner->text().contains(QStringLiteral("Reconnecting to ") + kServer),
             qPrintable(m_banner->text()));
    QVERIFY2(m_banner->text().contains(QStringLiteral("The list may be out of date")),
             qPrintable(m_banner->text()));
    QCOMPARE(countdownOf(*m_banner), 4);
    // A status message left from before would contradict the banner: it is cleared.
    QCOMPARE(status.count(), 1);
    QVERIFY(status.first().at(0).toString().isEmpty());

    QPushButton *retry = m_banner->actionButton();
    QCOMPARE(retry->objectName(), QStringLiteral("retryNowButton"));
    QVERIFY(retry->isVisible() && retry->isEnabled());
    QCOMPARE(retry->text(), QStringLiteral("Retry now"));

    // The number follows the clock by itself, without any signal.
    QTRY_COMPARE_WITH_TIMEOUT(countdownOf(*m_banner), 2, 3000);
    // The transport's message replaces "no answer"; the banner stays one banner.
    m_banner->onConnectionError(Error::make(Error::Kind::Network, QStringLiteral("connection refused")));
    QVERIFY2(
        m_banner->text().contains(QStringLiteral("Lost the connection to the cluster (connection refused).")),
        qPrintable(m_banner->text()));
    QCOMPARE(status.count(), 1);
}

void TestConnectionBanner::retryNowAsksAndSaysAnAttemptIsUnderWay() {
    reconnectingIn(30000);
    m_banner->onConnectionError(Error::make(Error::Kind::Timeout, QStringLiteral("timed out")));
    QVERIFY(countdownOf(*m_banner) > 20);
    // The connection starts its attempts when asked: no attempt waits any more.
    QSignalSpy retried(m_banner, &ConnectionBanner::retryRequested);
    connect(m_banner, &ConnectionBanner::retryRequested, this,
            [this] { m_facts.nextAttempt = QDeadlineTimer(QDeadlineTimer::Forever); });
    QTest::mouseClick(m_banner->actionButton(), Qt::LeftButton);
    QCOMPARE(retried.count(), 1);
    QCOMPARE(countdownOf(*m_banner), -1);
    QVERIFY2(m_banner->text().contains(QStringLiteral("Connecting to ") + kServer + QChar(0x2026)),
             qPrintable(m_banner->text()));
    QVERIFY(!m_banner->actionButton()->isEnabled());
    QVERIFY2(!m_banner->text().contains(QStringLiteral("out of date")), qPrintable(m_banner->text()));

    // The attempt failed: a new wait, and the button is back.
    m_facts.nextAttempt = QDeadlineTimer(45000);
    m_banner->onNextAttemptChanged();
    QVERIFY(countdownOf(*m_banner) > 40);
    QVERIFY(m_banner->actionButton()->isEnabled());
}

void TestConnectionBanner::restoredClearsAndSaysSoInTheStatusBar() {
    reconnectingIn(10000);
    m_banner->onStateChanged(State::Reconnecting);
    QVERIFY(m_banner->isVisible());
    QSignalSpy status(m_banner, &ConnectionBanner::statusMessage);
    m_facts.state = State::Live;
    m_banner->onStateChanged(State::Live);
    QVERIFY(m_banner->isHidden());
    QVERIFY(!m_banner->showsConnection());
    QCOMPARE(status.count(), 1);
    QVERIFY2(status.first().at(0).toString().contains(QStringLiteral("restored")),
             qPrintable(status.first().at(0).toString()));
    QCOMPARE(status.first().at(1).toInt(), 8000);
    // Nothing to report when the first connection goes live.
    m_banner->onStateChanged(State::Live);
    QCOMPARE(status.count(), 1);
}

void TestConnectionBanner::untrustedCertificateIsAnError() {
    reconnectingIn(5000);
    m_banner->onConnectionError(Error::make(Error::Kind::Tls, QStringLiteral("self-signed certificate")));
    QCOMPARE(m_banner->level(), MessageBanner::Level::Error);
    QVERIFY2(m_banner->text().contains(
                 QStringLiteral("The server's certificate is not trusted by the CA in your kubeconfig "
                                "(self-signed certificate).")),
             qPrintable(m_banner->text()));
    QVERIFY2(m_banner->text().contains(QStringLiteral("re-read automatically")),
             qPrintable(m_banner->text()));
    QVERIFY(m_banner->actionButton()->isVisible());
}

void TestConnectionBanner::rejectedCredentialsOutsideAnOutageAreAPlainError() {
    m_facts.state = State::Syncing;
    m_banner->onConnectionError(Error::make(Error::Kind::Unauthorized, QStringLiteral("401")));
    QCOMPARE(m_banner->level(), MessageBanner::Level::Error);
    QCOMPARE(m_banner->text(),
             QStringLiteral("Not authorized: the credentials of this context were rejected (401)"));
    QVERIFY(!m_banner->showsConnection());
    QVERIFY(!m_banner->actionButton()->isVisible());
    // While reconnecting, the same error joins the outage banner instead.
    reconnectingIn(5000);
    m_banner->onConnectionError(Error::make(Error::Kind::Unauthorized, QStringLiteral("401")));
    QVERIFY(m_banner->showsConnection());
    QVERIFY2(m_banner->text().startsWith(
                 QStringLiteral("The cluster rejected the credentials of this context (401).")),
             qPrintable(m_banner->text()));
}

void TestConnectionBanner::kubeconfigProblemShowsAloneThenGoes() {
    m_banner->onKubeconfigProblem(
        Error::make(Error::Kind::NotFound, QStringLiteral("gone"), QStringLiteral("contexts")));
    QVERIFY(m_banner->isVisible());
    QCOMPARE(m_banner->level(), MessageBanner::Level::Warning);
    QVERIFY2(m_banner->text().contains(QStringLiteral("\"admin\" is no longer in the kubeconfig")),
             qPrintable(m_banner->text()));
    QVERIFY(!m_banner->actionButton()->isVisible());
    m_banner->onKubeconfigOk();
    QVERIFY(m_banner->isHidden());
}

void TestConnectionBanner::kubeconfigProblemJoinsTheOutageBanner() {
    m_banner->onKubeconfigProblem(Error::make(Error::Kind::Parse, QStringLiteral("bad indentation")));
    reconnectingIn(8000);
    m_banner->onStateChanged(State::Reconnecting);
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("The kubeconfig changed but cannot be used")),
             qPrintable(m_banner->text()));
    QVERIFY(countdownOf(*m_banner) > 0);
    // Fixed: the outage banner stays, without the problem.
    m_banner->onKubeconfigOk();
    QVERIFY(m_banner->isVisible());
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("Lost the connection")),
             qPrintable(m_banner->text()));
    // Back while the problem is still there (broken again): the problem stays up on its own.
    m_banner->onKubeconfigProblem(Error::make(Error::Kind::Parse, QStringLiteral("bad indentation")));
    m_facts.state = State::Live;
    m_banner->onStateChanged(State::Live);
    QVERIFY(m_banner->isVisible());
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("The kubeconfig changed but cannot be used")),
             qPrintable(m_banner->text()));
    QVERIFY(!m_banner->actionButton()->isVisible());
}

void TestConnectionBanner::otherErrorEndsTheConnectionStory() {
    reconnectingIn(3000);
    m_banner->onStateChanged(State::Reconnecting);
    QVERIFY(m_banner->showsConnection());
    m_banner->showError(QStringLiteral("Usage database: locked"));
    QCOMPARE(m_banner->text(), QStringLiteral("Usage database: locked"));
    QCOMPARE(m_banner->level(), MessageBanner::Level::Error);
    QVERIFY(!m_banner->showsConnection());
    // Neither a new wait nor the clock brings the countdown back over it.
    m_facts.nextAttempt = QDeadlineTimer(6000);
    m_banner->onNextAttemptChanged();
    QTest::qWait(1200);
    QCOMPARE(m_banner->text(), QStringLiteral("Usage database: locked"));
    // A kubeconfig problem does not push it away either.
    m_banner->onKubeconfigProblem(Error::make(Error::Kind::Parse, QStringLiteral("bad")));
    QCOMPARE(m_banner->text(), QStringLiteral("Usage database: locked"));
}

void TestConnectionBanner::unreadableKubeconfigStaysUntilItIsRead() {
    m_facts.state = State::Disconnected;
    m_banner->showUnreadableKubeconfig(Error::make(Error::Kind::Io, QStringLiteral("no such file")));
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("Cannot read the kubeconfig:")),
             qPrintable(m_banner->text()));
    // A desktop user is not told to restart with flags: the menu opens another file.
    QVERIFY2(m_banner->text().contains(QStringLiteral("Open kubeconfig")), qPrintable(m_banner->text()));
    QVERIFY2(!m_banner->text().contains(QStringLiteral("--")), qPrintable(m_banner->text()));
    // Changed but still broken: the connection fails, and the banner keeps saying why.
    m_facts.state = State::Failed;
    m_banner->onConnectionError(Error::make(Error::Kind::Parse, QStringLiteral("line 2: bad")));
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("Cannot read the kubeconfig:")),
             qPrintable(m_banner->text()));
    QVERIFY2(m_banner->text().contains(QStringLiteral("line 2: bad")), qPrintable(m_banner->text()));
    // Readable at last: connecting now, the connection's own state takes over.
    m_banner->onKubeconfigOk();
    QVERIFY(m_banner->isHidden());
}

void TestConnectionBanner::resetForgetsEverything() {
    m_banner->onKubeconfigProblem(Error::make(Error::Kind::Parse, QStringLiteral("bad")));
    reconnectingIn(3000);
    m_banner->onStateChanged(State::Reconnecting);
    m_banner->reset();
    QVERIFY(m_banner->isHidden());
    QVERIFY(!m_banner->showsConnection());
    // Nothing of the old context comes back: not the countdown, not the problem.
    QTest::qWait(1200);
    QVERIFY(m_banner->isHidden());
    m_banner->onConnectionError(Error::make(Error::Kind::Network, QStringLiteral("refused")));
    QVERIFY2(m_banner->text().startsWith(QStringLiteral("Lost the connection")),
             qPrintable(m_banner->text()));
}

// #14: insecure-skip-tls-verify showed nothing in the console.
void TestConnectionBanner::insecureContextKeepsAnAmberWarning() {
    MessageBanner *notice = m_banner->insecureNotice();
    QCOMPARE(notice->objectName(), QStringLiteral("insecureTlsBanner"));
    m_banner->onStateChanged(State::Live);
    QVERIFY(notice->isHidden()); // a verified connection says nothing

    m_facts.insecure = true;
    m_facts.state = State::Syncing;
    m_banner->onStateChanged(State::Syncing);
    QVERIFY(notice->isVisible());
    QCOMPARE(notice->level(), MessageBanner::Level::Warning);
    QVERIFY2(notice->text().contains(
                 QStringLiteral("Not secure: TLS certificate verification is off for the context "
                                "\"admin\" (insecure-skip-tls-verify")),
             qPrintable(notice->text()));
    QVERIFY2(notice->text().contains(kServer), qPrintable(notice->text()));
    // It cannot be dismissed, and neither an outage nor another error takes its place.
    for (QToolButton *b : notice->findChildren<QToolButton *>())
        QVERIFY(!b->isVisible());
    reconnectingIn(3000);
    m_banner->onStateChanged(State::Reconnecting);
    QVERIFY(m_banner->showsConnection());
    m_banner->showError(QStringLiteral("something else"));
    QVERIFY(notice->isVisible());
    m_facts.state = State::Live;
    m_banner->onStateChanged(State::Live);
    QVERIFY(notice->isVisible());

    // Another context that verifies TLS: gone.
    m_facts.insecure = false;
    m_banner->reset();
    QVERIFY(notice->isHidden());
    // Disconnected: nothing is at risk.
    m_facts.insecure = true;
    m_facts.state = State::Disconnected;
    m_banner->onStateChanged(State::Disconnected);
    QVERIFY(notice->isHidden());
}

QTEST_MAIN(TestConnectionBanner)
#include "tst_connectionbanner.moc"
