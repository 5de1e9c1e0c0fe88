#include "widgets/connections/connectionstab.h"

#include "core/domain/clock.h"
#include "services/cluster/clusterdiscovery.h"
#include "services/cluster/connectionprobe.h"
#include "services/settings/consolesettings.h"
#include "services/livegpus/exporterdiscovery.h"
#include "widgets/common/formlabels.h"
#include "core/kube/kubeclient.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace gq {

namespace {
QPushButton *testButton(const QString &objectName, QWidget *parent) {
    auto *b = new QPushButton(ConnectionsTab::tr("Test"), parent);
    b->setObjectName(objectName);
    return b;
}

QLabel *resultLabelFor(const QString &objectName, QWidget *parent) {
    auto *l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// One row: the field, then its Test button.
QWidget *withButton(QWidget *field, QPushButton *button, QWidget *parent) {
    auto *row = new QWidget(parent);
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(field, 1);
    h->addWidget(button);
    return row;
}

QStringList endpointLines(const QString &text) {
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const QString t = line.trimmed();
        if (!t.isEmpty())
            out << t;
    }
    return out;
}
} // namespace

ConnectionsTab::ConnectionsTab(ConsoleSettings *settings, std::shared_ptr<ConnectionProbe> probe,
                               QWidget *parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_probe(std::move(probe))
    , m_context(new QComboBox(this))
    , m_dbUrl(new QLineEdit(this))
    , m_dbPassword(new QLineEdit(this))
    , m_createDb(new QPushButton(tr("Use an embedded SQLite database"), this))
    , m_metricsSource(new QComboBox(this))
    , m_metricsPages(new QStackedWidget(this))
    , m_promUrl(new QLineEdit(this))
    , m_promToken(new QLineEdit(this))
    , m_promCa(new QLineEdit(this))
    , m_exporters(new QPlainTextEdit(this))
    , m_controllerUrl(new QLineEdit(this))
    , m_dbResult(resultLabelFor(QStringLiteral("databaseResult"), this))
    , m_metricsResult(resultLabelFor(QStringLiteral("metricsResult"), this))
    , m_controllerResult(resultLabelFor(QStringLiteral("controllerResult"), this))
    , m_discover(new QPushButton(tr("Discover from the cluster..."), this))
    , m_discoverNote(new QLabel(this))
    , m_secretNotice(new QLabel(this)) {
    setUpFields();

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Context:"), this));
    top->addWidget(m_context, 1);
    top->addWidget(m_discover);

    QFormLayout *dbForm = nullptr, *metricsForm = nullptr, *promForm = nullptr, *controllerForm = nullptr;
    QGroupBox *dbBox = buildDatabaseBox(dbForm);
    QGroupBox *metricsBox = buildMetricsBox(metricsForm, promForm);
    QGroupBox *controllerBox = buildControllerBox(controllerForm);

    // One label column for all three groups (and the Prometheus fields inside one).
    for (QFormLayout *form : {dbForm, metricsForm, promForm, controllerForm})
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    alignFormLabels({dbForm, metricsForm, promForm, controllerForm});

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_discoverNote);
    layout->addWidget(dbBox);
    layout->addWidget(metricsBox);
    layout->addWidget(controllerBox);
    layout->addWidget(m_secretNotice);
    layout->addStretch(1);
    m_discoverNote->hide();

    connectFields();
    updateMetricsFields();
    setClient({}, {});
}

