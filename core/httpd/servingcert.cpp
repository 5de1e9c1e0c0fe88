#include "core/httpd/servingcert.h"

#include <QDateTime>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <memory>

namespace gq::httpd {

namespace {

Error tlsError(const QString &message) {
    return Error::make(Error::Kind::Tls, message);
}

qint64 epochOf(const ASN1_TIME *t) {
    struct tm tm {};
    if (!t || ASN1_TIME_to_tm(t, &tm) != 1)
        return 0;
    return QDateTime(QDate(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday),
                     QTime(tm.tm_hour, tm.tm_min, tm.tm_sec), Qt::UTC)
        .toSecsSinceEpoch();
}

QString text(const ASN1_STRING *s) {
    return QString::fromUtf8(reinterpret_cast<const char *>(ASN1_STRING_get0_data(s)), ASN1_STRING_length(s));
}

void readNames(X509 *cert, CertificateInfo &info) {
    auto *names =
        static_cast<GENERAL_NAMES *>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; names && i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME *n = sk_GENERAL_NAME_value(names, i);
        if (n->type == GEN_DNS) {
            info.dnsNames << text(n->d.dNSName);
        } else if (n->type == GEN_IPADD) {
            const QByteArray raw(reinterpret_cast<const char *>(ASN1_STRING_get0_data(n->d.iPAddress)),
                                 ASN1_STRING_length(n->d.iPAddress));
            QStringList parts;
            if (raw.size() == 4)
                for (char b : raw)
                    parts << QString::number(quint8(b));
            else if (raw.size() == 16)
                for (int j = 0; j < 16; j += 2)
                    parts << QString::number(quint8(raw[j]) << 8 | quint8(raw[j + 1]), 16);
            if (!parts.isEmpty())
                info.ipAddresses << parts.join(raw.size() == 4 ? QLatin1Char('.') : QLatin1Char(':'));
        }
    }
    GENERAL_NAMES_free(names);
    const X509_NAME *subject = X509_get_subject_name(cert);
    const int cn = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
    if (cn >= 0)
        info.commonName = text(X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, cn)));
}

// The address's bytes; empty when `text` is not an IP address.
QByteArray ipBytes(const QString &text) {
    const QByteArray latin = text.toLatin1();
    ASN1_OCTET_STRING *ip = a2i_IPADDRESS(latin.constData());
    ERR_clear_error();
    if (!ip)
        return {};
    const QByteArray out(reinterpret_cast<const char *>(ASN1_STRING_get0_data(ip)), ASN1_STRING_length(ip));
    ASN1_OCTET_STRING_free(ip);
    return out;
}

QString day(qint64 secs) {
    return QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
}

} // namespace

bool CertificateInfo::matches(const QString &host) const {
    if (const QByteArray ip = ipBytes(host); !ip.isEmpty())
        return std::any_of(ipAddresses.begin(), ipAddresses.end(),
                           [&ip](const QString &a) { return ipBytes(a) == ip; });
    const QString h = host.toLower();
    for (const QString &name : dnsNames) {
        const QString n = name.toLower();
        if (n == h)
            return true;
        // "*.svc.example" matches "a.svc.example", not "a.b.svc.example" nor "svc.example".
        if (n.startsWith(QLatin1String("*.")) && h.endsWith(n.mid(1)) &&
            !h.left(h.size() - n.size() + 1).contains(QLatin1Char('.')) && h.size() > n.size() - 1)
            return true;
    }
    return false;
}

Result<CertificateInfo> inspectCertificate(const QByteArray &certPem) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(certPem.constData(), int(certPem.size())),
                                                  &BIO_free);
    std::unique_ptr<X509, decltype(&X509_free)> cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr),
                                                     &X509_free);
    ERR_clear_error();
    if (!cert)
        return tlsError(QStringLiteral("the certificate is not PEM (no BEGIN CERTIFICATE block that reads)"));
    CertificateInfo info;
    info.notBefore = epochOf(X509_get0_notBefore(cert.get()));
    info.notAfter = epochOf(X509_get0_notAfter(cert.get()));
    readNames(cert.get(), info);
    return info;
}

Result<CertificateInfo> checkServingCertificate(const QByteArray &certPem, const QByteArray &keyPem,
                                                const QStringList &hosts, qint64 now) {
    auto info = inspectCertificate(certPem);
    if (!info)
        return info.error();
    {
        std::unique_ptr<BIO, decltype(&BIO_free)> cbio(
            BIO_new_mem_buf(certPem.constData(), int(certPem.size())), &BIO_free);
        std::unique_ptr<X509, decltype(&X509_free)> cert(
            PEM_read_bio_X509(cbio.get(), nullptr, nullptr, nullptr), &X509_free);
        std::unique_ptr<BIO, decltype(&BIO_free)> kbio(
            BIO_new_mem_buf(keyPem.constData(), int(keyPem.size())), &BIO_free);
        std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
            PEM_read_bio_PrivateKey(kbio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
        const bool keyOk = key && X509_check_private_key(cert.get(), key.get()) == 1;
        ERR_clear_error();
        if (!key)
            return tlsError(QStringLiteral("the private key is not PEM (no unencrypted PRIVATE KEY block)"));
        if (!keyOk)
            return tlsError(QStringLiteral("the private key does not belong to the certificate"));
    }
    if (info->notAfter && now >= info->notAfter)
        return tlsError(QStringLiteral("the certificate expired at %1").arg(day(info->notAfter)));
    if (info->notBefore && now < info->notBefore)
        return tlsError(QStringLiteral("the certificate is not valid before %1").arg(day(info->notBefore)));
    if (!info->hasSubjectAltNames())
        return tlsError(
            QStringLiteral("the certificate has no subjectAltName, only the Common Name \"%1\": the "
                           "API server refuses it (x509: certificate relies on legacy Common Name "
                           "field, use SANs instead); issue it with subjectAltName=DNS:<name>")
                .arg(info->commonName));
    for (const QString &host : hosts)
        if (!info->matches(host))
            return tlsError(QStringLiteral("the certificate is not valid for %1 (its subjectAltNames: %2)")
                                .arg(host, (info->dnsNames + info->ipAddresses).join(QStringLiteral(", "))));
    return info;
}

} // namespace gq::httpd
