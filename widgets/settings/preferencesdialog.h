#pragma once

#include "widgets/connections/connectionstab.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QTabWidget;

namespace gq {

class ConsoleSettings;

// The one Preferences dialog: language, time zone for charts and budgets, start page,
// alert display, refresh intervals, idle thresholds, chargeback rate and currency
// (General); and the per-context Connections. Every
// value is a typed setting (settings:: in consolesettings.h); OK and Apply write them.
class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Tab { General, Connections };

    // `probe`: the console's transport for the Connections tab's Test buttons.
    PreferencesDialog(ConsoleSettings *settings, std::shared_ptr<ConnectionProbe> probe,
                      QWidget *parent = nullptr);

    void showTab(Tab tab);
    [[nodiscard]] ConnectionsTab *connections() const { return m_connections; }
    [[nodiscard]] QTabWidget *tabs() const { return m_tabs; }

    // The page keys of settings::startPage with their names, in tab order.
    [[nodiscard]] static QList<QPair<QString, QString>> startPages();

signals:
    // Written to the settings; `contexts` whose connections changed (may be empty).
    void applied(const QStringList &contexts);

private:
    void fillChoices();
    QWidget *buildGeneralPage();
    void load();
    void apply();

    ConsoleSettings *m_settings;
    QTabWidget *m_tabs;
    QComboBox *m_language;
    QComboBox *m_timeZone;
    QComboBox *m_startPage;
    QComboBox *m_alerts;
    QSpinBox *m_budgetRefresh;
    QSpinBox *m_metricsRefresh;
    QSpinBox *m_idlePercent;
    QSpinBox *m_idleMinutes;
    QDoubleSpinBox *m_rate;
    QComboBox *m_currency;
    ConnectionsTab *m_connections;
};

} // namespace gq
