// A first run on a real cluster, driven as a user would, offscreen, against the real
// test cluster: the guided start with an empty HOME (no kubeconfig at all), the offer of
// an embedded database, connections swapped with the context, the Connections tab's Test
// buttons (SQLite, PostgreSQL from GQ_TEST_PG_URL, failures in words), discovery that
// saves nothing before the admin confirms, secrets kept out of the settings file, and
// the window layout restored.
//
// With GQ_SCREENSHOT_DIR set it also saves the README's screenshots there (and with
// GQ_SCREENSHOT_QM, a .qm to load first, the translated ones, suffixed GQ_SCREENSHOT_SUFFIX).

#include "tests/gui/consolefixture.h"
#include "tests/gui/guitestutil.h"

#include "services/cluster/connectionprobe.h"
#include "services/settings/connectionsettings.h"
#include "widgets/connections/connectionstab.h"
#include "widgets/common/errorbanner.h"
#include "services/cluster/kubeconfigwatcher.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/settings/preferencesdialog.h"
#include "widgets/connections/startpage.h"
#include "core/usage/usagestore.h"

#include "tests/services/futurewait.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTcpServer>
#include <QTranslator>

using namespace gq;
using namespace gq::test;

// Screenshots in another language (GQ_SCREENSHOT_QM) run the same steps; only the
// English words are not compared there.
#define GQ_VERIFY_WORDS(cond, text)                                                                          \
    do {                                                                                                     \
        if (qEnvironmentVariableIsEmpty("GQ_SCREENSHOT_QM"))                                                 \
            QVERIFY2(cond, qPrintable(text));                                                                \
    } while (false)

namespace {

// The Audit tab's index (the tab order grows as pages are added).
int auditTab(const QTabWidget *tabs) {
    for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabText(i) == QLatin1String("Audit"))
            return i;
    }
    return -1;
}
// How the window keeps a context's connections: by name and API server.
ContextId idOf(const MainWindow &window, const QString &context) {
    return {context, window.session()->kubeconfig()->serverOf(context)};
}

