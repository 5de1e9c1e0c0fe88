// The console window (offscreen) against the real kube-apiserver: its informers sync
// namespaces, quotas and limit ranges from the real watch cache, an edit in the quota
// table goes through server dry run -> diff -> apply with its resourceVersion, a
// concurrent kubectl change opens the conflict view, and a user whose RBAC covers one
// namespace only still gets a working console for what they may read.
#include "widgets/editor/applyconfirmdialog.h"
#include "widgets/editor/conflictdialog.h"
#include "widgets/common/errorbanner.h"
#include "tests/gui/consolefixture.h"
#include "tests/gui/guitestutil.h"
#include "app/console/mainwindow.h"
#include "models/quotas/namespacelistmodel.h"
#include "widgets/quotas/namespacepanel.h"
#include "widgets/quotas/quotapage.h"
#include "models/quotas/quotatablemodel.h"
#include "tests/realcluster/realcluster.h"

#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace gq;
using namespace gq::test;

namespace {
const QString kGpu = QStringLiteral("requests.nvidia.com/gpu");
}

class TestRealClusterConsole : public QObject {
    Q_OBJECT

    RealCluster m_cluster;
    ConsoleFixture m_fx;
    MainWindow *m_window = nullptr;

    template <typename T> T *find(const QString &name) { return m_fx.find<T>(name); }
    QString serverGpuHard(const QString &ns) {
        return QString::fromUtf8(
            m_cluster
                .kubectl({QStringLiteral("get"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                          QStringLiteral("-n"), ns, QStringLiteral("-o"),
                          QStringLiteral("jsonpath={.spec.hard.requests\\.nvidia\\.com/gpu}")})
                .out);
    }
    void seed(const QString &ns, int gpus) {
        QVERIFY(m_cluster.createNamespace(ns));
        const ToolRun r = m_cluster.apply(
            QStringLiteral(
                "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpu-quota, namespace: %1}\n"
                "spec:\n  hard: {requests.nvidia.com/gpu: \"%2\", requests.cpu: \"64\"}\n"
                "---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: container-defaults, namespace: %1}\n"
                "spec:\n  limits:\n  - type: Container\n    default: {cpu: \"1\"}\n"
                "    defaultRequest: {cpu: 500m}\n")
                .arg(ns)
                .arg(gpus)
                .toUtf8());
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    void selectNamespace(const QString &ns) {
        auto *panel = m_window->namespacePanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->selectNamespace(ns), 20000);
        QCOMPARE(panel->currentNamespace(), ns);
        QTRY_COMPARE_WITH_TIMEOUT(m_window->quotaPage()->currentObject(), QStringLiteral("gpu-quota"), 20000);
    }
    QString gpuCell(const QString &ns) {
        auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
        const int row = rowWithText(view->model(), NamespaceListModel::NameColumn, ns);
        return row < 0 ? QString()
                       : view->model()->index(row, NamespaceListModel::GpuColumn).data().toString();
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_START_REAL_CLUSTER(m_cluster);
        seed(QStringLiteral("team-a"), 8);
        seed(QStringLiteral("team-b"), 16);
        const ToolRun pod = m_cluster.apply(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: train, namespace: team-a, labels: "
            "{gpuquota.io/user: alice}}\n"
            "spec:\n  containers:\n  - name: main\n    image: cuda\n    resources:\n"
            "      requests: {cpu: \"1\"}\n      limits: {cpu: \"1\", nvidia.com/gpu: \"2\"}\n");
        QVERIFY2(pod.exitCode == 0, pod.err.constData());
        ConsoleFixture::WindowOptions options;
        options.kubeconfig = m_cluster.kubeconfigPath();
        options.usageDb = true;
        options.timeoutMs = 60000;
        const QString err = m_fx.openWindow(options);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        m_window = m_fx.window.get();
    }
    void cleanupTestCase() {
        m_window = nullptr;
        m_fx.stop();
    }

    // Namespaces, quotas (with the status kube-controller-manager fills) and the pod's GPUs.
    void informersSyncFromTheRealServer() {
        QTRY_COMPARE_WITH_TIMEOUT(gpuCell(QStringLiteral("team-a")), QStringLiteral("2 / 8"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(gpuCell(QStringLiteral("team-b")), QStringLiteral("0 / 16"), 60000);
        auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
        QVERIFY(rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("kube-system")) >=
                0);
        selectNamespace(QStringLiteral("team-a"));
        auto *table = find<QTableView>(QStringLiteral("quotaTable"));
        QVERIFY(rowWithText(table->model(), QuotaTableModel::ResourceColumn, kGpu) >= 0);
        QVERIFY(rowWithText(table->model(), QuotaTableModel::ResourceColumn,
                            QStringLiteral("requests.cpu")) >= 0);
    }

    // A quota Argo CD applies (server-side, its field manager in managedFields): the editor
    // says a change of its GPU key is reverted on the next sync, and that the bare
    // nvidia.com/gpu key limits nothing (quota never counts it) instead of "used 0".
    void otherOwnerAndIgnoredKeysInTheEditor() {
        const QString ns = QStringLiteral("team-git");
        QVERIFY(m_cluster.createNamespace(ns));
        const QString f = writeFile(
            QDir(m_cluster.temporaryDir()).filePath(QStringLiteral("argo-quota.yaml")),
            "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: gpu-quota, namespace: team-git}\n"
            "spec:\n  hard: {requests.nvidia.com/gpu: \"8\", nvidia.com/gpu: \"8\"}\n");
        const ToolRun r =
            m_cluster.kubectl({QStringLiteral("apply"), QStringLiteral("--server-side"),
                               QStringLiteral("--field-manager=argocd-controller"), QStringLiteral("-f"), f});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        selectNamespace(ns);
        auto *warning = find<QLabel>(QStringLiteral("quotaWarning"));
        QVERIFY(warning);
        QTRY_VERIFY_WITH_TIMEOUT(warning->text().contains(QLatin1String(
                                     "requests.nvidia.com/gpu is managed by argocd-controller: your change "
                                     "will be reverted on its next sync")),
                                 20000);
        QVERIFY2(warning->text().contains(QLatin1String("Not counted by quota: nvidia.com/gpu")),
                 qPrintable(warning->text()));
        QVERIFY(!warning->isHidden());
        auto *model = m_window->quotaPage()->model();
        const int bare = model->rowOf(QStringLiteral("nvidia.com/gpu"));
        QVERIFY(bare >= 0);
        QCOMPARE(model->index(bare, QuotaTableModel::UsedColumn).data().toString(),
                 QStringLiteral("not counted"));
    }

    void editGoesThroughDryRunDiffAndApply() {
        selectNamespace(QStringLiteral("team-b"));
        auto *table = find<QTableView>(QStringLiteral("quotaTable"));
        const int row = rowWithText(table->model(), QuotaTableModel::ResourceColumn, kGpu);
        QVERIFY(row >= 0);
        const QModelIndex hard = table->model()->index(row, QuotaTableModel::HardColumn);
        QTRY_VERIFY_WITH_TIMEOUT(hard.flags() & Qt::ItemIsEditable, 20000); // permissions from the real RBAC
        table->setCurrentIndex(hard);
        table->edit(hard);
        QSpinBox *spin = nullptr;
        QTRY_VERIFY((spin = table->findChild<QSpinBox *>(QStringLiteral("hardLimitSpinBox"))) != nullptr);
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("20"));
        QTest::keyClick(spin, Qt::Key_Return);
        QTRY_VERIFY(m_window->quotaPage()->model()->isDirty());
        QTest::mouseClick(find<QPushButton>(QStringLiteral("applyButton")), Qt::LeftButton);
        ApplyConfirmDialog *confirm = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((confirm = visibleDialog<ApplyConfirmDialog>()) != nullptr, 20000);
        QCOMPARE(serverGpuHard(QStringLiteral("team-b")), QStringLiteral("16")); // dry run only so far
        QTest::keyClicks(confirm->findChild<QLineEdit *>(QStringLiteral("applyNote")),
                         QStringLiteral("real cluster"));
        QTest::mouseClick(confirm->findChild<QPushButton *>(QStringLiteral("confirmApplyButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(serverGpuHard(QStringLiteral("team-b")), QStringLiteral("20"), 20000);
        QTRY_VERIFY(!m_window->quotaPage()->model()->isDirty());
        QTRY_COMPARE_WITH_TIMEOUT(gpuCell(QStringLiteral("team-b")), QStringLiteral("0 / 20"), 60000);
    }

    void concurrentKubectlEditOpensTheConflictView() {
        selectNamespace(QStringLiteral("team-a"));
        auto *page = m_window->quotaPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->model()->flags(page->model()->index(0, QuotaTableModel::HardColumn)) &
                                     Qt::ItemIsEditable,
                                 20000);
        auto *plus = find<QToolButton>(QStringLiteral("gpuPlusButton"));
        QTest::mouseClick(plus, Qt::LeftButton);
        QTRY_VERIFY(page->model()->isDirty());
        const ToolRun k = m_cluster.kubectl(
            {QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
             QStringLiteral("-n"), QStringLiteral("team-a"), QStringLiteral("--type=merge"),
             QStringLiteral("-p"), QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"6"}}})")});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        ConflictDialog *conflict = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (conflict = visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog"))) != nullptr, 20000);
        QCOMPARE(serverGpuHard(QStringLiteral("team-a")), QStringLiteral("6"));
        QVERIFY(page->hasPendingEdit());
        conflict->discardMine();
        QTRY_VERIFY(!visibleDialog<ConflictDialog>(QStringLiteral("conflictDialog")));
        QTRY_COMPARE(page->model()->row(page->model()->rowOf(kGpu)).hard, Quantity::fromInt(6));
    }

    // While kube-controller-manager is stopped, a new GPU limit stays in spec.hard only:
    // quota admission goes on applying the old one, and the list says "not yet enforced"
    // until the controller-manager is back and copies it to status.hard.
    void limitNotYetEnforcedWhileTheControllerManagerIsDown() {
        const QString before = serverGpuHard(QStringLiteral("team-b"));
        const QString lower = QString::number(before.toInt() - 2);
        QVERIFY(m_cluster.signalComponent(QStringLiteral("kube-controller-manager"), SIGSTOP));
        auto resume = qScopeGuard(
            [this] { m_cluster.signalComponent(QStringLiteral("kube-controller-manager"), SIGCONT); });
        const ToolRun k = m_cluster.kubectl(
            {QStringLiteral("patch"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
             QStringLiteral("-n"), QStringLiteral("team-b"), QStringLiteral("--type=merge"),
             QStringLiteral("-p"),
             QStringLiteral(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"%1"}}})").arg(lower)});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        auto *view = find<QTreeView>(QStringLiteral("namespaceView"));
        const auto status = [&] {
            return view->model()->index(
                rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("team-b")),
                NamespaceListModel::StatusColumn);
        };
        QTRY_VERIFY_WITH_TIMEOUT(status().data(NamespaceListModel::BadgesRole).toInt() &
                                     NamespaceListModel::NotEnforcedBadge,
                                 20000);
        const QString tip = status().data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("requests.nvidia.com/gpu %1 (enforced: %2)").arg(lower, before)),
                 qPrintable(tip));
        resume.dismiss();
        m_cluster.signalComponent(QStringLiteral("kube-controller-manager"), SIGCONT);
        QTRY_VERIFY_WITH_TIMEOUT(
            !(status().data(NamespaceListModel::BadgesRole).toInt() & NamespaceListModel::NotEnforcedBadge),
            60000);
    }

    // alice may administer team-a only (a RoleBinding): the cluster-wide lists are 403,
    // so the console watches her context's namespace, says so, and works there; the
    // admin role does not let her change quotas, so editing is off with the reason.
    void userWithNamespaceRightsOnly() {
        const ToolRun bind = m_cluster.kubectl(
            {QStringLiteral("create"), QStringLiteral("rolebinding"), QStringLiteral("alice-admin"),
             QStringLiteral("--clusterrole=admin"), QStringLiteral("--user=alice@example.com"),
             QStringLiteral("-n"), QStringLiteral("team-a")});
        QVERIFY2(bind.exitCode == 0, bind.err.constData());
        const QString kubeconfig =
            m_cluster.kubeconfigFor(QStringLiteral("t-alice"), QStringLiteral("alice"));
        QCOMPARE(runTool(QStringLiteral("kubectl"),
                         {QStringLiteral("--kubeconfig"), kubeconfig, QStringLiteral("config"),
                          QStringLiteral("set-context"), QStringLiteral("alice"),
                          QStringLiteral("--namespace=team-a")})
                     .exitCode,
                 0);
        ConsoleFixture alice;
        ConsoleFixture::WindowOptions options;
        options.kubeconfig = kubeconfig;
        options.context = QStringLiteral("alice");
        options.timeoutMs = 60000;
        const QString err = alice.openWindow(options);
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE(alice.window->session()->narrowedTo(), QStringList{QStringLiteral("team-a")});
        auto *view = alice.find<QTreeView>(QStringLiteral("namespaceView"));
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 1, 20000);
        const int row = rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("team-a"));
        QVERIFY(row >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->index(row, NamespaceListModel::GpuColumn).data().toString(),
                                  QStringLiteral("2 / ") + serverGpuHard(QStringLiteral("team-a")), 30000);
        auto *banner = alice.find<MessageBanner>(QStringLiteral("scopeBanner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().contains(QLatin1String("team-a")) &&
                     banner->text().contains(QLatin1String("forbidden")),
                 qPrintable(banner->text()));
        auto *panel = alice.window->namespacePanel();
        QVERIFY(panel->selectNamespace(QStringLiteral("team-a")));
        QTRY_COMPARE_WITH_TIMEOUT(alice.window->quotaPage()->currentObject(), QStringLiteral("gpu-quota"),
                                  20000);
        QTRY_VERIFY_WITH_TIMEOUT(alice.window->session()->permissions(QStringLiteral("team-a")).known, 20000);
        auto *page = alice.window->quotaPage();
        QVERIFY(!(page->model()->flags(page->model()->index(0, QuotaTableModel::HardColumn)) &
                  Qt::ItemIsEditable));
        QCOMPARE(alice.window->session()->state(), ClusterConnection::State::Live);
        if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(
                alice.window->grab().save(QDir(dir).filePath(QStringLiteral("realcluster-narrow-rbac.png"))));
        alice.stop();
    }
};

QTEST_MAIN(TestRealClusterConsole)
#include "tst_realcluster_console.moc"
