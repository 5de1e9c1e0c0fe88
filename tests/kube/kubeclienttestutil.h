#pragma once

// Helpers for suites that drive KubeClient against the real gpuquota-testcluster.

#include "core/kube/kubeclient.h"

#include "tests/kube/kubetestutil.h"
#include "tests/testclusterprocess.h"

#include <QEventLoop>
#include <QFutureWatcher>
#include <QTimer>

#include <optional>

namespace gq::test {

// Waits for a future by spinning an event loop (as a GUI would), with a deadline so
// a hang fails the test instead of freezing it.
template <typename T> Result<T> await(QFuture<Result<T>> future, int timeoutMs = 120000) {
    // A QFutureWatcher, not QFuture::then(context, ...): on Qt 6.4 a continuation attached
    // with a context can miss a future that finishes on another thread meanwhile.
    QEventLoop loop;
    QFutureWatcher<Result<T>> watcher;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    if (!future.isFinished())
        loop.exec();
    if (!future.isFinished() || future.resultCount() == 0)
        return Error::make(Error::Kind::Timeout,
                           QStringLiteral("test: no answer within %1 ms").arg(timeoutMs));
    return future.result();
}

inline QString describe(const Error &e) {
    return QStringLiteral("%1 (%2, HTTP %3, reason %4)")
        .arg(e.toString(), kindName(e.kind))
        .arg(e.httpStatus)
        .arg(e.reason);
}

// The fault knob a suite run is under (ctest runs the suite once per knob).
struct FaultMode {
    QString name = QStringLiteral("none");
    QStringList clusterArgs;

    static FaultMode fromEnvironment() {
        FaultMode m;
        m.name = qEnvironmentVariable("GQ_KUBE_FAULTS", QStringLiteral("none"));
        if (m.name == QLatin1String("latency"))
            m.clusterArgs = {QStringLiteral("--latency-ms"), QStringLiteral("100")};
        else if (m.name == QLatin1String("errors"))
            m.clusterArgs = {QStringLiteral("--error-rate"), QStringLiteral("0.2")};
        else if (m.name == QLatin1String("throttle"))
            m.clusterArgs = {QStringLiteral("--throttle-rate"), QStringLiteral("0.15"),
                             QStringLiteral("--retry-after"), QStringLiteral("1")};
        else if (m.name == QLatin1String("drops"))
            m.clusterArgs = {QStringLiteral("--drop-rate"), QStringLiteral("0.15")};
        else if (m.name == QLatin1String("stall"))
            m.clusterArgs = {QStringLiteral("--stall-watches")};
        return m;
    }
    // The mode's fault knobs as the test cluster's /faults hook takes them (the same
    // values as clusterArgs), to restore after a test changed them.
    [[nodiscard]] QJsonObject faults() const {
        QJsonObject f;
        if (name == QLatin1String("latency"))
            f.insert(QStringLiteral("latencyMs"), 100);
        else if (name == QLatin1String("errors"))
            f.insert(QStringLiteral("errorRate"), 0.2);
        else if (name == QLatin1String("throttle"))
            f = {{QStringLiteral("throttleRate"), 0.15}, {QStringLiteral("retryAfterSeconds"), 1}};
        else if (name == QLatin1String("drops"))
            f.insert(QStringLiteral("dropRate"), 0.15);
        else if (name == QLatin1String("stall"))
            f.insert(QStringLiteral("stallWatches"), true);
        return f;
    }
    [[nodiscard]] bool none() const { return name == QLatin1String("none"); }
    [[nodiscard]] bool stall() const { return name == QLatin1String("stall"); }
    // Faults that make single requests fail (the client retries reads; writes may fail).
    [[nodiscard]] bool lossy() const {
        return name == QLatin1String("errors") || name == QLatin1String("throttle") ||
               name == QLatin1String("drops");
    }
};

// The demo scenario under `mode`, with watch bookmarks every 300 ms: what the client
// and informer suites run against.
inline TestClusterProcess::Options demoClusterOptions(const FaultMode &mode) {
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    opts.extraArguments =
        mode.clusterArgs + QStringList{QStringLiteral("--bookmark-interval-ms"), QStringLiteral("300")};
    return opts;
}

inline KubeClientOptions testClientOptions() {
    KubeClientOptions o;
    o.maxAttempts = 10;
    o.backoffBaseMs = 20;
    o.backoffMaxMs = 500;
    o.watchGraceMs = 1500;
    o.requestTimeoutMs = 20000;
    return o;
}

// A client of `cluster` as its admin, with testClientOptions().
inline Result<std::shared_ptr<KubeClient>> adminClient(const TestClusterProcess &cluster) {
    return KubeClient::fromKubeconfig(cluster.kubeconfigPath(), QStringLiteral("admin"), testClientOptions());
}

inline bool transient(const Error &e) {
    return e.kind == Error::Kind::Server || e.kind == Error::Kind::Network ||
           e.kind == Error::Kind::Timeout || e.kind == Error::Kind::TooManyRequests;
}

// What a careful application does when a write fails in a way that does not say
// whether it was applied (a 500, a connection cut mid-response): look, then retry
// only if it was not. `recoveries` counts how often that was needed.
class CarefulWriter {
public:
    CarefulWriter(KubeClient &client, int *recoveries)
        : m_client(client)
        , m_recoveries(recoveries) {}