void ConnectionsTab::setUpFields() {
    setObjectName(QStringLiteral("connectionsTab"));
    m_context->setObjectName(QStringLiteral("connectionsContext"));
    m_dbUrl->setObjectName(QStringLiteral("databaseUrl"));
    m_dbUrl->setPlaceholderText(tr("sqlite:///path/usage.db or postgresql://user@host:5432/gpuquota"));
    m_dbPassword->setObjectName(QStringLiteral("databasePassword"));
    m_dbPassword->setEchoMode(QLineEdit::Password);
    m_dbPassword->setPlaceholderText(tr("PostgreSQL only; kept in the keychain"));
    m_createDb->setObjectName(QStringLiteral("createEmbeddedDatabase"));
    m_metricsSource->setObjectName(QStringLiteral("metricsSource"));
    m_metricsSource->addItem(tr("Not configured"), metricsSourceKey(MetricsSource::None));
    m_metricsSource->addItem(tr("Prometheus"), metricsSourceKey(MetricsSource::Prometheus));
    m_metricsSource->addItem(tr("dcgm-exporter endpoints (direct)"),
                             metricsSourceKey(MetricsSource::Exporters));
    m_metricsSource->addItem(tr("Discover dcgm-exporter through the cluster"),
                             metricsSourceKey(MetricsSource::Discover));
    m_promUrl->setObjectName(QStringLiteral("prometheusUrl"));
    m_promUrl->setPlaceholderText(tr("https://prometheus.example.com"));
    m_promToken->setObjectName(QStringLiteral("prometheusToken"));
    m_promToken->setEchoMode(QLineEdit::Password);
    m_promToken->setPlaceholderText(tr("bearer token, optional; kept in the keychain"));
    m_promCa->setObjectName(QStringLiteral("prometheusCa"));
    m_promCa->setPlaceholderText(tr("CA certificate (PEM file), optional"));
    m_exporters->setObjectName(QStringLiteral("exporterEndpoints"));
    m_exporters->setPlaceholderText(tr("one /metrics URL per line, e.g. http://gpu-node-1:9400/metrics"));
    m_exporters->setMaximumHeight(80);
    m_controllerUrl->setObjectName(QStringLiteral("controllerUrl"));
    m_controllerUrl->setPlaceholderText(tr("http://gpuquota-controller.gpuquota-system.svc:9464"));
    m_discover->setObjectName(QStringLiteral("discoverButton"));
    m_discoverNote->setObjectName(QStringLiteral("discoverNote"));
    m_discoverNote->setWordWrap(true);
    m_secretNotice->setObjectName(QStringLiteral("secretNotice"));
    m_secretNotice->setWordWrap(true);
}

QGroupBox *ConnectionsTab::buildDatabaseBox(QFormLayout *&dbForm) {
    auto *dbBox = new QGroupBox(tr("Usage database"), this);
    dbForm = new QFormLayout(dbBox);
    auto *dbTest = testButton(QStringLiteral("testDatabaseButton"), dbBox);
    dbForm->addRow(tr("URL:"), withButton(m_dbUrl, dbTest, dbBox));
    dbForm->addRow(tr("Password:"), m_dbPassword);
    auto *createRow = new QHBoxLayout;
    createRow->addWidget(m_createDb);
    createRow->addStretch(1);
    dbForm->addRow(QString(), createRow);
    dbForm->addRow(QString(), m_dbResult);
    connect(dbTest, &QPushButton::clicked, this, [this] { runTest(Section::UsageDatabase); });
    return dbBox;
}

// The metrics source, and one page of fields for each kind of source.
QGroupBox *ConnectionsTab::buildMetricsBox(QFormLayout *&metricsForm, QFormLayout *&promForm) {
    auto *metricsBox = new QGroupBox(tr("GPU metrics"), this);
    metricsForm = new QFormLayout(metricsBox);
    auto *metricsTest = testButton(QStringLiteral("testMetricsButton"), metricsBox);
    metricsForm->addRow(tr("Source:"), withButton(m_metricsSource, metricsTest, metricsBox));
    auto *none = new QLabel(tr("The live GPU page stays empty until a source is set."), m_metricsPages);
    none->setWordWrap(true);
    auto *prom = new QWidget(m_metricsPages);
    promForm = new QFormLayout(prom);
    promForm->setContentsMargins(0, 0, 0, 0);
    auto *browseCa = new QPushButton(tr("Browse..."), prom);
    promForm->addRow(tr("URL:"), m_promUrl);
    promForm->addRow(tr("Token:"), m_promToken);
    promForm->addRow(tr("CA file:"), withButton(m_promCa, browseCa, prom));
    auto *direct = new QWidget(m_metricsPages);
    auto *directLayout = new QVBoxLayout(direct);
    directLayout->setContentsMargins(0, 0, 0, 0);
    directLayout->addWidget(m_exporters);
    auto *discovered = new QLabel(tr("The console finds dcgm-exporter pods and services by their labels "
                                     "(app.kubernetes.io/name=dcgm-exporter, app=nvidia-dcgm-exporter) "
                                     "and reads them through the API server."),
                                  m_metricsPages);
    discovered->setWordWrap(true);
    for (QWidget *w : {static_cast<QWidget *>(none), prom, direct, static_cast<QWidget *>(discovered)})
        m_metricsPages->addWidget(w);
    metricsForm->addRow(m_metricsPages);
    metricsForm->addRow(QString(), m_metricsResult);
    connect(metricsTest, &QPushButton::clicked, this, [this] { runTest(Section::Metrics); });
    connect(browseCa, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("CA certificate"), QString(),
                                                       tr("PEM certificates (*.pem *.crt);;All files (*)"));
        if (!f.isEmpty())
            m_promCa->setText(f);
    });
    return metricsBox;
}

