#pragma once

#include "core/domain/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gq::httpd {

// What a serving certificate (the first PEM certificate of a chain) says about itself.
struct CertificateInfo {
    QString commonName;
    QStringList dnsNames;    // subjectAltName DNS entries
    QStringList ipAddresses; // subjectAltName IP entries, as text
    qint64 notBefore = 0;    // epoch seconds
    qint64 notAfter = 0;

    [[nodiscard]] bool hasSubjectAltNames() const { return !dnsNames.isEmpty() || !ipAddresses.isEmpty(); }
    // Whether a client connecting to `host` (a DNS name or an IP address) accepts this
    // certificate's names as the Go client of the API server does: subjectAltName only
    // (a Common Name is never looked at), `*.` wildcards for one left-most label.
    [[nodiscard]] bool matches(const QString &host) const;
};

[[nodiscard]] Result<CertificateInfo> inspectCertificate(const QByteArray &certPem);

// The webhook's serving certificate as the API server will judge it, checked before the
// controller serves it: readable PEM, the key belongs to it, valid at `now`, with
// subjectAltNames (a certificate with only a Common Name is refused by the API server:
// "x509: certificate relies on legacy Common Name field, use SANs instead") that cover
// every name in `hosts` (the names the API server connects to; empty: not checked).
// Error Tls naming the problem.
[[nodiscard]] Result<CertificateInfo> checkServingCertificate(const QByteArray &certPem,
                                                              const QByteArray &keyPem,
                                                              const QStringList &hosts, qint64 now);

} // namespace gq::httpd
