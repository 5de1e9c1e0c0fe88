#include "app/console/mainwindow.h"

#include "core/kubeconfig.h"
#include "models/auditmodel.h"
#include "models/namespacelistmodel.h"
#include "models/usagedatabase.h"
#include "widgets/auditpage.h"
#include "widgets/consolesettings.h"
#include "widgets/errorbanner.h"
#include "widgets/limitrangepage.h"
#include "widgets/namespacepanel.h"
#include "widgets/quotapage.h"
#include "widgets/templatedialog.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThreadPool>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace gq {

MainWindow::MainWindow(ConsoleSettings *settings, DraftStore *drafts, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_drafts(drafts)
    , m_model(new NamespaceListModel(this))
    , m_session(new ClusterSession(m_model, this))
    , m_auditModel(new AuditModel(this))
    , m_db(new UsageDatabase(this))
    , m_demoBanner(new MessageBanner(this))
    , m_banner(new MessageBanner(this))
    , m_contexts(new QComboBox(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_namespaces(new NamespacePanel(m_model, m_splitter))
    , m_tabs(new QTabWidget(m_splitter))
    , m_quotaPage(new QuotaPage(m_session, drafts, m_tabs))
    , m_limitPage(new LimitRangePage(m_session, drafts, m_tabs))
    , m_auditPage(new AuditPage(m_auditModel, m_tabs))
    , m_clusterLabel(new QLabel(this))
    , m_identityLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
    , m_updateLabel(new QLabel(this))
    , m_statusTimer(new QTimer(this))
    , m_countdown(new QTimer(this)) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("GPU Quota Console"));
    m_demoBanner->setObjectName(QStringLiteral("demoBanner"));
    m_banner->setObjectName(QStringLiteral("errorBanner"));
    m_contexts->setObjectName(QStringLiteral("contextCombo"));
    m_contexts->setMinimumContentsLength(18);
    m_contexts->setToolTip(tr("Kubernetes context (from the kubeconfig)"));
    m_tabs->setObjectName(QStringLiteral("detailsTabs"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));

    // Later issues add Usage and Boosts pages here, after Limit ranges.
    m_tabs->addTab(m_quotaPage, tr("Quotas"));
    m_tabs->addTab(m_limitPage, tr("Limit ranges"));
    m_tabs->addTab(m_auditPage, tr("Audit"));
    m_splitter->addWidget(m_namespaces);
    m_splitter->addWidget(m_tabs);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setChildrenCollapsible(false);

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->addWidget(m_demoBanner);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);

    for (QLabel *l : {m_clusterLabel, m_identityLabel, m_stateLabel, m_updateLabel}) {
        l->setContentsMargins(6, 0, 6, 0); // the labels are separate facts, not one sentence
        statusBar()->addPermanentWidget(l);
    }
    m_clusterLabel->setObjectName(QStringLiteral("clusterLabel"));
    m_identityLabel->setObjectName(QStringLiteral("identityLabel"));
    m_stateLabel->setObjectName(QStringLiteral("connectionLabel"));
    m_updateLabel->setObjectName(QStringLiteral("lastUpdateLabel"));

    buildActions();

    connect(m_namespaces, &NamespacePanel::currentNamespaceChanged, this, &MainWindow::onNamespaceChanged);
    connect(m_namespaces, &NamespacePanel::templateRequested, this, &MainWindow::openTemplates);
    connect(m_session, &ClusterSession::stateChanged, this, &MainWindow::onStateChanged);
    connect(m_session, &ClusterSession::errorOccurred, this, &MainWindow::onSessionError);
    connect(m_session, &ClusterSession::nextAttemptChanged, this, [this] {
        if (m_connectionBanner)
            showConnectionBanner();
    });
    connect(m_session, &ClusterSession::contextsChanged, this, &MainWindow::onContextsChanged);
    connect(m_session, &ClusterSession::kubeconfigProblem, this, &MainWindow::onKubeconfigProblem);
    connect(m_session, &ClusterSession::kubeconfigOk, this, &MainWindow::onKubeconfigOk);
    m_banner->actionButton()->setObjectName(QStringLiteral("retryNowButton"));
    connect(m_banner, &MessageBanner::actionTriggered, this, [this] {
        if (!m_connectionBanner)
            return;
        m_session->retryNow();
        showConnectionBanner();
    });
    m_countdown->setSingleShot(true);
    connect(m_countdown, &QTimer::timeout, this, [this] {
        if (m_connectionBanner && m_banner->isVisible())
            showConnectionBanner();
    });
    connect(m_session, &ClusterSession::identityChanged, this, &MainWindow::updateStatus);
    connect(m_session, &ClusterSession::lastUpdateChanged, this, &MainWindow::updateStatus);
    connect(m_session, &ClusterSession::synced, this, [this] {
        const QString ns = m_pendingNamespace.isEmpty() ? m_settings->lastNamespace(m_session->contextName())
                                                        : m_pendingNamespace;
        if (!m_namespaces->selectNamespace(ns))
            m_namespaces->selectFirstNamespace();
        m_pendingNamespace.clear();
        m_db->checkBudgets();
        emit dataShown();
    });
    connect(m_quotaPage, &QuotaPage::applied, this, &MainWindow::onApplied);
    connect(m_limitPage, &LimitRangePage::applied, this, &MainWindow::onApplied);
    connect(m_quotaPage, &QuotaPage::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_limitPage, &LimitRangePage::statusMessage, this,
            [this](const QString &m) { statusBar()->showMessage(m, 8000); });
    connect(m_quotaPage, &QuotaPage::errorMessage, this, &MainWindow::showError);
    connect(m_limitPage, &LimitRangePage::errorMessage, this, &MainWindow::showError);
    connect(m_quotaPage, &QuotaPage::templateRequested, this, &MainWindow::openTemplates);
    connect(m_limitPage, &LimitRangePage::templateRequested, this, &MainWindow::openTemplates);
    connect(m_contexts, &QComboBox::activated, this,
            [this](int i) { switchContext(m_contexts->itemText(i)); });

    connect(m_db, &UsageDatabase::opened, m_db, [this] { m_db->loadAudit(); });
    connect(m_db, &UsageDatabase::auditLoaded, m_auditModel, &AuditModel::setEntries);
    connect(m_db, &UsageDatabase::auditAppended, m_auditModel, &AuditModel::prepend);
    connect(m_db, &UsageDatabase::budgetsChanged, m_model, &NamespaceListModel::setBudgets);
    connect(m_db, &UsageDatabase::usersOverBudgetChanged, m_model, &NamespaceListModel::setUsersOverBudget);
    connect(m_db, &UsageDatabase::failed, this,
            [this](const Error &e) { showError(tr("Usage database: %1").arg(e.message)); });

    m_statusTimer->setInterval(1000);
    connect(m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);
    m_statusTimer->start();

    resize(1280, 800);
    restoreLayout();
    updateStatus();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildActions() {
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->addWidget(new QLabel(tr(" Context: "), bar));
    bar->addWidget(m_contexts);
    bar->addSeparator();

    auto *refresh = new QAction(tr("Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshAction"));
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setToolTip(tr("List everything again from the server (F5)"));
    connect(refresh, &QAction::triggered, m_session, &ClusterSession::refresh);
    bar->addAction(refresh);

    auto *templates = new QAction(tr("Templates..."), this);
    templates->setObjectName(QStringLiteral("templatesAction"));
    templates->setToolTip(tr("Apply a quota template to the selected namespaces"));
    connect(templates, &QAction::triggered, this, &MainWindow::openTemplates);
    bar->addAction(templates);

    auto *filter = new QAction(tr("Filter namespaces"), this);
    filter->setShortcut(QKeySequence::Find);
    filter->setShortcutContext(Qt::WindowShortcut);
    connect(filter, &QAction::triggered, m_namespaces, &NamespacePanel::focusFilter);
    addAction(filter);

    auto *apply = new QAction(tr("Apply"), this);
    apply->setObjectName(QStringLiteral("applyAction"));
    apply->setShortcut(QKeySequence::Save);
    apply->setShortcutContext(Qt::WindowShortcut);
    connect(apply, &QAction::triggered, this, &MainWindow::applyCurrentTab);
    addAction(apply);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(refresh);
    file->addAction(templates);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(apply);
    edit->addAction(filter);
}

void MainWindow::openKubeconfig(const QString &kubeconfigPath, const QString &context) {
    m_kubeconfig = kubeconfigPath;
    QPointer<MainWindow> self(this);
    // Reading the kubeconfig is file I/O: off the GUI thread.
    QThreadPool::globalInstance()->start([self, kubeconfigPath, context] {
        auto cfg = KubeConfig::load(kubeconfigPath);
        QMetaObject::invokeMethod(
            qApp,
            [self, cfg = std::move(cfg), kubeconfigPath, context]() {
                if (!self)
                    return;
                if (!cfg) {
                    // A first run without a cluster lands here: say what to do next, and
                    // connect by ourselves once the file is there or fixed.
                    self->showUnreadableKubeconfig(cfg.error());
                    self->m_session->watchKubeconfig(kubeconfigPath, context);
                    return;
                }
                self->m_contexts->clear();
                self->m_contexts->addItems(cfg->contextNames());
                QString pick = context;
                if (pick.isEmpty())
                    pick = self->m_settings->lastContext(kubeconfigPath);
                if (pick.isEmpty() || !cfg->contextNames().contains(pick))
                    pick = cfg->currentContext();
                self->m_contexts->setCurrentText(pick);
                self->switchContext(pick);
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::showUnreadableKubeconfig(const Error &error) {
    showError(tr("Cannot read the kubeconfig: %1").arg(error.toString()) + QLatin1Char(' ') +
              tr("Start with --kubeconfig FILE --context NAME, or try --demo for a local demo cluster."));
    m_kubeconfigUnreadable = true;
}

void MainWindow::switchContext(const QString &context) {
    m_kubeconfigUnreadable = false;
    clearConnectionBanner();
    m_kubeconfigProblem.clear();
    m_kubeconfigBanner = false;
    m_banner->clear();
    m_contexts->setPlaceholderText(QString());
    m_pendingNamespace.clear();
    m_settings->setLastContext(m_kubeconfig, context);
    m_session->connectTo(m_kubeconfig, context);
    updateStatus();
}

void MainWindow::openUsageDatabase(const QString &url) {
    m_db->open(url);
}

void MainWindow::setDemoMode(const QString &description) {
    m_demoBanner->showMessage(MessageBanner::Level::Info, description, false);
    setWindowTitle(tr("GPU Quota Console \u2014 demo"));
}

void MainWindow::showError(const QString &message) {
    m_kubeconfigUnreadable = false;
    m_errorFromConnection = false;
    m_connectionBanner = false;
    m_kubeconfigBanner = false;
    m_countdown->stop();
    m_banner->showMessage(MessageBanner::Level::Error, message);
}

void MainWindow::onNamespaceChanged(const QString &ns) {
    if (!ns.isEmpty())
        m_settings->setLastNamespace(m_session->contextName(), ns);
    m_quotaPage->setNamespace(ns);
    m_limitPage->setNamespace(ns);
    m_auditPage->setNamespace(ns);
}

void MainWindow::onStateChanged(ClusterSession::State state) {
    if (state == ClusterSession::State::Live && m_errorFromConnection) {
        clearConnectionBanner();
        m_banner->clear();
        statusBar()->showMessage(tr("Connection to the cluster restored; the list is current again."), 8000);
        if (!m_kubeconfigProblem.isEmpty()) {
            m_banner->showMessage(MessageBanner::Level::Warning, m_kubeconfigProblem);
            m_kubeconfigBanner = true;
        }
    }
    // Listing again after a wait is the attempt itself: the banner says so.
    if (state == ClusterSession::State::Reconnecting ||
        (m_connectionBanner && state != ClusterSession::State::Live))
        showConnectionBanner();
    updateStatus();
}

void MainWindow::clearConnectionBanner() {
    m_countdown->stop();
    m_errorFromConnection = false;
    m_connectionBanner = false;
    m_connectionError.reset();
}

// One banner for the whole outage: what failed last, which server, when the next
// attempt is, and a button to try now. Each retry refreshes the text, not the banner.
void MainWindow::showConnectionBanner() {
    if (!m_errorFromConnection)
        statusBar()->clearMessage(); // e.g. "restored" from the last outage would contradict the banner
    QStringList parts;
    if (!m_kubeconfigProblem.isEmpty())
        parts << m_kubeconfigProblem;
    const Error::Kind kind = m_connectionError ? m_connectionError->kind : Error::Kind::Network;
    const QString detail = m_connectionError ? m_connectionError->message : tr("no answer");
    bool listMayBeStale = m_model->rowCount() > 0;
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
    const QDeadlineTimer next = m_session->nextAttempt();
    const bool waiting =
        m_session->state() == ClusterSession::State::Reconnecting && !next.isForever() && !next.hasExpired();
    const QString server = m_session->server();
    if (waiting) {
        const qint64 remaining = next.remainingTime();
        const int secs = int((remaining + 999) / 1000);
        parts << tr("Reconnecting to %1 \u2014 next attempt in %n s.", nullptr, secs).arg(server);
        // Wake when the number shown changes, not before: no timer spins meanwhile.
        const qint64 untilChange = remaining % 1000 == 0 ? 1000 : remaining % 1000;
        m_countdown->start(int(untilChange) + 5);
    } else {
        parts << tr("Connecting to %1\u2026").arg(server);
        m_countdown->stop(); // the informers say when the attempt has ended
    }
    if (listMayBeStale)
        parts << tr("The list may be out of date until then, and your edits are kept.");
    m_banner->showMessage(level, parts.join(QLatin1Char(' ')), true, tr("Retry now"));
    m_banner->setActionEnabled(waiting);
    m_errorFromConnection = true;
    m_connectionBanner = true;
    m_kubeconfigBanner = false;
}

void MainWindow::onSessionError(const Error &error) {
    if (m_kubeconfigUnreadable && m_session->state() == ClusterSession::State::Failed) {
        showUnreadableKubeconfig(error); // still unreadable after a change
        return;
    }
    const bool reconnecting = m_session->state() == ClusterSession::State::Reconnecting;
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
    m_banner->showMessage(MessageBanner::Level::Error, text);
    m_errorFromConnection = true;
    m_connectionBanner = false;
    m_kubeconfigBanner = false;
    m_countdown->stop();
}

void MainWindow::onContextsChanged(const QStringList &contexts) {
    const QString current = m_session->contextName();
    QStringList shown;
    for (int i = 0; i < m_contexts->count(); ++i)
        shown << m_contexts->itemText(i);
    if (shown != contexts) {
        m_contexts->clear();
        m_contexts->addItems(contexts);
    }
    if (contexts.contains(current)) {
        m_contexts->setCurrentText(current);
        m_contexts->setPlaceholderText(QString());
    } else if (!current.isEmpty()) {
        m_contexts->setCurrentIndex(-1);
        m_contexts->setPlaceholderText(tr("%1 (not in the kubeconfig)").arg(current));
    }
}

void MainWindow::onKubeconfigProblem(const Error &error) {
    if (error.kind == Error::Kind::NotFound && error.field == QLatin1String("contexts"))
        m_kubeconfigProblem = tr("The context \"%1\" is no longer in the kubeconfig. The console keeps its "
                                 "current connection; choose another context to switch.")
                                  .arg(m_session->contextName());
    else
        m_kubeconfigProblem =
            tr("The kubeconfig changed but cannot be used (%1). The console keeps its current "
               "connection and reads the file again when it changes.")
                .arg(error.toString());
    if (m_connectionBanner) {
        showConnectionBanner();
        return;
    }
    if (m_banner->isVisible() && !m_kubeconfigBanner)
        return; // another message is up: the problem shows with the next connection banner
    m_banner->showMessage(MessageBanner::Level::Warning, m_kubeconfigProblem);
    m_kubeconfigBanner = true;
}

void MainWindow::onKubeconfigOk() {
    if (m_kubeconfigUnreadable) {
        m_kubeconfigUnreadable = false;
        m_banner->clear(); // connecting now; the connection's own state takes over
    }
    if (m_kubeconfigProblem.isEmpty())
        return;
    m_kubeconfigProblem.clear();
    m_contexts->setPlaceholderText(QString());
    if (m_connectionBanner) {
        showConnectionBanner();
    } else if (m_kubeconfigBanner) {
        m_banner->clear();
        m_kubeconfigBanner = false;
    }
}

void MainWindow::onApplied(const QString &ns, const QString &object, const QString &beforeYaml,
                           const QString &afterYaml, const QString &diffText, const QString &note) {
    Q_UNUSED(diffText)
    const QString kind = object.section(QLatin1Char('/'), 0, 0);
    const QString action = kind == QLatin1String("ResourceQuota") ? QStringLiteral("quota.apply")
                                                                  : QStringLiteral("limitrange.apply");
    const QString actor = m_session->identity().isEmpty() ? tr("unknown") : m_session->identity();
    if (m_db->isOpen())
        m_db->appendAudit(actor, action, ns + QLatin1Char('/') + object, beforeYaml, afterYaml, note);
    else
        statusBar()->showMessage(tr("Applied; no usage database is open, so no audit entry was written."),
                                 10000);
}

void MainWindow::openTemplates() {
    if (!m_session->client())
        return;
    QStringList targets = m_namespaces->selectedNamespaces();
    if (targets.isEmpty() && !m_namespaces->currentNamespace().isEmpty())
        targets << m_namespaces->currentNamespace();
    auto *dialog = new TemplateDialog(m_session, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setTargets(targets);
    connect(dialog, &TemplateDialog::applied, this, &MainWindow::onApplied);
    dialog->open();
}

void MainWindow::applyCurrentTab() {
    if (m_tabs->currentWidget() == m_quotaPage)
        m_quotaPage->apply();
    else if (m_tabs->currentWidget() == m_limitPage)
        m_limitPage->apply();
}

void MainWindow::updateStatus() {
    const QString server = m_session->server();
    // Without a server the state label alone says "Disconnected".
    m_clusterLabel->setText(server.isEmpty() ? QString()
                                             : tr("%1 (%2)").arg(m_session->contextName(), server));
    m_identityLabel->setText(m_session->identity().isEmpty() ? QString()
                                                             : tr("as %1").arg(m_session->identity()));
    QString state;
    switch (m_session->state()) {
    case ClusterSession::State::Disconnected: state = tr("Disconnected"); break;
    case ClusterSession::State::Connecting: state = tr("Connecting..."); break;
    case ClusterSession::State::Syncing: state = tr("Syncing..."); break;
    case ClusterSession::State::Live: state = tr("\u25cf Live"); break;
    case ClusterSession::State::Reconnecting: state = tr("Reconnecting..."); break;
    case ClusterSession::State::Failed: state = tr("Failed"); break;
    }
    m_stateLabel->setText(state);
    // The state in colour too: it is the one label people glance at.
    QColor stateColor = palette().color(QPalette::WindowText);
    switch (m_session->state()) {
    case ClusterSession::State::Disconnected:
        m_namespaces->setEmptyMessage(tr("Not connected to a cluster."));
        break;
    case ClusterSession::State::Connecting:
    case ClusterSession::State::Syncing: m_namespaces->setEmptyMessage(tr("Loading namespaces...")); break;
    case ClusterSession::State::Reconnecting:
        // Nothing listed yet and the server cannot be reached: the banner says why.
        m_namespaces->setEmptyMessage(tr("No connection; see the message above."));
        stateColor = QColor(0xb0, 0x76, 0x00);
        break;
    case ClusterSession::State::Live:
        m_namespaces->setEmptyMessage(tr("This cluster has no namespaces, or none this identity may list."));
        stateColor = QColor(0x2e, 0x7d, 0x46);
        break;
    case ClusterSession::State::Failed:
        m_namespaces->setEmptyMessage(tr("No connection; see the message above."));
        stateColor = QColor(0xc6, 0x28, 0x28);
        break;
    }
    // Templates need a live connection (they list and write namespaces); refresh needs
    // a context to refresh.
    const ClusterSession::State st = m_session->state();
    if (auto *templates = findChild<QAction *>(QStringLiteral("templatesAction")))
        templates->setEnabled(st == ClusterSession::State::Live);
    if (auto *refresh = findChild<QAction *>(QStringLiteral("refreshAction")))
        refresh->setEnabled(st != ClusterSession::State::Disconnected &&
                            st != ClusterSession::State::Connecting);
    if (m_stateLabel->palette().color(QPalette::WindowText) != stateColor) {
        QPalette pal = m_stateLabel->palette();
        pal.setColor(QPalette::WindowText, stateColor);
        m_stateLabel->setPalette(pal);
    }
    const QDateTime last = m_session->lastUpdate();
    if (last.isValid()) {
        const qint64 secs = last.secsTo(QDateTime::currentDateTimeUtc());
        m_updateLabel->setText(secs < 2 ? tr("updated just now") : tr("updated %1 s ago").arg(secs));
    } else {
        m_updateLabel->clear();
    }
}

void MainWindow::saveLayout() {
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    m_settings->setSplitterState(m_splitter->saveState());
    m_settings->setNamespaceHeaderState(m_namespaces->headerState());
    m_settings->setDetailsTab(m_tabs->currentIndex());
    m_settings->sync();
}

void MainWindow::restoreLayout() {
    if (const QByteArray g = m_settings->windowGeometry(); !g.isEmpty())
        restoreGeometry(g);
    if (const QByteArray s = m_settings->windowState(); !s.isEmpty())
        restoreState(s);
    if (const QByteArray s = m_settings->splitterState(); !s.isEmpty())
        m_splitter->restoreState(s);
    else
        m_splitter->setSizes({560, 720});
    m_namespaces->restoreHeaderState(m_settings->namespaceHeaderState());
    m_tabs->setCurrentIndex(qBound(0, m_settings->detailsTab(), m_tabs->count() - 1));
}

void MainWindow::closeEvent(QCloseEvent *event) {
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace gq