QGroupBox *ConnectionsTab::buildControllerBox(QFormLayout *&controllerForm) {
    auto *controllerBox = new QGroupBox(tr("Controller"), this);
    controllerForm = new QFormLayout(controllerBox);
    auto *controllerTest = testButton(QStringLiteral("testControllerButton"), controllerBox);
    controllerForm->addRow(tr("URL:"), withButton(m_controllerUrl, controllerTest, controllerBox));
    auto *controllerHint =
        new QLabel(tr("The controller records GPU-hours into the usage database and enforces budgets; "
                      "self-service and status pages talk to it here."),
                   controllerBox);
    controllerHint->setWordWrap(true);
    controllerHint->setForegroundRole(QPalette::PlaceholderText);
    controllerForm->addRow(QString(), controllerHint);
    controllerForm->addRow(QString(), m_controllerResult);
    connect(controllerTest, &QPushButton::clicked, this, [this] { runTest(Section::Controller); });
    return controllerBox;
}

void ConnectionsTab::connectFields() {
    connect(m_context, &QComboBox::currentTextChanged, this, &ConnectionsTab::showContext);
    connect(m_metricsSource, &QComboBox::currentIndexChanged, this, &ConnectionsTab::updateMetricsFields);
    connect(m_discover, &QPushButton::clicked, this, &ConnectionsTab::discover);
    connect(m_createDb, &QPushButton::clicked, this, [this] {
        m_dbUrl->setText(embeddedDatabaseUrl(m_dataDir, m_shown));
        m_dbResult->setText(tr("The file is created when you save and the console opens it."));
    });
    for (QLineEdit *secret : {m_dbPassword, m_promToken})
        connect(secret, &QLineEdit::textEdited, this, [this] {
            if (m_edits.contains(m_shown))
                m_edits[m_shown].secretsTouched = true;
        });
    if (const QString notice = m_settings->secrets()->notice(); !notice.isEmpty())
        m_secretNotice->setText(notice);
    connect(m_settings->secrets(), &SecretStore::fellBack, m_secretNotice, &QLabel::setText);
}

ConnectionsTab::~ConnectionsTab() = default;

void ConnectionsTab::setContexts(const QStringList &contexts, const QString &current,
                                 const QHash<QString, QString> &servers) {
    m_servers = servers;
    m_loading = true;
    m_context->clear();
    m_context->addItems(contexts);
    m_loading = false;
    if (!current.isEmpty() && !contexts.contains(current))
        m_context->addItem(current);
    m_context->setCurrentText(current.isEmpty() && !contexts.isEmpty() ? contexts.first() : current);
    showContext(m_context->currentText());
}

void ConnectionsTab::setClient(const std::shared_ptr<KubeClient> &client, const QString &context) {
    m_client = client;
    m_clientContext = context;
    const bool can = m_client && m_clientContext == m_shown;
    m_discover->setEnabled(can);
    m_discover->setToolTip(
        can ? tr("Ask the cluster for the controller's ConfigMap and for dcgm-exporter pods")
            : tr("Connect to this context first: discovery asks its API server"));
}

QString ConnectionsTab::context() const {
    return m_shown;
}

void ConnectionsTab::focusSection(Section section) {
    switch (section) {
    case Section::UsageDatabase: m_dbUrl->setFocus(); break;
    case Section::Metrics: m_metricsSource->setFocus(); break;
    case Section::Controller: m_controllerUrl->setFocus(); break;
    }
}

