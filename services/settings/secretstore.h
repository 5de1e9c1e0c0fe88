#pragma once

#include "core/domain/result.h"

#include <QFuture>
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace QKeychain {
class Job;
}

namespace gq {

// Where the console keeps secrets (a database password, an API token): never in the
// settings file. Every call answers through a future (hand it to a JobTracker);
// read() of a key never written answers Error::Kind::NotFound.
class SecretStore : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~SecretStore() override;

    [[nodiscard]] virtual QFuture<Result<QString>> read(const QString &key) = 0;
    [[nodiscard]] virtual QFuture<Result<void>> write(const QString &key, const QString &secret) = 0;
    [[nodiscard]] virtual QFuture<Result<void>> remove(const QString &key) = 0;
    // "memory", or the OS keychain's name.
    [[nodiscard]] virtual QString backendName() const = 0;
    // Why secrets are kept in memory only (for the user; empty while the OS keychain serves).
    [[nodiscard]] virtual QString notice() const { return {}; }

    // The OS keychain under `service`, or memory where there can be none (no D-Bus
    // session on Linux, or GQ_SECRET_STORE=memory for tests and headless runs); the
    // keychain store itself falls back to memory if the keychain does not answer.
    [[nodiscard]] static std::unique_ptr<SecretStore> createDefault(const QString &service,
                                                                    QObject *parent = nullptr);

signals:
    // The keychain did not answer: secrets are kept in memory from now on (`message`
    // says so for the user). Emitted once.
    void fellBack(const QString &message);
};

// Secrets for this process only: tests, headless runs, and the fallback.
class MemorySecretStore final : public SecretStore {
    Q_OBJECT
public:
    explicit MemorySecretStore(QString notice = {}, QObject *parent = nullptr);

    [[nodiscard]] QFuture<Result<QString>> read(const QString &key) override;
    [[nodiscard]] QFuture<Result<void>> write(const QString &key, const QString &secret) override;
    [[nodiscard]] QFuture<Result<void>> remove(const QString &key) override;
    [[nodiscard]] QString backendName() const override { return QStringLiteral("memory"); }
    [[nodiscard]] QString notice() const override { return m_notice; }

    // Synchronous forms, for the fallback path of the keychain store.
    [[nodiscard]] Result<QString> get(const QString &key) const;
    void put(const QString &key, const QString &secret) { m_secrets.insert(key, secret); }
    void erase(const QString &key) { m_secrets.remove(key); }

private:
    QHash<QString, QString> m_secrets;
    QString m_notice;
};

// The OS keychain through QtKeychain (Secret Service / KWallet, macOS Keychain,
// Windows Credential Store), never its plain-text fallback. If the keychain cannot be
// reached it moves to memory for the rest of the session and says so (fellBack).
class KeychainSecretStore final : public SecretStore {
    Q_OBJECT
public:
    explicit KeychainSecretStore(QString service, QObject *parent = nullptr);

    [[nodiscard]] QFuture<Result<QString>> read(const QString &key) override;
    [[nodiscard]] QFuture<Result<void>> write(const QString &key, const QString &secret) override;
    [[nodiscard]] QFuture<Result<void>> remove(const QString &key) override;
    [[nodiscard]] QString backendName() const override;
    [[nodiscard]] QString notice() const override { return m_memory ? m_memory->notice() : QString(); }
    [[nodiscard]] bool fellBackToMemory() const { return m_memory != nullptr; }

private:
    void fallBack(const QString &reason);
    // Starts `job` and settles the returned future when it finishes: `done()` when it
    // succeeded (with `missingIsDone`, also when there was no such entry); `inMemory()`
    // once the keychain cannot be reached (in memory from then on); the keychain's error
    // otherwise.
    template <typename T>
    QFuture<Result<T>> settle(QKeychain::Job *job, bool missingIsDone, const std::function<Result<T>()> &done,
                              const std::function<Result<T>()> &inMemory);

    QString m_service;
    MemorySecretStore *m_memory = nullptr; // set once the keychain failed to answer
};

} // namespace gq
