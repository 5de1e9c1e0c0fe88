#pragma once

// Validating webhooks in tests against gpuquota-testcluster (every test cluster calls
// them; nothing to switch on):
//
//     auto tls = gq::tc::generateServingMaterial("IP:127.0.0.1");   // testcerts.h (gqtestcluster)
//     gq::test::WebhookServer hook(*tls, [](const QJsonObject &request) { ... return response; });
//     QVERIFY2(hook.start(), qPrintable(hook.errorString()));
//     kubectl apply -f - <<< gq::test::validatingWebhookYaml({.url = hook.url("/validate/pods"),
//                                                             .caPem = tls->caCertPem});
//
// A controller serving its own webhook needs only validatingWebhookYaml() with its URL and
// the CA that signed its certificate. clientConfig.service works too: give the Service the
// annotation `testcluster.gpuquota.io/endpoint: "127.0.0.1:PORT"` and a certificate for
// NAME.NAMESPACE.svc (see testcluster/webhooks.h).
//
// Header-only; link gqtestcluster (it brings cpp-httplib and OpenSSL).

#include "testcluster/tls.h"

#include <httplib.h>

#include <QByteArray>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gq::test {

// An AdmissionReview v1 of a Pod CREATE (or `operation`) in `ns`, of `user` (the label
// gpuquota.io/user), with `gpus` nvidia.com/gpu, as the API server sends it.
inline QByteArray reviewJson(const QString &uid, const QString &ns, const QString &user, int gpus,
                             const QJsonObject &extraMeta = {}, const QJsonObject &extraSpec = {},
                             const QString &operation = QStringLiteral("CREATE")) {
    QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")},
                          {QStringLiteral("image"), QStringLiteral("cuda")}};
    if (gpus > 0)
        container.insert(QStringLiteral("resources"),
                         QJsonObject{{QStringLiteral("limits"), QJsonObject{{QStringLiteral("nvidia.com/gpu"),
                                                                             QString::number(gpus)}}}});
    QJsonObject meta = extraMeta;
    meta.insert(QStringLiteral("name"), QStringLiteral("job"));
    meta.insert(QStringLiteral("namespace"), ns);
    if (!user.isEmpty())
        meta.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("gpuquota.io/user"), user}});
    QJsonObject spec = extraSpec;
    spec.insert(QStringLiteral("containers"), QJsonArray{container});
    const QJsonObject pod{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                          {QStringLiteral("kind"), QStringLiteral("Pod")},
                          {QStringLiteral("metadata"), meta},
                          {QStringLiteral("spec"), spec}};
    const QJsonObject request{
        {QStringLiteral("uid"), uid},
        {QStringLiteral("kind"), QJsonObject{{QStringLiteral("group"), QString()},
                                             {QStringLiteral("version"), QStringLiteral("v1")},
                                             {QStringLiteral("kind"), QStringLiteral("Pod")}}},
        {QStringLiteral("namespace"), ns},
        {QStringLiteral("operation"), operation},
        {QStringLiteral("object"), pod}};
    return QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                                     {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                                     {QStringLiteral("request"), request}})
        .toJson();
}

// The review's answer, and the message of a denial.
inline QJsonObject responseOf(const QByteArray &body) {
    return QJsonDocument::fromJson(body).object().value(QLatin1String("response")).toObject();
}
inline QString messageOf(const QJsonObject &response) {
    return response.value(QLatin1String("status")).toObject().value(QLatin1String("message")).toString();
}

struct WebhookYaml {
    QString name = QStringLiteral("gpuquota");                // the configuration
    QString webhookName = QStringLiteral("pods.gpuquota.io"); // the webhook (three segments)
    QString url;                                              // https://127.0.0.1:PORT/validate/pods, or:
    QString serviceNamespace, serviceName, servicePath;       // clientConfig.service
    int servicePort = 443;
    QByteArray caPem; // caBundle (PEM; base64 encoded here)
    QString failurePolicy = QStringLiteral("Fail");
    int timeoutSeconds = 5;
    QStringList operations{QStringLiteral("CREATE")};
    QString namespaceSelector = QStringLiteral("{}"); // YAML flow text
    QString objectSelector = QStringLiteral("{}");
    QString matchConditions; // YAML lines at the webhook's indentation ("    matchConditions:\n...")
};

