#include "services/settings/secretstore.h"

#include <qt6keychain/keychain.h>

#include <QCoreApplication>
#include <QPromise>
#include <QtGlobal>

namespace gq {

namespace {
template <typename T> QFuture<T> ready(T value) {
    return QtFuture::makeReadyFuture(std::move(value));
}

QString memoryNotice(const QString &reason) {
    return QCoreApplication::translate("gq::SecretStore",
                                       "No OS keychain is available (%1): secrets are kept in memory for "
                                       "this session only and must be entered again next time.")
        .arg(reason);
}

// The keychain could not be asked at all, as opposed to answering "no" or "not found".
bool unreachable(QKeychain::Error e) {
    return e == QKeychain::NoBackendAvailable || e == QKeychain::NotImplemented || e == QKeychain::OtherError;
}

// For the fallback notice: QtKeychain's own text is often just "Unknown error".
QString unreachableReason(const QKeychain::Job *job) {
    switch (job->error()) {
    case QKeychain::NoBackendAvailable:
        return QCoreApplication::translate("gq::SecretStore", "no keychain service is running");
    case QKeychain::NotImplemented:
        return QCoreApplication::translate("gq::SecretStore", "not supported on this system");
    default:
        return QCoreApplication::translate("gq::SecretStore", "the keychain service did not answer: %1")
            .arg(job->errorString());
    }
}

Error keychainError(const QKeychain::Job *job) {
    const Error::Kind kind =
        job->error() == QKeychain::EntryNotFound ? Error::Kind::NotFound
        : job->error() == QKeychain::AccessDenied || job->error() == QKeychain::AccessDeniedByUser
            ? Error::Kind::Forbidden
            : Error::Kind::Io;
    return Error::make(
        kind, QCoreApplication::translate("gq::SecretStore", "keychain: %1").arg(job->errorString()));
}
} // namespace

SecretStore::~SecretStore() = default;

std::unique_ptr<SecretStore> SecretStore::createDefault(const QString &service, QObject *parent) {
    if (qEnvironmentVariable("GQ_SECRET_STORE") == QLatin1String("memory"))
        return std::make_unique<MemorySecretStore>(memoryNotice(QStringLiteral("GQ_SECRET_STORE=memory")),
                                                   parent);
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    // The Secret Service and KWallet are reached over the D-Bus session bus: without
    // one, asking would only fail (or try to start a bus).
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return std::make_unique<MemorySecretStore>(memoryNotice(QStringLiteral("no D-Bus session")), parent);
#endif
    return std::make_unique<KeychainSecretStore>(service, parent);
}

MemorySecretStore::MemorySecretStore(QString notice, QObject *parent)
    : SecretStore(parent)
    , m_notice(std::move(notice)) {}

Result<QString> MemorySecretStore::get(const QString &key) const {
    const auto it = m_secrets.constFind(key);
    if (it == m_secrets.constEnd())
        return Error::make(
            Error::Kind::NotFound,
            QCoreApplication::translate("gq::SecretStore", "no secret is stored for %1").arg(key));
    return *it;
}

QFuture<Result<QString>> MemorySecretStore::read(const QString &key) {
    return ready(get(key));
}

QFuture<Result<void>> MemorySecretStore::write(const QString &key, const QString &secret) {
    put(key, secret);
    return ready(Result<void>());
}

QFuture<Result<void>> MemorySecretStore::remove(const QString &key) {
    erase(key);
    return ready(Result<void>());
}

KeychainSecretStore::KeychainSecretStore(QString service, QObject *parent)
    : SecretStore(parent)
    , m_service(std::move(service)) {}

QString KeychainSecretStore::backendName() const {
    return m_memory ? m_memory->backendName() : QStringLiteral("keychain");
}

void KeychainSecretStore::fallBack(const QString &reason) {
    if (m_memory)
        return;
    m_memory = new MemorySecretStore(memoryNotice(reason), this);
    qInfo("%s", qPrintable(m_memory->notice()));
    emit fellBack(m_memory->notice());
}

// Each job deletes itself after finished(); the promise lives as long as the job.
template <typename T>
QFuture<Result<T>> KeychainSecretStore::settle(QKeychain::Job *job, bool missingIsDone,
                                               const std::function<Result<T>()> &done,
                                               const std::function<Result<T>()> &inMemory) {
    auto promise = std::make_shared<QPromise<Result<T>>>();
    promise->start();
    connect(job, &QKeychain::Job::finished, this, [this, job, missingIsDone, done, inMemory, promise] {
        if (job->error() == QKeychain::NoError ||
            (missingIsDone && job->error() == QKeychain::EntryNotFound)) {
            promise->addResult(done());
        } else if (unreachable(job->error())) {
            fallBack(unreachableReason(job));
            promise->addResult(inMemory());
        } else {
            promise->addResult(Result<T>(keychainError(job)));
        }
        promise->finish();
    });
    job->start();
    return promise->future();
}

QFuture<Result<QString>> KeychainSecretStore::read(const QString &key) {
    if (m_memory)
        return m_memory->read(key);
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setInsecureFallback(false); // never the plain-text file
    job->setKey(key);
    return settle<QString>(
        job, false, [job] { return Result<QString>(job->textData()); },
        [this, key] { return m_memory->get(key); });
}

QFuture<Result<void>> KeychainSecretStore::write(const QString &key, const QString &secret) {
    if (m_memory)
        return m_memory->write(key, secret);
    auto *job = new QKeychain::WritePasswordJob(m_service, this);
    job->setInsecureFallback(false);
    job->setKey(key);
    job->setTextData(secret);
    return settle<void>(
        job, false, [] { return Result<void>(); },
        [this, key, secret] {
            m_memory->put(key, secret);
            return Result<void>();
        });
}

QFuture<Result<void>> KeychainSecretStore::remove(const QString &key) {
    if (m_memory)
        return m_memory->remove(key);
    auto *job = new QKeychain::DeletePasswordJob(m_service, this);
    job->setInsecureFallback(false);
    job->setKey(key);
    return settle<void>(
        job, true, [] { return Result<void>(); },
        [this, key] {
            m_memory->erase(key);
            return Result<void>();
        });
}

} // namespace gq
