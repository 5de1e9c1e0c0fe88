#include "testcluster/tls.h"
#include "testcluster/testcerts.h"

#include <QStringList>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace gq::tc {
namespace {

using KeyPtr = std::shared_ptr<EVP_PKEY>;
using CertPtr = std::shared_ptr<X509>;

KeyPtr makeKey() {
    // P-256 keeps start-up fast (RSA-2048 generation alone takes ~100 ms per key).
    EVP_PKEY *key = EVP_EC_gen("P-256");
    return KeyPtr(key, EVP_PKEY_free);
}

bool addExtension(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION *ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    if (!ext)
        return false;
    const bool ok = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return ok;
}

void setName(X509_NAME *name, const char *cn, const char *org) {
    if (org)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(org), -1,
                                   -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>(cn), -1, -1,
                               0);
}

struct CertRequest {
    const char *cn = nullptr;
    const char *org = nullptr;
    bool isCa = false;
    const char *san = nullptr;
    const char *extendedKeyUsage = nullptr;
};

CertPtr makeCert(const CertRequest &req, EVP_PKEY *key, X509 *issuerCert, EVP_PKEY *issuerKey) {
    CertPtr cert(X509_new(), X509_free);
    X509 *c = cert.get();
    X509_set_version(c, 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f;
    BIGNUM *bn = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(c), -3600);
    X509_gmtime_adj(X509_getm_notAfter(c), 365L * 24 * 3600);
    X509_set_pubkey(c, key);
    setName(X509_get_subject_name(c), req.cn, req.org);
    X509 *issuer = issuerCert ? issuerCert : c;
    X509_set_issuer_name(c, X509_get_subject_name(issuer));
    bool ok = true;
    if (req.isCa) {
        ok &= addExtension(c, issuer, NID_basic_constraints, "critical,CA:TRUE");
        ok &= addExtension(c, issuer, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
    } else {
        ok &= addExtension(c, issuer, NID_basic_constraints, "critical,CA:FALSE");
        ok &= addExtension(c, issuer, NID_key_usage, "critical,digitalSignature,keyEncipherment");
        ok &= addExtension(c, issuer, NID_ext_key_usage, req.extendedKeyUsage);
    }
    ok &= addExtension(c, issuer, NID_subject_key_identifier, "hash");
    if (issuerCert)
        ok &= addExtension(c, issuer, NID_authority_key_identifier, "keyid:always");
    if (req.san)
        ok &= addExtension(c, issuer, NID_subject_alt_name, req.san);
    if (!ok || X509_sign(c, issuerKey ? issuerKey : key, EVP_sha256()) == 0)
        return {};
    return cert;
}

// The PEM text `write` puts into a memory BIO.
template <typename Write> QByteArray pemText(Write write) {
    BIO *bio = BIO_new(BIO_s_mem());
    write(bio);
    char *data = nullptr;
    const long len = BIO_get_mem_data(bio, &data);
    QByteArray out(data, static_cast<qsizetype>(len));
    BIO_free(bio);
    return out;
}

QByteArray certPem(X509 *cert) {
    return pemText([cert](BIO *bio) { PEM_write_bio_X509(bio, cert); });
}

QByteArray keyPem(EVP_PKEY *key) {
    return pemText(
        [key](BIO *bio) { PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr); });
}

// The serving half both generators hand out: the CA, the server's certificate and key,
// as PEM for clients and as owned objects for the server's context.
void setServing(TlsMaterial &m, const CertPtr &ca, const CertPtr &server, const KeyPtr &serverKey) {
    m.caCertPem = certPem(ca.get());
    m.serverCertPem = certPem(server.get());
    m.serverKeyPem = keyPem(serverKey.get());
    m.caCert = ca;
    m.serverCert = server;
    m.serverKey = serverKey;
}

} // namespace

Result<TlsMaterial> generateTlsMaterial() {
    TlsMaterial m;
    KeyPtr caKey = makeKey();
    KeyPtr serverKey = makeKey();
    KeyPtr clientKey = makeKey();
    if (!caKey || !serverKey || !clientKey)
        return Error::make(Error::Kind::Tls, QStringLiteral("could not generate EC keys"));
    CertPtr ca = makeCert({.cn = "gpuquota-testcluster-ca", .org = nullptr, .isCa = true}, caKey.get(),
                          nullptr, nullptr);
    CertPtr server = makeCert({.cn = "gpuquota-testcluster",
                               .org = nullptr,
                               .isCa = false,
                               .san = "IP:127.0.0.1,DNS:localhost,IP:::1",
                               .extendedKeyUsage = "serverAuth"},
                              serverKey.get(), ca.get(), caKey.get());
    m.clientCommonName = QStringLiteral("gq-admin-cert");
    CertPtr client = makeCert({.cn = "gq-admin-cert",
                               .org = "system:masters",
                               .isCa = false,
                               .san = nullptr,
                               .extendedKeyUsage = "clientAuth"},
                              clientKey.get(), ca.get(), caKey.get());
    if (!ca || !server || !client)
        return Error::make(Error::Kind::Tls, QStringLiteral("could not sign the test certificates"));
    setServing(m, ca, server, serverKey);
    m.clientCertPem = certPem(client.get());
    m.clientKeyPem = keyPem(clientKey.get());
    return m;
}

Result<TlsMaterial> generateServingMaterial(const QByteArray &subjectAltNames, const QByteArray &commonName) {
    TlsMaterial m;
    KeyPtr caKey = makeKey();
    KeyPtr serverKey = makeKey();
    if (!caKey || !serverKey)
        return Error::make(Error::Kind::Tls, QStringLiteral("could not generate EC keys"));
    CertPtr ca = makeCert({.cn = "gpuquota-test-serving-ca", .org = nullptr, .isCa = true}, caKey.get(),
                          nullptr, nullptr);
    CertPtr server = makeCert({.cn = commonName.constData(),
                               .org = nullptr,
                               .isCa = false,
                               .san = subjectAltNames.isEmpty() ? nullptr : subjectAltNames.constData(),
                               .extendedKeyUsage = "serverAuth"},
                              serverKey.get(), ca.get(), caKey.get());
    if (!ca || !server)
        return Error::make(Error::Kind::Tls, QStringLiteral("could not sign the serving certificate for %1")
                                                 .arg(QString::fromLatin1(subjectAltNames)));
    setServing(m, ca, server, serverKey);
    return m;
}

PeerIdentity peerIdentity(X509 *cert) {
    PeerIdentity id;
    if (!cert)
        return id;
    X509_NAME *name = X509_get_subject_name(cert);
    for (int i = 0; i < X509_NAME_entry_count(name); ++i) {
        X509_NAME_ENTRY *entry = X509_NAME_get_entry(name, i);
        const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
        unsigned char *utf8 = nullptr;
        const int len = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry));
        if (len < 0)
            continue;
        const QString value = QString::fromUtf8(reinterpret_cast<const char *>(utf8), len);
        OPENSSL_free(utf8);
        if (nid == NID_commonName)
            id.commonName = value;
        else if (nid == NID_organizationName)
            id.organizations.append(value);
    }
    return id;
}

} // namespace gq::tc
