#include "services/settings/consolesettings.h"

#include <QCryptographicHash>
#include <QSettings>

namespace gq {

namespace {
// The keychain entry's service name: one for the console, whichever settings file.
const QString kSecretService = QStringLiteral("gpuquota-console");
} // namespace

// Named explicitly, not from the application's names: the CLI (application "gpuquota")
// reads the console's file.
ConsoleSettings::ConsoleSettings()
    : m_settings(std::make_unique<QSettings>(QSettings::NativeFormat, QSettings::UserScope,
                                             QStringLiteral("gpuquota"), QStringLiteral("gpuquota-console")))
    , m_secrets(SecretStore::createDefault(kSecretService)) {}

ConsoleSettings::ConsoleSettings(const QString &iniFile, std::unique_ptr<SecretStore> secrets)
    : m_settings(std::make_unique<QSettings>(iniFile, QSettings::IniFormat))
    , m_secrets(secrets ? std::move(secrets) : SecretStore::createDefault(kSecretService)) {}

ConsoleSettings::~ConsoleSettings() = default;

// Keys cannot hold '/' freely (it means a group); a short hash names a file or context.
QString ConsoleSettings::keyFor(const char *prefix, const QString &name) {
    const QByteArray h = QCryptographicHash::hash(name.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QLatin1String(prefix) + QLatin1Char('/') + QString::fromLatin1(h);
}

QVariant ConsoleSettings::read(const QString &key, const QVariant &fallback) const {
    return m_settings->value(key, fallback);
}

void ConsoleSettings::write(const QString &key, const QVariant &value) {
    m_settings->setValue(key, value);
}

bool ConsoleSettings::has(const QString &key) const {
    return m_settings->contains(key);
}

void ConsoleSettings::erase(const QString &key) {
    m_settings->remove(key);
}

QFuture<Result<QString>> ConsoleSettings::secret(const SecretSetting &s, const QString &name) const {
    return m_secrets->read(keyFor(s.prefix, name));
}

QFuture<Result<void>> ConsoleSettings::setSecret(const SecretSetting &s, const QString &name,
                                                 const QString &secret) {
    return m_secrets->write(keyFor(s.prefix, name), secret);
}

QFuture<Result<void>> ConsoleSettings::removeSecret(const SecretSetting &s, const QString &name) {
    return m_secrets->remove(keyFor(s.prefix, name));
}

void ConsoleSettings::sync() {
    m_settings->sync();
}

QString ConsoleSettings::fileName() const {
    return m_settings->fileName();
}

QString ConsoleSettings::defaultFilePath() {
    return QSettings(QSettings::NativeFormat, QSettings::UserScope, QStringLiteral("gpuquota"),
                     QStringLiteral("gpuquota-console"))
        .fileName();
}

} // namespace gq