// The fields hold one context at a time; edits of the others wait in m_edits.
void ConnectionsTab::storeFields() {
    if (m_shown.isEmpty() || !m_edits.contains(m_shown))
        return;
    Edit &e = m_edits[m_shown];
    e.connections.usageDatabaseUrl = m_dbUrl->text().trimmed();
    e.connections.metricsSource = metricsSourceFromKey(m_metricsSource->currentData().toString());
    e.connections.prometheusUrl = m_promUrl->text().trimmed();
    e.connections.prometheusCaFile = m_promCa->text().trimmed();
    e.connections.exporterEndpoints = endpointLines(m_exporters->toPlainText());
    e.connections.controllerUrl = m_controllerUrl->text().trimmed();
    e.databasePassword = m_dbPassword->text();
    e.prometheusToken = m_promToken->text();
}

void ConnectionsTab::showContext(const QString &context) {
    if (m_loading || context == m_shown)
        return;
    storeFields();
    m_shown = context;
    if (!m_edits.contains(context)) {
        Edit e;
        e.connections = loadConnections(*m_settings, idOf(context));
        m_edits.insert(context, e);
        loadSecrets(context);
    }
    const Edit &e = m_edits[context];
    m_dbUrl->setText(e.connections.usageDatabaseUrl);
    m_dbPassword->setText(e.databasePassword);
    const int i = m_metricsSource->findData(metricsSourceKey(e.connections.metricsSource));
    m_metricsSource->setCurrentIndex(qMax(0, i));
    m_promUrl->setText(e.connections.prometheusUrl);
    m_promToken->setText(e.prometheusToken);
    m_promCa->setText(e.connections.prometheusCaFile);
    m_exporters->setPlainText(e.connections.exporterEndpoints.join(QLatin1Char('\n')));
    m_controllerUrl->setText(e.connections.controllerUrl);
    for (QLabel *l : {m_dbResult, m_metricsResult, m_controllerResult})
        l->clear();
    m_discoverNote->hide();
    m_tests.cancel(); // a result for the previous context must not land here
    setClient(m_client, m_clientContext);
}

void ConnectionsTab::loadSecrets(const QString &context) {
    auto fill = [this, context](bool db, const Result<QString> &r) {
        if (!m_edits.contains(context) || !r)
            return; // NotFound: never stored
        Edit &e = m_edits[context];
        (db ? e.databasePassword : e.prometheusToken) = *r;
        if (m_shown == context && !e.secretsTouched)
            (db ? m_dbPassword : m_promToken)->setText(*r);
    };
    const ContextId id = idOf(context);
    m_secrets.watch(contextSecret(*m_settings, settings::usageDatabaseSecret, id),
                    [fill](const Result<QString> &r) { fill(true, r); });
    m_secrets.watch(contextSecret(*m_settings, settings::prometheusToken, id),
                    [fill](const Result<QString> &r) { fill(false, r); });
    m_secrets.watch(contextSecret(*m_settings, settings::prometheusUrlPassword, id),
                    [this, context](const Result<QString> &r) {
                        if (m_edits.contains(context) && r && !m_edits[context].secretsTouched)
                            m_edits[context].prometheusUrlPassword = *r;
                    });
}

bool ConnectionsTab::movePasswordsOutOfUrls(Edit &e) {
    const UrlPassword db = splitUrlPassword(e.connections.usageDatabaseUrl);
    const UrlPassword prom = splitUrlPassword(e.connections.prometheusUrl);
    if (db.password.isEmpty() && prom.password.isEmpty())
        return false;
    if (!db.password.isEmpty()) {
        e.connections.usageDatabaseUrl = db.url;
        e.databasePassword = db.password;
    }
    if (!prom.password.isEmpty()) {
        e.connections.prometheusUrl = prom.url;
        e.prometheusUrlPassword = prom.password;
    }
    e.secretsTouched = true;
    return true;
}

void ConnectionsTab::updateMetricsFields() {
    m_metricsPages->setCurrentIndex(qMax(0, m_metricsSource->currentIndex()));
}

