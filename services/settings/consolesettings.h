#pragma once

#include "core/domain/result.h"
#include "services/settings/secretstore.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <memory>

class QSettings;

namespace gq {

// A setting: its key and its default, spelled once (below, in `settings::`).
template <typename T> struct Setting {
    const char *key;
    T fallback{};
};

// A setting kept per name (a kubeconfig file, a context): the key is `prefix/<hash of
// the name>`, because a name may hold '/' and other characters QSettings reads as
// structure.
template <typename T> struct PerNameSetting {
    const char *prefix;
    T fallback{};
};

// A secret, kept per name (say, a database URL) in the SecretStore, never in the
// settings file.
struct SecretSetting {
    const char *prefix;
};

namespace settings {
inline const Setting<QByteArray> windowGeometry{"window/geometry"};
inline const Setting<QByteArray> windowState{"window/state"};
inline const Setting<QByteArray> splitterState{"window/splitter"};
// "header2": the first layout saved pixel widths that no longer fit (the name column
// now stretches); a new key starts everyone from the new defaults once.
inline const Setting<QByteArray> namespaceHeaderState{"namespaces/header2"};
inline const Setting<int> detailsTab{"window/detailsTab", 0}; // before detailsPage: read once, never written
inline const Setting<QString> detailsPage{"window/detailsPage", QString()};
// "" follows the system locale; otherwise e.g. "zh_CN", "en".
inline const Setting<QString> language{"ui/language"};
// Remembered per kubeconfig file, so --demo does not clobber the real one.
inline const PerNameSetting<QString> lastContext{"lastContext"};
inline const PerNameSetting<QString> lastNamespace{"lastNamespace"};
// The password of a usage database URL given without one.
inline const SecretSetting usageDatabasePassword{"usageDatabase/password"};

// The kubeconfig opened last from the start page or File > Open kubeconfig ("" : the
// default one: KUBECONFIG or ~/.kube/config).
inline const Setting<QString> kubeconfigFile{"connections/kubeconfig"};
// Per kubeconfig context (see ContextConnections in connectionsettings.h).
inline const PerNameSetting<QString> usageDatabaseUrl{"connections/usageDatabase"};
inline const PerNameSetting<QString> metricsSource{"connections/metricsSource"}; // see MetricsSource
inline const PerNameSetting<QString> prometheusUrl{"connections/prometheusUrl"};
inline const PerNameSetting<QString> prometheusCaFile{"connections/prometheusCaFile"};
inline const PerNameSetting<QStringList> exporterEndpoints{"connections/exporterEndpoints"};
inline const PerNameSetting<QString> controllerUrl{"connections/controllerUrl"};
// Secrets per context: only ever in the SecretStore.
inline const SecretSetting usageDatabaseSecret{"connections/usageDatabasePassword"};
inline const SecretSetting prometheusToken{"connections/prometheusToken"};
// The password of a Prometheus URL with a user (https://user@prom: basic auth).
inline const SecretSetting prometheusUrlPassword{"connections/prometheusUrlPassword"};

// Preferences (the Preferences dialog; the CLI reads the connection keys too).
// "" follows the system zone; otherwise an IANA id ("Europe/Berlin"): the buckets of the
// usage charts, a new budget's zone and the chargeback month.
inline const Setting<QString> timeZone{"ui/timeZone"};
// "last" (the tab open when the window closed), or a page: "quotas", "limits", "audit".
inline const Setting<QString> startPage{"ui/startPage", QStringLiteral("last")};
// How alerts show: "banner" (the strip above the content), "status" (status bar), "off".
inline const Setting<QString> alertDisplay{"ui/alertDisplay", QStringLiteral("banner")};
inline const Setting<int> budgetRefreshSeconds{"refresh/budgetSeconds", 30};
inline const Setting<int> metricsRefreshSeconds{"refresh/metricsSeconds", 5};
inline const Setting<int> idleUtilizationPercent{"idle/utilizationPercent", 5};
// The Live GPUs page: the splitter between the GPUs and the namespace chart, tiles or table.
inline const Setting<QByteArray> liveGpuSplitter{"liveGpus/splitter"};
inline const Setting<bool> liveGpuTiles{"liveGpus/tiles", false};
inline const Setting<int> idleMinutes{"idle/minutes", 30};
// The Chargeback page's rate until a rates file replaces it, and the currency shown
// with money where a rates file names none (the console only: the CLI's --rate has none).
inline const Setting<double> chargebackRate{"chargeback/ratePerGpuHour", 2.50};
inline const Setting<QString> chargebackCurrency{"chargeback/currency", QStringLiteral("USD")};
} // namespace settings

// One typed facade over QSettings for everything the console remembers: window
// layout, last context and namespace, language; and over the SecretStore for what
// must not be written to a file. Keys and defaults live in `settings::` only.
// preferencesChanged() tells whoever shows a preference (pages, services) that the
// Preferences were applied: each reads what it uses again.
class ConsoleSettings final : public QObject {
    Q_OBJECT
public:
    // Default: the console's settings file (defaultFilePath(), the same for the console
    // and the CLI) and the OS keychain (memory where there is none, see
    // SecretStore::createDefault).
    ConsoleSettings();
    // Tests and --settings: an INI file of their own; secrets in `secrets`
    // (empty: SecretStore::createDefault).
    explicit ConsoleSettings(const QString &iniFile, std::unique_ptr<SecretStore> secrets = {});
    ~ConsoleSettings();
    Q_DISABLE_COPY_MOVE(ConsoleSettings)

