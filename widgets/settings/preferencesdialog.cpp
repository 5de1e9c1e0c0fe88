#include "widgets/settings/preferencesdialog.h"

#include "services/settings/consolesettings.h"
#include "widgets/common/formlabels.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTimeZone>
#include <QVBoxLayout>

namespace gq {

namespace {
QSpinBox *spin(const QString &objectName, int min, int max, const QString &suffix, QWidget *parent) {
    auto *s = new QSpinBox(parent);
    s->setObjectName(objectName);
    s->setRange(min, max);
    s->setSuffix(suffix);
    return s;
}

QLabel *hint(const QString &text, QWidget *parent) {
    auto *l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setForegroundRole(QPalette::PlaceholderText);
    return l;
}
} // namespace

QList<QPair<QString, QString>> PreferencesDialog::startPages() {
    return {{QStringLiteral("last"), tr("The page open when the window was closed")},
            {QStringLiteral("dashboard"), tr("Cluster usage")},
            {QStringLiteral("quotas"), tr("Quotas")},
            {QStringLiteral("limits"), tr("Limit ranges")},
            {QStringLiteral("usage"), tr("Usage")},
            {QStringLiteral("budgets"), tr("Budgets")},
            {QStringLiteral("boosts"), tr("Boosts")},
            {QStringLiteral("audit"), tr("Audit")},
            {QStringLiteral("chargeback"), tr("Chargeback")},
            {QStringLiteral("gpus"), tr("Live GPUs")}};
}

PreferencesDialog::PreferencesDialog(ConsoleSettings *settings, std::shared_ptr<ConnectionProbe> probe,
                                     QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_tabs(new QTabWidget(this))
    , m_language(new QComboBox(this))
    , m_timeZone(new QComboBox(this))
    , m_startPage(new QComboBox(this))
    , m_alerts(new QComboBox(this))
    , m_budgetRefresh(spin(QStringLiteral("budgetRefresh"), 5, 3600, tr(" s"), this))
    , m_metricsRefresh(spin(QStringLiteral("metricsRefresh"), 1, 600, tr(" s"), this))
    , m_idlePercent(spin(QStringLiteral("idlePercent"), 0, 100, tr(" %"), this))
    , m_idleMinutes(spin(QStringLiteral("idleMinutes"), 1, 24 * 60, tr(" min"), this))
    , m_rate(new QDoubleSpinBox(this))
    , m_currency(new QComboBox(this))
    , m_connections(new ConnectionsTab(settings, std::move(probe), this)) {
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    m_tabs->setObjectName(QStringLiteral("preferencesTabs"));
    fillChoices();
    m_tabs->addTab(buildGeneralPage(), tr("General"));
    m_tabs->addTab(m_connections, tr("Connections"));

    auto *buttons =
        new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this);
    buttons->setObjectName(QStringLiteral("preferencesButtons"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &PreferencesDialog::apply);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
    layout->addWidget(buttons);
    resize(780, 760);
    load();
}

void PreferencesDialog::fillChoices() {
    m_language->setObjectName(QStringLiteral("languageCombo"));
    m_language->addItem(tr("Follow the system"), QString());
    m_language->addItem(QStringLiteral("English"), QStringLiteral("en"));
    m_language->addItem(QStringLiteral("\u7b80\u4f53\u4e2d\u6587"), QStringLiteral("zh_CN"));
    m_timeZone->setObjectName(QStringLiteral("timeZoneCombo"));
    m_timeZone->addItem(tr("System time zone (%1)").arg(QString::fromUtf8(QTimeZone::systemTimeZoneId())),
                        QString());
    m_timeZone->addItem(QStringLiteral("UTC"), QStringLiteral("UTC"));
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        if (id.contains('/') && !id.startsWith("Etc/"))
            m_timeZone->addItem(QString::fromUtf8(id), QString::fromUtf8(id));
    m_startPage->setObjectName(QStringLiteral("startPageCombo"));
    for (const auto &[key, name] : startPages())
        m_startPage->addItem(name, key);
    m_alerts->setObjectName(QStringLiteral("alertDisplayCombo"));
    m_alerts->addItem(tr("In the banner above the content"), QStringLiteral("banner"));
    m_alerts->addItem(tr("In the status bar only"), QStringLiteral("status"));
    m_alerts->addItem(tr("Not shown (the list marks still show)"), QStringLiteral("off"));
    m_rate->setObjectName(QStringLiteral("chargebackRate"));
    m_rate->setRange(0, 100000);
    m_rate->setDecimals(2);
    m_currency->setObjectName(QStringLiteral("currencyCombo"));
    m_currency->setEditable(true);
    m_currency->addItems({QStringLiteral("USD"), QStringLiteral("EUR"), QStringLiteral("CNY"),
                          QStringLiteral("GBP"), QStringLiteral("JPY")});
}

QWidget *PreferencesDialog::buildGeneralPage() {
    // One page for everything but the connections, in three groups: nothing to hunt for
    // across half-empty tabs.
    auto *general = new QWidget(m_tabs);
    auto *display = new QGroupBox(tr("Display"), general);
    auto *gf = new QFormLayout(display);
    gf->addRow(tr("Language:"), m_language);
    gf->addRow(QString(), hint(tr("A new language shows after the console is restarted."), display));
    gf->addRow(tr("Time zone for charts and budgets:"), m_timeZone);
    gf->addRow(tr("Start page:"), m_startPage);
    gf->addRow(tr("Alerts:"), m_alerts);

    auto *monitoring = new QGroupBox(tr("Refresh and idle GPUs"), general);
    auto *mf = new QFormLayout(monitoring);
    mf->addRow(tr("Budget and usage refresh:"), m_budgetRefresh);
    mf->addRow(tr("Live GPU refresh:"), m_metricsRefresh);
    mf->addRow(tr("A GPU is idle below:"), m_idlePercent);
    mf->addRow(tr("for at least:"), m_idleMinutes);
    mf->addRow(QString(), hint(tr("The Live GPUs page marks GPUs idle with these thresholds. The "
                                  "chargeback's idle share comes from the idle spans the controller "
                                  "records, with the thresholds of its own configuration."),
                               monitoring));

    auto *chargeback = new QGroupBox(tr("Chargeback"), general);
    auto *cf = new QFormLayout(chargeback);
    cf->addRow(tr("Rate per GPU-hour:"), m_rate);
    cf->addRow(tr("Currency:"), m_currency);
    cf->addRow(QString(), hint(tr("A MIG slice is charged its fraction of a GPU."), chargeback));

    // The same label column in the three groups.
    alignFormLabels({gf, mf, cf});
    // Numbers are short: their boxes need not span the dialog.
    for (QWidget *w : std::initializer_list<QWidget *>{m_budgetRefresh, m_metricsRefresh, m_idlePercent,
                                                       m_idleMinutes, m_rate, m_currency}) {
        w->setMinimumWidth(140);
        w->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    }

    auto *gl = new QVBoxLayout(general);
    gl->addWidget(display);
    gl->addWidget(monitoring);
    gl->addWidget(chargeback);
    gl->addStretch(1);
    return general;
}

void PreferencesDialog::showTab(Tab tab) {
    m_tabs->setCurrentIndex(static_cast<int>(tab));
}

void PreferencesDialog::load() {
    const auto select = [](QComboBox *box, const QString &key) {
        const int i = box->findData(key);
        if (i >= 0)
            box->setCurrentIndex(i);
        else if (box->isEditable())
            box->setCurrentText(key);
    };
    select(m_language, m_settings->value(settings::language));
    select(m_timeZone, m_settings->value(settings::timeZone));
    select(m_startPage, m_settings->value(settings::startPage));
    select(m_alerts, m_settings->value(settings::alertDisplay));
    m_budgetRefresh->setValue(m_settings->value(settings::budgetRefreshSeconds));
    m_metricsRefresh->setValue(m_settings->value(settings::metricsRefreshSeconds));
    m_idlePercent->setValue(m_settings->value(settings::idleUtilizationPercent));
    m_idleMinutes->setValue(m_settings->value(settings::idleMinutes));
    m_rate->setValue(m_settings->value(settings::chargebackRate));
    select(m_currency, m_settings->value(settings::chargebackCurrency));
}

void PreferencesDialog::apply() {
    m_settings->setValue(settings::language, m_language->currentData().toString());
    m_settings->setValue(settings::timeZone, m_timeZone->currentData().toString());
    m_settings->setValue(settings::startPage, m_startPage->currentData().toString());
    m_settings->setValue(settings::alertDisplay, m_alerts->currentData().toString());
    m_settings->setValue(settings::budgetRefreshSeconds, m_budgetRefresh->value());
    m_settings->setValue(settings::metricsRefreshSeconds, m_metricsRefresh->value());
    m_settings->setValue(settings::idleUtilizationPercent, m_idlePercent->value());
    m_settings->setValue(settings::idleMinutes, m_idleMinutes->value());
    m_settings->setValue(settings::chargebackRate, m_rate->value());
    m_settings->setValue(settings::chargebackCurrency, m_currency->currentText().trimmed().toUpper());
    const QStringList contexts = m_connections->save();
    m_settings->sync();
    emit applied(contexts);
    m_settings->announcePreferences(contexts);
}

} // namespace gq
