#pragma once

#include "services/cluster/clusterconnection.h"
#include "services/settings/connectionsettings.h"
#include "widgets/connections/connectionstab.h"
#include "services/cluster/contextservices.h"
#include "widgets/common/page.h"
#include "widgets/settings/preferencesdialog.h"

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;

namespace gq {

class AuditModel;
class AuditPage;
class BudgetsPage;
class BoostsPage;
class ConnectionBanner;
class ControllerIndicator;
class ConsoleSettings;
class DraftStore;
class LimitRangePage;
class LiveGpuPage;
class MessageBanner;
class NamespaceListModel;
class NamespacePanel;
class ChargebackPage;
class ClusterUsagePage;
class Page;
class QuotaPage;
class QueuesPage;
class SourceGate;
class StartPage;
class UsageService;

// The console window. It only composes: the namespace panel on the left, the detail
// tabs on the right (the cluster dashboard, quotas, limit ranges, usage, budgets,
// boosts, audit, chargeback, live GPUs, queues), the context picker, banners and the
// status bar, on top of the current context's ContextServices (the connection, the
// usage database, metrics and the controller, wired to each other there). What the
// banner says about the connection is ConnectionBanner's; what a page shows is the page's.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(ConsoleSettings *settings, DraftStore *drafts, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Lists the kubeconfig's contexts and connects to `context` (empty: the one last
    // used with this file, else current-context).
    void openKubeconfig(const QString &kubeconfigPath, const QString &context = {});
    // A usage database for every context (--usage-db, --demo, tests): the contexts'
    // own settings are not used while it is set.
    void openUsageDatabase(const QString &url);
    void setDemoMode(const QString &description);
    // Every context connects to these (the demo's exporter and controller) instead of
    // the connections kept in the settings, which stay untouched.
    void setFixedConnections(const ContextConnections &connections);
    void showError(const QString &message);
    // A user's usage across namespaces, in a window of its own.
    void openUserUsage(const QString &user);

    [[nodiscard]] ClusterConnection *session() const { return m_session; }
    [[nodiscard]] NamespacePanel *namespacePanel() const { return m_namespaces; }
    [[nodiscard]] QuotaPage *quotaPage() const { return m_quotaPage; }
    [[nodiscard]] UsageService *usageDatabase() const { return m_db; }
    [[nodiscard]] StartPage *startPage() const { return m_startPage; }
    // What the current context connects to besides the API server (the metrics and
    // controller settings are for the pages that use them).
    [[nodiscard]] const ContextConnections &connections() const { return m_services->connections(); }
    // Where embedded SQLite databases are created (default: the app data directory).
    void setDataDirectory(const QString &dir) { m_dataDir = dir; }
    // Opens the Preferences at `tab` (the Connections tab at `section`). Non-modal.
    PreferencesDialog *
    openPreferences(PreferencesDialog::Tab tab = PreferencesDialog::Tab::General,
                    ConnectionsTab::Section section = ConnectionsTab::Section::UsageDatabase);
    [[nodiscard]] BoostsPage *boostsPage() const { return m_boostsPage; } // the screenshots (bench/gui)
    [[nodiscard]] AuditPage *auditPage() const { return m_auditPage; }
    [[nodiscard]] LiveGpuPage *liveGpuPage() const { return m_liveGpuPage; }
    [[nodiscard]] QueuesPage *queuesPage() const { return m_queuesPage; }

signals:
    // The namespace list shows the first full sync of a context.
    void dataShown();
    // The start page's "Try the demo" (main() starts the demo cluster).
    void demoRequested();
    // Another context, or its connections were edited.
    void connectionsChanged(const QString &context, const gq::ContextConnections &connections);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    ClusterUsagePage *addUsagePages();
    void addBudgetAndBoostPages();
    ChargebackPage *addAuditAndChargebackPages();
    void addLiveAndQueuePages();
    void layOut();
    void connectSession();
    void connectPagesAndDatabase();
    // A detail tab (`tab`: what holds the page, e.g. a SourceGate); the pages learn the connection and the
    // namespace in updatePages(), the Preferences from ConsoleSettings::preferencesChanged.
    // `key` names the page in the settings (start page, the page last open).
    template <typename P>
    void addPage(P *page, const QString &key, const QString &title, QWidget *tab = nullptr);
    [[nodiscard]] int tabIndex(const QString &key) const; // -1: no such page
    static constexpr const char *kPageKeyProperty = "gqPageKey";
    void updatePages(const QString &ns);
    void switchContext(const QString &context);
    void onNamespaceChanged(const QString &ns);
    void onContextsChanged(const QStringList &contexts);
    void showStatus(const QString &message, int timeoutMs);
    // A page's or dialog's own status message, for 8 s.
    void showPageStatus(const QString &message);
    // A change was applied and its entry handed to the audit sink.
    void onApplied();
    void openTemplates();
    void applyCurrentTab();
    void updateStatus();
    void saveLayout();
    void restoreLayout();
    // mainwindow_connections.cpp: connections per context and the guided start.
    void buildGuidedStart();
    // What the window shows of the context's usage database: its pages, or what to set up.
    void showUsageDatabaseMissing(const QString &context);
    void showUsageDatabaseSet(bool changed);
    void onKubeconfigUnreadable(const Error &error);
    void showStartPage(bool show);
    void chooseKubeconfig();
    void createEmbeddedDatabase();
    // The Preferences' zone, rate and currency, as the pages take them.
    [[nodiscard]] PagePreferences pagePreferences() const;
    // A tab for `page` that needs the usage database: the page, or what to configure.
    [[nodiscard]] SourceGate *usageGate(QWidget *page, const QString &key);
    // `missing` empty: every such tab shows its page; else the notice saying it.
    void showUsageGates(const QString &missing);
    // Budget alerts where the Preferences say (banner, status bar or nowhere).
    void showBudgetAlerts(const QSet<QString> &overBudget);
    // The controller URL of the context: the status bar indicator and the Budgets
    // page's self-service link (for the signed-in user).
    void applyControllerUrl();
    // mainwindow_livegpu.cpp: the live GPU monitor of the current context.
    void buildLiveGpus();
    // "Plan a fine-tune…" (mainwindow_fitplan.cpp): from a namespace or the Budgets tab.
    void openFitPlan(const QString &user, const QString &ns);
    void applyLiveGpuPreferences();
    void showMetricsMissing(const QString &context);
    void showMetricsStarted();

