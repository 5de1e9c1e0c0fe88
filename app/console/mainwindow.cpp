#include "app/console/mainwindow.h"

#include "app/console/aboutdialog.h"
#include "core/domain/clock.h"

#include "models/audit/auditmodel.h"
#include "widgets/audit/auditpage.h"
#include "services/boosts/boostservice.h"
#include "widgets/boosts/boostspage.h"
#include "services/budgets/budgetservice.h"
#include "widgets/budgets/budgetspage.h"
#include "widgets/chargeback/chargebackpage.h"
#include "widgets/usage/clusterusagepage.h"
#include "widgets/connections/connectionbanner.h"
#include "services/settings/consolesettings.h"
#include "widgets/common/errorbanner.h"
#include "widgets/quotas/limitrangepage.h"
#include "widgets/livegpus/livegpupage.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "services/queues/namespacequeues.h"
#include "widgets/usage/namespaceusagepage.h"
#include "widgets/editor/objectpage.h"
#include "widgets/common/page.h"
#include "widgets/queues/queuespage.h"
#include "widgets/quotas/quotapage.h"
#include "widgets/connections/startpage.h"
#include "widgets/quotas/templatedialog.h"
#include "services/usage/usagechartservice.h"
#include "services/usage/usagedatabase.h"
#include "widgets/usage/usagerangebar.h"
#include "services/usage/usageservice.h"
#include "widgets/usage/userusagedialog.h"

#include <QAction>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QLabel>
#include <QMenuBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

#include <type_traits>

namespace gq {

MainWindow::MainWindow(ConsoleSettings *settings, DraftStore *drafts, QWidget *parent)
    : QMainWindow(parent)
    , m_settings(settings)
    , m_drafts(drafts)
    , m_services(new ContextServices(settings, this))
    , m_session(m_services->connection())
    , m_db(m_services->database())
    , m_model(new NamespaceListModel(this))
    , m_auditModel(new AuditModel(this))
    , m_demoBanner(new MessageBanner(this))
    , m_banner(new ConnectionBanner(this))
    , m_contexts(new QComboBox(this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_namespaces(new NamespacePanel(m_model, m_splitter))
    , m_tabs(new QTabWidget(m_splitter))
    , m_quotaPage(new QuotaPage(drafts, m_tabs))
    , m_limitPage(new LimitRangePage(drafts, m_tabs))
    , m_auditPage(new AuditPage(m_auditModel, m_tabs))
    , m_budgetsPage(new BudgetsPage(m_services->budgets(), m_tabs))
    , m_clusterLabel(new QLabel(this))
    , m_identityLabel(new QLabel(this))
    , m_stateLabel(new QLabel(this))
    , m_updateLabel(new QLabel(this))
    , m_statusTimer(new QTimer(this)) {
    m_model->follow(m_session);
    // Each namespace's Kueue LocalQueues beside its quotas.
    auto *queueFeed = new NamespaceQueueFeed(this);
    connect(queueFeed, &NamespaceQueueFeed::queuesChanged, m_model, &NamespaceListModel::setQueues);
    queueFeed->setConnection(m_session);
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("GPU Quota Console"));
    m_demoBanner->setObjectName(QStringLiteral("demoBanner"));
    m_contexts->setObjectName(QStringLiteral("contextCombo"));
    m_contexts->setMinimumContentsLength(18);
    m_contexts->setToolTip(tr("Kubernetes context (from the kubeconfig)"));
    m_tabs->setObjectName(QStringLiteral("detailsTabs"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));

    ClusterUsagePage *dashboard = addUsagePages();
    addBudgetAndBoostPages();
    ChargebackPage *chargeback = addAuditAndChargebackPages();
    // Usage, chargeback and budgets grouped by Kueue queue: the same LocalQueues.
    connect(queueFeed, &NamespaceQueueFeed::queuesChanged, this,
            [dashboard, chargeback, budgets = m_budgetsPage](const NamespaceQueueMap &queues) {
                const kueue::QueueAttribution attribution = queueAttribution(queues);
                dashboard->setQueues(attribution);
                chargeback->setQueues(attribution);
                budgets->setQueues(attribution);
            });
    addLiveAndQueuePages();
    layOut();
    buildActions();
    connectSession();
    connectPagesAndDatabase();

    m_statusTimer->setInterval(1000);
    connect(m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);
    m_statusTimer->start();

    buildGuidedStart();
    updatePages(QString());
    resize(1280, 800);
    restoreLayout();
    updateStatus();
}

MainWindow::~MainWindow() = default;

// The cluster dashboard, the quota and limit pages and a namespace's usage, in tab order.
ClusterUsagePage *MainWindow::addUsagePages() {
    // The cluster dashboard comes first: it is what the window shows after connecting.
    auto *dashboard = new ClusterUsagePage(m_services->charts(), m_tabs);
    auto *nsUsage = new NamespaceUsagePage(m_services->charts(), m_tabs);
    // Pages of the usage database sit behind a gate that says what to configure.
    auto *dashboardTab = usageGate(dashboard, QStringLiteral("dashboard"));
    auto *nsUsageTab = usageGate(nsUsage, QStringLiteral("usage"));
    addPage(dashboard, QStringLiteral("dashboard"), tr("Cluster usage"), dashboardTab);
    addPage(m_quotaPage, QStringLiteral("quotas"), tr("Quotas"));
    addPage(m_limitPage, QStringLiteral("limits"), tr("Limit ranges"));
    addPage(nsUsage, QStringLiteral("usage"), tr("Usage"), nsUsageTab);
    connect(dashboard, &ClusterUsagePage::userActivated, this, &MainWindow::openUserUsage);
    connect(dashboard, &ClusterUsagePage::namespaceActivated, this, [this, nsUsageTab](const QString &ns) {
        m_namespaces->selectNamespace(ns);
        m_tabs->setCurrentWidget(nsUsageTab);
    });
    // The dashboard is about the whole cluster: it takes the window's width, and the
    // namespace list comes back with the namespace tabs.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, dashboardTab] {
        m_namespaces->setVisible(m_tabs->currentWidget() != dashboardTab &&
                                 m_tabs->currentWidget() != m_gpuGate);
    });
    connect(nsUsage, &NamespaceUsagePage::userActivated, this, &MainWindow::openUserUsage);
    connect(dashboard, &ClusterUsagePage::statusMessage, this, &MainWindow::showPageStatus);
    connect(nsUsage, &NamespaceUsagePage::statusMessage, this, &MainWindow::showPageStatus);
    return dashboard;
}

