// The console loses its cluster and gets it back. A TCP relay (its own thread) sits
// between the window and the real gpuquota-testcluster; the test cuts it (open
// connections reset, port closed), then lets connections in only to reset them,
// then relays again on the same port, as a restarted API server or a healed
// network would. Meanwhile the window must say what is wrong in a non-modal banner,
// keep its event loop running, retry with backoff, and, once the server answers
// again, show what kubectl changed during the outage and clear the banner.

#include "app/console/mainwindow.h"
#include "widgets/quotas/quotapage.h"
#include "services/quotas/draftstore.h"
#include "tests/gui/guitestutil.h"
#include "tests/tcprelay.h"
#include "models/quotas/namespacelistmodel.h"
#include "tests/testclusterprocess.h"
#include "services/settings/consolesettings.h"
#include "widgets/common/errorbanner.h"
#include "widgets/quotas/namespacepanel.h"

#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <atomic>

using namespace gq;
using namespace gq::test;

namespace {

// How late a 5 ms timer on the GUI thread fires: the longest time the event loop
// could not run.
class LoopProbe final : public QObject {
public:
    LoopProbe() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.elapsed();
            if (m_ticks++ > 0)
                m_worst = std::max(m_worst, now - m_last - 5);
            m_last = now;
        });
        m_clock.start();
        m_timer.start();
    }
    [[nodiscard]] qint64 worstMs() const { return m_worst; }
    [[nodiscard]] int ticks() const { return m_ticks; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_worst = 0;
    int m_ticks = 0;
};

} // namespace

class TestReconnect : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void lostConnectionShowsBannerAndRecovers();
    void countdownAndRetryNow();

private:
    [[nodiscard]] QString gpuCell(const QString &ns) const;
    [[nodiscard]] bool listHas(const QString &ns) const;
    QString clusterKubectl(const QStringList &args) { return kubectl(m_cluster->kubeconfigPath(), args); }
    // GQ_SHOT_DIR=dir saves the window at a step, for reviewing the banner by eye.
    void shot(const QString &name) {
        const QString dir = qEnvironmentVariable("GQ_SHOT_DIR");
        if (!dir.isEmpty() && m_window)
            m_window->grab().save(dir + QLatin1Char('/') + name + QLatin1String(".png"));
    }

    std::unique_ptr<TestClusterProcess> m_cluster;
    RelayThread m_relayThread;
    TcpRelay *m_relay = nullptr; // lives on m_relayThread
    QTemporaryDir m_dir;
    QString m_kubeconfig; // the cluster's, pointed at the relay
    std::unique_ptr<ConsoleSettings> m_settings;
    std::unique_ptr<DraftStore> m_drafts;
    std::unique_ptr<MainWindow> m_window;
};

void TestReconnect::initTestCase() {
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    m_cluster = std::make_unique<TestClusterProcess>(opts);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));

    m_relay = m_relayThread.start(quint16(m_cluster->url().port()));
    QVERIFY(m_relay);

    // The same credentials and CA; only the port is the relay's.
    QFile in(m_cluster->kubeconfigPath());
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QString direct = m_cluster->url().toString();
    QString text = QString::fromUtf8(in.readAll());
    QVERIFY(text.contains(direct));
    text.replace(direct, m_relayThread.url());
    m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
    QFile out(m_kubeconfig);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(text.toUtf8());
    out.close();

    m_settings = std::make_unique<ConsoleSettings>(m_dir.filePath(QStringLiteral("settings.ini")));
    m_drafts = std::make_unique<DraftStore>(nullptr, m_dir.filePath(QStringLiteral("drafts")));
    m_window = std::make_unique<MainWindow>(m_settings.get(), m_drafts.get());
    // The cluster dashboard opens first; these tests are about the namespace list.
    m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(m_window->quotaPage());
    QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
    m_window->openKubeconfig(m_kubeconfig, QStringLiteral("admin"));
    m_window->show();
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 20000);
}

void TestReconnect::cleanupTestCase() {
    m_window.reset();
    m_relayThread.stop();
    m_relay = nullptr;
    m_cluster.reset();
}

QString TestReconnect::gpuCell(const QString &ns) const {
    const QAbstractItemModel *model = m_window->namespacePanel()->view()->model();
    const int row = rowWithText(model, NamespaceListModel::NameColumn, ns);
    return row < 0 ? QString() : model->index(row, NamespaceListModel::GpuColumn).data().toString();
}

bool TestReconnect::listHas(const QString &ns) const {
    return rowWithText(m_window->namespacePanel()->view()->model(), NamespaceListModel::NameColumn, ns) >= 0;
}