QStringList ConnectionsTab::save() {
    storeFields();
    QStringList saved;
    bool moved = false;
    for (auto it = m_edits.begin(); it != m_edits.end(); ++it) {
        moved = movePasswordsOutOfUrls(*it) || moved;
        const ContextId id = idOf(it.key());
        if (loadConnections(*m_settings, id) != it->connections) {
            saveConnections(*m_settings, id, it->connections);
            saved << it.key();
        }
        if (!it->secretsTouched)
            continue;
        // An emptied field removes the secret rather than storing an empty one.
        for (const auto &[setting, value] :
             {std::pair{&settings::usageDatabaseSecret, it->databasePassword},
              std::pair{&settings::prometheusToken, it->prometheusToken},
              std::pair{&settings::prometheusUrlPassword, it->prometheusUrlPassword}}) {
            if (value.isEmpty())
                m_secrets.watch(m_settings->removeSecret(*setting, id.key()), [](const Result<void> &) {});
            else
                m_secrets.watch(m_settings->setSecret(*setting, id.key(), value),
                                [this](const Result<void> &r) {
                                    if (!r)
                                        m_secretNotice->setText(r.error().message);
                                });
        }
        if (!saved.contains(it.key()))
            saved << it.key();
    }
    if (moved) {
        // The fields show what was saved: the URLs without their passwords.
        if (m_edits.contains(m_shown)) {
            const Edit &e = m_edits[m_shown];
            m_dbUrl->setText(e.connections.usageDatabaseUrl);
            m_dbPassword->setText(e.databasePassword);
            m_promUrl->setText(e.connections.prometheusUrl);
        }
        m_secretNotice->setText(tr("A password typed into a URL was moved to the keychain (%1); the URL is "
                                   "saved without it.")
                                    .arg(m_settings->secrets()->backendName()));
    }
    for (auto &e : m_edits)
        e.secretsTouched = false;
    m_settings->sync();
    return saved;
}

QLabel *ConnectionsTab::resultLabel(Section section) const {
    switch (section) {
    case Section::UsageDatabase: return m_dbResult;
    case Section::Metrics: return m_metricsResult;
    case Section::Controller: break;
    }
    return m_controllerResult;
}

void ConnectionsTab::showResult(QLabel *label, const Result<QString> &result) {
    const bool ok = result.has_value();
    const QString text = ok ? *result : result.error().message;
    label->setText((ok ? QStringLiteral("\u2714 ") : QStringLiteral("\u2716 ")) + text);
    QPalette pal = palette();
    pal.setColor(QPalette::WindowText, ok ? QColor(0x2e, 0x7d, 0x46) : QColor(0xc6, 0x28, 0x28));
    label->setPalette(pal);
    label->setProperty("ok", ok);
}

void ConnectionsTab::runTest(Section section) {
    storeFields();
    const Edit e = m_edits.value(m_shown);
    QLabel *label = resultLabel(section);
    label->setPalette(palette());
    label->setText(tr("Testing..."));
    auto deliver = [this, section, label](Result<QString> r) {
        showResult(label, r);
        emit testFinished(section, r.has_value(), r ? *r : r.error().message);
    };
    const ContextConnections c = e.connections;
    switch (section) {
    case Section::UsageDatabase:
        m_tests.run(
            [url = c.usageDatabaseUrl, password = e.databasePassword] {
                // A password typed into the URL is tried (and moved out of it on save).
                const UrlPassword typed = splitUrlPassword(url);
                return connectiontests::usageDatabase(typed.url,
                                                      typed.password.isEmpty() ? password : typed.password,
                                                      Clock::system().nowSecs());
            },
            deliver);
        return;
    case Section::Controller:
        m_tests.run([probe = m_probe, url = c.controllerUrl] { return probe->controller(url); }, deliver);
        return;
    case Section::Metrics: break;
    }
    switch (c.metricsSource) {
    case MetricsSource::None: deliver(Error::make(Error::Kind::Invalid, tr("choose a source first"))); return;
    case MetricsSource::Prometheus:
        m_tests.run(
            [probe = m_probe, c, token = e.prometheusToken,
             urlPassword = e.prometheusUrlPassword]() -> Result<QString> {
                connectiontests::PrometheusTarget target{
                    withUrlPassword(c.prometheusUrl, urlPassword), token, {}};
                if (!c.prometheusCaFile.isEmpty()) {
                    QFile f(c.prometheusCaFile);
                    if (!f.open(QIODevice::ReadOnly))
                        return Error::make(Error::Kind::Io,
                                           QCoreApplication::translate("gq::ConnectionsTab",
                                                                       "cannot read the CA file %1: %2")
                                               .arg(c.prometheusCaFile, f.errorString()));
                    target.caPem = f.read(1 << 20);
                }
                auto r = probe->prometheus(target);
                if (!r && !urlPassword.isEmpty()) {
                    // The words name the URL as the tab shows it, never with its password.
                    Error e = r.error();
                    e.message.replace(target.url, c.prometheusUrl);
                    return e;
                }
                return r;
            },
            deliver);
        return;
    case MetricsSource::Exporters:
        m_tests.run(
            [probe = m_probe, endpoints = c.exporterEndpoints] { return probe->exporters(endpoints); },
            deliver);
        return;
    case MetricsSource::Discover:
        if (!m_client || m_clientContext != m_shown) {
            deliver(Error::make(Error::Kind::Invalid, tr("connect to this context first: the exporters are "
                                                         "found through its API server")));
            return;
        }
        // Found, then read through the API server's pod proxy: the GPUs really read.
        m_tests.run([client = m_client] { return exporters::testDiscovered(*client); }, deliver);
        return;
    }
}