QString fileText(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

int closedPort() {
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

void seedDatabase(const QString &url) {
    auto store = UsageStore::open(url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    const qint64 now = QDateTime::currentSecsSinceEpoch();
    for (int i = 0; i < 5; ++i) {
        UsageInterval iv;
        iv.cluster = QStringLiteral("test");
        iv.ns = QStringLiteral("team-a");
        iv.user = QStringLiteral("alice");
        iv.podUid = QStringLiteral("uid-%1").arg(i);
        iv.podName = QStringLiteral("train-%1").arg(i);
        iv.gpus = 2;
        iv.start = now - 7200 + i * 1400;
        iv.end = iv.start + 600;
        QVERIFY((*store)->upsertInterval(iv));
    }
}
} // namespace

class TestConnections : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void guidedStartWithAnEmptyHome();
    void embeddedDatabaseOffered();
    void contextSwitchSwapsConnections();
    void testButtonsSayWhatWorks();
    void secretsStayOutOfTheSettingsFile();
    void passwordsInUrlsGoToTheKeychain();
    void discoverySavesNothingBeforeConfirmation();
    void layoutRestored();
    void startPageByKey();
    void cleanupTestCase() { m_fx.stop(); }

private:
    PreferencesDialog *openConnections(MainWindow &window);
    // Opens `kubeconfig` as admin and shows the window; false when no data showed.
    static bool showAsAdmin(MainWindow &window, const QString &kubeconfig);
    void shoot(QWidget *w, const QString &name);
    QString dbUrl(const char *name) const {
        return QStringLiteral("sqlite://") + m_fx.path(QLatin1String(name));
    }

    ConsoleFixture m_fx;
    QString m_home;
};

void TestConnections::initTestCase() {
    // A new user: nothing in HOME, no KUBECONFIG.
    QVERIFY(m_fx.dir.isValid());
    m_home = m_fx.path(QStringLiteral("home"));
    QVERIFY(QDir().mkpath(m_home));
    qputenv("HOME", m_home.toUtf8());
    qunsetenv("KUBECONFIG");
    qputenv("GQ_SECRET_STORE", "memory");
    QVERIFY2(m_fx.startCluster().isEmpty(), "the test cluster starts");
    // Screenshots in another language: our catalogue, Qt's own (OK, Cancel) and its locale.
    if (const QString qm = qEnvironmentVariable("GQ_SCREENSHOT_QM"); !qm.isEmpty()) {
        auto *t = new QTranslator(qApp);
        QVERIFY2(t->load(qm), qPrintable(qm));
        QCoreApplication::installTranslator(t);
        const QLocale locale(t->language());
        QLocale::setDefault(locale);
        auto *qt = new QTranslator(qApp);
        if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
    }
}

void TestConnections::shoot(QWidget *w, const QString &name) {
    const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QTest::qWait(200);
    QVERIFY(w->grab().save(
        QDir(dir).filePath(name + qEnvironmentVariable("GQ_SCREENSHOT_SUFFIX") + QStringLiteral(".png"))));
}

bool TestConnections::showAsAdmin(MainWindow &window, const QString &kubeconfig) {
    QSignalSpy shown(&window, &MainWindow::dataShown);
    window.openKubeconfig(kubeconfig, QStringLiteral("admin"));
    window.show();
    return shown.wait(30000);
}

PreferencesDialog *TestConnections::openConnections(MainWindow &window) {
    PreferencesDialog *d = window.openPreferences(PreferencesDialog::Tab::Connections);
    if (!QTest::qWaitFor([d] { return d->isVisible(); }, 5000))
        return nullptr;
    return d;
}

// No kubeconfig anywhere: a start page that says what the console needs, not a red
// banner; once the file is there the window connects by itself.
void TestConnections::guidedStartWithAnEmptyHome() {
    ConsoleSettings settings(m_fx.path(QStringLiteral("guided.ini")));
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-guided")));
    MainWindow window(&settings, &drafts);
    window.setDataDirectory(m_fx.path(QStringLiteral("data")));
    QSignalSpy demo(&window, &MainWindow::demoRequested);
    window.openKubeconfig(QString());
    window.resize(1100, 720);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    StartPage *start = window.startPage();
    QTRY_VERIFY_WITH_TIMEOUT(start->isVisible(), 10000);
    auto *reason = start->findChild<QLabel *>(QStringLiteral("startReason"));
    QVERIFY2(reason->text().contains(QStringLiteral("~/.kube/config")), qPrintable(reason->text()));
    GQ_VERIFY_WORDS(reason->text().contains(QStringLiteral("KUBECONFIG is not set")), reason->text());
    auto *banner = window.findChild<MessageBanner *>(QStringLiteral("errorBanner"));
    QVERIFY(!banner->isVisible());
    QVERIFY(start->findChild<QPushButton *>(QStringLiteral("openKubeconfigButton")));
    QVERIFY(
        start->findChild<QLabel *>(QStringLiteral("guideLink"))->text().contains(QStringLiteral("href=")));
    QVERIFY(!window.findChild<QComboBox *>(QStringLiteral("contextCombo"))->isEnabled());
    shoot(&window, QStringLiteral("guided-start"));

    QTest::mouseClick(start->findChild<QPushButton *>(QStringLiteral("tryDemoButton")), Qt::LeftButton);
    QCOMPARE(demo.count(), 1);
    QVERIFY(!start->isVisible());
}

// A kubeconfig appears in HOME: the window connects by itself, and offers an embedded
// database for the context, which works at once.
void TestConnections::embeddedDatabaseOffered() {
    ConsoleSettings settings(m_fx.path(QStringLiteral("offer.ini")));
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-offer")));
    MainWindow window(&settings, &drafts);
    window.setDataDirectory(m_fx.path(QStringLiteral("data")));
    QSignalSpy shown(&window, &MainWindow::dataShown);
    window.openKubeconfig(QString());
    window.show();
    QTRY_VERIFY_WITH_TIMEOUT(window.startPage()->isVisible(), 10000);
    QVERIFY(QDir().mkpath(m_home + QStringLiteral("/.kube")));
    QVERIFY(QFile::copy(m_fx.kubeconfig(), m_home + QStringLiteral("/.kube/config")));
    QVERIFY(shown.wait(30000));
    QVERIFY(!window.startPage()->isVisible());

    auto *offer = window.findChild<MessageBanner *>(QStringLiteral("usageOfferBanner"));
    QTRY_VERIFY(offer->isVisible());
    GQ_VERIFY_WORDS(offer->text().contains(QStringLiteral("embedded SQLite")), offer->text());
    GQ_VERIFY_WORDS(offer->text().contains(QStringLiteral("controller")), offer->text());
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
    tabs->setCurrentIndex(auditTab(tabs));
    // The Audit tab's own notice (the Live GPUs tab has a gate of its own).
    QTRY_VERIFY(tabs->currentWidget()->findChild<QWidget *>(QStringLiteral("sourceNotice"))->isVisible());
    QVERIFY(!window.usageDatabase()->isOpen());

    QSignalSpy opened(window.usageDatabase(), &UsageService::opened);
    QTest::mouseClick(offer->actionButton(), Qt::LeftButton);
    QVERIFY(opened.wait(10000));
    const QString context = window.session()->contextName();
    const QString url = embeddedDatabaseUrl(m_fx.path(QStringLiteral("data")), context);
    QCOMPARE(window.usageDatabase()->url(), url);
    QVERIFY(!idOf(window, context).server.isEmpty());
    QCOMPARE(loadConnections(settings, idOf(window, context)).usageDatabaseUrl, url);
    QVERIFY(QFile::exists(url.mid(9)));
    QTRY_VERIFY(!offer->isVisible());
    QVERIFY(!tabs->widget(auditTab(tabs))->findChild<QWidget *>(QStringLiteral("sourceNotice"))->isVisible());
}

// Each context has its own database and metrics settings; switching swaps them, and a
// context without a database says what to configure and opens the right tab.
void TestConnections::contextSwitchSwapsConnections() {
    ConsoleSettings settings(m_fx.path(QStringLiteral("switch.ini")));
    ContextConnections admin;
    admin.usageDatabaseUrl = dbUrl("admin.db");
    ContextConnections readonly;
    readonly.usageDatabaseUrl = dbUrl("readonly.db");
    readonly.metricsSource = MetricsSource::Prometheus;
    readonly.prometheusUrl = QStringLiteral("http://prometheus.readonly:9090");
    saveConnections(settings, QStringLiteral("admin"), admin);
    saveConnections(settings, QStringLiteral("readonly"), readonly);
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-switch")));
    MainWindow window(&settings, &drafts);
    QSignalSpy changed(&window, &MainWindow::connectionsChanged);
    QSignalSpy shown(&window, &MainWindow::dataShown);
    window.openKubeconfig(m_fx.kubeconfig(), QStringLiteral("admin"));
    window.show();
    QVERIFY(shown.wait(30000));
    QTRY_VERIFY(window.usageDatabase()->isOpen());
    QCOMPARE(window.usageDatabase()->url(), admin.usageDatabaseUrl);
    QCOMPARE(window.connections(), admin);

    auto *combo = window.findChild<QComboBox *>(QStringLiteral("contextCombo"));
    const auto activate = [combo](const QString &name) {
        const int i = combo->findText(name);
        QVERIFY(i >= 0);
        combo->setCurrentIndex(i);
        emit combo->activated(i);
    };
    activate(QStringLiteral("readonly"));
    QTRY_COMPARE(window.usageDatabase()->url(), readonly.usageDatabaseUrl);
    QTRY_VERIFY(window.usageDatabase()->isOpen());
    QCOMPARE(window.connections(), readonly);
    QCOMPARE(changed.last().at(0).toString(), QStringLiteral("readonly"));
    QCOMPARE(changed.last().at(1).value<ContextConnections>(), readonly);

    activate(QStringLiteral("admin"));
    QTRY_COMPARE(window.usageDatabase()->url(), admin.usageDatabaseUrl);

    // No database for this one: the Audit tab says so and opens the Connections tab.
    activate(QStringLiteral("admin-cert"));
    QTRY_VERIFY(!window.usageDatabase()->isOpen());
    QCOMPARE(window.connections(), ContextConnections());
    auto *detailTabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
    detailTabs->setCurrentIndex(auditTab(detailTabs));
    auto *notice = detailTabs->currentWidget()->findChild<QLabel *>(QStringLiteral("sourceNoticeText"));
    QTRY_VERIFY(notice->isVisible());
    QVERIFY2(notice->text().contains(QStringLiteral("admin-cert")), qPrintable(notice->text()));
    // Every page of the usage database says the same, with the same button.
    const QStringList gates{QStringLiteral("dashboardGate"), QStringLiteral("usageGate"),
                            QStringLiteral("budgetsGate"),   QStringLiteral("boostsGate"),
                            QStringLiteral("auditGate"),     QStringLiteral("chargebackGate")};
    for (const QString &name : gates) {
        auto *gate = window.findChild<SourceGate *>(name);
        QVERIFY2(gate, qPrintable(name));
        QVERIFY2(!gate->showsPage(), qPrintable(name));
        QVERIFY(gate->findChild<QLabel *>(QStringLiteral("sourceNoticeText"))
                    ->text()
                    .contains(QStringLiteral("admin-cert")));
    }
    auto *budgets = window.findChild<SourceGate *>(QStringLiteral("budgetsGate"));
    detailTabs->setCurrentWidget(budgets);
    QTRY_VERIFY(budgets->findChild<QPushButton *>(QStringLiteral("sourceNoticeButton"))->isVisible());
    QTest::mouseClick(budgets->findChild<QPushButton *>(QStringLiteral("sourceNoticeButton")),
                      Qt::LeftButton);
    auto *prefs = visibleDialog<PreferencesDialog>(QStringLiteral("preferencesDialog"));
    QTRY_VERIFY((prefs = visibleDialog<PreferencesDialog>(QStringLiteral("preferencesDialog"))));
    QCOMPARE(prefs->tabs()->currentWidget(), static_cast<QWidget *>(prefs->connections()));
    QCOMPARE(prefs->connections()->context(), QStringLiteral("admin-cert"));
    prefs->reject();
    // Back on a context with a database: every page again.
    activate(QStringLiteral("admin"));
    QTRY_VERIFY(window.usageDatabase()->isOpen());
    for (const QString &name : gates)
        QVERIFY2(window.findChild<SourceGate *>(name)->showsPage(), qPrintable(name));
}

// Test buttons: what works and what does not, in words, off the GUI thread.
void TestConnections::testButtonsSayWhatWorks() {
    seedDatabase(dbUrl("tested.db"));
    ConsoleSettings settings(m_fx.path(QStringLiteral("tests.ini")));
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-tests")));
    MainWindow window(&settings, &drafts);
    QVERIFY(showAsAdmin(window, m_fx.kubeconfig()));
    PreferencesDialog *d = openConnections(window);
    QVERIFY(d);
    ConnectionsTab *tab = d->connections();
    auto *url = tab->findChild<QLineEdit *>(QStringLiteral("databaseUrl"));
    auto *result = tab->findChild<QLabel *>(QStringLiteral("databaseResult"));
    auto *test = tab->findChild<QPushButton *>(QStringLiteral("testDatabaseButton"));

    // Each result starts with its mark; the words after it are compared in English.
    const auto waitFor = [](QLabel *label, const QString &mark) {
        return QTest::qWaitFor([&] { return label->text().startsWith(mark); }, 10000);
    };
    const QString failed = QStringLiteral("\u2716 "), passed = QStringLiteral("\u2714 ");
    url->setText(QStringLiteral("sqlite://") + m_fx.path(QStringLiteral("nowhere/usage.db")));
    QTest::mouseClick(test, Qt::LeftButton);
    QVERIFY2(waitFor(result, failed), qPrintable(result->text()));
    GQ_VERIFY_WORDS(result->text().startsWith(failed + QStringLiteral("no database file at")),
                    result->text());

    url->setText(dbUrl("tested.db"));
    QTest::mouseClick(test, Qt::LeftButton);
    QVERIFY2(waitFor(result, passed), qPrintable(result->text()));
    GQ_VERIFY_WORDS(result->text().startsWith(passed + QStringLiteral("connected, schema v")),
                    result->text());
    GQ_VERIFY_WORDS(result->text().contains(QStringLiteral("5 intervals, newest")), result->text());

    // The metrics source: Prometheus that is not there.
    auto *source = tab->findChild<QComboBox *>(QStringLiteral("metricsSource"));
    source->setCurrentIndex(source->findData(QStringLiteral("prometheus")));
    tab->findChild<QLineEdit *>(QStringLiteral("prometheusUrl"))
        ->setText(QStringLiteral("http://127.0.0.1:%1").arg(closedPort()));
    QTest::mouseClick(tab->findChild<QPushButton *>(QStringLiteral("testMetricsButton")), Qt::LeftButton);
    auto *metrics = tab->findChild<QLabel *>(QStringLiteral("metricsResult"));
    QVERIFY2(waitFor(metrics, failed), qPrintable(metrics->text()));
    GQ_VERIFY_WORDS(metrics->text().startsWith(failed + QStringLiteral("cannot reach http://127.0.0.1:")),
                    metrics->text());
    tab->findChild<QLineEdit *>(QStringLiteral("controllerUrl"))
        ->setText(QStringLiteral("gpuquota-controller"));
    QTest::mouseClick(tab->findChild<QPushButton *>(QStringLiteral("testControllerButton")), Qt::LeftButton);
    auto *controller = tab->findChild<QLabel *>(QStringLiteral("controllerResult"));
    QVERIFY2(waitFor(controller, failed), qPrintable(controller->text()));
    GQ_VERIFY_WORDS(controller->text().startsWith(failed + QStringLiteral("not an http:// or https:// URL")),
                    controller->text());
    shoot(d, QStringLiteral("connections-tab"));

    const QString pg = qEnvironmentVariable("GQ_TEST_PG_URL");
    if (pg.isEmpty()) {
        if (qEnvironmentVariable("CI") == QLatin1String("true"))
            QFAIL("CI=true but GQ_TEST_PG_URL is not set");
    } else {
        const QString schema = QStringLiteral("gqconngui_%1").arg(QCoreApplication::applicationPid());
        const QString pgUrl =
            pg + (pg.contains(QLatin1Char('?')) ? QStringLiteral("&schema=") : QStringLiteral("?schema=")) +
            schema;
        seedDatabase(pgUrl);
        url->setText(pgUrl);
        QTest::mouseClick(test, Qt::LeftButton);
        QVERIFY2(waitFor(result, passed), qPrintable(result->text()));
        GQ_VERIFY_WORDS(result->text().contains(QStringLiteral("5 intervals")), result->text());
        auto store = UsageStore::open(pgUrl);
        QVERIFY(store);
        QSqlQuery q((*store)->database());
        QVERIFY(q.exec(QStringLiteral("DROP SCHEMA \"%1\" CASCADE").arg(schema)));
    }
    d->reject();
}

// Passwords and tokens typed in the tab go to the SecretStore; the file never has them.
void TestConnections::secretsStayOutOfTheSettingsFile() {
    const QString path = m_fx.path(QStringLiteral("secrets.ini"));
    ConsoleSettings settings(path);
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-secrets")));
    MainWindow window(&settings, &drafts);
    QVERIFY(showAsAdmin(window, m_fx.kubeconfig()));
    PreferencesDialog *d = openConnections(window);
    QVERIFY(d);
    ConnectionsTab *tab = d->connections();
    const QString password = QStringLiteral("db-pass-c0ffee");
    const QString token = QStringLiteral("prom-token-beef42");
    tab->findChild<QLineEdit *>(QStringLiteral("databaseUrl"))
        ->setText(QStringLiteral("postgresql://gq@db:5432/gq"));
    QTest::keyClicks(tab->findChild<QLineEdit *>(QStringLiteral("databasePassword")), password);
    auto *source = tab->findChild<QComboBox *>(QStringLiteral("metricsSource"));
    source->setCurrentIndex(source->findData(QStringLiteral("prometheus")));
    tab->findChild<QLineEdit *>(QStringLiteral("prometheusUrl"))
        ->setText(QStringLiteral("https://prom:9090"));
    QTest::keyClicks(tab->findChild<QLineEdit *>(QStringLiteral("prometheusToken")), token);
    QTest::mouseClick(
        d->findChild<QDialogButtonBox *>(QStringLiteral("preferencesButtons"))->button(QDialogButtonBox::Ok),
        Qt::LeftButton);
    QTRY_VERIFY(!d->isVisible() || d->isHidden());
    const QString admin = idOf(window, QStringLiteral("admin")).key();
    QCOMPARE(*waitFor(settings.secret(settings::usageDatabaseSecret, admin)), password);
    QCOMPARE(*waitFor(settings.secret(settings::prometheusToken, admin)), token);
    settings.sync();
    const QString text = fileText(path);
    QVERIFY2(text.contains(QStringLiteral("https://prom:9090")), qPrintable(text));
    QVERIFY2(!text.contains(password) && !text.contains(token), qPrintable(text));
}

// A password typed into a database or Prometheus URL: saved to the keychain, the URL
// without it to the settings file (grepped), and the tab says so.
void TestConnections::passwordsInUrlsGoToTheKeychain() {
    const QString path = m_fx.path(QStringLiteral("urlsecrets.ini"));
    ConsoleSettings settings(path, std::make_unique<MemorySecretStore>());
    ConnectionsTab tab(&settings, std::make_shared<ConnectionProbe>());
    const ContextId id{QStringLiteral("prod"), QStringLiteral("https://prod.example:6443")};
    tab.setContexts({id.name}, id.name, {{id.name, id.server}});
    const QString dbPassword = QStringLiteral("db-url-pw-7a3f");
    const QString promPassword = QStringLiteral("prom-url-pw-91c2");
    tab.findChild<QLineEdit *>(QStringLiteral("databaseUrl"))
        ->setText(QStringLiteral("postgresql://gq:%1@db:5432/gq").arg(dbPassword));
    auto *source = tab.findChild<QComboBox *>(QStringLiteral("metricsSource"));
    source->setCurrentIndex(source->findData(QStringLiteral("prometheus")));
    tab.findChild<QLineEdit *>(QStringLiteral("prometheusUrl"))
        ->setText(QStringLiteral("https://viewer:%1@prom:9090").arg(promPassword));
    QCOMPARE(tab.save(), QStringList{id.name});
    const ContextConnections saved = loadConnections(settings, id);
    QCOMPARE(saved.usageDatabaseUrl, QStringLiteral("postgresql://gq@db:5432/gq"));
    QCOMPARE(saved.prometheusUrl, QStringLiteral("https://viewer@prom:9090"));
    QCOMPARE(*waitFor(settings.secret(settings::usageDatabaseSecret, id.key())), dbPassword);
    QCOMPARE(*waitFor(settings.secret(settings::prometheusUrlPassword, id.key())), promPassword);
    QCOMPARE(tab.findChild<QLineEdit *>(QStringLiteral("databaseUrl"))->text(), saved.usageDatabaseUrl);
    QCOMPARE(tab.findChild<QLineEdit *>(QStringLiteral("prometheusUrl"))->text(), saved.prometheusUrl);
    const QString notice = tab.findChild<QLabel *>(QStringLiteral("secretNotice"))->text();
    GQ_VERIFY_WORDS(notice.contains(QStringLiteral("moved to the keychain")), notice);
    settings.sync();
    const QString text = fileText(path);
    QVERIFY2(text.contains(QStringLiteral("viewer@prom:9090")), qPrintable(text));
    QVERIFY2(!text.contains(dbPassword) && !text.contains(promPassword), qPrintable(text));
}

// The cluster advertises its connections; the tab shows them and saves nothing until
// the admin says yes and then OK.
void TestConnections::discoverySavesNothingBeforeConfirmation() {
    const QString kc = m_fx.kubeconfig();
    QCOMPARE(kubectl(kc, {QStringLiteral("create"), QStringLiteral("namespace"),
                          QStringLiteral("gpuquota-system")})
                 .startsWith(QStringLiteral("ERROR")),
             false);
    const QString made = kubectl(
        kc, {QStringLiteral("create"), QStringLiteral("configmap"), QStringLiteral("gpuquota-controller"),
             QStringLiteral("-n"), QStringLiteral("gpuquota-system"),
             QStringLiteral("--from-literal=usageDatabase=postgresql://gq@pg.gpuquota-system:5432/gpuquota"),
             QStringLiteral("--from-literal=controllerUrl=https://gpuquota.example.com")});
    QVERIFY2(!made.startsWith(QStringLiteral("ERROR")), qPrintable(made));

    ConsoleSettings settings(m_fx.path(QStringLiteral("discover.ini")));
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-discover")));
    MainWindow window(&settings, &drafts);
    QVERIFY(showAsAdmin(window, kc));
    PreferencesDialog *d = openConnections(window);
    QVERIFY(d);
    ConnectionsTab *tab = d->connections();
    auto *discover = tab->findChild<QPushButton *>(QStringLiteral("discoverButton"));
    QVERIFY(discover->isEnabled());
    QTest::mouseClick(discover, Qt::LeftButton);
    QMessageBox *confirm = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((confirm = visibleDialog<QMessageBox>(QStringLiteral("discoveryConfirm"))),
                             15000);
    QVERIFY2(confirm->informativeText().contains(
                 QStringLiteral("postgresql://gq@pg.gpuquota-system:5432/gpuquota")),
             qPrintable(confirm->informativeText()));
    QCOMPARE(loadConnections(settings, idOf(window, QStringLiteral("admin"))), ContextConnections());
    QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("useDiscovered")), Qt::LeftButton);
    QCOMPARE(tab->findChild<QLineEdit *>(QStringLiteral("databaseUrl"))->text(),
             QStringLiteral("postgresql://gq@pg.gpuquota-system:5432/gpuquota"));
    QCOMPARE(tab->findChild<QLineEdit *>(QStringLiteral("controllerUrl"))->text(),
             QStringLiteral("https://gpuquota.example.com"));
    // Confirmed into the fields, still not saved.
    QCOMPARE(loadConnections(settings, idOf(window, QStringLiteral("admin"))), ContextConnections());
    d->findChild<QDialogButtonBox *>(QStringLiteral("preferencesButtons"))
        ->button(QDialogButtonBox::Apply)
        ->click();
    QCOMPARE(loadConnections(settings, idOf(window, QStringLiteral("admin"))).usageDatabaseUrl,
             QStringLiteral("postgresql://gq@pg.gpuquota-system:5432/gpuquota"));
    QCOMPARE(loadConnections(settings, idOf(window, QStringLiteral("admin"))).controllerUrl,
             QStringLiteral("https://gpuquota.example.com"));
    d->showTab(PreferencesDialog::Tab::General);
    shoot(d, QStringLiteral("preferences"));
    d->reject();
}

