// The console follows its kubeconfig file. It starts with a kubeconfig whose CA is
// another test cluster's: the banner must say that the certificate is not trusted,
// and that the kubeconfig is re-read. The test then replaces the file the way editors
// do (temporary file + rename) with the right CA, and the window connects without a
// restart. Later edits (in place, and by rename) add a context, which the picker shows
// without reconnecting, and remove the current one, which the banner reports while the
// connection is kept. Last, the server behind the same address starts presenting
// another CA's certificate while the console is live (a TCP relay switches to the
// second cluster), as after a CA rotation: the banner says so, and the rotated
// kubeconfig, once saved, brings the console back.

#include "services/settings/consolesettings.h"
#include "services/quotas/draftstore.h"
#include "widgets/common/errorbanner.h"
#include "tests/gui/guitestutil.h"
#include "tests/tcprelay.h"
#include "app/console/mainwindow.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "tests/testclusterprocess.h"

#include <QComboBox>
#include <QFile>
#include <QMutex>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace gq;
using namespace gq::test;

namespace {

QMutex g_logMutex;
QStringList g_log; // every message the console logged during the test

void collectMessages(QtMsgType, const QMessageLogContext &, const QString &message) {
    QMutexLocker lock(&g_logMutex);
    g_log << message;
    fprintf(stderr, "%s\n", qPrintable(message));
}

QString readText(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// As editors that keep a backup or write atomically do: a new file renamed over the old.
bool replaceFile(const QString &path, const QString &text) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(text.toUtf8());
    return f.commit();
}

// As editors that write in place do: truncate, then write.
bool rewriteInPlace(const QString &path, const QString &text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(text.toUtf8()) == text.toUtf8().size();
}

QStringList comboItems(const QComboBox *combo) {
    QStringList out;
    for (int i = 0; i < combo->count(); ++i)
        out << combo->itemText(i);
    return out;
}

} // namespace

class TestKubeconfigReload : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void untrustedCertificateThenFixedKubeconfigConnects();
    void addedContextShowsWithoutReconnecting();
    void removedContextIsReportedAndConnectionKept();
    void rotatedCaWhileLiveIsReportedThenPickedUp();
    void missingKubeconfigConnectsOnceWritten();
    void secretsAreNeverLogged();

private:
    [[nodiscard]] bool listHas(const QString &ns) const {
        return rowWithText(m_window->namespacePanel()->view()->model(), NamespaceListModel::NameColumn, ns) >=
               0;
    }
    [[nodiscard]] MessageBanner *banner() const {
        return m_window->findChild<MessageBanner *>(QStringLiteral("errorBanner"));
    }

    std::unique_ptr<TestClusterProcess> m_cluster; // the one the console talks to
    std::unique_ptr<TestClusterProcess> m_other;   // first its CA is the wrong one; last, it is "rotated" to
    RelayThread m_relayThread;                     // its address is the one in every kubeconfig below
    TcpRelay *m_relay = nullptr;                   // lives on m_relayThread
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    QString m_right;      // the cluster's own kubeconfig text, server = relay
    QString m_otherRight; // the other cluster's, server = relay
    std::unique_ptr<ConsoleSettings> m_settings;
    std::unique_ptr<DraftStore> m_drafts;
    std::unique_ptr<MainWindow> m_window;
};

void TestKubeconfigReload::initTestCase() {
    qInstallMessageHandler(collectMessages);
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    m_cluster = std::make_unique<TestClusterProcess>(opts);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    m_other = std::make_unique<TestClusterProcess>();
    QVERIFY2(m_other->start(), qPrintable(m_other->errorString()));

    m_relay = m_relayThread.start(quint16(m_cluster->url().port()));
    QVERIFY(m_relay);
    const QString relayUrl = m_relayThread.url();

    m_right = readText(m_cluster->kubeconfigPath());
    QVERIFY(m_right.contains(QStringLiteral("certificate-authority-data")));
    QVERIFY(m_right.contains(m_cluster->url().toString()));
    m_right.replace(m_cluster->url().toString(), relayUrl);
    m_otherRight = readText(m_other->kubeconfigPath());
    QVERIFY(m_otherRight.contains(m_other->url().toString()));
    m_otherRight.replace(m_other->url().toString(), relayUrl);
    // While the relay leads to the first cluster, the other's kubeconfig has the wrong CA.
    QVERIFY(m_otherRight != m_right);
    m_kubeconfig = m_dir.filePath(QStringLiteral("config"));
    QVERIFY(replaceFile(m_kubeconfig, m_otherRight));

    m_settings = std::make_unique<ConsoleSettings>(m_dir.filePath(QStringLiteral("settings.ini")));
    m_drafts = std::make_unique<DraftStore>(nullptr, m_dir.filePath(QStringLiteral("drafts")));
    m_window = std::make_unique<MainWindow>(m_settings.get(), m_drafts.get());
    // The cluster dashboard opens first; these tests are about the namespace list.
    m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(m_window->quotaPage());
    m_window->openKubeconfig(m_kubeconfig, QStringLiteral("admin"));
    m_window->show();
}

