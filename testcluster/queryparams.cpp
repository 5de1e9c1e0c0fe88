#include "testcluster/queryparams.h"

#include "testcluster/store.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace gq::tc {

bool parseQueryBool(const QString &value) {
    return value != QLatin1String("0") && value.compare(QLatin1String("false"), Qt::CaseInsensitive) != 0;
}

QByteArray encodeContinueToken(const ContinueToken &token) {
    QJsonObject t;
    t.insert(QLatin1String("v"), QLatin1String("meta.k8s.io/v1"));
    t.insert(QLatin1String("rv"), static_cast<qint64>(token.resourceVersion));
    t.insert(QLatin1String("start"), QString(token.startKey + QChar(0)));
    return toCompactJson(t).toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

std::optional<ContinueToken> decodeContinueToken(const QString &text) {
    const QByteArray raw = QByteArray::fromBase64(text.toLatin1(), QByteArray::Base64UrlEncoding);
    const QJsonObject t = QJsonDocument::fromJson(raw).object();
    if (t.value(QLatin1String("v")).toString() != QLatin1String("meta.k8s.io/v1"))
        return std::nullopt;
    return ContinueToken{static_cast<quint64>(t.value(QLatin1String("rv")).toInteger()),
                         t.value(QLatin1String("start")).toString()};
}

} // namespace gq::tc
