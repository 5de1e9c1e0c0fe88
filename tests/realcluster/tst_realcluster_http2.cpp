// The product's Kubernetes client (libcurl) against the real kube-apiserver negotiates
// HTTP/2, as every real cluster offers it: lists, writes and watches go over h2, and
// the client's HTTP/1.1 mode (KubeClientOptions::http2 = false) is the control. The
// other real-cluster suites run over the same client, so they run over HTTP/2 too.
#include "kube/kubeclienttestutil.h"
#include "kubeconfig.h"
#include "realcluster.h"

#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestRealClusterHttp2 : public QObject {
    Q_OBJECT

    RealCluster m_cluster;

    std::shared_ptr<KubeClient> client(bool http2) {
        auto config = KubeConfig::load(m_cluster.kubeconfigPath());
        if (!config)
            return nullptr;
        auto connection = config->connection(QStringLiteral("admin"));
        if (!connection)
            return nullptr;
        KubeClientOptions options;
        options.http2 = http2;
        return std::make_shared<KubeClient>(*connection, options);
    }

private Q_SLOTS:
    void initTestCase() { GQ_START_REAL_CLUSTER(m_cluster); }

    void readsAndWritesGoOverHttp2() {
        auto c = client(true);
        QVERIFY(c);
        KubeRequest list;
        list.path = QStringLiteral("/api/v1/namespaces");
        auto r = await(c->send(list));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->httpStatus, 200);
        QCOMPARE(r->httpVersion, 2L);
        const QJsonObject cm{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("h2")}}}};
        KubeRequest create;
        create.method = HttpMethod::Post;
        create.path = QStringLiteral("/api/v1/namespaces/default/configmaps");
        create.body = QJsonDocument(cm).toJson(QJsonDocument::Compact);
        r = await(c->send(create));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->httpStatus, 201);
        QCOMPARE(r->httpVersion, 2L);
        QCOMPARE(c->lastHttpVersion(), 2L);
    }

    // The control: the same client told to speak HTTP/1.1 does, so the check above can fail.
    void http11WhenAskedTo() {
        auto c = client(false);
        QVERIFY(c);
        KubeRequest list;
        list.path = QStringLiteral("/api/v1/namespaces");
        auto r = await(c->send(list));
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->httpVersion, 1L);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterHttp2)
#include "tst_realcluster_http2.moc"
