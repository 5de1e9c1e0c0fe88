// MainWindow's part in connections per context and the guided start: which usage
// database a context uses (and the offer of an embedded one), what pages without a
// source say, the Preferences dialog, and the start page shown when there is no
// kubeconfig at all.
#include "app/console/mainwindow.h"

#include "models/audit/auditmodel.h"
#include "widgets/budgets/budgetspage.h"
#include "services/cluster/clusterconnection.h"
#include "widgets/connections/connectionbanner.h"
#include "services/cluster/connectionprobe.h"
#include "services/settings/consolesettings.h"
#include "widgets/connections/controllerindicator.h"
#include "widgets/common/errorbanner.h"
#include "services/cluster/kubeconfigwatcher.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/common/page.h"
#include "widgets/connections/signinindicator.h"
#include "widgets/connections/startpage.h"
#include "services/usage/usageservice.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

namespace gq {

namespace {

// "~/.kube/config" rather than the full home path: what people type and read.
QString shownPath(const QString &path) {
    const QString home = QDir::homePath();
    if (path.startsWith(home + QLatin1Char('/')))
        return QStringLiteral("~") + QDir::toNativeSeparators(path.mid(home.size()));
    return QDir::toNativeSeparators(path);
}

bool anyExists(const QStringList &files) {
    for (const QString &f : files)
        if (QFileInfo::exists(f))
            return true;
    return false;
}

// The README's "Connecting to a real cluster" section the start page links to: the
// copy installed beside the program (packages put it in share/doc), else the one in
// the source tree this build came from. The project has no public web address yet,
// and a made-up one would lead nowhere.
QString guideUrl() {
    const QString app = QCoreApplication::applicationDirPath();
    const QStringList candidates{app + QStringLiteral("/../share/doc/gpuquota-console/README.md"),
                                 app + QStringLiteral("/README.md"), QStringLiteral(GQ_SOURCE_README)};
    for (const QString &path : candidates) {
        if (QFileInfo::exists(path)) {
            QUrl url = QUrl::fromLocalFile(QFileInfo(path).canonicalFilePath());
            url.setFragment(QStringLiteral("connecting-to-a-real-cluster"));
            return url.toString();
        }
    }
    return QUrl::fromLocalFile(QStringLiteral(GQ_SOURCE_README)).toString();
}
} // namespace

void MainWindow::buildGuidedStart() {
    if (m_dataDir.isEmpty())
        m_dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    m_startPage = new StartPage(m_stack);
    m_startPage->setGuideUrl(guideUrl());
    m_stack->addWidget(m_startPage);
    connect(m_startPage, &StartPage::openKubeconfigRequested, this, &MainWindow::chooseKubeconfig);
    connect(m_startPage, &StartPage::demoRequested, this, [this] {
        showStartPage(false);
        emit demoRequested();
    });
    // The file appeared (or was fixed): the connection's own state takes over.
    connect(m_session, &ClusterConnection::kubeconfigOk, this, [this] { showStartPage(false); });
    connect(m_session, &ClusterConnection::errorOccurred, this, [this] {
        if (anyExists(kubeconfigCandidates(m_kubeconfig)))
            showStartPage(false);
    });
    connect(m_usageOffer, &MessageBanner::actionTriggered, this, &MainWindow::createEmbeddedDatabase);
    connect(m_services, &ContextServices::usageDatabaseMissing, this, &MainWindow::showUsageDatabaseMissing);
    connect(m_services, &ContextServices::usageDatabaseSet, this, &MainWindow::showUsageDatabaseSet);
    connect(m_services, &ContextServices::connectionsChanged, this,
            [this](const QString &context, const ContextConnections &connections) {
                emit connectionsChanged(context, connections);
                applyControllerUrl();
                if (m_preferences)
                    m_preferences->connections()->setClient(m_session->client(), context);
            });

    // Budget alerts: namespaces over their GPU-hour budget, shown as the Preferences say.
    m_alertBanner = new MessageBanner(m_usageOffer->parentWidget());
    m_alertBanner->setObjectName(QStringLiteral("budgetAlertBanner"));
    if (auto *column = qobject_cast<QVBoxLayout *>(m_usageOffer->parentWidget()->layout()))
        column->insertWidget(column->indexOf(m_usageOffer) + 1, m_alertBanner);
    m_alertLabel = new QLabel(this);
    m_alertLabel->setObjectName(QStringLiteral("budgetAlertLabel"));
    m_alertLabel->setContentsMargins(6, 0, 6, 0);
    m_alertLabel->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_alertLabel->hide();
    statusBar()->addWidget(m_alertLabel);
    connect(m_db, &UsageService::overBudgetChanged, this, &MainWindow::showBudgetAlerts);
    connect(m_settings, &ConsoleSettings::preferencesChanged, this,
            [this] { showBudgetAlerts(m_overBudget); });
    showBudgetAlerts(m_overBudget);

    // RBAC allows this user only their namespace: say what is shown and why.
    m_scopeBanner = new MessageBanner(m_usageOffer->parentWidget());
    m_scopeBanner->setObjectName(QStringLiteral("scopeBanner"));
    if (auto *column = qobject_cast<QVBoxLayout *>(m_usageOffer->parentWidget()->layout()))
        column->insertWidget(column->indexOf(m_usageOffer) + 1, m_scopeBanner);
    m_scopeBanner->hide();
    connect(m_session, &ClusterConnection::scopeNarrowed, this,
            [this](const QStringList &namespaces, const QString &reason) {
                m_scopeBanner->showMessage(
                    MessageBanner::Level::Info,
                    tr("You may not list every namespace of this cluster, so only %1 (the namespace of "
                       "context %2) is shown. The server said: %3")
                        .arg(namespaces.join(QStringLiteral(", ")), m_session->contextName(), reason));
            });
    connect(m_session, &ClusterConnection::contextResolved, m_scopeBanner, &MessageBanner::clear);

    m_controllerIndicator = new ControllerIndicator(m_services->probe(), this);
    statusBar()->addPermanentWidget(m_controllerIndicator);
    connect(m_session, &ClusterConnection::identityChanged, this, &MainWindow::applyControllerUrl);
    // An exec plugin's login (kubelogin, gke-gcloud-auth-plugin...) in progress.
    statusBar()->addWidget(new SignInIndicator(this));
}

void MainWindow::setFixedConnections(const ContextConnections &connections) {
    m_services->setFixedConnections(connections);
}

void MainWindow::applyControllerUrl() {
    const QString url = m_services->connections().controllerUrl;
    m_controllerIndicator->setUrl(url);
    m_budgetsPage->setSelfService(url, m_session->identity());
}

PagePreferences MainWindow::pagePreferences() const {
    PagePreferences p;
    p.timeZone = m_settings->value(settings::timeZone);
    p.chargebackRateMicros = std::llround(m_settings->value(settings::chargebackRate) * 1e6);
    p.currency = m_settings->value(settings::chargebackCurrency);
    return p;
}

void MainWindow::showBudgetAlerts(const QSet<QString> &overBudget) {
    m_overBudget = overBudget;
    QStringList names(overBudget.cbegin(), overBudget.cend());
    names.sort();
    const QString display = m_settings->value(settings::alertDisplay);
    const QString text = names.isEmpty()
                             ? QString()
                             : tr("Over the GPU-hour budget: %1").arg(names.join(QStringLiteral(", ")));
    // Not closable: it goes when the namespaces are no longer over (or the Preferences
    // move it to the status bar or turn it off).
    if (display != QLatin1String("banner") || text.isEmpty())
        m_alertBanner->clear();
    else if (text != m_alertBanner->text())
        m_alertBanner->showMessage(MessageBanner::Level::Warning, text, false);
    m_alertLabel->setText(text);
    m_alertLabel->setVisible(display == QLatin1String("status") && !text.isEmpty());
}

SourceGate *MainWindow::usageGate(QWidget *page, const QString &key) {
    auto *gate = new SourceGate(page, m_tabs);
    gate->setObjectName(key + QStringLiteral("Gate"));
    connect(gate, &SourceGate::configureRequested, this, [this] {
        openPreferences(PreferencesDialog::Tab::Connections, ConnectionsTab::Section::UsageDatabase);
    });
    m_usageGates << gate;
    return gate;
}

void MainWindow::showUsageGates(const QString &missing) {
    for (SourceGate *gate : std::as_const(m_usageGates)) {
        if (missing.isEmpty())
            gate->showPage();
        else
            gate->showMissing(missing, tr("Configure the usage database..."));
    }
}

void MainWindow::showStartPage(bool show) {
    m_stack->setCurrentWidget(show ? static_cast<QWidget *>(m_startPage) : m_stack->widget(0));
    // Nothing on the toolbar applies before there is a cluster.
    if (auto *bar = findChild<QToolBar *>(QStringLiteral("mainToolBar")))
        bar->setVisible(!show);
    m_contexts->setEnabled(!show);
}

// No kubeconfig at all: a first start, not an error. A file that is there but cannot be
// read is one: the banner says why (and the file is read again when it changes).
void MainWindow::onKubeconfigUnreadable(const Error &error) {
    const QStringList files = kubeconfigCandidates(m_kubeconfig);
    // The banner keeps the story either way (hidden behind the start page): a file that
    // appears broken is reported through it.
    m_banner->showUnreadableKubeconfig(error);
    if (anyExists(files)) {
        showStartPage(false);
        return;
    }
    m_startPage->setReason(
        m_kubeconfig.isEmpty() && qEnvironmentVariableIsEmpty("KUBECONFIG")
            ? tr("No kubeconfig was found at %1, and KUBECONFIG is not set.").arg(shownPath(files.first()))
            : tr("The kubeconfig %1 does not exist (yet). The console connects by itself once it is there.")
                  .arg(shownPath(files.join(QStringLiteral(", ")))));
    showStartPage(true);
}

void MainWindow::chooseKubeconfig() {
    const QString dir = QDir::home().filePath(QStringLiteral(".kube"));
    auto *dialog = new QFileDialog(this, tr("Open kubeconfig"), QDir(dir).exists() ? dir : QDir::homePath());
    dialog->setObjectName(QStringLiteral("kubeconfigFileDialog"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &file) {
        m_settings->setValue(settings::kubeconfigFile, file);
        m_settings->sync();
        openKubeconfig(file);
    });
    dialog->open();
}

void MainWindow::showUsageDatabaseMissing(const QString &context) {
    m_auditModel->loadEntries({});
    showUsageGates(tr("The context \"%1\" has no usage database yet. GPU-hours, budgets, boosts, the "
                      "audit trail and the chargeback are kept there.")
                       .arg(context));
    m_usageOffer->showMessage(
        MessageBanner::Level::Info,
        tr("The context \"%1\" has no usage database. Create an embedded SQLite database for it, so that "
           "quota edits are audited and budgets can be set at once? GPU-hours are recorded by the "
           "gpuquota "
           "controller into the database it is given; point this context at that one under Connections "
           "when it runs.")
            .arg(context),
        true, tr("Create embedded database"));
}

void MainWindow::showUsageDatabaseSet(bool changed) {
    m_usageOffer->clear();
    showUsageGates(QString());
    if (changed)
        m_auditModel->loadEntries({});
}

void MainWindow::createEmbeddedDatabase() {
    const QString context = m_session->contextName();
    if (context.isEmpty())
        return;
    QDir().mkpath(m_dataDir);
    const ContextId id = m_services->contextId(context);
    ContextConnections c = takeConnections(*m_settings, id);
    c.usageDatabaseUrl = embeddedDatabaseUrl(m_dataDir, context);
    saveConnections(*m_settings, id, c);
    m_settings->sync();
    m_services->applyConnections(context);
    statusBar()->showMessage(tr("Created the usage database %1 for \"%2\".")
                                 .arg(c.usageDatabaseUrl.mid(int(qstrlen("sqlite://"))), context),
                             10000);
}

PreferencesDialog *MainWindow::openPreferences(PreferencesDialog::Tab tab, ConnectionsTab::Section section) {
    if (!m_preferences) {
        m_preferences = new PreferencesDialog(m_settings, m_services->probe(), this);
        m_preferences->setAttribute(Qt::WA_DeleteOnClose);
        m_preferences->connections()->setDataDirectory(m_dataDir);
        QStringList contexts;
        for (int i = 0; i < m_contexts->count(); ++i)
            contexts << m_contexts->itemText(i);
        m_preferences->connections()->setContexts(contexts, m_session->contextName(),
                                                  m_session->kubeconfig()->servers());
        m_preferences->connections()->setClient(m_session->client(), m_session->contextName());
    }
    m_preferences->showTab(tab);
    if (tab == PreferencesDialog::Tab::Connections)
        m_preferences->connections()->focusSection(section);
    m_preferences->open();
    m_preferences->raise();
    return m_preferences;
}

// What the connection says shows in the banner, the status bar and the list.
void MainWindow::connectSession() {
    connect(m_namespaces, &NamespacePanel::currentNamespaceChanged, this, &MainWindow::onNamespaceChanged);
    connect(m_namespaces, &NamespacePanel::templateRequested, this, &MainWindow::openTemplates);
    m_banner->setFactsSource([this] {
        return ConnectionBanner::Facts{.state = m_session->state(),
                                       .nextAttempt = m_session->nextAttempt(),
                                       .server = m_session->server(),
                                       .context = m_session->contextName(),
                                       .listShown = m_model->rowCount() > 0,
                                       .insecure = m_session->insecure()};
    });
    connect(m_session, &ClusterConnection::stateChanged, m_banner, &ConnectionBanner::onStateChanged);
    connect(m_session, &ClusterConnection::stateChanged, this, &MainWindow::updateStatus);
    connect(m_session, &ClusterConnection::errorOccurred, m_banner, &ConnectionBanner::onConnectionError);
    connect(m_session, &ClusterConnection::nextAttemptChanged, m_banner,
            &ConnectionBanner::onNextAttemptChanged);
    connect(m_session, &ClusterConnection::kubeconfigProblem, m_banner,
            &ConnectionBanner::onKubeconfigProblem);
    connect(m_session, &ClusterConnection::kubeconfigOk, m_banner, &ConnectionBanner::onKubeconfigOk);
    connect(m_session, &ClusterConnection::kubeconfigOk, m_contexts,
            [this] { m_contexts->setPlaceholderText(QString()); });
    connect(m_session, &ClusterConnection::contextsChanged, this, &MainWindow::onContextsChanged);
    // A first run without a cluster: say what to do next; it connects by itself once
    // the file is there or fixed.
    connect(m_session, &ClusterConnection::kubeconfigUnreadable, this, &MainWindow::onKubeconfigUnreadable);
    connect(m_session, &ClusterConnection::contextResolved, this, [this](const QString &context) {
        m_settings->setLastContext(m_kubeconfig, context);
        m_services->applyConnections(context);
    });
    connect(m_banner, &ConnectionBanner::retryRequested, m_session, &ClusterConnection::retryNow);
    connect(m_banner, &ConnectionBanner::statusMessage, this, &MainWindow::showStatus);
    connect(m_session, &ClusterConnection::identityChanged, this, &MainWindow::updateStatus);
    connect(m_session, &ClusterConnection::lastUpdateChanged, this, &MainWindow::updateStatus);
    connect(m_session, &ClusterConnection::synced, this, [this] {
        const QString ns = m_pendingNamespace.isEmpty() ? m_settings->lastNamespace(m_session->contextName())
                                                        : m_pendingNamespace;
        if (!m_namespaces->selectNamespace(ns))
            m_namespaces->selectFirstNamespace();
        m_pendingNamespace.clear();
        emit dataShown();
    });
}

} // namespace gq