inline QByteArray validatingWebhookYaml(const WebhookYaml &w) {
    QString clientConfig;
    if (!w.url.isEmpty())
        clientConfig = QStringLiteral("      url: %1\n").arg(w.url);
    else
        clientConfig = QStringLiteral("      service: {namespace: %1, name: %2, path: \"%3\", port: %4}\n")
                           .arg(w.serviceNamespace, w.serviceName, w.servicePath)
                           .arg(w.servicePort);
    if (!w.caPem.isEmpty())
        clientConfig += QStringLiteral("      caBundle: %1\n").arg(QString::fromLatin1(w.caPem.toBase64()));
    return QStringLiteral("apiVersion: admissionregistration.k8s.io/v1\n"
                          "kind: ValidatingWebhookConfiguration\n"
                          "metadata:\n"
                          "  name: %1\n"
                          "webhooks:\n"
                          "  - name: %2\n"
                          "    admissionReviewVersions: [v1]\n"
                          "    sideEffects: None\n"
                          "    failurePolicy: %3\n"
                          "    timeoutSeconds: %4\n"
                          "    namespaceSelector: %5\n"
                          "    objectSelector: %6\n"
                          "    clientConfig:\n"
                          "%7"
                          "    rules:\n"
                          "      - operations: [%8]\n"
                          "        apiGroups: [\"\"]\n"
                          "        apiVersions: [v1]\n"
                          "        resources: [pods]\n")
               .arg(w.name, w.webhookName, w.failurePolicy)
               .arg(w.timeoutSeconds)
               .arg(w.namespaceSelector, w.objectSelector, clientConfig,
                    w.operations.join(QStringLiteral(", ")))
               .toUtf8() +
           w.matchConditions.toUtf8();
}

// An AdmissionReview v1 server over HTTPS for tests. `decide` gets the request
// (AdmissionReview.request) and returns the response without uid (filled in):
// {"allowed": false, "status": {"code": 403, "message": "..."}}.
class WebhookServer final {
public:
    using Decide = std::function<QJsonObject(const QJsonObject &request)>;

    WebhookServer(const tc::TlsMaterial &tls, Decide decide)
        : m_tls(tls)
        , m_decide(std::move(decide)) {}
    ~WebhookServer() { stop(); }
    WebhookServer(const WebhookServer &) = delete;
    WebhookServer &operator=(const WebhookServer &) = delete;

    bool start() {
        m_server = std::make_unique<httplib::SSLServer>(m_tls.serverCert.get(), m_tls.serverKey.get());
        if (!m_server->is_valid()) {
            m_error = QStringLiteral("cannot set up the webhook server's TLS context");
            return false;
        }
        m_server->Post(".*", [this](const httplib::Request &req, httplib::Response &res) {
            const QJsonObject review = QJsonDocument::fromJson(QByteArray::fromStdString(req.body)).object();
            const QJsonObject request = review.value(QLatin1String("request")).toObject();
            {
                std::lock_guard lock(m_mutex);
                m_paths.push_back(QString::fromStdString(req.target));
                m_requests.push_back(request);
            }
            // Recorded before the delay, so a late answer does not count in a later check.
            const int delay = m_delayMs.load();
            if (delay > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(delay));
            QJsonObject response = m_decide(request);
            response.insert(QLatin1String("uid"), request.value(QLatin1String("uid")));
            QJsonObject answer{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                               {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                               {QStringLiteral("response"), response}};
            res.set_content(QJsonDocument(answer).toJson(QJsonDocument::Compact).toStdString(),
                            "application/json");
        });
        m_port = m_server->bind_to_any_port("127.0.0.1");
        if (m_port <= 0) {
            m_error = QStringLiteral("cannot listen on 127.0.0.1");
            return false;
        }
        m_thread = std::thread([this] { m_server->listen_after_bind(); });
        while (!m_server->is_running())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        return true;
    }

    void stop() {
        if (!m_server)
            return;
        m_server->stop();
        if (m_thread.joinable())
            m_thread.join();
        m_server.reset();
    }

    [[nodiscard]] int port() const { return m_port; }
    [[nodiscard]] QString url(const QString &path) const {
        return QStringLiteral("https://127.0.0.1:%1%2").arg(m_port).arg(path);
    }
    [[nodiscard]] QString errorString() const { return m_error; }
    // Every answer waits this long first (for timeoutSeconds tests).
    void setDelayMs(int ms) { m_delayMs = ms; }

    // The AdmissionReview requests received so far, and the request targets (path?query).
    std::vector<QJsonObject> requests() {
        std::lock_guard lock(m_mutex);
        return m_requests;
    }
    std::vector<QString> paths() {
        std::lock_guard lock(m_mutex);
        return m_paths;
    }
    void clear() {
        std::lock_guard lock(m_mutex);
        m_requests.clear();
        m_paths.clear();
    }

private:
    tc::TlsMaterial m_tls;
    Decide m_decide;
    std::unique_ptr<httplib::SSLServer> m_server;
    std::thread m_thread;
    int m_port = 0;
    QString m_error;
    std::atomic<int> m_delayMs{0};
    std::mutex m_mutex;
    std::vector<QJsonObject> m_requests;
    std::vector<QString> m_paths;
};

} // namespace gq::test
