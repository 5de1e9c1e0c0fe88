#include "widgets/consolesettings.h"

#include <QCryptographicHash>
#include <QSettings>

namespace gq {

namespace {
// Keys cannot hold '/' freely (it means a group); a short hash names a file or context.
QString keyFor(const QString &prefix, const QString &name) {
    const QByteArray h = QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return prefix + QLatin1Char('/') + QString::fromLatin1(h);
}
} // namespace

ConsoleSettings::ConsoleSettings()
    : m_settings(std::make_unique<QSettings>()) {}

ConsoleSettings::ConsoleSettings(const QString &iniFile)
    : m_settings(std::make_unique<QSettings>(iniFile, QSettings::IniFormat)) {}

ConsoleSettings::~ConsoleSettings() = default;

QVariant ConsoleSettings::get(const QString &key, const QVariant &fallback) const {
    return m_settings->value(key, fallback);
}

void ConsoleSettings::set(const QString &key, const QVariant &value) {
    m_settings->setValue(key, value);
}

QByteArray ConsoleSettings::windowGeometry() const {
    return get(QStringLiteral("window/geometry")).toByteArray();
}
void ConsoleSettings::setWindowGeometry(const QByteArray &v) {
    set(QStringLiteral("window/geometry"), v);
}
QByteArray ConsoleSettings::windowState() const {
    return get(QStringLiteral("window/state")).toByteArray();
}
void ConsoleSettings::setWindowState(const QByteArray &v) {
    set(QStringLiteral("window/state"), v);
}
QByteArray ConsoleSettings::splitterState() const {
    return get(QStringLiteral("window/splitter")).toByteArray();
}
void ConsoleSettings::setSplitterState(const QByteArray &v) {
    set(QStringLiteral("window/splitter"), v);
}
// "header2": the first layout saved pixel widths that no longer fit (the name column
// now stretches); a new key starts everyone from the new defaults once.
QByteArray ConsoleSettings::namespaceHeaderState() const {
    return get(QStringLiteral("namespaces/header2")).toByteArray();
}
void ConsoleSettings::setNamespaceHeaderState(const QByteArray &v) {
    set(QStringLiteral("namespaces/header2"), v);
}
int ConsoleSettings::detailsTab() const {
    return get(QStringLiteral("window/detailsTab"), 0).toInt();
}
void ConsoleSettings::setDetailsTab(int v) {
    set(QStringLiteral("window/detailsTab"), v);
}

QString ConsoleSettings::lastContext(const QString &kubeconfig) const {
    return get(keyFor(QStringLiteral("lastContext"), kubeconfig)).toString();
}
void ConsoleSettings::setLastContext(const QString &kubeconfig, const QString &context) {
    set(keyFor(QStringLiteral("lastContext"), kubeconfig), context);
}
QString ConsoleSettings::lastNamespace(const QString &context) const {
    return get(keyFor(QStringLiteral("lastNamespace"), context)).toString();
}
void ConsoleSettings::setLastNamespace(const QString &context, const QString &ns) {
    set(keyFor(QStringLiteral("lastNamespace"), context), ns);
}

QString ConsoleSettings::language() const {
    return get(QStringLiteral("ui/language")).toString();
}
void ConsoleSettings::setLanguage(const QString &v) {
    set(QStringLiteral("ui/language"), v);
}

void ConsoleSettings::sync() {
    m_settings->sync();
}

} // namespace gq
