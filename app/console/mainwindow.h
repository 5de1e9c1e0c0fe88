#pragma once

#include "models/clustersession.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QPointer>

#include <optional>

class QComboBox;
class QLabel;
class QSplitter;
class QTabWidget;
class QTimer;

namespace gq {

class AuditModel;
class AuditPage;
class ConsoleSettings;
class DraftStore;
class LimitRangePage;
class MessageBanner;
class NamespaceListModel;
class NamespacePanel;
class QuotaPage;
class UsageDatabase;

// The console window. It only composes: the namespace panel on the left, the detail
// tabs on the right (Quotas, Limit ranges, Audit; Usage and Boosts come later and
// slot into the same tab widget), the context picker, banners and the status bar,
// and wires them to one ClusterSession and the usage database.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(ConsoleSettings *settings, DraftStore *drafts, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Lists the kubeconfig's contexts and connects to `context` (empty: the one last
    // used with this file, else current-context).
    void openKubeconfig(const QString &kubeconfigPath, const QString &context = {});
    void openUsageDatabase(const QString &url);
    void setDemoMode(const QString &description);
    void showError(const QString &message);

    [[nodiscard]] ClusterSession *session() const { return m_session; }
    [[nodiscard]] NamespacePanel *namespacePanel() const { return m_namespaces; }
    [[nodiscard]] QuotaPage *quotaPage() const { return m_quotaPage; }
    [[nodiscard]] LimitRangePage *limitRangePage() const { return m_limitPage; }
    [[nodiscard]] UsageDatabase *usageDatabase() const { return m_db; }

signals:
    // The namespace list shows the first full sync of a context.
    void dataShown();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void buildActions();
    void switchContext(const QString &context);
    void onNamespaceChanged(const QString &ns);
    void onStateChanged(ClusterSession::State state);
    void onSessionError(const Error &error);
    // The lost-connection banner: what failed, when the next attempt is (or that one
    // is under way), Retry now. Re-rendered by a single-shot timer only while it shows.
    void showConnectionBanner();
    void clearConnectionBanner();
    void onContextsChanged(const QStringList &contexts);
    void onKubeconfigProblem(const Error &error);
    void onKubeconfigOk();
    void showUnreadableKubeconfig(const Error &error);
    void onApplied(const QString &ns, const QString &object, const QString &beforeYaml,
                   const QString &afterYaml, const QString &diffText, const QString &note);
    void openTemplates();
    void applyCurrentTab();
    void updateStatus();
    void saveLayout();
    void restoreLayout();

    ConsoleSettings *m_settings;
    DraftStore *m_drafts;
    NamespaceListModel *m_model;
    ClusterSession *m_session;
    AuditModel *m_auditModel;
    UsageDatabase *m_db;

    MessageBanner *m_demoBanner;
    MessageBanner *m_banner;
    QComboBox *m_contexts;
    QSplitter *m_splitter;
    NamespacePanel *m_namespaces;
    QTabWidget *m_tabs;
    QuotaPage *m_quotaPage;
    LimitRangePage *m_limitPage;
    AuditPage *m_auditPage;
    QLabel *m_clusterLabel;
    QLabel *m_identityLabel;
    QLabel *m_stateLabel;
    QLabel *m_updateLabel;
    QTimer *m_statusTimer;

    QString m_kubeconfig;
    QString m_pendingNamespace;
    bool m_errorFromConnection = false;
    bool m_connectionBanner = false;        // the banner shows the reconnect state (and countdown)
    bool m_kubeconfigBanner = false;        // the banner shows only m_kubeconfigProblem
    bool m_kubeconfigUnreadable = false;    // nothing connected: the kubeconfig could not be read
    std::optional<Error> m_connectionError; // the last failure while reconnecting
    QString m_kubeconfigProblem;            // a changed kubeconfig that cannot be used (connection kept)
    QTimer *m_countdown;
};

} // namespace gq