    ConsoleSettings *m_settings;
    DraftStore *m_drafts;
    ContextServices *m_services;
    ClusterConnection *m_session; // m_services' connection and database, named as the
    UsageService *m_db;           // window uses them most
    NamespaceListModel *m_model;
    AuditModel *m_auditModel;

    MessageBanner *m_demoBanner;
    ConnectionBanner *m_banner;
    QComboBox *m_contexts;
    QSplitter *m_splitter;
    NamespacePanel *m_namespaces;
    QTabWidget *m_tabs;
    QuotaPage *m_quotaPage;
    LimitRangePage *m_limitPage;
    AuditPage *m_auditPage;
    BudgetsPage *m_budgetsPage;
    BoostsPage *m_boostsPage = nullptr;
    QList<Page *> m_pages; // in tab order
    QLabel *m_clusterLabel;
    QLabel *m_identityLabel;
    QLabel *m_stateLabel;
    QLabel *m_updateLabel;
    QTimer *m_statusTimer;

    QString m_kubeconfig;
    QString m_pendingNamespace;

    QStackedWidget *m_stack = nullptr;
    StartPage *m_startPage = nullptr;
    QList<SourceGate *> m_usageGates; // the tabs of pages that read the usage database
    MessageBanner *m_usageOffer = nullptr;
    MessageBanner *m_alertBanner = nullptr; // namespaces over their GPU-hour budget
    MessageBanner *m_scopeBanner = nullptr; // RBAC narrowed the list to the context's namespace
    QLabel *m_alertLabel = nullptr;         // the same in the status bar
    QSet<QString> m_overBudget;
    ControllerIndicator *m_controllerIndicator = nullptr; // the context's controller, /readyz
    QPointer<PreferencesDialog> m_preferences;
    QString m_dataDir;
    LiveGpuPage *m_liveGpuPage = nullptr;
    QueuesPage *m_queuesPage = nullptr;
    SourceGate *m_gpuGate = nullptr;
};

} // namespace gq
