#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

using X509 = struct x509_st;
using EVP_PKEY = struct evp_pkey_st;

namespace gq::tc {

// The certificates the test cluster needs, made fresh at every start: a CA, a
// server certificate for 127.0.0.1/localhost signed by it, and a client
// certificate (O=system:masters) for the `admin-cert` kubeconfig user.
// Everything is kept in memory; the kubeconfig embeds the PEM text.
struct TlsMaterial {
    QByteArray caCertPem;
    QByteArray serverCertPem;
    QByteArray serverKeyPem;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
    QString clientCommonName;

    // Owned OpenSSL objects for the server context.
    std::shared_ptr<X509> caCert;
    std::shared_ptr<X509> serverCert;
    std::shared_ptr<EVP_PKEY> serverKey;
};

// Generates all material.
Result<TlsMaterial> generateTlsMaterial();

// Extracts the subject CN and O entries of the verified peer certificate.
struct PeerIdentity {
    QString commonName;
    QStringList organizations;
};
PeerIdentity peerIdentity(X509 *cert);

} // namespace gq::tc
