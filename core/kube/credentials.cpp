#include "core/kube/credentials.h"

#include "core/domain/clock.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace gq {

namespace {

// A token file is trusted this long before it is read again.
constexpr int kTokenFileTtlSecs = 60;
// How often a cached token file is checked for a change (a rotation): a stat, on the
// provider's thread.
constexpr auto kTokenFilePoll = std::chrono::seconds(2);
// An exec credential is renewed this long before its expiry, so a token does not
// expire between check and use.
constexpr int kExpiryMarginSecs = 10;

// What tells a rewritten file: modification time and size.
QPair<qint64, qint64> fileStamp(const QString &path) {
    const QFileInfo info(path);
    return {info.lastModified().toMSecsSinceEpoch(), info.size()};
}

Error cancelled() {
    return Error::make(Error::Kind::Cancelled, QStringLiteral("credentials: cancelled (client shut down)"));
}

} // namespace

struct CredentialProvider::State {
    KubeConnection conn;
    int execTimeoutMs = -1; // < 0: execPluginTimeoutMs(exec)

    mutable std::mutex mutex; // guards the fields below
    std::condition_variable wake;
    bool stopping = false;
    bool wanted = false; // waiters need a resolution
    std::optional<Credentials> cached;
    QDateTime validUntil; // of cached; invalid: forever
    quint64 generation = 0;
    std::vector<Done> waiters;
    int execRuns = 0;
    int fileReads = 0;
    QPair<qint64, qint64> cachedStamp; // of the token file the cache was read from
    std::thread worker;                // started on the first resolution

    bool fresh() const { return cached && (!validUntil.isValid() || Clock::system().nowUtc() < validUntil); }

    // Provider thread, no lock held: the slow part.
    Result<Credentials> resolve(QDateTime *validUntilOut, QPair<qint64, qint64> *stampOut) {
        Credentials c;
        c.clientCertPem = conn.clientCertPem;
        c.clientKeyPem = conn.clientKeyPem;
        if (!conn.tokenFile.isEmpty()) {
            {
                std::lock_guard lock(mutex);
                ++fileReads;
            }
            *stampOut = fileStamp(conn.tokenFile);
            QFile f(conn.tokenFile);
            if (!f.open(QIODevice::ReadOnly))
                return Error::make(Error::Kind::Io,
                                   QStringLiteral("cannot read %1: %2").arg(conn.tokenFile, f.errorString()),
                                   QStringLiteral("users[%1].user.tokenFile").arg(conn.userName));
            c.bearerToken = QString::fromUtf8(f.readAll().trimmed());
            *validUntilOut = Clock::system().nowUtc().addSecs(kTokenFileTtlSecs);
            return c;
        }
        {
            std::lock_guard lock(mutex);
            ++execRuns;
        }
        auto cred = runExecPlugin(*conn.exec, conn.server,
                                  execTimeoutMs < 0 ? execPluginTimeoutMs(*conn.exec) : execTimeoutMs);
        if (!cred) {
            Error e = cred.error();
            e.field = QStringLiteral("users[%1].user.%2")
                          .arg(conn.userName, e.field.isEmpty() ? QStringLiteral("exec") : e.field);
            return e;
        }
        c.bearerToken = cred->token;
        if (!cred->clientCertPem.isEmpty()) {
            c.clientCertPem = cred->clientCertPem;
            c.clientKeyPem = cred->clientKeyPem;
        }
        *validUntilOut =
            cred->expiry.isValid() ? cred->expiry.addSecs(-kExpiryMarginSecs).toUTC() : QDateTime();
        return c;
    }

    void run() {
        std::unique_lock lock(mutex);
        for (;;) {
            const auto due = [this] { return stopping || wanted; };
            if (conn.tokenFile.isEmpty()) {
                wake.wait(lock, due);
            } else if (!wake.wait_for(lock, kTokenFilePoll, due)) {
                lock.unlock();
                const auto stamp = fileStamp(conn.tokenFile);
                lock.lock();
                if (cached && stamp != cachedStamp)
                    cached.reset(); // rotated: the next request reads it
                continue;
            }
            if (stopping)
                return;
            lock.unlock();
            QDateTime until;
            QPair<qint64, qint64> stamp;
            Result<Credentials> r = resolve(&until, &stamp);
            lock.lock();
            if (r) {
                r->generation = ++generation;
                cached = *r;
                validUntil = until;
                cachedStamp = stamp;
            }
            // Everyone waiting now gets this resolution, including those who came
            // while it ran: no second run for them.
            wanted = false;
            std::vector<Done> served;
            served.swap(waiters);
            lock.unlock();
            for (auto &done : served)
                done(r);
            lock.lock();
        }
    }
};

CredentialProvider::CredentialProvider(KubeConnection connection, int execTimeoutMs)
    : d(std::make_shared<State>()) {
    d->conn = std::move(connection);
    d->execTimeoutMs = execTimeoutMs;
}

CredentialProvider::~CredentialProvider() {
    shutdown();
}

bool CredentialProvider::refreshable() const {
    return !d->conn.tokenFile.isEmpty() || d->conn.exec.has_value();
}

void CredentialProvider::acquire(Done done) {
    std::unique_lock lock(d->mutex);
    if (d->stopping) {
        lock.unlock();
        done(cancelled());
        return;
    }
    // A static token (or none) needs no resolution; a token file wins over exec, as
    // in kubectl, and a static token over both.
    if (!d->conn.token.isEmpty() || !refreshable()) {
        lock.unlock();
        done(Credentials{d->conn.token, d->conn.clientCertPem, d->conn.clientKeyPem, 0});
        return;
    }
    if (d->fresh()) {
        const Credentials c = *d->cached;
        lock.unlock();
        done(c);
        return;
    }
    d->waiters.push_back(std::move(done));
    d->wanted = true;
    if (!d->worker.joinable())
        d->worker = std::thread([s = d.get()] { s->run(); });
    d->wake.notify_one();
}

void CredentialProvider::invalidate(quint64 generation) {
    std::lock_guard lock(d->mutex);
    if (d->cached && d->cached->generation == generation)
        d->cached.reset();
}

void CredentialProvider::shutdown() {
    std::vector<Done> left;
    {
        std::lock_guard lock(d->mutex);
        if (d->stopping)
            return;
        d->stopping = true;
    }
    d->wake.notify_one();
    if (d->worker.joinable())
        d->worker.join();
    {
        std::lock_guard lock(d->mutex);
        left.swap(d->waiters);
    }
    for (auto &done : left)
        done(cancelled());
}

int CredentialProvider::execRuns() const {
    std::lock_guard lock(d->mutex);
    return d->execRuns;
}

int CredentialProvider::tokenFileReads() const {
    std::lock_guard lock(d->mutex);
    return d->fileReads;
}

} // namespace gq