void TestKubeconfigReload::cleanupTestCase() {
    m_window.reset();
    m_relayThread.stop();
    m_relay = nullptr;
    m_other.reset();
    m_cluster.reset();
    qInstallMessageHandler(nullptr);
}

void TestKubeconfigReload::untrustedCertificateThenFixedKubeconfigConnects() {
    MessageBanner *b = banner();
    QVERIFY(b);
    QTRY_VERIFY_WITH_TIMEOUT(b->isVisible() && b->text().contains(QStringLiteral("not trusted")), 30000);
    QVERIFY2(b->text().contains(QStringLiteral("The server's certificate is not trusted by the CA in your "
                                               "kubeconfig")),
             qPrintable(b->text()));
    QVERIFY2(b->text().contains(QStringLiteral("re-read automatically")), qPrintable(b->text()));
    QCOMPARE(b->level(), MessageBanner::Level::Error);
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Reconnecting);
    QVERIFY(b->actionButton()->isVisible()); // Retry now
    QVERIFY(!listHas(QStringLiteral("team-vision")));
    QVERIFY(m_window->session()->watchedFiles().contains(m_kubeconfig));
    if (const QString dir = qEnvironmentVariable("GQ_SHOT_DIR"); !dir.isEmpty())
        m_window->grab().save(dir + QStringLiteral("/kubeconfig-untrusted-ca.png"));
    // It keeps saying so (no flicker to a generic message) while it retries.
    QTest::qWait(1500);
    QVERIFY2(b->text().contains(QStringLiteral("not trusted")), qPrintable(b->text()));
    QVERIFY(!listHas(QStringLiteral("team-vision")));

    // The fix arrives the way an editor saves: a new file renamed over the old one.
    QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
    QVERIFY(replaceFile(m_kubeconfig, m_right));
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 20000);
    QTRY_VERIFY(b->isHidden());
    QVERIFY(listHas(QStringLiteral("team-vision")));
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->session()->identity().isEmpty(), 10000);
}

void TestKubeconfigReload::addedContextShowsWithoutReconnecting() {
    auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("contextCombo"));
    QVERIFY(combo);
    QCOMPARE(combo->currentText(), QStringLiteral("admin"));
    QVERIFY(!comboItems(combo).contains(QStringLiteral("extra")));
    const KubeClient *client = m_window->session()->client().get();
    QSignalSpy states(m_window->session(), &ClusterConnection::stateChanged);

    QString text = m_right;
    text.replace(QStringLiteral("contexts:\n"), QStringLiteral("contexts:\n- name: extra\n  context:\n"
                                                               "    cluster: gpuquota-test\n"
                                                               "    user: gq-viewer\n"));
    QVERIFY(rewriteInPlace(m_kubeconfig, text));
    QTRY_VERIFY_WITH_TIMEOUT(comboItems(combo).contains(QStringLiteral("extra")), 10000);
    QCOMPARE(combo->currentText(), QStringLiteral("admin"));
    // The current context's connection did not change: same client, no relist.
    QTest::qWait(500);
    QCOMPARE(m_window->session()->client().get(), client);
    QCOMPARE(states.count(), 0);
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Live);
    QVERIFY(banner()->isHidden());
}

void TestKubeconfigReload::removedContextIsReportedAndConnectionKept() {
    auto *combo = m_window->findChild<QComboBox *>(QStringLiteral("contextCombo"));
    const KubeClient *client = m_window->session()->client().get();
    QString text = m_right;
    text.replace(QStringLiteral("- name: admin\n"), QStringLiteral("- name: admin-renamed\n"));
    text.replace(QStringLiteral("current-context: admin\n"),
                 QStringLiteral("current-context: admin-renamed\n"));
    QVERIFY(replaceFile(m_kubeconfig, text));

    MessageBanner *b = banner();
    QTRY_VERIFY_WITH_TIMEOUT(b->isVisible(), 10000);
    QVERIFY2(b->text().contains(QStringLiteral("\"admin\" is no longer in the kubeconfig")),
             qPrintable(b->text()));
    QVERIFY(comboItems(combo).contains(QStringLiteral("admin-renamed")));
    QVERIFY(!comboItems(combo).contains(QStringLiteral("admin")));
    QVERIFY2(combo->placeholderText().contains(QStringLiteral("admin")),
             qPrintable(combo->placeholderText()));
    // The working connection stays: the list is still there and live.
    QCOMPARE(m_window->session()->client().get(), client);
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Live);
    QVERIFY(listHas(QStringLiteral("team-vision")));

    // Put back: the problem goes away, the picker shows the context again.
    QVERIFY(replaceFile(m_kubeconfig, m_right));
    QTRY_VERIFY_WITH_TIMEOUT(b->isHidden(), 10000);
    QTRY_COMPARE(combo->currentText(), QStringLiteral("admin"));
    QCOMPARE(m_window->session()->client().get(), client);
}