void MainWindow::addBudgetAndBoostPages() {
    addPage(m_budgetsPage, QStringLiteral("budgets"), tr("Budgets"),
            usageGate(m_budgetsPage, QStringLiteral("budgets")));
    // Boosts: recorded in the usage database (own thread), applied through the connection.
    m_boostsPage = new BoostsPage(m_services->boosts(), m_tabs);
    addPage(m_boostsPage, QStringLiteral("boosts"), tr("Boosts"),
            usageGate(m_boostsPage, QStringLiteral("boosts")));
    m_boostsPage->setActorSource([this] { return m_session->identity(); });
    connect(m_boostsPage, &BoostsPage::boostsChanged, m_db, [this] { m_db->loadAudit(); });
    connect(m_boostsPage, &BoostsPage::statusMessage, this, &MainWindow::showPageStatus);
    connect(m_quotaPage, &QuotaPage::boostRequested, m_boostsPage,
            [this](const QString &ns, const QString &quota, const QString &resource) {
                m_boostsPage->openGrantDialog(ns, quota, resource);
            });
    connect(m_namespaces, &NamespacePanel::boostRequested, m_boostsPage,
            [this](const QString &ns) { m_boostsPage->openGrantDialog(ns); });
    connect(m_namespaces, &NamespacePanel::planRequested, this,
            [this](const QString &ns) { openFitPlan(QString(), ns); });
    connect(m_budgetsPage, &BudgetsPage::planRequested, this, &MainWindow::openFitPlan);
}

ChargebackPage *MainWindow::addAuditAndChargebackPages() {
    addPage(m_auditPage, QStringLiteral("audit"), tr("Audit"),
            usageGate(m_auditPage, QStringLiteral("audit")));
    m_auditPage->setUsageService(m_db);
    connect(m_auditPage, &AuditPage::statusMessage, this, &MainWindow::showPageStatus);
    auto *chargeback = new ChargebackPage(m_services->chargeback(), m_tabs);
    chargeback->setObjectName(QStringLiteral("chargebackPage"));
    addPage(chargeback, QStringLiteral("chargeback"), tr("Chargeback"),
            usageGate(chargeback, QStringLiteral("chargeback")));
    connect(m_db, &UsageService::opened, chargeback,
            [this, chargeback] { chargeback->setDatabaseUrl(m_db->url(), m_db->password()); });
    connect(chargeback, &ChargebackPage::statusMessage, this, &MainWindow::showPageStatus);
    return chargeback;
}