    Result<QJsonObject> create(const KubeResource &res, const QString &ns, const QJsonObject &obj) {
        const QString name =
            obj.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
        for (int i = 0;; ++i) {
            auto r = await(m_client.create(res, ns, obj));
            if (r || !transient(r.error()) || i >= 20) {
                if (!r && i > 0 && r.error().kind == Error::Kind::AlreadyExists)
                    return await(m_client.get(res, ns, name)); // our earlier attempt did land
                return r;
            }
            ++*m_recoveries;
            auto current = await(m_client.get(res, ns, name));
            if (current)
                return current;
        }
    }

    // PUT obj (carrying the resourceVersion it was based on).
    Result<QJsonObject> replace(const KubeResource &res, const QString &ns, const QJsonObject &obj) {
        const QJsonObject meta = obj.value(QLatin1String("metadata")).toObject();
        const QString base = meta.value(QLatin1String("resourceVersion")).toString();
        for (int i = 0;; ++i) {
            auto r = await(m_client.replace(res, ns, obj));
            if (r || !transient(r.error()) || i >= 20)
                return r;
            ++*m_recoveries;
            auto current = await(m_client.get(res, ns, meta.value(QLatin1String("name")).toString()));
            if (!current)
                continue;
            const QString now = current->value(QLatin1String("metadata"))
                                    .toObject()
                                    .value(QLatin1String("resourceVersion"))
                                    .toString();
            // It landed when the object moved on and holds what we sent; if it moved on
            // to something else, the next attempt gets the server's own 409.
            if (now != base && current->value(QLatin1String("spec")) == obj.value(QLatin1String("spec")))
                return current;
        }
    }

    Result<QJsonObject> mergePatch(const KubeResource &res, const QString &ns, const QString &name,
                                   const QJsonObject &patch) {
        for (int i = 0;; ++i) { // a merge patch is idempotent: applying it twice is harmless
            auto r = await(m_client.mergePatch(res, ns, name, patch));
            if (r || !transient(r.error()) || i >= 20)
                return r;
            ++*m_recoveries;
        }
    }

    Result<void> remove(const KubeResource &res, const QString &ns, const QString &name) {
        for (int i = 0;; ++i) {
            auto r = await(m_client.remove(res, ns, name));
            if (r)
                return {};
            if (i > 0 && r.error().kind == Error::Kind::NotFound)
                return {}; // an earlier attempt landed
            if (!transient(r.error()) || i >= 20)
                return r.error();
            ++*m_recoveries;
        }
    }

private:
    KubeClient &m_client;
    int *m_recoveries;
};

// What a suite that ctest runs once per fault mode keeps: the mode, the demo cluster
// started with its faults, an admin client on it, and how many writes needed a second
// look (none without faults). The suite starts the cluster in its initTestCase.
class FaultModeSuite : public QObject {
protected:
    FaultMode m_mode = FaultMode::fromEnvironment();
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_admin;
    int m_recoveries = 0;

    // The mode's own fault knobs, to restore after a test changed them.
    QJsonObject modeFaults() const { return m_mode.faults(); }
};

inline QJsonObject quotaObject(const QString &name, const QJsonObject &hard) {
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("kind"), QStringLiteral("ResourceQuota")},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
                       {QStringLiteral("spec"), QJsonObject{{QStringLiteral("hard"), hard}}}};
}

inline QJsonObject namespaceObject(const QString &name) {
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("kind"), QStringLiteral("Namespace")},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}};
}

// spec.hard of a ResourceQuota.
inline QJsonObject hardOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("spec")).toObject().value(QLatin1String("hard")).toObject();
}

inline QString rvOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}
inline QString nameOf(const QJsonObject &o) {
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
}

} // namespace gq::test

// Passes when a Result holds a value; otherwise fails showing the error.
#define GQ_VERIFY_OK(r) QVERIFY2((r), qPrintable((r) ? QString() : gq::test::describe((r).error())))