void TestReconnect::lostConnectionShowsBannerAndRecovers() {
    auto *banner = m_window->findChild<MessageBanner *>(QStringLiteral("errorBanner"));
    auto *state = m_window->findChild<QLabel *>(QStringLiteral("connectionLabel"));
    QVERIFY(banner && state);
    QVERIFY(banner->isHidden());
    QCOMPARE(gpuCell(QStringLiteral("team-vision")), QStringLiteral("13 / 16"));
    QVERIFY(!listHas(QStringLiteral("team-during-outage")));

    LoopProbe probe;
    QElapsedTimer outage;
    outage.start();
    m_relay->call([this] { m_relay->cut(); });

    // The banner names the problem: the lost connection and what the transport said.
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 20000);
    QCOMPARE(banner->level(), MessageBanner::Level::Warning);
    QVERIFY2(banner->text().contains(QStringLiteral("Lost the connection")), qPrintable(banner->text()));
    QTRY_VERIFY2_WITH_TIMEOUT(banner->text().contains(QStringLiteral("127.0.0.1:%1").arg(m_relay->port())),
                              qPrintable(banner->text()), 20000);
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Reconnecting);
    QVERIFY2(state->text().contains(QStringLiteral("Reconnecting")), qPrintable(state->text()));
    QVERIFY(QApplication::activeModalWidget() == nullptr); // nothing to click away

    // Changes made while the console cannot see the cluster.
    QCOMPARE(clusterKubectl({QStringLiteral("create"), QStringLiteral("namespace"),
                             QStringLiteral("team-during-outage")}),
             QStringLiteral("namespace/team-during-outage created"));
    const QString patched =
        clusterKubectl({QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                        QStringLiteral("-n"), QStringLiteral("team-vision"), QStringLiteral("--type"),
                        QStringLiteral("merge"), QStringLiteral("-p"),
                        QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"20"}}})")});
    QVERIFY2(!patched.startsWith(QLatin1String("ERROR")), qPrintable(patched));

    // The window is usable meanwhile: filtering answers, and the list keeps what it had.
    auto *filter = m_window->namespacePanel()->filterEdit();
    QTest::keyClicks(filter, QStringLiteral("vision"));
    QTRY_COMPARE(m_window->namespacePanel()->view()->model()->rowCount(), 1);
    filter->clear();
    QTest::qWait(1500);
    QCOMPARE(gpuCell(QStringLiteral("team-vision")), QStringLiteral("13 / 16"));
    QVERIFY(!listHas(QStringLiteral("team-during-outage")));
    QVERIFY(banner->isVisible());

    // The port answers again but drops every connection: the console retries with
    // backoff, not in a tight loop (three informers, a probe each, an identity check).
    bool relistening = false;
    m_relay->call([&] {
        m_relay->setMode(TcpRelay::Mode::Reset);
        relistening = m_relay->listen(m_relay->port());
    });
    QVERIFY2(relistening, "the relay's port was taken meanwhile");
    QTest::qWait(4000);
    const int resets = m_relay->resets();
    QVERIFY2(resets <= 40, qPrintable(QStringLiteral("%1 connection attempts in 4 s").arg(resets)));
    QVERIFY(banner->isVisible());

    // The server is back on the same port.
    m_relay->call([this] { m_relay->setMode(TcpRelay::Mode::Relay); });
    QTRY_COMPARE_WITH_TIMEOUT(gpuCell(QStringLiteral("team-vision")), QStringLiteral("13 / 20"), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(listHas(QStringLiteral("team-during-outage")), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(banner->isHidden(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 30000);
    QVERIFY2(!state->text().contains(QStringLiteral("Reconnecting")), qPrintable(state->text()));

    // The event loop ran throughout: a blocking connect or retry on the GUI thread
    // would show up as seconds here (2 shared cores: generous, but not that).
    const double expectedTicks = outage.elapsed() / 5.0;
    QVERIFY2(probe.worstMs() < 1000, qPrintable(QStringLiteral("worst stall %1 ms").arg(probe.worstMs())));
    QVERIFY2(probe.ticks() > expectedTicks / 10,
             qPrintable(QStringLiteral("%1 ticks of ~%2").arg(probe.ticks()).arg(expectedTicks)));
    qInfo("outage handled: %lld ms, %d reset attempts, worst GUI stall %lld ms", outage.elapsed(), resets,
          probe.worstMs());
}

// The seconds the banner's countdown shows, or -1 when it shows none.
static int countdownOf(const MessageBanner *banner) {
    static const QRegularExpression re(QStringLiteral("next attempt in (\\d+) s"));
    const QRegularExpressionMatch m = re.match(banner->text());
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

// While cut off, the banner counts down to the next attempt; "Retry now" makes one at
// once (seen at the relay), says "Connecting..." while it is under way, and a failed
// one waits longer. With the server back, Retry now reconnects long before the
// scheduled attempt.
void TestReconnect::countdownAndRetryNow() {
    // Reconnect with long waits: watch re-opens after 15-30 s, then 30-60 s.
    KubeClientOptions slow;
    slow.backoffBaseMs = 30000;
    slow.backoffMaxMs = 60000;
    slow.connectTimeoutMs = 3000; // a held connection fails after 3 s
    m_window->session()->setClientOptions(slow);
    QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
    m_window->openKubeconfig(m_kubeconfig, QStringLiteral("admin"));
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 20000);
    auto *banner = m_window->findChild<MessageBanner *>(QStringLiteral("errorBanner"));
    QVERIFY(banner);
    QPushButton *retry = banner->actionButton();
    QCOMPARE(retry->objectName(), QStringLiteral("retryNowButton"));
    QTRY_VERIFY(banner->isHidden());
    QVERIFY(!retry->isVisible());
    const QString server = m_relayThread.url();

    // A status message left from an earlier outage ("restored") must not contradict
    // the banner of a new one.
    m_window->statusBar()->showMessage(QStringLiteral("left from the last outage"), 60000);
    m_relay->call([this] { m_relay->cut(); });
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible() && countdownOf(banner) > 0, 20000);
    QVERIFY2(m_window->statusBar()->currentMessage().isEmpty(),
             qPrintable(m_window->statusBar()->currentMessage()));
    const int first = countdownOf(banner);
    QVERIFY2(first >= 10 && first <= 30, qPrintable(banner->text()));
    QVERIFY2(banner->text().contains(QStringLiteral("Reconnecting to ") + server),
             qPrintable(banner->text()));
    QVERIFY(retry->isVisible() && retry->isEnabled());
    QCOMPARE(retry->text(), QStringLiteral("Retry now"));
    // The countdown runs by itself.
    QTest::qWait(2500);
    const int later = countdownOf(banner);
    QVERIFY2(later > 0 && later <= first - 2,
             qPrintable(QStringLiteral("%1 s, then %2 s: %3").arg(first).arg(later).arg(banner->text())));
    shot(QStringLiteral("reconnect-countdown"));

    // The port accepts again but never answers. Nothing tries before the countdown
    // ends (no polling behind the banner)...
    bool relistening = false;
    m_relay->call([&] {
        m_relay->setMode(TcpRelay::Mode::Hold);
        relistening = m_relay->listen(m_relay->port());
    });
    QVERIFY2(relistening, "the relay's port was taken meanwhile");
    const int acceptedBefore = m_relay->accepted();
    QTest::qWait(1000);
    QCOMPARE(m_relay->accepted(), acceptedBefore);
    QVERIFY(countdownOf(banner) > 3);
    // ...until Retry now: the attempts start at once and the banner says so.
    QTest::mouseClick(retry, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(m_relay->accepted() > acceptedBefore, 3000);
    QTRY_VERIFY2_WITH_TIMEOUT(banner->text().contains(QStringLiteral("Connecting to ") + server),
                              qPrintable(banner->text()), 3000);
    QCOMPARE(countdownOf(banner), -1);
    QVERIFY(!retry->isEnabled()); // nothing waits to be cut short
    shot(QStringLiteral("reconnect-connecting"));

    // The held attempts time out; the next wait comes from a doubled backoff (30-60 s).
    QTRY_VERIFY_WITH_TIMEOUT(countdownOf(banner) > 0, 20000);
    const int doubled = countdownOf(banner);
    QVERIFY2(doubled >= 25, qPrintable(banner->text()));
    QVERIFY(retry->isEnabled());

    // The server is back: Retry now reconnects well before that.
    m_relay->call([this] { m_relay->setMode(TcpRelay::Mode::Relay); });
    QElapsedTimer since;
    since.start();
    QTest::mouseClick(retry, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 15000);
    QTRY_VERIFY(banner->isHidden());
    QVERIFY2(since.elapsed() < qint64(doubled - 5) * 1000, qPrintable(QString::number(since.elapsed())));
    qInfo("countdown %d s -> %d s; after a failed retry %d s; reconnected %lld ms after Retry now", first,
          later, doubled, since.elapsed());
}

QTEST_MAIN(TestReconnect)
#include "tst_reconnect.moc"
