#pragma once

#include <QByteArray>
#include <QString>
#include <QVariant>

#include <memory>

class QSettings;

namespace gq {

// One typed facade over QSettings for everything the console remembers: window
// layout, last context and namespace, language. Keys and defaults live here only.
// Secrets never go through it: tokens and keys stay in the kubeconfig or keychain.
class ConsoleSettings final {
public:
    // Default: the application's QSettings (organization / application name).
    ConsoleSettings();
    // Tests and --settings: an INI file of their own.
    explicit ConsoleSettings(const QString &iniFile);
    ~ConsoleSettings();
    Q_DISABLE_COPY_MOVE(ConsoleSettings)

    [[nodiscard]] QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &v);
    [[nodiscard]] QByteArray windowState() const;
    void setWindowState(const QByteArray &v);
    [[nodiscard]] QByteArray splitterState() const;
    void setSplitterState(const QByteArray &v);
    [[nodiscard]] QByteArray namespaceHeaderState() const;
    void setNamespaceHeaderState(const QByteArray &v);
    [[nodiscard]] int detailsTab() const;
    void setDetailsTab(int v);

    // Remembered per kubeconfig file, so --demo does not clobber the real one.
    [[nodiscard]] QString lastContext(const QString &kubeconfig) const;
    void setLastContext(const QString &kubeconfig, const QString &context);
    [[nodiscard]] QString lastNamespace(const QString &context) const;
    void setLastNamespace(const QString &context, const QString &ns);

    // "" follows the system locale; otherwise e.g. "zh_CN", "en".
    [[nodiscard]] QString language() const;
    void setLanguage(const QString &v);

    void sync();

private:
    [[nodiscard]] QVariant get(const QString &key, const QVariant &fallback = {}) const;
    void set(const QString &key, const QVariant &value);

    std::unique_ptr<QSettings> m_settings;
};

} // namespace gq
