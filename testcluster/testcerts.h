#pragma once

#include "core/domain/result.h"
#include "testcluster/tls.h"

#include <QByteArray>

namespace gq::tc {

// A fresh CA and a server certificate signed by it for `subjectAltNames` (OpenSSL's
// form: "DNS:gpuquota-controller.gpuquota-system.svc,IP:127.0.0.1"), for test servers
// the test cluster calls out to (validating webhooks): the CA PEM goes into the
// webhook configuration's caBundle, the certificate and key into the server.
// The client fields of the result are left empty. An empty `subjectAltNames` makes a
// certificate with only a Common Name (`commonName`), which Go clients (the API server)
// refuse: "x509: certificate relies on legacy Common Name field, use SANs instead".
Result<TlsMaterial> generateServingMaterial(const QByteArray &subjectAltNames,
                                            const QByteArray &commonName = "gpuquota-test-server");

} // namespace gq::tc
