// The product's Kubernetes client (libcurl) against the real kube-apiserver negotiates
// HTTP/2, as every real cluster offers it: lists and writes go over h2, and the
// client's HTTP/1.1 mode (KubeClientOptions::http2 = false) is the control. The other
// real-cluster suites run over the same client, so they run over HTTP/2 too. This
// API server sends GOAWAY on 2 % of its HTTP/2 requests (--goaway-chance, as HA
// clusters set it to rebalance clients): bursts of multiplexed reads and writes must
// all succeed, each write exactly once.
#include "tests/kube/kubeclienttestutil.h"
#include "core/kube/kubeconfig.h"
#include "tests/realcluster/realcluster.h"

#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestRealClusterHttp2 : public QObject {
    Q_OBJECT

    RealCluster m_cluster{[] {
        RealCluster::Options o;
        o.apiServerArguments = {QStringLiteral("--goaway-chance=0.02")};
        return o;
    }()};

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

    // 400 reads and 100 creates, 20 at a time on one multiplexed connection, while the
    // server says GOAWAY on about 1 in 50: nothing fails, and every create lands once.
    void burstsSurviveGoaway() {
        auto c = client(true);
        QVERIFY(c);
        QStringList errors;
        const auto run = [&](const QList<KubeRequest> &batch) {
            QList<QFuture<Result<KubeResponse>>> pending;
            for (const KubeRequest &r : batch)
                pending << c->send(r);
            for (auto &f : pending) {
                auto r = await(f);
                if (!r)
                    errors << r.error().toString();
                else if (r->httpStatus >= 300)
                    errors << QString::number(r->httpStatus);
            }
        };
        for (int round = 0; round < 20; ++round) {
            QList<KubeRequest> batch;
            for (int i = 0; i < 20; ++i) {
                KubeRequest get;
                get.path = QStringLiteral("/api/v1/namespaces/default/configmaps");
                batch << get;
            }
            run(batch);
        }
        for (int round = 0; round < 5; ++round) {
            QList<KubeRequest> batch;
            for (int i = 0; i < 20; ++i) {
                KubeRequest post;
                post.method = HttpMethod::Post;
                post.path = QStringLiteral("/api/v1/namespaces/default/configmaps");
                const QJsonObject meta{
                    {QStringLiteral("name"), QStringLiteral("burst-%1").arg(round * 20 + i)}};
                post.body = QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                                      {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
                                                      {QStringLiteral("metadata"), meta}})
                                .toJson(QJsonDocument::Compact);
                batch << post;
            }
            run(batch);
        }
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
        const ToolRun k =
            m_cluster.kubectl({QStringLiteral("get"), QStringLiteral("configmaps"), QStringLiteral("-n"),
                               QStringLiteral("default"), QStringLiteral("-o"), QStringLiteral("name")});
        QCOMPARE(k.out.count("configmap/burst-"), 100);
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
