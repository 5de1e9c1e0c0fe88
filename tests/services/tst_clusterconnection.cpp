// ClusterConnection on its own against the real test cluster (demo scenario), with no
// model: the namespace list arrives as typed changes (a whole list before synced(),
// then one namespace at a time), the state reaches Live with an identity, and a
// kubeconfig that cannot be read is told apart from a failure.

#include "services/cluster/clusterconnection.h"
#include "tests/testclusterprocess.h"

#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using namespace gq::test;

Q_DECLARE_METATYPE(gq::NamespaceRows)
Q_DECLARE_METATYPE(gq::NamespaceSummary)

namespace {
template <typename T> Result<T> waitFor(QFuture<Result<T>> future) {
    (void)QTest::qWaitFor([&] { return future.isFinished(); }, 20000);
    if (!future.isFinished())
        return Error::make(Error::Kind::Timeout, QStringLiteral("no answer"));
    return future.result();
}

QJsonObject named(const QString &kind, const QString &name) {
    return QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                       {QStringLiteral("kind"), kind},
                       {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}}}};
}
} // namespace

class TestClusterConnection : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void wholeListArrivesBeforeSynced();
    void oneNamespaceAtATimeAfterwards();
    void disconnectEmptiesTheList();
    void openFallsBackToCurrentContext();
    void unreadableKubeconfigIsNotAFailureOnOpen();

private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::unique_ptr<ClusterConnection> m_connection;
    QTemporaryDir m_dir;
};

void TestClusterConnection::initTestCase() {
    qRegisterMetaType<NamespaceRows>();
    qRegisterMetaType<NamespaceSummary>();
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    m_cluster = std::make_unique<TestClusterProcess>(opts);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    m_connection = std::make_unique<ClusterConnection>();
}

void TestClusterConnection::cleanupTestCase() {
    m_connection.reset();
    m_cluster.reset();
}

void TestClusterConnection::wholeListArrivesBeforeSynced() {
    QStringList order;
    NamespaceRows last;
    connect(m_connection.get(), &ClusterConnection::namespacesReset, this, [&](const NamespaceRows &rows) {
        order << QStringLiteral("reset %1").arg(rows.rows.size());
        last = rows;
    });
    connect(m_connection.get(), &ClusterConnection::synced, this, [&] { order << QStringLiteral("synced"); });
    QSignalSpy synced(m_connection.get(), &ClusterConnection::synced);
    QSignalSpy resolved(m_connection.get(), &ClusterConnection::contextResolved);
    m_connection->connectTo(m_cluster->kubeconfigPath(), QStringLiteral("admin"));
    QVERIFY(synced.wait(20000));
    m_connection->disconnect(this);

    // The disconnect before connecting empties the list first; then the whole list.
    QCOMPARE(order.size(), 3);
    QCOMPARE(order.at(0), QStringLiteral("reset 0"));
    QVERIFY2(order.at(1).startsWith(QStringLiteral("reset ")) && order.at(1) != QStringLiteral("reset 0"),
             qPrintable(order.join(QLatin1Char(','))));
    QCOMPARE(order.at(2), QStringLiteral("synced"));
    QCOMPARE(resolved.count(), 1);
    QCOMPARE(resolved.at(0).at(0).toString(), QStringLiteral("admin"));

    // Sorted by name, indexed, summarised from the quotas.
    QVERIFY(
        std::is_sorted(last.rows.cbegin(), last.rows.cend(),
                       [](const NamespaceSummary &a, const NamespaceSummary &b) { return a.name < b.name; }));
    QCOMPARE(last.index.size(), last.rows.size());
    for (int i = 0; i < last.rows.size(); ++i)
        QCOMPARE(last.index.value(last.rows.at(i).name, -1), i);
    const int vision = last.index.value(QStringLiteral("team-vision"), -1);
    QVERIFY(vision >= 0);
    const NamespaceSummary &v = last.rows.at(vision);
    QCOMPARE(v.quotaCount, 1);
    QVERIFY(v.gpu.hard.has_value());
    QCOMPARE(v.gpu.hard->toString(), QStringLiteral("16"));
    QVERIFY(last.index.contains(QStringLiteral("default")));

    QTRY_COMPARE_WITH_TIMEOUT(m_connection->state(), ClusterConnection::State::Live, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_connection->identity().isEmpty(), 10000);
    QVERIFY(m_connection->namespaceNames().contains(QStringLiteral("team-vision")));
    QCOMPARE(m_connection->watchedFiles(),
             QStringList{QFileInfo(m_cluster->kubeconfigPath()).absoluteFilePath()});
}

