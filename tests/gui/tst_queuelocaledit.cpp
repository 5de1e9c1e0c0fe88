// Editing a LocalQueue is gated by its namespace: a user whose RBAC grants `update
// localqueues` in team-nlp only (a Role there; the test cluster's `/_gq/users` rules answer
// SelfSubjectAccessReview and authorize writes like RBAC) may open and apply the YAML of
// team-nlp's LocalQueue, not team-vision's, and not a ClusterQueue.
#include "widgets/editor/applyconfirmdialog.h"
#include "services/cluster/clusterconnection.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"
#include "models/queues/queuemodels.h"
#include "widgets/queues/queuespage.h"
#include "widgets/queues/queueyamldialog.h"
#include "tests/testclusterprocess.h"
#include "widgets/editor/yamleditor.h"
#include "tests/gui/queuesuite.h"

#include <QFile>
#include <QJsonArray>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace gq;
using gq::test::TestClusterProcess;

namespace {
QStandardItem *findItem(QStandardItem *parent, const QString &kind, const QString &name) {
    for (int r = 0; r < parent->rowCount(); ++r) {
        QStandardItem *child = parent->child(r, 0);
        if (!child)
            continue;
        if (child->data(QueueTreeModel::KindRole).toString() == kind &&
            child->data(QueueTreeModel::ObjectNameRole).toString() == name)
            return child;
        if (QStandardItem *deeper = findItem(child, kind, name))
            return deeper;
    }
    return nullptr;
}
} // namespace

