#pragma once

#include "clusterconnection.h"
#include "connectionsettings.h"
#include "connectionstab.h"
#include "gpumonitor.h"
#include "jobtracker.h"
#include "page.h"
#include "preferencesdialog.h"

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTimer;

namespace gq {

class AuditModel;
class ChangeAuditSink;
class AuditPage;
class BudgetService;
class BudgetsPage;
class BoostService;
class BoostsPage;
class ConnectionBanner;
class ConnectionProbe;
class ControllerIndicator;
class ConsoleSettings;
class DraftStore;
class LimitRangePage;
class LiveGpuPage;
class MessageBanner;
class NamespaceListModel;
class NamespacePanel;
class Page;
class QuotaPage;
class QueuesPage;
class UsageChartService;
class UsageDatabase;
class SourceGate;
class StartPage;
class UsageService;

// The console window. It only composes: the namespace panel on the left, the detail
// tabs on the right (Quotas, Limit ranges, Audit; Usage and Boosts come later and
// slot into the same tab widget), the context picker, banners and the status bar,
// and wires them to one ClusterConnection and the usage database. What the banner says
// about the connection is ConnectionBanner's; what a page shows is the page's.
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
    [[nodiscard]] LimitRangePage *limitRangePage() const { return m_limitPage; }
    [[nodiscard]] UsageService *usageDatabase() const { return m_db; }
    [[nodiscard]] UsageChartService *usageCharts() const { return m_charts; }
    [[nodiscard]] StartPage *startPage() const { return m_startPage; }
    // What the current context connects to besides the API server (the metrics and
    // controller settings are for the pages that use them).
    [[nodiscard]] const ContextConnections &connections() const { return m_connections; }
    // Where embedded SQLite databases are created (default: the app data directory).
    void setDataDirectory(const QString &dir) { m_dataDir = dir; }
    [[nodiscard]] QString dataDirectory() const { return m_dataDir; }
    // Opens the Preferences at `tab` (the Connections tab at `section`). Non-modal.
    PreferencesDialog *
    openPreferences(PreferencesDialog::Tab tab = PreferencesDialog::Tab::General,
                    ConnectionsTab::Section section = ConnectionsTab::Section::UsageDatabase);
    [[nodiscard]] BudgetsPage *budgetsPage() const { return m_budgetsPage; }
    [[nodiscard]] BoostsPage *boostsPage() const { return m_boostsPage; }
    [[nodiscard]] AuditPage *auditPage() const { return m_auditPage; }
    [[nodiscard]] LiveGpuPage *liveGpuPage() const { return m_liveGpuPage; }
    [[nodiscard]] QueuesPage *queuesPage() const { return m_queuesPage; }
    [[nodiscard]] GpuMonitor *gpuMonitor() const { return m_gpuMonitor; }
    [[nodiscard]] ControllerIndicator *controllerIndicator() const { return m_controllerIndicator; }

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
    // A detail tab (`tab`: what holds the page, e.g. a SourceGate); the pages learn the connection and the
    // namespace in updatePages().
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
    void onApplied(const QString &ns, const QString &object, const QString &beforeYaml,
                   const QString &afterYaml, const QString &diffText, const QString &note);
    void openTemplates();
    void applyCurrentTab();
    void updateStatus();
    void saveLayout();
    void restoreLayout();
    // mainwindow_connections.cpp: connections per context and the guided start.
    void buildGuidedStart();
    void applyContextConnections(const QString &context);
    // The context as its connections are kept (name and API server).
    [[nodiscard]] ContextId contextId(const QString &context) const;
    void onKubeconfigUnreadable(const Error &error);
    void showStartPage(bool show);
    void chooseKubeconfig();
    void createEmbeddedDatabase();
    void applyPreferences(const QStringList &changedContexts);
    // The Preferences' zone, rate and currency to every page; budget alerts where the
    // Preferences say (banner, status bar or nowhere).
    void applyPagePreferences();
    [[nodiscard]] PagePreferences pagePreferences() const;
    // A tab for `page` that needs the usage database: the page, or what to configure.
    [[nodiscard]] SourceGate *usageGate(QWidget *page, const QString &key);
    // `missing` empty: every such tab shows its page; else the notice saying it.
    void showUsageGates(const QString &missing);
    void showBudgetAlerts(const QSet<QString> &overBudget);
    // The controller URL of the context: the status bar indicator and the Budgets
    // page's self-service link (for the signed-in user).
    void applyControllerUrl();
    // mainwindow_livegpu.cpp: the live GPU monitor of the current context.
    void buildLiveGpus();
    // "Plan a fine-tune…" (mainwindow_fitplan.cpp): from a namespace or the Budgets tab.
    void openFitPlan(const QString &user, const QString &ns);
    void applyLiveGpuPreferences();
    void applyMetricsSource(const QString &context);
    void showMetricsMissing(const QString &context);
    void startMonitor(GpuMonitor::Source source);

    ConsoleSettings *m_settings;
    DraftStore *m_drafts;
    NamespaceListModel *m_model;
    ClusterConnection *m_session;
    AuditModel *m_auditModel;
    UsageDatabase *m_database; // every service below reaches the usage database through it
    UsageService *m_db;

    MessageBanner *m_demoBanner;
    ConnectionBanner *m_banner;
    QComboBox *m_contexts;
    QSplitter *m_splitter;
    NamespacePanel *m_namespaces;
    QTabWidget *m_tabs;
    QuotaPage *m_quotaPage;
    LimitRangePage *m_limitPage;
    AuditPage *m_auditPage;
    UsageChartService *m_charts;
    BudgetService *m_budgets;
    BudgetsPage *m_budgetsPage;
    BoostService *m_boosts = nullptr;
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
    // The one transport of the controller indicator and the Connections tab's Test buttons.
    std::shared_ptr<ConnectionProbe> m_probe;
    std::shared_ptr<ChangeAuditSink> m_auditSink; // applied changes' audit entries (changeaudit.h)
    QPointer<PreferencesDialog> m_preferences;
    ContextConnections m_connections;
    std::optional<ContextConnections> m_fixedConnections; // setFixedConnections()
    QString m_connectionsContext;                         // whose connections m_connections holds
    QString m_usageDbOverride;
    QString m_dataDir;
    JobTracker m_jobs{this}; // secrets read for the current context
    GpuMonitor *m_gpuMonitor = nullptr;
    LiveGpuPage *m_liveGpuPage = nullptr;
    QueuesPage *m_queuesPage = nullptr;
    SourceGate *m_gpuGate = nullptr;
    JobTracker m_metricsJobs{this};   // the metrics token and CA of the current context
    JobTracker m_urlSecretJobs{this}; // the password of the context's Prometheus URL
    QString m_prometheusUrlPassword;  // from the keychain; joined to the URL when used
};

} // namespace gq