    template <typename T> [[nodiscard]] T value(const Setting<T> &s) const {
        return read(QLatin1String(s.key), QVariant::fromValue(s.fallback)).template value<T>();
    }
    template <typename T> void setValue(const Setting<T> &s, const T &v) {
        write(QLatin1String(s.key), QVariant::fromValue(v));
    }
    template <typename T> [[nodiscard]] T value(const PerNameSetting<T> &s, const QString &name) const {
        return read(keyFor(s.prefix, name), QVariant::fromValue(s.fallback)).template value<T>();
    }
    template <typename T> void setValue(const PerNameSetting<T> &s, const QString &name, const T &v) {
        write(keyFor(s.prefix, name), QVariant::fromValue(v));
    }
    template <typename T> [[nodiscard]] bool contains(const PerNameSetting<T> &s, const QString &name) const {
        return has(keyFor(s.prefix, name));
    }
    template <typename T> void remove(const PerNameSetting<T> &s, const QString &name) {
        erase(keyFor(s.prefix, name));
    }
    // Through the SecretStore: read answers NotFound for a secret never stored.
    [[nodiscard]] QFuture<Result<QString>> secret(const SecretSetting &s, const QString &name) const;
    [[nodiscard]] QFuture<Result<void>> setSecret(const SecretSetting &s, const QString &name,
                                                  const QString &secret);
    [[nodiscard]] QFuture<Result<void>> removeSecret(const SecretSetting &s, const QString &name);
    [[nodiscard]] SecretStore *secrets() const { return m_secrets.get(); }

    // The named forms callers use.
    [[nodiscard]] QByteArray windowGeometry() const { return value(settings::windowGeometry); }
    void setWindowGeometry(const QByteArray &v) { setValue(settings::windowGeometry, v); }
    [[nodiscard]] QByteArray windowState() const { return value(settings::windowState); }
    void setWindowState(const QByteArray &v) { setValue(settings::windowState, v); }
    [[nodiscard]] QByteArray splitterState() const { return value(settings::splitterState); }
    void setSplitterState(const QByteArray &v) { setValue(settings::splitterState, v); }
    [[nodiscard]] QByteArray namespaceHeaderState() const { return value(settings::namespaceHeaderState); }
    void setNamespaceHeaderState(const QByteArray &v) { setValue(settings::namespaceHeaderState, v); }
    [[nodiscard]] int detailsTab() const { return value(settings::detailsTab); }
    void setDetailsTab(int v) { setValue(settings::detailsTab, v); }
    [[nodiscard]] QString lastContext(const QString &kubeconfig) const {
        return value(settings::lastContext, kubeconfig);
    }
    void setLastContext(const QString &kubeconfig, const QString &context) {
        setValue(settings::lastContext, kubeconfig, context);
    }
    [[nodiscard]] QString lastNamespace(const QString &context) const {
        return value(settings::lastNamespace, context);
    }
    void setLastNamespace(const QString &context, const QString &ns) {
        setValue(settings::lastNamespace, context, ns);
    }
    [[nodiscard]] QString language() const { return value(settings::language); }
    void setLanguage(const QString &v) { setValue(settings::language, v); }

    void sync();
    // After the Preferences wrote their values: emits preferencesChanged(`contexts`).
    void announcePreferences(const QStringList &contexts) { emit preferencesChanged(contexts); }
    // Where this instance reads and writes.
    [[nodiscard]] QString fileName() const;
    // ~/.config/gpuquota/gpuquota-console.conf on Linux (QSettings' user scope for
    // organization "gpuquota", application "gpuquota-console").
    [[nodiscard]] static QString defaultFilePath();

signals:
    // The Preferences were applied; `contexts`: those whose connections were edited.
    void preferencesChanged(const QStringList &contexts);

private:
    [[nodiscard]] static QString keyFor(const char *prefix, const QString &name);
    [[nodiscard]] QVariant read(const QString &key, const QVariant &fallback) const;
    void write(const QString &key, const QVariant &value);
    [[nodiscard]] bool has(const QString &key) const;
    void erase(const QString &key);

    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<SecretStore> m_secrets;
};

} // namespace gq