void MainWindow::addLiveAndQueuePages() {
    buildLiveGpus();
    addPage(m_liveGpuPage, QStringLiteral("gpus"), tr("Live GPUs"), m_gpuGate);
    // Kueue's queues, cohorts and workloads (read through the connection's client).
    m_queuesPage = new QueuesPage(m_tabs);
    addPage(m_queuesPage, QStringLiteral("queues"), tr("Queues"));
    m_queuesPage->setAuditHeadSource([this] { return m_services->auditHead(); });
    m_queuesPage->setAuditSink(m_services->auditSink());
    connect(m_queuesPage, &QueuesPage::applied, this, &MainWindow::onApplied);
    connect(m_queuesPage, &QueuesPage::statusMessage, this, &MainWindow::showPageStatus);
}

// The splitter of the namespace list and the tabs under the banners, and the status bar.
void MainWindow::layOut() {
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
    layout->addWidget(m_banner->insecureNotice());
    m_usageOffer = new MessageBanner(central);
    m_usageOffer->setObjectName(QStringLiteral("usageOfferBanner"));
    layout->addWidget(m_usageOffer);
    layout->addWidget(m_splitter, 1);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(QStringLiteral("centralStack"));
    m_stack->addWidget(central);
    setCentralWidget(m_stack);

    for (QLabel *l : {m_clusterLabel, m_identityLabel, m_stateLabel, m_updateLabel}) {
        l->setContentsMargins(6, 0, 6, 0); // the labels are separate facts, not one sentence
        statusBar()->addPermanentWidget(l);
    }
    m_clusterLabel->setObjectName(QStringLiteral("clusterLabel"));
    m_identityLabel->setObjectName(QStringLiteral("identityLabel"));
    m_stateLabel->setObjectName(QStringLiteral("connectionLabel"));
    m_updateLabel->setObjectName(QStringLiteral("lastUpdateLabel"));
}

// The object pages' writes and audit, the context switcher, and what the usage database
// tells the budgets page, the audit tab and the namespace list.
void MainWindow::connectPagesAndDatabase() {
    for (ObjectPage *page :
         {static_cast<ObjectPage *>(m_quotaPage), static_cast<ObjectPage *>(m_limitPage)}) {
        connect(page, &ObjectPage::applied, this, &MainWindow::onApplied);
        page->setAuditHeadSource([this] { return m_services->auditHead(); });
        page->setAuditSink(m_services->auditSink());
        connect(page, &ObjectPage::statusMessage, this, &MainWindow::showPageStatus);
        connect(page, &ObjectPage::errorMessage, this, &MainWindow::showError);
        connect(page, &ObjectPage::templateRequested, this, &MainWindow::openTemplates);
    }
    connect(m_contexts, &QComboBox::activated, this,
            [this](int i) { switchContext(m_contexts->itemText(i)); });

    // The Budgets page's changes show in the audit tab at once (and, through the
    // services, in the namespace list's budget badges).
    connect(m_services->budgets(), &BudgetService::changed, m_auditModel, &AuditModel::prependEntry);
    connect(m_budgetsPage, &BudgetsPage::statusMessage, this, &MainWindow::showPageStatus);
    m_budgetsPage->setActorSource([this] { return m_session->identity(); });
    connect(m_db, &UsageService::auditLoaded, m_auditModel, &AuditModel::loadEntries);
    connect(m_db, &UsageService::auditAppended, m_auditModel, &AuditModel::prependEntry);
    connect(m_db, &UsageService::budgetsChanged, m_model, &NamespaceListModel::setBudgets);
    connect(m_db, &UsageService::usersOverBudgetChanged, m_model, &NamespaceListModel::setUsersOverBudget);
    connect(m_db, &UsageService::failed, this,
            [this](const Error &e) { showError(tr("Usage database: %1").arg(e.message)); });
}