void TestClusterConnection::oneNamespaceAtATimeAfterwards() {
    QVERIFY(m_connection->client());
    QSignalSpy updated(m_connection.get(), &ClusterConnection::namespaceUpdated);
    QSignalSpy removed(m_connection.get(), &ClusterConnection::namespaceRemoved);
    QSignalSpy quotas(m_connection.get(), &ClusterConnection::quotasChanged);
    QSignalSpy resets(m_connection.get(), &ClusterConnection::namespacesReset);
    const QString ns = QStringLiteral("tst-connection");
    auto lastUpdateOf = [&]() -> std::optional<NamespaceSummary> {
        for (qsizetype i = updated.size() - 1; i >= 0; --i) {
            const auto row = updated.at(i).at(0).value<NamespaceSummary>();
            if (row.name == ns)
                return row;
        }
        return std::nullopt;
    };

    auto created = waitFor(m_connection->client()->create(KubeResource::namespaces(), {},
                                                          named(QStringLiteral("Namespace"), ns)));
    QVERIFY2(created, qPrintable(created ? QString() : created.error().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(lastUpdateOf().has_value(), 10000);
    QCOMPARE(lastUpdateOf()->quotaCount, 0);

    QJsonObject quota = named(QStringLiteral("ResourceQuota"), QStringLiteral("gpu-quota"));
    quota.insert(QStringLiteral("spec"),
                 QJsonObject{{QStringLiteral("hard"), QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"),
                                                                   QStringLiteral("4")}}}});
    auto q = waitFor(m_connection->client()->create(KubeResource::resourceQuotas(), ns, quota));
    QVERIFY2(q, qPrintable(q ? QString() : q.error().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(lastUpdateOf() && lastUpdateOf()->quotaCount == 1, 10000);
    QCOMPARE(lastUpdateOf()->gpu.hard->toString(), QStringLiteral("4"));
    QTRY_VERIFY(std::any_of(quotas.cbegin(), quotas.cend(),
                            [&](const QList<QVariant> &args) { return args.at(0).toString() == ns; }));

    auto gone = waitFor(m_connection->client()->remove(KubeResource::namespaces(), {}, ns));
    QVERIFY2(gone, qPrintable(gone ? QString() : gone.error().toString()));
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(removed.cbegin(), removed.cend(),
                    [&](const QList<QVariant> &args) { return args.at(0).toString() == ns; }),
        20000);
    // Single changes, never a whole list again.
    QCOMPARE(resets.count(), 0);
}

void TestClusterConnection::disconnectEmptiesTheList() {
    QSignalSpy resets(m_connection.get(), &ClusterConnection::namespacesReset);
    m_connection->disconnectFromCluster();
    QCOMPARE(resets.count(), 1);
    QVERIFY(resets.at(0).at(0).value<NamespaceRows>().rows.isEmpty());
    QCOMPARE(m_connection->state(), ClusterConnection::State::Disconnected);
    QVERIFY(!m_connection->client());
    QVERIFY(m_connection->watchedFiles().isEmpty());
}

void TestClusterConnection::openFallsBackToCurrentContext() {
    ClusterConnection c;
    QSignalSpy resolved(&c, &ClusterConnection::contextResolved);
    QSignalSpy contexts(&c, &ClusterConnection::contextsChanged);
    QSignalSpy synced(&c, &ClusterConnection::synced);
    c.open(m_cluster->kubeconfigPath(), QStringLiteral("no-such-context"));
    QVERIFY(synced.wait(20000));
    QCOMPARE(resolved.count(), 1);
    QCOMPARE(resolved.at(0).at(0).toString(), QStringLiteral("admin")); // the file's current-context
    QCOMPARE(c.contextName(), QStringLiteral("admin"));
    QVERIFY(contexts.count() >= 1);
    QVERIFY(contexts.at(0).at(0).toStringList().contains(QStringLiteral("readonly")));
}

void TestClusterConnection::unreadableKubeconfigIsNotAFailureOnOpen() {
    const QString missing = m_dir.filePath(QStringLiteral("missing-config"));
    {
        ClusterConnection c;
        QSignalSpy unreadable(&c, &ClusterConnection::kubeconfigUnreadable);
        QSignalSpy errors(&c, &ClusterConnection::errorOccurred);
        c.open(missing, QString());
        QVERIFY(unreadable.wait(10000));
        QCOMPARE(c.state(), ClusterConnection::State::Disconnected);
        QCOMPARE(errors.count(), 0);
        // Still watched, so that writing it is noticed.
        QCOMPARE(c.watchedFiles(), QStringList{missing});
    }
    // Asked for by name (a context switch), the same file is a failure.
    ClusterConnection c;
    QSignalSpy unreadable(&c, &ClusterConnection::kubeconfigUnreadable);
    QSignalSpy errors(&c, &ClusterConnection::errorOccurred);
    c.connectTo(missing, QStringLiteral("admin"));
    QVERIFY(errors.wait(10000));
    QCOMPARE(c.state(), ClusterConnection::State::Failed);
    QCOMPARE(unreadable.count(), 0);
}

QTEST_GUILESS_MAIN(TestClusterConnection)
#include "tst_clusterconnection.moc"