// Geometry, splitter, tab, context and namespace come back in a new window.
void TestConnections::layoutRestored() {
    const QString path = m_fx.path(QStringLiteral("layout.ini"));
    QString ns;
    QList<int> sizes;
    QSize size;
    {
        ConsoleSettings settings(path);
        DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-layout")));
        MainWindow window(&settings, &drafts);
        QSignalSpy shown(&window, &MainWindow::dataShown);
        window.openKubeconfig(m_fx.kubeconfig(), QStringLiteral("readonly"));
        window.resize(760, 560); // within the offscreen screen (800x600): restoreGeometry clamps to it
        window.show();
        QVERIFY(shown.wait(30000));
        // A namespace tab first: the dashboard (tab 0) hides the namespace list.
        window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentIndex(1);
        auto *splitter = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"));
        splitter->setSizes({300, 440});
        sizes = splitter->sizes();
        const QStringList names = window.session()->namespaceNames();
        QVERIFY(names.size() > 2);
        ns = names.at(2);
        QVERIFY(window.namespacePanel()->selectNamespace(ns));
        QCOMPARE(window.namespacePanel()->currentNamespace(), ns);
        size = window.size(); // at least the window's minimum width
        window.close();
    }
    ConsoleSettings settings(path);
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-layout")));
    MainWindow window(&settings, &drafts);
    QSignalSpy shown(&window, &MainWindow::dataShown);
    window.openKubeconfig(m_fx.kubeconfig()); // no context: the one last used with this file
    window.show();
    QVERIFY(shown.wait(30000));
    QCOMPARE(window.session()->contextName(), QStringLiteral("readonly"));
    QCOMPARE(window.size(), size); // not the default 1280x800 (clamped to the screen)
    QCOMPARE(window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->currentIndex(), 1);
    // The list is shown once the restored tab is (the dashboard hides it); the window is
    // wider than the offscreen screen, so the splitter may settle a few pixels off.
    const QList<int> restored = window.findChild<QSplitter *>(QStringLiteral("mainSplitter"))->sizes();
    QCOMPARE(restored.size(), sizes.size());
    QVERIFY2(qAbs(restored.at(0) - sizes.at(0)) <= 4,
             qPrintable(QStringLiteral("%1 vs %2").arg(restored.at(0)).arg(sizes.at(0))));
    QTRY_COMPARE(window.namespacePanel()->currentNamespace(), ns);
}