class TestQueueLocalEdit : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    QTemporaryDir m_dir;
    QString m_kubeconfig;
    std::unique_ptr<ClusterConnection> m_session;
    std::unique_ptr<QueuesPage> m_page;

    QJsonObject serverLocalQueue(const QString &ns, const QString &name) {
        auto client = m_session->client();
        auto version = kueue::detectVersion(*client);
        if (!version)
            return {};
        auto f = client->get(kueue::resource(QStringLiteral("localqueues"), *version), ns, name);
        f.waitForFinished();
        const Result<QJsonObject> r = f.result();
        return r ? *r : QJsonObject{};
    }
    QStandardItem *localQueue(const QString &nsName) {
        return findItem(m_page->treeModel()->invisibleRootItem(), QStringLiteral("localqueue"), nsName);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_cluster = TestClusterProcess::ofScenario(QStringLiteral("demo"));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        // The NLP team's lead: a Role in team-nlp that may update its LocalQueues, nothing else.
        const QJsonArray rules{
            QJsonObject{{QStringLiteral("namespaces"), QJsonArray{QStringLiteral("team-nlp")}},
                        {QStringLiteral("verbs"), QJsonArray{QStringLiteral("update")}},
                        {QStringLiteral("resources"), QJsonArray{QStringLiteral("localqueues")}}}};
        const auto added =
            m_cluster->hook("POST", QStringLiteral("/_gq/users"),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("nlp-lead")},
                                        {QStringLiteral("token"), QStringLiteral("tok-nlp-lead")},
                                        {QStringLiteral("groups"), QJsonArray{}},
                                        {QStringLiteral("rules"), rules}});
        QVERIFY2(added.ok(), qPrintable(added.error + QString::number(added.status)));
        // Their kubeconfig: the test cluster's with a context of theirs.
        QFile in(m_cluster->kubeconfigPath());
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray text = in.readAll();
        text.replace("current-context: admin\n", "- name: nlp-lead\n  context:\n    cluster: gpuquota-test\n"
                                                 "    user: nlp-lead\n    namespace: team-nlp\n"
                                                 "current-context: nlp-lead\n");
        text += "- name: nlp-lead\n  user:\n    token: tok-nlp-lead\n";
        m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
        QFile out(m_kubeconfig);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text);
        out.close();
        m_session = std::make_unique<ClusterConnection>();
        QSignalSpy synced(m_session.get(), &ClusterConnection::synced);
        m_session->connectTo(m_kubeconfig, QStringLiteral("nlp-lead"));
        QVERIFY(synced.wait(20000));
        m_page = std::make_unique<QueuesPage>();
        QSignalSpy known(m_page.get(), &QueuesPage::permissionsKnown);
        QSignalSpy done(m_page.get(), &QueuesPage::done);
        m_page->setConnection(m_session.get());
        m_page->show();
        QVERIFY(done.count() > 0 || done.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(m_page->canEdit().has_value(), 20000);
    }

    void clusterQueuesStayReadOnly() {
        QCOMPARE(m_page->canEdit(), std::optional<bool>(false));
        QStandardItem *cq = findItem(m_page->treeModel()->invisibleRootItem(), QStringLiteral("clusterqueue"),
                                     QStringLiteral("cq-nlp"));
        QVERIFY(cq);
        m_page->treeView()->setCurrentIndex(cq->index());
        QVERIFY(!m_page->findChild<QPushButton *>(QStringLiteral("queuesEditYaml"))->isEnabled());
        QCOMPARE(m_page->editYaml(cq->index()), nullptr);
    }

    void otherNamespacesLocalQueueIsReadOnly() {
        QStandardItem *vision = localQueue(QStringLiteral("team-vision/vision"));
        QVERIFY(vision);
        m_page->treeView()->setCurrentIndex(vision->index());
        QTRY_COMPARE_WITH_TIMEOUT(m_page->canEditLocalQueues(QStringLiteral("team-vision")),
                                  std::optional<bool>(false), 10000);
        auto *editYaml = m_page->findChild<QPushButton *>(QStringLiteral("queuesEditYaml"));
        QVERIFY(!editYaml->isEnabled());
        QVERIFY2(editYaml->toolTip().contains(QLatin1String("team-vision")), qPrintable(editYaml->toolTip()));
        QCOMPARE(m_page->editYaml(vision->index()), nullptr);
    }

    void ownLocalQueueIsEditedAndApplied() {
        QStandardItem *nlp = localQueue(QStringLiteral("team-nlp/nlp"));
        QVERIFY(nlp);
        m_page->treeView()->setCurrentIndex(nlp->index());
        QTRY_COMPARE_WITH_TIMEOUT(m_page->canEditLocalQueues(QStringLiteral("team-nlp")),
                                  std::optional<bool>(true), 10000);
        QTRY_VERIFY(m_page->findChild<QPushButton *>(QStringLiteral("queuesEditYaml"))->isEnabled());
        auto *dialog = qobject_cast<QueueYamlDialog *>(m_page->editYaml(nlp->index()));
        QVERIFY(dialog);
        QSignalSpy loaded(dialog, &QueueYamlDialog::loaded);
        QVERIFY(loaded.wait(10000));
        YamlEditor *editor = dialog->editor();
        QString text = editor->yaml();
        QVERIFY2(text.contains(QLatin1String("metadata:\n")) && !text.contains(QLatin1String("annotations:")),
                 qPrintable(text));
        text.replace(QLatin1String("metadata:\n"),
                     QLatin1String("metadata:\n  annotations:\n    example.com/owner: nlp-lead\n"));
        editor->replaceAll(text);
        QVERIFY(editor->validateNow().isEmpty());
        dialog->apply();
        QVERIFY(gq::test::confirmApply(dialog, QStringLiteral("owner of the NLP queue")));
        QTRY_COMPARE_WITH_TIMEOUT(serverLocalQueue(QStringLiteral("team-nlp"), QStringLiteral("nlp"))
                                      .value(QLatin1String("metadata"))
                                      .toObject()
                                      .value(QLatin1String("annotations"))
                                      .toObject()
                                      .value(QLatin1String("example.com/owner"))
                                      .toString(),
                                  QStringLiteral("nlp-lead"), 10000);
        dialog->reject();
    }

    void cleanupTestCase() {
        m_page.reset();
        m_session.reset();
        m_cluster.reset();
    }
};

QTEST_MAIN(TestQueueLocalEdit)
#include "tst_queuelocaledit.moc"
