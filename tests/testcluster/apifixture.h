#pragma once

// The fixture of the test cluster's API suites (tst_api, tst_api_admission): one
// gpuquota-testcluster, requests over Qt Network as a client library sends them, the
// Kubernetes OpenAPI schema every answer is checked against, and object builders.

#include "testcluster/openapischema.h"
#include "tests/testclusterprocess.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrlQuery>

namespace apitest {

using gq::test::TestClusterProcess;

struct Reply {
    int status = 0;
    QByteArray body;
    QJsonObject json;
    QList<QNetworkReply::RawHeaderPair> headers;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    qint64 elapsedMs = 0;
    [[nodiscard]] QByteArray header(const QByteArray &name) const {
        for (const auto &h : headers)
            if (h.first.compare(name, Qt::CaseInsensitive) == 0)
                return h.second;
        return {};
    }
};

inline QJsonObject obj(const QByteArray &json) {
    return QJsonDocument::fromJson(json).object();
}

inline QByteArray compact(const QJsonObject &o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The value down a path of object keys and array indexes, as in
// at(reply.json, "spec", "limits", 0, "type"); undefined where the path breaks off.
inline QJsonValue step(const QJsonValue &v, const char *key) {
    return v.toObject().value(QLatin1StringView(key));
}
inline QJsonValue step(const QJsonValue &v, const QString &key) {
    return v.toObject().value(key);
}
inline QJsonValue step(const QJsonValue &v, int index) {
    return v.toArray().at(index);
}
template <typename... Keys> QJsonValue at(QJsonValue v, const Keys &...keys) {
    ((v = step(v, keys)), ...);
    return v;
}

class ApiFixture {
protected:
    TestClusterProcess m_cluster{
        TestClusterProcess::Options{QStringLiteral("empty"),
                                    {},
                                    {QStringLiteral("--bookmark-interval-ms"), QStringLiteral("300")},
                                    60000}};
    QNetworkAccessManager m_nam;
    QSslConfiguration m_ssl;
    gq::tc::OpenApiSchema m_schema;

    QNetworkRequest request(const QString &pathAndQuery, const QString &token) {
        QUrl url = m_cluster.url();
        const qsizetype q = pathAndQuery.indexOf(QLatin1Char('?'));
        url.setPath(q < 0 ? pathAndQuery : pathAndQuery.left(q));
        if (q >= 0)
            url.setQuery(pathAndQuery.mid(q + 1));
        QNetworkRequest req(url);
        req.setSslConfiguration(m_ssl);
        req.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        if (!token.isEmpty())
            req.setRawHeader("Authorization", "Bearer " + token.toUtf8());
        return req;
    }

    Reply call(const QByteArray &method, const QString &path, const QByteArray &body = {},
               const QByteArray &contentType = "application/json",
               const QString &token = QStringLiteral("admin"),
               const QByteArray &accept = "application/json") {
        const QString t = token == QLatin1String("admin")      ? m_cluster.adminToken()
                          : token == QLatin1String("readonly") ? m_cluster.readonlyToken()
                                                               : token;
        QNetworkRequest req = request(path, t);
        req.setRawHeader("Accept", accept);
        if (!body.isEmpty())
            req.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
        QElapsedTimer timer;
        timer.start();
        QNetworkReply *reply = m_nam.sendCustomRequest(req, method, body);
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(30000, &loop, &QEventLoop::quit);
        loop.exec();
        Reply r;
        r.elapsedMs = timer.elapsed();
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = reply->readAll();
        r.json = obj(r.body);
        r.headers = reply->rawHeaderPairs();
        r.error = reply->error();
        reply->deleteLater();
        return r;
    }

    void conforms(const QString &component, const QJsonObject &o) {
        const QStringList errors = m_schema.validate(component, o);
        QVERIFY2(errors.isEmpty(),
                 qPrintable(component + QStringLiteral(": ") + errors.join(QStringLiteral("; ")) +
                            QStringLiteral("\n") + QString::fromUtf8(compact(o))));
    }

    Reply create(const QString &collection, const QJsonObject &o, const QString &query = {}) {
        return call("POST", collection + query, compact(o));
    }

    static QJsonObject ns(const QString &name) {
        return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                           {QStringLiteral("kind"), QStringLiteral("Namespace")},
                           {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}};
    }

    static QJsonObject quota(const QString &name, const QJsonObject &hard) {
        return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                           {QStringLiteral("kind"), QStringLiteral("ResourceQuota")},
                           {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
                           {QStringLiteral("spec"), QJsonObject{{QStringLiteral("hard"), hard}}}};
    }

    // A LimitRange of one item (created by URL: no apiVersion or kind needed).
    static QJsonObject limitRange(const QString &name, const QJsonObject &item) {
        return QJsonObject{
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("limits"), QJsonArray{item}}}}};
    }

    static QJsonObject pod(const QString &name, const QJsonObject &resources,
                           const QJsonObject &labels = {}) {
        QJsonObject container{{QStringLiteral("name"), QStringLiteral("main")},
                              {QStringLiteral("image"), QStringLiteral("busybox:1.36")}};
        if (!resources.isEmpty())
            container.insert(QStringLiteral("resources"), resources);
        QJsonObject meta{{QStringLiteral("name"), name}};
        if (!labels.isEmpty())
            meta.insert(QStringLiteral("labels"), labels);
        return QJsonObject{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"), meta},
            {QStringLiteral("spec"), QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}};
    }

    static QJsonObject res(const QJsonObject &requests, const QJsonObject &limits = {}) {
        QJsonObject r;
        if (!requests.isEmpty())
            r.insert(QStringLiteral("requests"), requests);
        if (!limits.isEmpty())
            r.insert(QStringLiteral("limits"), limits);
        return r;
    }

    static QJsonObject expectedStatus(int code, const QString &reason, const QString &message,
                                      const QString &name, const QString &kind) {
        QJsonObject s{{QStringLiteral("kind"), QStringLiteral("Status")},
                      {QStringLiteral("apiVersion"), QStringLiteral("v1")},
                      {QStringLiteral("metadata"), QJsonObject()},
                      {QStringLiteral("status"), QStringLiteral("Failure")},
                      {QStringLiteral("message"), message},
                      {QStringLiteral("reason"), reason},
                      {QStringLiteral("code"), code}};
        QJsonObject details;
        if (!name.isEmpty())
            details.insert(QStringLiteral("name"), name);
        if (!kind.isEmpty())
            details.insert(QStringLiteral("kind"), kind);
        if (!details.isEmpty())
            s.insert(QStringLiteral("details"), details);
        return s;
    }

    QString usedOf(const QString &nsName, const QString &quotaName, const QString &resource) {
        const Reply r =
            call("GET", QStringLiteral("/api/v1/namespaces/%1/resourcequotas/%2").arg(nsName, quotaName));
        return at(r.json, "status", "used", resource).toString();
    }

    // The schema documents, the cluster, trust in its CA and the namespace team-a.
    void setUpFixture() {
        QFile core(QStringLiteral(GQ_TESTCLUSTER_OPENAPI_DIR "/api__v1_openapi.json"));
        QFile authz(
            QStringLiteral(GQ_TESTCLUSTER_OPENAPI_DIR "/apis__authorization.k8s.io__v1_openapi.json"));
        QVERIFY(core.open(QIODevice::ReadOnly) && authz.open(QIODevice::ReadOnly));
        QVERIFY(m_schema.addDocument(core.readAll()));
        QVERIFY(m_schema.addDocument(authz.readAll()));
        QVERIFY2(m_cluster.start(), qPrintable(m_cluster.errorString()));
        m_ssl = QSslConfiguration::defaultConfiguration();
        m_ssl.setCaCertificates(QSslCertificate::fromData(m_cluster.caCertificatePem()));
        QVERIFY(!m_ssl.caCertificates().isEmpty());
        QCOMPARE(create(QStringLiteral("/api/v1/namespaces"), ns(QStringLiteral("team-a"))).status, 201);
    }
};

} // namespace apitest
