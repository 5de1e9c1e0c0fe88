#pragma once

#include "services/settings/connectionsettings.h"
#include "core/jobs/jobtracker.h"
#include "core/domain/result.h"

#include <QHash>
#include <QWidget>

#include <memory>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;

namespace gq {

class ConsoleSettings;
class ConnectionProbe;
class KubeClient;
struct DiscoveryReport;

// The Connections tab of the preferences: for each kubeconfig context, the usage
// database, the metrics source and the controller, each with a Test button that says in
// words what works ("connected, schema v7, 1.2 M intervals, newest 3 min ago") or what
// does not ("401: token rejected"). Tests and discovery run off the GUI thread and come
// back through a JobTracker. Secrets (database password, Prometheus token) are read from
// and written to the SecretStore only. Nothing is saved until save() (the dialog's OK or
// Apply); discovery fills the fields only after the admin confirms what was found.
class ConnectionsTab final : public QWidget {
    Q_OBJECT
public:
    enum class Section { UsageDatabase, Metrics, Controller };

    // `probe`: the console's transport for the Test buttons (shared with the controller
    // indicator).
    ConnectionsTab(ConsoleSettings *settings, std::shared_ptr<ConnectionProbe> probe,
                   QWidget *parent = nullptr);
    ~ConnectionsTab() override;

    // The kubeconfig's contexts, and the one shown first (the connected one); `servers`:
    // each context's API server, which keys its connections with its name (ContextId).
    void setContexts(const QStringList &contexts, const QString &current,
                     const QHash<QString, QString> &servers = {});
    // The connected context's client, for "Discover from the cluster" (null: none).
    void setClient(const std::shared_ptr<KubeClient> &client, const QString &context);
    // Where "Create an embedded database" puts its SQLite file.
    void setDataDirectory(const QString &dir) { m_dataDir = dir; }
    [[nodiscard]] QString context() const;
    void focusSection(Section section);
    // Writes every context edited here; returns their names.
    QStringList save();

signals:
    // A test finished; `ok` and the words shown (for tests and the status bar).
    void testFinished(gq::ConnectionsTab::Section section, bool ok, const QString &text);
    void discoveryFinished();

private:
    // The constructor's parts, in the order it runs them.
    void setUpFields();
    QGroupBox *buildDatabaseBox(QFormLayout *&dbForm);
    QGroupBox *buildMetricsBox(QFormLayout *&metricsForm, QFormLayout *&promForm);
    QGroupBox *buildControllerBox(QFormLayout *&controllerForm);
    void connectFields();
    struct Edit {
        ContextConnections connections;
        QString databasePassword;
        QString prometheusToken;
        QString prometheusUrlPassword; // of a Prometheus URL with a user (basic auth)
        bool secretsLoaded = false;
        bool secretsTouched = false;
    };
    void showContext(const QString &context);
    void storeFields();
    void loadSecrets(const QString &context);
    // Passwords typed into the URLs go to the secrets; says so. True if any moved.
    bool movePasswordsOutOfUrls(Edit &e);
    void updateMetricsFields();
    void runTest(Section section);
    void showResult(QLabel *label, const Result<QString> &result);
    void discover();
    void confirmDiscovery(const DiscoveryReport &report);
    [[nodiscard]] QLabel *resultLabel(Section section) const;

    ConsoleSettings *m_settings;
    std::shared_ptr<ConnectionProbe> m_probe;
    QComboBox *m_context;
    QLineEdit *m_dbUrl;
    QLineEdit *m_dbPassword;
    QPushButton *m_createDb;
    QComboBox *m_metricsSource;
    QStackedWidget *m_metricsPages;
    QLineEdit *m_promUrl;
    QLineEdit *m_promToken;
    QLineEdit *m_promCa;
    QPlainTextEdit *m_exporters;
    QLineEdit *m_controllerUrl;
    QLabel *m_dbResult;
    QLabel *m_metricsResult;
    QLabel *m_controllerResult;
    QPushButton *m_discover;
    QLabel *m_discoverNote;
    QLabel *m_secretNotice;
    [[nodiscard]] ContextId idOf(const QString &context) const { return {context, m_servers.value(context)}; }

    QHash<QString, Edit> m_edits;
    QHash<QString, QString> m_servers;
    QString m_shown; // the context whose values the fields hold
    QString m_dataDir;
    std::shared_ptr<KubeClient> m_client;
    QString m_clientContext;
    bool m_loading = false;
    JobTracker m_tests{this};
    JobTracker m_secrets{this};
};

} // namespace gq
