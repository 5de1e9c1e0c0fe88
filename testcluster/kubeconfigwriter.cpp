#include "testcluster/kubeconfigwriter.h"

#include <QFile>
#include <QSaveFile>

namespace gq::tc {

Result<void> writeKubeconfig(const QString &path, const KubeconfigSpec &spec, const TlsMaterial &tls) {
    const QByteArray text = "apiVersion: v1\n"
                            "kind: Config\n"
                            "clusters:\n"
                            "- name: gpuquota-test\n"
                            "  cluster:\n"
                            "    server: " +
                            spec.server.toUtf8() +
                            "\n"
                            "    certificate-authority-data: " +
                            tls.caCertPem.toBase64() +
                            "\n"
                            "contexts:\n"
                            "- name: admin\n"
                            "  context:\n"
                            "    cluster: gpuquota-test\n"
                            "    user: gq-admin\n"
                            "    namespace: default\n"
                            "- name: readonly\n"
                            "  context:\n"
                            "    cluster: gpuquota-test\n"
                            "    user: gq-viewer\n"
                            "    namespace: default\n"
                            "- name: admin-cert\n"
                            "  context:\n"
                            "    cluster: gpuquota-test\n"
                            "    user: gq-admin-cert\n"
                            "    namespace: default\n"
                            "current-context: admin\n"
                            "preferences: {}\n"
                            "users:\n"
                            "- name: gq-admin\n"
                            "  user:\n"
                            "    token: " +
                            spec.adminToken.toUtf8() +
                            "\n"
                            "- name: gq-viewer\n"
                            "  user:\n"
                            "    token: " +
                            spec.readonlyToken.toUtf8() +
                            "\n"
                            "- name: gq-admin-cert\n"
                            "  user:\n"
                            "    client-certificate-data: " +
                            tls.clientCertPem.toBase64() +
                            "\n"
                            "    client-key-data: " +
                            tls.clientKeyPem.toBase64() + "\n";
    QSaveFile file(path);
    const bool opened = file.open(QIODevice::WriteOnly);
    if (opened) {
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        file.write(text);
    }
    if (!opened || !file.commit())
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write kubeconfig %1: %2").arg(path, file.errorString()));
    return {};
}

} // namespace gq::tc