template <typename P>
void MainWindow::addPage(P *page, const QString &key, const QString &title, QWidget *tab) {
    static_assert(std::is_base_of_v<QWidget, P> && std::is_base_of_v<Page, P>);
    QWidget *shown = tab ? tab : page;
    shown->setProperty(kPageKeyProperty, key);
    m_tabs->addTab(shown, title);
    m_pages << page;
    page->setPreferences(pagePreferences());
    connect(m_settings, &ConsoleSettings::preferencesChanged, page,
            [this, page] { page->setPreferences(pagePreferences()); });
}

int MainWindow::tabIndex(const QString &key) const {
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->widget(i)->property(kPageKeyProperty).toString() == key)
            return i;
    return -1;
}

// The one place the pages learn what the window shows.
void MainWindow::updatePages(const QString &ns) {
    for (Page *page : std::as_const(m_pages)) {
        page->setConnection(m_session);
        page->setNamespace(ns);
    }
}

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
    connect(refresh, &QAction::triggered, m_session, &ClusterConnection::refresh);
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

    auto *connections = new QAction(tr("Connections..."), this);
    connections->setObjectName(QStringLiteral("connectionsAction"));
    connections->setToolTip(tr("Usage database, metrics and controller of this context"));
    connect(connections, &QAction::triggered, this,
            [this] { openPreferences(PreferencesDialog::Tab::Connections); });
    bar->addAction(connections);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *openConfig = file->addAction(tr("&Open kubeconfig..."));
    openConfig->setObjectName(QStringLiteral("openKubeconfigAction"));
    openConfig->setShortcut(QKeySequence::Open);
    connect(openConfig, &QAction::triggered, this, &MainWindow::chooseKubeconfig);
    file->addAction(refresh);
    file->addAction(templates);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(apply);
    edit->addAction(filter);
    edit->addSeparator();
    QAction *prefs = edit->addAction(tr("&Preferences..."));
    prefs->setObjectName(QStringLiteral("preferencesAction"));
    prefs->setShortcut(QKeySequence::Preferences);
    prefs->setMenuRole(QAction::PreferencesRole);
    connect(prefs, &QAction::triggered, this, [this] { openPreferences(); });
    edit->addAction(connections);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About GPU Quota Console"));
    about->setObjectName(QStringLiteral("aboutAction"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, [this] {
        auto *dialog = new AboutDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
}

void MainWindow::openKubeconfig(const QString &kubeconfigPath, const QString &context) {
    m_kubeconfig = kubeconfigPath;
    // The connection reads the file (off the GUI thread) and names its contexts; it
    // takes this one if the file has it, else the file's current-context.
    const QString preferred = context.isEmpty() ? m_settings->lastContext(kubeconfigPath) : context;
    m_banner->reset();
    m_contexts->setPlaceholderText(QString());
    m_pendingNamespace.clear();
    m_session->open(kubeconfigPath, preferred);
    updateStatus();
}

void MainWindow::switchContext(const QString &context) {
    m_banner->reset();
    m_contexts->setPlaceholderText(QString());
    m_pendingNamespace.clear();
    m_settings->setLastContext(m_kubeconfig, context);
    m_session->connectTo(m_kubeconfig, context);
    m_services->applyConnections(context);
    updateStatus();
}

void MainWindow::openUsageDatabase(const QString &url) {
    m_services->openUsageDatabase(url);
}

void MainWindow::setDemoMode(const QString &description) {
    m_demoBanner->showMessage(MessageBanner::Level::Info, description, false);
    setWindowTitle(tr("GPU Quota Console \u2014 demo"));
    // The demo's boosts and audit entries belong to several teams: show them all at
    // first rather than only the selected namespace's.
    if (auto *all = findChild<QCheckBox *>(QStringLiteral("boostAllNamespaces")))
        all->setChecked(true);
    if (auto *only = findChild<QCheckBox *>(QStringLiteral("auditOnlyNamespace")))
        only->setChecked(false);
}

void MainWindow::openUserUsage(const QString &user) {
    if (user.isEmpty())
        return;
    auto *dialog = new UserUsageDialog(m_services->charts(), user, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->rangeBar()->applyZone(pagePreferences().zone());
    dialog->show();
}

void MainWindow::showError(const QString &message) {
    m_banner->showError(message);
}

void MainWindow::showStatus(const QString &message, int timeoutMs) {
    if (message.isEmpty())
        statusBar()->clearMessage();
    else
        statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::onNamespaceChanged(const QString &ns) {
    if (!ns.isEmpty())
        m_settings->setLastNamespace(m_session->contextName(), ns);
    updatePages(ns);
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

void MainWindow::showPageStatus(const QString &message) {
    showStatus(message, 8000);
}

void MainWindow::onApplied() {
    // The writer has recorded the audit entry through the context's audit sink (changeaudit.h).
    if (!m_db->isOpen())
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
    dialog->setAuditHead(m_services->auditHead());
    dialog->setAuditSink(m_services->auditSink());
    connect(dialog, &TemplateDialog::applied, this, &MainWindow::onApplied);
    dialog->open();
}

void MainWindow::applyCurrentTab() {
    if (auto *page = qobject_cast<ObjectPage *>(m_tabs->currentWidget()))
        page->apply();
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
    case ClusterConnection::State::Disconnected: state = tr("Disconnected"); break;
    case ClusterConnection::State::Connecting: state = tr("Connecting..."); break;
    case ClusterConnection::State::Syncing: state = tr("Syncing..."); break;
    case ClusterConnection::State::Live: state = tr("\u25cf Live"); break;
    case ClusterConnection::State::Reconnecting: state = tr("Reconnecting..."); break;
    case ClusterConnection::State::Failed: state = tr("Failed"); break;
    }
    m_stateLabel->setText(state);
    // The state in colour too: it is the one label people glance at.
    QColor stateColor = palette().color(QPalette::WindowText);
    switch (m_session->state()) {
    case ClusterConnection::State::Disconnected:
        m_namespaces->setEmptyMessage(tr("Not connected to a cluster."));
        break;
    case ClusterConnection::State::Connecting:
    case ClusterConnection::State::Syncing: m_namespaces->setEmptyMessage(tr("Loading namespaces...")); break;
    case ClusterConnection::State::Reconnecting:
        // Nothing listed yet and the server cannot be reached: the banner says why.
        m_namespaces->setEmptyMessage(tr("No connection; see the message above."));
        stateColor = QColor(0xb0, 0x76, 0x00);
        break;
    case ClusterConnection::State::Live:
        m_namespaces->setEmptyMessage(tr("This cluster has no namespaces, or none this identity may list."));
        stateColor = QColor(0x2e, 0x7d, 0x46);
        break;
    case ClusterConnection::State::Failed:
        m_namespaces->setEmptyMessage(tr("No connection; see the message above."));
        stateColor = QColor(0xc6, 0x28, 0x28);
        break;
    }
    // Templates need a live connection (they list and write namespaces); refresh needs
    // a context to refresh.
    const ClusterConnection::State st = m_session->state();
    if (auto *templates = findChild<QAction *>(QStringLiteral("templatesAction")))
        templates->setEnabled(st == ClusterConnection::State::Live);
    if (auto *refresh = findChild<QAction *>(QStringLiteral("refreshAction")))
        refresh->setEnabled(st != ClusterConnection::State::Disconnected &&
                            st != ClusterConnection::State::Connecting);
    if (m_stateLabel->palette().color(QPalette::WindowText) != stateColor) {
        QPalette pal = m_stateLabel->palette();
        pal.setColor(QPalette::WindowText, stateColor);
        m_stateLabel->setPalette(pal);
    }
    const QDateTime last = m_session->lastUpdate();
    if (last.isValid()) {
        const qint64 secs = last.secsTo(Clock::system().nowUtc());
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
    m_settings->setValue(
        settings::detailsPage,
        m_tabs->currentWidget() ? m_tabs->currentWidget()->property(kPageKeyProperty).toString() : QString());
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
    // The start page preference: a named page, or the one open when the window closed
    // (by its key: an index would point elsewhere once pages are added). Settings from
    // before keys were saved keep their index.
    int index = tabIndex(m_settings->value(settings::startPage));
    if (index < 0)
        index = tabIndex(m_settings->value(settings::detailsPage));
    if (index < 0 && m_settings->value(settings::detailsPage).isEmpty())
        index = qBound(0, m_settings->detailsTab(), m_tabs->count() - 1);
    m_tabs->setCurrentIndex(std::max(index, 0));
    m_namespaces->setVisible(m_tabs->currentIndex() != 0 && m_tabs->currentWidget() != m_gpuGate);
}

void MainWindow::closeEvent(QCloseEvent *event) {
    saveLayout();
    QMainWindow::closeEvent(event);
}

} // namespace gq
