#pragma once

#include "core/kube/kubeconfig.h"
#include "core/domain/result.h"

#include <QtGlobal>

#include <functional>
#include <memory>

namespace gq {

// What one request authenticates with. generation names the resolution it came
// from, so a 401 invalidates exactly that one (see CredentialProvider::invalidate).
struct Credentials {
    QString bearerToken; // empty: none
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    quint64 generation = 0;
};

// The credentials of one connection, resolved on a thread of their own so that a
// slow exec plugin (up to its timeout) delays only the requests waiting for a token,
// never the HTTP loop, a running watch or the caller. Concurrent requests share one
// resolution.
//
// Static token and certificates: handed over at once. Token file: read once, then
// re-read when it changes (checked every two seconds), when a minute has passed
// (projected tokens rotate; client-go re-reads on the same cadence) or after a 401. Exec plugin: its output
// is cached until its expirationTimestamp (less a margin) or a 401. Thread-safe; never logs a secret.
class CredentialProvider final {
public:
    using Done = std::function<void(Result<Credentials>)>;

    // execTimeoutMs < 0: by the plugin, execPluginTimeoutMs() (longer for interactive ones).
    explicit CredentialProvider(KubeConnection connection, int execTimeoutMs = -1);
    ~CredentialProvider(); // shutdown()
    Q_DISABLE_COPY_MOVE(CredentialProvider)

    // Calls done with the credentials: on the calling thread when they are at hand,
    // else on the provider's thread once resolved. Errors carry the kubeconfig field
    // (users[NAME].user.exec / tokenFile). After shutdown(): Cancelled, at once.
    void acquire(Done done);
    // The server rejected the credentials of that generation: the next acquire
    // resolves afresh. A generation already replaced is ignored, so a burst of 401s
    // runs the plugin once.
    void invalidate(quint64 generation);
    // True when invalidate() can yield different credentials (token file, exec plugin).
    [[nodiscard]] bool refreshable() const;
    // Waits for a running plugin to end, then fails every waiting request with
    // Cancelled; idempotent.
    void shutdown();

    // For tests: how often the plugin ran and the token file was read.
    [[nodiscard]] int execRuns() const;
    [[nodiscard]] int tokenFileReads() const;

private:
    struct State;
    std::shared_ptr<State> d;
};

} // namespace gq
