#include "core/kube/plainhttp.h"

#include "core/net/httprequest.h"

#include <QStringList>
#include <QUrl>

namespace gq {

QString credentialKinds(const KubeConnection &c) {
    QStringList kinds;
    if (!c.token.isEmpty() || !c.tokenFile.isEmpty())
        kinds << QStringLiteral("a bearer token");
    if (c.exec)
        kinds << QStringLiteral("an exec plugin's token");
    if (!c.clientCertPem.isEmpty() || !c.clientKeyPem.isEmpty())
        kinds << QStringLiteral("a client certificate");
    return kinds.join(QStringLiteral(" and "));
}

bool sendsCredentialsInClear(const KubeConnection &c) {
    return QUrl(c.server).scheme().compare(QLatin1String("http"), Qt::CaseInsensitive) == 0 &&
           !credentialKinds(c).isEmpty();
}

bool isLoopbackHost(const QString &host) {
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0 ||
        host.endsWith(QLatin1String(".localhost"), Qt::CaseInsensitive))
        return true;
    // No QHostAddress: that would pull Qt Network into the core for one test.
    QString h = host.toLower();
    if (h.startsWith(QLatin1String("::ffff:")))
        h = h.mid(7); // IPv4-mapped
    if (h == QLatin1String("::1") || h == QLatin1String("0:0:0:0:0:0:0:1"))
        return true;
    const QStringList parts = h.split(QLatin1Char('.'));
    if (parts.size() != 4)
        return false;
    for (const QString &p : parts) {
        bool ok = false;
        const int v = p.toInt(&ok);
        if (!ok || v < 0 || v > 255 || p.isEmpty() || p.size() > 3)
            return false;
    }
    return parts.first().toInt() == 127;
}

std::optional<Error> plainHttpRefusal(const KubeConnection &c, bool allowed) {
    if (allowed || !sendsCredentialsInClear(c) || isLoopbackHost(QUrl(c.server).host()))
        return std::nullopt;
    return Error::make(
        Error::Kind::Config,
        QStringLiteral("refusing to send %1 of kubeconfig user \"%2\" in clear text to %3 (a plain "
                       "http:// server URL that is not on this machine): use https:// in the kubeconfig, "
                       "or set GQ_ALLOW_PLAIN_HTTP_CREDENTIALS=1 if this network is trusted")
            .arg(credentialKinds(c), c.userName, urlForMessages(c.server)));
}

QString plainHttpWarning(const KubeConnection &c) {
    return QStringLiteral("warning: %1 of kubeconfig user \"%2\" is sent unencrypted to %3 (plain http://; "
                          "accepted only because the server is on this machine)")
        .arg(credentialKinds(c), c.userName, urlForMessages(c.server));
}

bool plainHttpCredentialsAllowedByEnvironment() {
    return qEnvironmentVariable("GQ_ALLOW_PLAIN_HTTP_CREDENTIALS") == QLatin1String("1");
}

} // namespace gq