void TestKubeconfigReload::rotatedCaWhileLiveIsReportedThenPickedUp() {
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Live);
    QVERIFY(listHas(QStringLiteral("team-vision")));
    MessageBanner *b = banner();
    QVERIFY(b->isHidden());

    // Same address, another CA's certificate from now on.
    bool relistening = false;
    m_relay->call([&] {
        m_relay->cut();
        m_relay->setUpstream(quint16(m_other->url().port()));
        relistening = m_relay->listen(m_relay->port());
    });
    QVERIFY2(relistening, "the relay's port was taken meanwhile");
    QTRY_VERIFY_WITH_TIMEOUT(b->isVisible() &&
                                 b->text().contains(QStringLiteral("not trusted by the CA in your "
                                                                   "kubeconfig")),
                             30000);
    QCOMPARE(b->level(), MessageBanner::Level::Error);
    QCOMPARE(m_window->session()->state(), ClusterConnection::State::Reconnecting);
    QVERIFY(listHas(QStringLiteral("team-vision"))); // what was listed stays meanwhile

    // The admin saves the kubeconfig with the new CA (and that cluster's credentials).
    QVERIFY(replaceFile(m_kubeconfig, m_otherRight));
    QTRY_COMPARE_WITH_TIMEOUT(m_window->session()->state(), ClusterConnection::State::Live, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!listHas(QStringLiteral("team-vision")),
                             10000); // the other cluster has no teams
    QVERIFY(listHas(QStringLiteral("default")));
    QTRY_VERIFY(b->isHidden());
}

// A first start before the kubeconfig exists: the window says what is missing, then
// connects by itself once the file is written (a broken one first is reported too).
void TestKubeconfigReload::missingKubeconfigConnectsOnceWritten() {
    const QString path = m_dir.filePath(QStringLiteral("config-later"));
    ConsoleSettings settings(m_dir.filePath(QStringLiteral("settings-later.ini")));
    DraftStore drafts(nullptr, m_dir.filePath(QStringLiteral("drafts-later")));
    MainWindow window(&settings, &drafts);
    window.openKubeconfig(path);
    window.show();
    auto *b = window.findChild<MessageBanner *>(QStringLiteral("errorBanner"));
    QVERIFY(b);
    // Not there at all: the start page says so (a first start, not an error).
    auto *start = window.findChild<QWidget *>(QStringLiteral("startPage"));
    QVERIFY(start);
    QTRY_VERIFY_WITH_TIMEOUT(start->isVisible(), 10000);
    QVERIFY(!b->isVisible());
    QCOMPARE(window.session()->state(), ClusterConnection::State::Disconnected);

    // There but broken: that is an error, and the banner says why.
    QVERIFY(replaceFile(path, QStringLiteral("apiVersion: v1\nclusters: [\n")));
    QTRY_VERIFY_WITH_TIMEOUT(
        b->isVisible() && b->text().contains(QStringLiteral("Cannot read the kubeconfig")), 10000);
    QVERIFY(!start->isVisible());
    QCOMPARE(window.session()->state(), ClusterConnection::State::Failed);

    QSignalSpy shown(&window, &MainWindow::dataShown);
    QVERIFY(rewriteInPlace(path, readText(m_cluster->kubeconfigPath())));
    QVERIFY(shown.wait(30000));
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->state(), ClusterConnection::State::Live, 20000);
    QTRY_VERIFY(b->isHidden());
    auto *combo = window.findChild<QComboBox *>(QStringLiteral("contextCombo"));
    QCOMPARE(combo->currentText(), QStringLiteral("admin")); // the file's current-context
    QVERIFY(comboItems(combo).contains(QStringLiteral("readonly")));
    QVERIFY(rowWithText(window.namespacePanel()->view()->model(), NamespaceListModel::NameColumn,
                        QStringLiteral("team-vision")) >= 0);
}

void TestKubeconfigReload::secretsAreNeverLogged() {
    QStringList secrets;
    for (const QString &line : QString(m_right + m_otherRight).split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        for (const QString &key : {QStringLiteral("token: "), QStringLiteral("client-key-data: ")})
            if (t.startsWith(key))
                secrets << t.mid(key.size());
    }
    QCOMPARE(secrets.size(), 6); // two tokens and one key per cluster
    QMutexLocker lock(&g_logMutex);
    for (const QString &message : std::as_const(g_log)) {
        QVERIFY(!message.contains(QStringLiteral("PRIVATE KEY")));
        for (const QString &s : std::as_const(secrets))
            QVERIFY2(!message.contains(s), "a token or key was logged");
    }
}

QTEST_MAIN(TestKubeconfigReload)
#include "tst_kubeconfigreload.moc"
