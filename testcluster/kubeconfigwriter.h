#pragma once

#include "core/domain/result.h"
#include "testcluster/tls.h"

#include <QString>

namespace gq::tc {

struct KubeconfigSpec {
    QString server; // https://127.0.0.1:PORT
    QString adminToken;
    QString readonlyToken;
};

// Writes a kubeconfig (mode 0600) with the CA embedded and three contexts:
// `admin` (current; bearer token, full rights), `readonly` (token that may only
// read) and `admin-cert` (client certificate in system:masters).
Result<void> writeKubeconfig(const QString &path, const KubeconfigSpec &spec, const TlsMaterial &tls);

} // namespace gq::tc
