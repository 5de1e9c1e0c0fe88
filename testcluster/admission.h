#pragma once

#include "testcluster/apierror.h"
#include "testcluster/store.h"

#include <QJsonObject>
#include <QList>

#include <optional>

namespace gq::tc {

// What the API server does to an object between decoding and storing it:
// defaulting, validation (422 Invalid), and the admission plugins that matter for
// GPU quotas — LimitRanger (defaults, min/max/ratio) and ResourceQuota (usage
// check, `status.used` bookkeeping). Messages follow upstream's format strings.

// A pod's charge to quota: pods, count/pods, requests.*, limits.*, cpu/memory aliases.
Usage podUsage(const QJsonObject &pod);
// Succeeded and Failed pods no longer count against quota.
bool podIsTerminal(const QString &phase);

// The quota's `status` computed from the namespace's current objects.
QJsonObject computeQuotaStatus(const Store &store, const QJsonObject &quota);

// Decoding errors that upstream reports as 400 BadRequest (unparsable quantities).
std::optional<ApiError> checkDecodable(Resource r, const QJsonObject &object);

// Defaulting and canonicalising (quantities printed as the API server prints them).
void applyDefaults(Resource r, QJsonObject &object);

// Object validation; empty means valid. `old` is set for updates.
QList<FieldError> validateObject(Resource r, const QJsonObject &object, const QJsonObject *old);
// Leases (leases.cpp): MicroTime fields that do not parse are a decoding error (400),
// as the API server's; the spec's numbers are validated like upstream's.
std::optional<ApiError> checkLeaseDecodable(const QJsonObject &object);
void validateLease(const QJsonObject &object, QList<FieldError> &errors);

// What a pod update may change (ValidatePodUpdate); the refusal, if any.
std::optional<FieldError> checkPodSpecUpdate(const QJsonObject &oldPod, const QJsonObject &newPod);

// LimitRanger mutation + validation and the ResourceQuota check for a new pod in
// `ns`. Mutates `pod` (defaults, annotation). Returns the 403 on rejection.
std::optional<ApiError> admitPod(const Store &store, const QString &ns, QJsonObject &pod);
// The two halves of admitPod, which validating webhooks run between (as the
// ValidatingAdmissionWebhook plugin comes before ResourceQuota upstream):
// LimitRanger mutation, object validation and LimitRanger validation first ...
std::optional<ApiError> admitPodLimits(const Store &store, const QString &ns, QJsonObject &pod);
// ... then the ResourceQuota check.
std::optional<ApiError> admitPodQuota(const Store &store, const QString &ns, const QJsonObject &pod);

// Name rules: DNS-1123 label for namespaces, subdomain otherwise.
QList<FieldError> validateName(Resource r, const QString &name);

} // namespace gq::tc
