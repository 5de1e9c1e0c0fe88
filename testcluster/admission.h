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

// LimitRanger mutation + validation and the ResourceQuota check for a new pod in
// `ns`. Mutates `pod` (defaults, annotation). Returns the 403 on rejection.
std::optional<ApiError> admitPod(const Store &store, const QString &ns, QJsonObject &pod);

// Name rules: DNS-1123 label for namespaces, subdomain otherwise.
QList<FieldError> validateName(Resource r, const QString &name);

} // namespace gq::tc
