#pragma once

#include "testcluster/apierror.h"
#include "testcluster/store.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// Validating admission webhooks, as the API server's ValidatingAdmissionWebhook plugin
// runs them: every webhook of every admissionregistration.k8s.io/v1
// ValidatingWebhookConfiguration whose rules, namespaceSelector and objectSelector match
// the request is called with an AdmissionReview v1 over HTTPS (the server certificate
// verified against caBundle), within timeoutSeconds; failurePolicy decides what a webhook
// that cannot be called means. Denials and failures are worded as upstream words them.
//
// clientConfig.service has no cluster network to resolve through here: the test cluster
// connects to the address in the Service's annotation `testcluster.gpuquota.io/endpoint`
// ("127.0.0.1:PORT"), while still verifying the certificate for NAME.NAMESPACE.svc.

namespace gq::tc {

inline constexpr QLatin1String kServiceEndpointAnnotation("testcluster.gpuquota.io/endpoint");

// SetDefaults_ValidatingWebhook: failurePolicy Fail, matchPolicy Equivalent, empty
// selectors, timeoutSeconds 10, service port 443, rule scope "*".
void defaultWebhookConfiguration(QJsonObject &config);
// ValidateValidatingWebhookConfiguration, the parts that matter here (names, clientConfig,
// sideEffects, admissionReviewVersions, timeoutSeconds, failurePolicy, rule operations).
QList<FieldError> validateWebhookConfiguration(const QJsonObject &config);

// What the webhooks are told about a request.
struct AdmissionRequest {
    Resource resource = Resource::Pod;
    QString subresource;
    QString operation; // CREATE, UPDATE
    QString ns;
    QString name;
    QJsonObject object;    // without kind/apiVersion (added when sent)
    QJsonObject oldObject; // UPDATE only
    QString userName;
    QStringList userGroups;
    bool dryRun = false;
};

// One webhook to call, resolved while the store is locked.
struct WebhookTarget {
    QString name;
    QString tlsHost;        // the URL's host, or NAME.NAMESPACE.svc: what the certificate must name
    QString connectAddress; // where to connect (the service endpoint), empty: tlsHost itself
    int port = 443;
    QString pathAndQuery; // "/validate/pods?timeout=10s"
    QString displayUrl;   // the URL as the API server prints it in errors
    QByteArray caBundlePem;
    int timeoutSeconds = 10;
    bool failClosed = true;
    QString sideEffects;
    QString resolveError; // the service could not be resolved: the call fails with this
};

// The webhooks that apply to `request`, in configuration-name order. Store mutex held.
std::vector<WebhookTarget> matchingWebhooks(const Store &store, const AdmissionRequest &request);

struct WebhookOutcome {
    std::optional<ApiError> rejection; // a denial, or a failure under failurePolicy Fail
    QStringList warnings;              // response.warnings, for Warning headers
    QStringList ignoredFailures;       // failures let through by failurePolicy Ignore
};

// Calls each target in turn (no store lock held: a webhook may take seconds) and
// stops at the first rejection.
WebhookOutcome callWebhooks(const std::vector<WebhookTarget> &targets, const AdmissionRequest &request);

} // namespace gq::tc