void ConnectionsTab::discover() {
    if (!m_client)
        return;
    m_discover->setEnabled(false);
    m_discoverNote->show();
    m_discoverNote->setText(tr("Asking the cluster..."));
    m_tests.run([client = m_client] { return discovery::discover(client); },
                [this](const Result<DiscoveryReport> &r) {
                    m_discover->setEnabled(true);
                    if (!r) {
                        m_discoverNote->setText(tr("Discovery failed: %1").arg(r.error().message));
                    } else {
                        m_discoverNote->setText(r->findings.join(QLatin1Char(' ')));
                        if (r->foundAnything())
                            confirmDiscovery(*r);
                    }
                    emit discoveryFinished();
                });
}

// Nothing is taken before the admin has seen every value.
void ConnectionsTab::confirmDiscovery(const DiscoveryReport &report) {
    const ContextConnections &p = report.proposal;
    QStringList lines;
    if (!p.usageDatabaseUrl.isEmpty())
        lines << tr("Usage database: %1").arg(p.usageDatabaseUrl);
    if (p.metricsSource == MetricsSource::Prometheus)
        lines << tr("Metrics: Prometheus at %1").arg(p.prometheusUrl);
    else if (p.metricsSource != MetricsSource::None)
        lines << tr("Metrics: %1")
                     .arg(m_metricsSource->itemText(
                         m_metricsSource->findData(metricsSourceKey(p.metricsSource))));
    if (!p.controllerUrl.isEmpty())
        lines << tr("Controller: %1").arg(p.controllerUrl);
    auto *box =
        new QMessageBox(QMessageBox::Question, tr("Use what the cluster advertises?"),
                        tr("The cluster advertises these connections for the context \"%1\":").arg(m_shown),
                        QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("discoveryConfirm"));
    box->setInformativeText(lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
                            tr("Passwords and tokens are never advertised; enter them here. Nothing is saved "
                               "until you press OK or Apply."));
    box->setDetailedText(report.findings.join(QLatin1Char('\n')));
    QPushButton *use = box->addButton(tr("Use these settings"), QMessageBox::AcceptRole);
    use->setObjectName(QStringLiteral("useDiscovered"));
    box->addButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    const QString context = m_shown;
    connect(box, &QMessageBox::buttonClicked, this, [this, use, p, context](QAbstractButton *b) {
        if (b != use || context != m_shown)
            return;
        if (!p.usageDatabaseUrl.isEmpty())
            m_dbUrl->setText(p.usageDatabaseUrl);
        if (p.metricsSource != MetricsSource::None)
            m_metricsSource->setCurrentIndex(m_metricsSource->findData(metricsSourceKey(p.metricsSource)));
        if (!p.prometheusUrl.isEmpty())
            m_promUrl->setText(p.prometheusUrl);
        if (!p.exporterEndpoints.isEmpty())
            m_exporters->setPlainText(p.exporterEndpoints.join(QLatin1Char('\n')));
        if (!p.controllerUrl.isEmpty())
            m_controllerUrl->setText(p.controllerUrl);
        storeFields();
    });
    box->open();
}

} // namespace gq
