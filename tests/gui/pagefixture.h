#pragma once

// A console page on its own against the real test cluster (demo scenario): the
// cluster child, a session connected as "admin" and a draft store in a temporary
// directory. Tests create the page they drive on top of it.

#include "services/quotas/draftstore.h"
#include "services/cluster/clusterconnection.h"
#include "models/quotas/namespacelistmodel.h"
#include "tests/testclusterprocess.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

namespace gq::test {

struct PageFixture {
    std::unique_ptr<TestClusterProcess> cluster;
    QTemporaryDir dir;
    std::unique_ptr<DraftStore> drafts;
    std::unique_ptr<NamespaceListModel> list;
    std::unique_ptr<ClusterConnection> session;

    // Empty on success, else what went wrong.
    QString start() {
        TestClusterProcess::Options opts;
        opts.scenario = QStringLiteral("demo");
        cluster = std::make_unique<TestClusterProcess>(opts);
        if (!cluster->start())
            return cluster->errorString();
        drafts = std::make_unique<DraftStore>(nullptr, dir.filePath(QStringLiteral("drafts")));
        list = std::make_unique<NamespaceListModel>();
        session = std::make_unique<ClusterConnection>();
        list->follow(session.get());
        QSignalSpy synced(session.get(), &ClusterConnection::synced);
        session->connectTo(cluster->kubeconfigPath(), QStringLiteral("admin"));
        if (!synced.wait(20000))
            return QStringLiteral("the session did not sync within 20 s");
        return {};
    }

    void stop() {
        session.reset();
        cluster.reset();
    }
};

} // namespace gq::test