// Every start page the preferences offer opens that page (the pages are found by key,
// so a page added in between does not shift them), and the page last open comes back
// by its key.
void TestConnections::startPageByKey() {
    const QString path = m_fx.path(QStringLiteral("startpage.ini"));
    for (const auto &[key, name] : PreferencesDialog::startPages()) {
        if (key == QLatin1String("last"))
            continue;
        {
            ConsoleSettings settings(path);
            settings.setValue(settings::startPage, key);
            settings.sync();
        }
        ConsoleSettings settings(path);
        DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-startpage")));
        MainWindow window(&settings, &drafts);
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget()->property("gqPageKey").toString(), key);
        QCOMPARE(tabs->tabText(tabs->currentIndex()), name);
    }
    {
        ConsoleSettings settings(path);
        settings.setValue(settings::startPage, QStringLiteral("last"));
        DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-startpage")));
        MainWindow window(&settings, &drafts);
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
        tabs->setCurrentIndex(tabs->count() - 1);
        window.close(); // saves the layout
        QCOMPARE(settings.value(settings::detailsPage),
                 tabs->widget(tabs->count() - 1)->property("gqPageKey").toString());
    }
    ConsoleSettings settings(path);
    DraftStore drafts(nullptr, m_fx.path(QStringLiteral("drafts-startpage")));
    MainWindow window(&settings, &drafts);
    auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("detailsTabs"));
    QCOMPARE(tabs->currentIndex(), tabs->count() - 1);
}

QTEST_MAIN(TestConnections)
#include "tst_connections.moc"
