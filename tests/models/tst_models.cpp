#include "models/audit/auditmodel.h"
#include "models/quotas/limitrangemodel.h"
#include "tests/models/modelsnapshot.h"
#include "models/quotas/namespacelistmodel.h"
#include "models/quotas/objectyaml.h"
#include "models/quotas/quotatablemodel.h"
#include "services/quotas/templatestore.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;
using gq::test::snapshot;

namespace {
Quantity q(const char *text) {
    auto r = Quantity::parse(QString::fromLatin1(text));
    if (!r)
        qFatal("bad quantity %s", text);
    return *r;
}

QuotaUsage quota(const char *name, std::initializer_list<std::pair<const char *, const char *>> hard,
                 std::initializer_list<std::pair<const char *, const char *>> used) {
    QuotaUsage u;
    u.name = QLatin1String(name);
    for (const auto &[k, v] : hard)
        u.hard.insert(QLatin1String(k), q(v));
    for (const auto &[k, v] : used)
        u.used.insert(QLatin1String(k), q(v));
    u.statusHard = u.hard; // enforced: the controller-manager has caught up
    return u;
}

QString lines(std::initializer_list<const char *> l) {
    QStringList out;
    for (const char *s : l)
        out << QString::fromUtf8(s);
    return out.join(QLatin1Char('\n'));
}
} // namespace

class TestModels : public QObject {
    Q_OBJECT
private slots:
    void summaryPicksTightestQuota();
    void summaryWithoutQuota();
    void summaryCountsMigSlicesAsGpus();
    void summaryCountsDraDeviceClassesAsGpus();
    void memoryUsesTiForLargeLimits();
    void namespaceListSnapshotAndUpdates();
    void namespaceFilterAndSort();
    void namespaceFilterScales();
    void quotaTableEditing();
    void quotaTableAddRemoveRevert();
    void quotaTableRejectsBadInput();
    void limitRangeSnapshot();
    void auditSnapshot();
    void auditRowsFromStoredEntries();
    void editableYamlDropsServerFields();
    void templateInstantiatesPerNamespace();
    void templateRejectsOtherKinds();
    void templateSaveNamesAreChecked();
};

void TestModels::summaryPicksTightestQuota() {
    const auto s = NamespaceSummary::fromQuotas(
        QStringLiteral("team-a"),
        {quota("compute", {{"requests.nvidia.com/gpu", "8"}, {"requests.cpu", "32"}},
               {{"requests.nvidia.com/gpu", "2"}}),
         quota("tight", {{"requests.nvidia.com/gpu", "4"}}, {{"requests.nvidia.com/gpu", "2"}})});
    QCOMPARE(s.quotaCount, 2);
    QCOMPARE(s.gpu.hard, std::optional<Quantity>(q("4")));
    QCOMPARE(s.gpu.ratio(), 0.5);
    QCOMPARE(s.cpu.used, Quantity());
    QCOMPARE(s.cpu.hard, std::optional<Quantity>(q("32")));
    QVERIFY(!s.memory.hard);
    QCOMPARE(s.memory.ratio(), -1.0);
    QVERIFY(!s.nearLimit());
}

void TestModels::summaryWithoutQuota() {
    const auto s = NamespaceSummary::fromQuotas(QStringLiteral("free"), {});
    QCOMPARE(s.quotaCount, 0);
    QVERIFY(!s.gpu.hard);
    QVERIFY(!s.nearLimit());
    // A zero limit with use is "over", not a division by zero.
    UsageBar zero{q("1"), q("0"), true};
    QVERIFY(zero.ratio() > 1.0);
}

// DRA: the GPU column counts a GPU device class's quota key; a NIC class is not a GPU.
void TestModels::summaryCountsDraDeviceClassesAsGpus() {
    const auto s = NamespaceSummary::fromQuotas(
        QStringLiteral("dra"), {quota("q",
                                      {{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "4"},
                                       {"rdma.example.com.deviceclass.resource.k8s.io/devices", "1"}},
                                      {{"gpu.nvidia.com.deviceclass.resource.k8s.io/devices", "3"},
                                       {"rdma.example.com.deviceclass.resource.k8s.io/devices", "1"}})});
    QCOMPARE(s.gpu.hard, std::optional<Quantity>(q("4")));
    QCOMPARE(s.gpu.used, q("3"));
    QCOMPARE(s.gpu.resource, QStringLiteral("gpu.nvidia.com.deviceclass.resource.k8s.io/devices"));
}

void TestModels::summaryCountsMigSlicesAsGpus() {
    const auto s = NamespaceSummary::fromQuotas(
        QStringLiteral("platform-ml"),
        {quota("q", {{"requests.nvidia.com/mig-3g.40gb", "14"}, {"requests.cpu", "64"}},
               {{"requests.nvidia.com/mig-3g.40gb", "6"}})});
    QCOMPARE(s.gpu.hard, std::optional<Quantity>(q("14")));
    QCOMPARE(s.gpu.used, q("6"));
    QVERIFY(s.gpu.countsMigSlices());

    // The list says which resource the GPU column counts: in the header while some row
    // counts MIG slices, and in that row's tooltip.
    NamespaceListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto whole = NamespaceSummary::fromQuotas(
        QStringLiteral("team-a"),
        {quota("q", {{"requests.nvidia.com/gpu", "8"}}, {{"requests.nvidia.com/gpu", "2"}})});
    QVERIFY(!whole.gpu.countsMigSlices());
    model.resetAll({whole});
    QCOMPARE(model.headerData(NamespaceListModel::GpuColumn, Qt::Horizontal).toString(),
             QStringLiteral("GPUs"));
    QVERIFY(model.headerData(NamespaceListModel::GpuColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("MIG")));
    QSignalSpy header(&model, &QAbstractItemModel::headerDataChanged);
    model.upsert(s);
    QCOMPARE(header.size(), 1);
    QCOMPARE(model.headerData(NamespaceListModel::GpuColumn, Qt::Horizontal).toString(),
             QStringLiteral("GPUs / MIG"));
    const int mig = model.rowOf(QStringLiteral("platform-ml"));
    QCOMPARE(model.index(mig, NamespaceListModel::GpuColumn).data().toString(), QStringLiteral("6 / 14"));
    QCOMPARE(model.index(mig, NamespaceListModel::GpuColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("Counts MIG slices (requests.nvidia.com/mig-3g.40gb), not whole GPUs: this "
                            "namespace's quota limits only those.\n43% of the limit used"));
    QCOMPARE(model.index(model.rowOf(QStringLiteral("team-a")), NamespaceListModel::GpuColumn)
                 .data(Qt::ToolTipRole)
                 .toString(),
             QStringLiteral("Counts requests.nvidia.com/gpu\n25% of the limit used"));
    model.remove(QStringLiteral("platform-ml"));
    QCOMPARE(header.size(), 2);
    QCOMPARE(model.headerData(NamespaceListModel::GpuColumn, Qt::Horizontal).toString(),
             QStringLiteral("GPUs"));
}

void TestModels::memoryUsesTiForLargeLimits() {
    const Quantity hard = q("2Ti");
    // Each number in a unit that reads without arithmetic (the list printed "0.56 / 2 Ti").
    QCOMPARE(formatUsedOfHard(q("576Gi"), &hard, ResourceKind::Memory), QStringLiteral("576 Gi / 2 Ti"));
    const Quantity oneTi = q("1Ti");
    QCOMPARE(formatUsedOfHard(q("450Gi"), &oneTi, ResourceKind::Memory), QStringLiteral("450 Gi / 1 Ti"));
    QCOMPARE(formatUsedOfHard(q("1536Gi"), &hard, ResourceKind::Memory), QStringLiteral("1.5 / 2 Ti"));
    const Quantity gi = q("128Gi");
    QCOMPARE(formatUsedOfHard(q("48Gi"), &gi, ResourceKind::Memory), QStringLiteral("48 / 128 Gi"));
    QCOMPARE(formatUsedOfHard(q("0"), &hard, ResourceKind::Memory), QStringLiteral("0 Gi / 2 Ti"));
    QCOMPARE(formatQuantity(q("1536Gi"), ResourceKind::Memory), QStringLiteral("1.5 Ti"));
    QCOMPARE(formatQuantity(q("512Mi"), ResourceKind::Memory), QStringLiteral("0.5 Gi"));
    QCOMPARE(formatQuantity(q("1500m"), ResourceKind::Cpu), QStringLiteral("1.5"));
    QCOMPARE(quantityFromEditUnits(1.5, ResourceKind::Memory).toString(), QStringLiteral("1536Mi"));
    QCOMPARE(quantityFromEditUnits(2.25, ResourceKind::Cpu).toString(), QStringLiteral("2250m"));
    QCOMPARE(resourceKind(QStringLiteral("requests.nvidia.com/gpu")), ResourceKind::Gpu);
    QCOMPARE(resourceKind(QStringLiteral("limits.memory")), ResourceKind::Memory);
    QCOMPARE(resourceKind(QStringLiteral("count/pods")), ResourceKind::Count);
}

void TestModels::namespaceListSnapshotAndUpdates() {
    NamespaceListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.resetAll({
        NamespaceSummary::fromQuotas(
            QStringLiteral("team-a"),
            {quota(
                "q", {{"requests.nvidia.com/gpu", "8"}, {"requests.cpu", "32"}, {"requests.memory", "128Gi"}},
                {{"requests.nvidia.com/gpu", "7"}, {"requests.cpu", "4500m"}, {"requests.memory", "48Gi"}})}),
        NamespaceSummary::fromQuotas(QStringLiteral("team-b"), {quota("q", {{"requests.nvidia.com/gpu", "4"}},
                                                                      {{"requests.nvidia.com/gpu", "1"}})}),
        NamespaceSummary::fromQuotas(QStringLiteral("sandbox"), {}),
    });
    QCOMPARE(snapshot(model), lines({
                                  "Namespace | GPUs | CPU (cores) | Memory | Status | Kueue queue",
                                  "team-a | 7 / 8 | 4.5 / 32 | 48 / 128 Gi | near limit | ",
                                  "team-b | 1 / 4 | — | — |  | ",
                                  "sandbox | — | — | — | no quota | ",
                              }));
    QCOMPARE(model.index(0, NamespaceListModel::GpuColumn).data(NamespaceListModel::RatioRole).toDouble(),
             0.875);

    // Kueue's LocalQueues beside the quotas: the column is shown once there are any.
    QVERIFY(!model.hasQueues());
    QSignalSpy shown(&model, &NamespaceListModel::queuesShownChanged);
    NamespaceQueueMap queues;
    queues[QStringLiteral("team-a")] = {
        NamespaceQueue{QStringLiteral("a"), QStringLiteral("cq-train"), 6, 8, 2},
        NamespaceQueue{QStringLiteral("b"), QStringLiteral("cq-infer"), 0, 4, 0}};
    model.setQueues(queues);
    QCOMPARE(shown.size(), 1);
    QVERIFY(model.hasQueues());
    QCOMPARE(model.index(0, NamespaceListModel::QueueColumn).data().toString(),
             QStringLiteral("a → cq-train 6/8, b → cq-infer 0/4"));
    QVERIFY(model.index(0, NamespaceListModel::QueueColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("2 pending")));
    QCOMPARE(model.index(1, NamespaceListModel::QueueColumn).data().toString(), QString());
    model.setQueues({});
    QCOMPARE(shown.size(), 2);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    auto b = model.at(1);
    b.gpu.used = q("4");
    model.upsert(b);
    QCOMPARE(changed.size(), 1);
    model.upsert(b); // unchanged: no signal
    QCOMPARE(changed.size(), 1);

    model.setOverBudget({QStringLiteral("team-b")});
    QCOMPARE(model.index(1, NamespaceListModel::StatusColumn).data().toString(),
             QStringLiteral("over budget, near limit"));

    model.remove(QStringLiteral("team-a"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOf(QStringLiteral("sandbox")), 1);
    model.upsert(NamespaceSummary::fromQuotas(QStringLiteral("new"), {}));
    QCOMPARE(model.rowOf(QStringLiteral("new")), 2);
    model.remove(QStringLiteral("missing"));
    QCOMPARE(model.rowCount(), 3);

    // A namespace being deleted says so first, and why nothing can be edited there.
    NamespaceSummary going = model.at(1);
    going.terminating = true;
    model.upsert(going);
    const QModelIndex status = model.index(1, NamespaceListModel::StatusColumn);
    QCOMPARE(status.data().toString(), QStringLiteral("Terminating, no quota"));
    QVERIFY(status.data(NamespaceListModel::BadgesRole).toInt() & NamespaceListModel::TerminatingBadge);
    QVERIFY(status.data(Qt::ToolTipRole).toString().startsWith(NamespaceListModel::terminatingReason()));

    // A clamp written to spec.hard that status.hard does not show yet: admission still
    // applies the old value, and the list says so until the controller-manager catches up.
    QuotaUsage clamped = quota("gpus", {{"requests.nvidia.com/gpu", "0"}, {"requests.cpu", "8"}}, {});
    clamped.statusHard = {{QStringLiteral("requests.nvidia.com/gpu"), q("4")},
                          {QStringLiteral("requests.cpu"), q("8")}};
    const auto waiting = NamespaceSummary::fromQuotas(QStringLiteral("team-c"), {clamped});
    QCOMPARE(waiting.notEnforced,
             QStringList{QStringLiteral("gpus: requests.nvidia.com/gpu 0 (enforced: 4)")});
    model.upsert(waiting);
    const QModelIndex w =
        model.index(model.rowOf(QStringLiteral("team-c")), NamespaceListModel::StatusColumn);
    QVERIFY(w.data(NamespaceListModel::BadgesRole).toInt() & NamespaceListModel::NotEnforcedBadge);
    QVERIFY2(w.data().toString().contains(QLatin1String("not yet enforced")),
             qPrintable(w.data().toString()));
    QVERIFY(w.data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("requests.nvidia.com/gpu 0 (enforced: 4)")));
    clamped.statusHard = clamped.hard;
    model.upsert(NamespaceSummary::fromQuotas(QStringLiteral("team-c"), {clamped}));
    QVERIFY(!(model.index(model.rowOf(QStringLiteral("team-c")), NamespaceListModel::StatusColumn)
                  .data(NamespaceListModel::BadgesRole)
                  .toInt() &
              NamespaceListModel::NotEnforcedBadge));
    // A new quota without any status yet is not enforced either (admission refuses pods
    // with "status unknown" until it has one).
    QuotaUsage fresh = quota("new", {{"requests.nvidia.com/gpu", "2"}}, {});
    fresh.statusHard.clear();
    QCOMPARE(NamespaceSummary::fromQuotas(QStringLiteral("x"), {fresh}).notEnforced.size(), 1);
}

void TestModels::namespaceFilterAndSort() {
    NamespaceListModel model;
    NamespaceFilterModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QList<NamespaceSummary> rows;
    const char *names[] = {"ml-research", "team-a", "team-b", "ml-prod"};
    const char *used[] = {"1", "6", "3", "8"};
    for (int i = 0; i < 4; ++i)
        rows << NamespaceSummary::fromQuotas(
            QLatin1String(names[i]),
            {quota("q", {{"requests.nvidia.com/gpu", "8"}}, {{"requests.nvidia.com/gpu", used[i]}})});
    model.resetAll(rows);

    proxy.sort(NamespaceListModel::GpuColumn, Qt::DescendingOrder);
    QCOMPARE(snapshot(proxy), lines({
                                  "Namespace | GPUs | CPU (cores) | Memory | Status | Kueue queue",
                                  "ml-prod | 8 / 8 | — | — | near limit | ",
                                  "team-a | 6 / 8 | — | — |  | ",
                                  "team-b | 3 / 8 | — | — |  | ",
                                  "ml-research | 1 / 8 | — | — |  | ",
                              }));
    proxy.setNameFilter(QStringLiteral("ML"));
    QCOMPARE(proxy.rowCount(), 2);
    proxy.sort(NamespaceListModel::NameColumn, Qt::AscendingOrder);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("ml-prod"));

    // A watch update re-sorts and re-filters live.
    model.upsert(NamespaceSummary::fromQuotas(QStringLiteral("ml-aaa"), {}));
    QCOMPARE(proxy.rowCount(), 3);
    QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("ml-aaa"));
    proxy.setNameFilter(QString());
    QCOMPARE(proxy.rowCount(), 5);

    // A namespace's alert recipients (its gpuquota.io/alert-recipients annotation) are
    // named in the tooltip of its name; without them the name has no tooltip.
    NamespaceSummary alerted = NamespaceSummary::fromQuotas(QStringLiteral("ml-aaa"), {});
    alerted.alertRecipients = QStringLiteral("lead@example.org,  ops@example.org");
    model.upsert(alerted);
    int tips = 0;
    for (int r = 0; r < proxy.rowCount(); ++r) {
        const QModelIndex name = proxy.index(r, NamespaceListModel::NameColumn);
        const QVariant tip = name.data(Qt::ToolTipRole);
        if (name.data().toString() == QLatin1String("ml-aaa")) {
            QCOMPARE(tip.toString(), QStringLiteral("Alerts go to: lead@example.org, ops@example.org"));
            ++tips;
        } else {
            QVERIFY(!tip.isValid());
        }
    }
    QCOMPARE(tips, 1);
}

void TestModels::namespaceFilterScales() {
    NamespaceListModel model;
    NamespaceFilterModel proxy;
    proxy.setSourceModel(&model);
    QList<NamespaceSummary> rows;
    rows.reserve(20000);
    for (int i = 0; i < 20000; ++i) {
        NamespaceSummary s;
        s.name = QStringLiteral("team-%1").arg(i, 5, 10, QLatin1Char('0'));
        s.gpu = UsageBar{Quantity::fromInt(i % 9), Quantity::fromInt(8), true};
        s.quotaCount = 1;
        rows << s;
    }
    model.resetAll(rows);
    proxy.sort(NamespaceListModel::GpuColumn, Qt::DescendingOrder);
    proxy.setNameFilter(QStringLiteral("team-1999"));
    QCOMPARE(proxy.rowCount(), 10); // team-19990 .. team-19999
}

void TestModels::quotaTableEditing() {
    QuotaTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load({{QStringLiteral("requests.nvidia.com/gpu"), q("8")},
                {QStringLiteral("requests.cpu"), q("32")},
                {QStringLiteral("requests.memory"), q("128Gi")},
                {QStringLiteral("count/pods"), q("50")}},
               {{QStringLiteral("requests.nvidia.com/gpu"), q("6")},
                {QStringLiteral("requests.cpu"), q("4500m")},
                {QStringLiteral("requests.memory"), q("64Gi")}});
    QCOMPARE(snapshot(model), lines({
                                  "Resource | Used | Hard limit | Usage",
                                  "count/pods |  | 50 | 0%",
                                  "requests.cpu | 4.5 | 32 | 14%",
                                  "requests.memory | 64 Gi | 128 Gi | 50%",
                                  "requests.nvidia.com/gpu | 6 | 8 | 75%",
                              }));
    QVERIFY(!model.isDirty());
    QSignalSpy dirty(&model, &QuotaTableModel::dirtyChanged);

    const QModelIndex gpuHard = model.index(3, QuotaTableModel::HardColumn);
    QVERIFY(model.flags(gpuHard) & Qt::ItemIsEditable);
    QVERIFY(!(model.flags(model.index(3, QuotaTableModel::UsedColumn)) & Qt::ItemIsEditable));
    QVERIFY(model.setData(gpuHard, QStringLiteral("4")));
    QCOMPARE(dirty.size(), 1);
    QVERIFY(model.isDirty());
    QCOMPARE(gpuHard.data().toString(), QStringLiteral("4 (was 8)"));
    QVERIFY(gpuHard.data(QuotaTableModel::BelowUsedRole).toBool());
    QVERIFY(gpuHard.data(Qt::ToolTipRole).toString().contains(QStringLiteral("new ones will be rejected")));
    QCOMPARE(model.resourcesBelowUsed(), QStringList{QStringLiteral("requests.nvidia.com/gpu")});
    QCOMPARE(model.editedHard().value(QStringLiteral("requests.nvidia.com/gpu")), q("4"));
    QCOMPARE(model.originalHard().value(QStringLiteral("requests.nvidia.com/gpu")), q("8"));

    // Setting it back clears the pending state.
    QVERIFY(model.setData(gpuHard, QVariant::fromValue(q("8"))));
    QVERIFY(!model.isDirty());
    QCOMPARE(dirty.size(), 2);

    // used moves on while an edit is pending; the edit stays.
    QVERIFY(model.setHard(1, q("40")));
    model.updateUsed({{QStringLiteral("requests.cpu"), q("10")}});
    QCOMPARE(model.row(1).hard, q("40"));
    QCOMPARE(model.row(1).used, std::optional<Quantity>(q("10")));
    QVERIFY(!model.row(3).used);

    model.setEditable(false);
    QVERIFY(!(model.flags(gpuHard) & Qt::ItemIsEditable));
    QVERIFY(!model.setData(gpuHard, QStringLiteral("2")));
}

void TestModels::quotaTableAddRemoveRevert() {
    QuotaTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.load(
        {{QStringLiteral("requests.nvidia.com/gpu"), q("8")}, {QStringLiteral("requests.cpu"), q("32")}}, {});
    QVERIFY(model.addResource(QStringLiteral("limits.memory"), q("64Gi")));
    QVERIFY(!model.addResource(QStringLiteral("requests.cpu"), q("1")));
    QCOMPARE(model.rowOf(QStringLiteral("limits.memory")), 0);
    model.removeResource(model.rowOf(QStringLiteral("requests.cpu")));
    QCOMPARE(snapshot(model), lines({
                                  "Resource | Used | Hard limit | Usage",
                                  "limits.memory |  | 64 Gi | 0%",
                                  "requests.cpu |  | 32 | removed",
                                  "requests.nvidia.com/gpu |  | 8 | 0%",
                              }));
    const auto edited = model.editedHard();
    QCOMPARE(edited.keys(),
             (QStringList{QStringLiteral("limits.memory"), QStringLiteral("requests.nvidia.com/gpu")}));
    model.removeResource(0); // only added locally: the row goes away
    QCOMPARE(model.rowCount(), 2);
    model.revert();
    QVERIFY(!model.isDirty());
    QCOMPARE(model.editedHard(), model.originalHard());
}

void TestModels::quotaTableRejectsBadInput() {
    QuotaTableModel model;
    model.load({{QStringLiteral("requests.nvidia.com/gpu"), q("8")}}, {});
    const QModelIndex idx = model.index(0, QuotaTableModel::HardColumn);
    QVERIFY(!model.setData(idx, QStringLiteral("8Gb")));
    QVERIFY(!model.setData(idx, QStringLiteral("-1")));
    QVERIFY(!model.setData(model.index(0, QuotaTableModel::UsedColumn), QStringLiteral("1")));
    QVERIFY(!model.isDirty());
}

void TestModels::limitRangeSnapshot() {
    LimitRangeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows({{QStringLiteral("defaults"), QStringLiteral("Container"), QStringLiteral("cpu"),
                    QStringLiteral("100m"), QStringLiteral("8"), QStringLiteral("1"), QStringLiteral("500m"),
                    QString()},
                   {QStringLiteral("defaults"), QStringLiteral("Container"), QStringLiteral("nvidia.com/gpu"),
                    QString(), QStringLiteral("4"), QString(), QString(), QString()}});
    QCOMPARE(
        snapshot(model),
        lines({"Name | Type | Resource | Min | Max | Default request | Default limit | Max limit/request",
               "defaults | Container | cpu | 100m | 8 | 500m | 1 | ",
               "defaults | Container | nvidia.com/gpu |  | 4 |  |  | "}));
    model.setRows({});
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::auditSnapshot() {
    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    AuditRow a;
    a.when = QDateTime(QDate(2026, 11, 30), QTime(8, 0), Qt::UTC);
    a.actor = QStringLiteral("admin");
    a.namespaceName = QStringLiteral("team-a");
    a.object = QStringLiteral("ResourceQuota/compute");
    a.action = QStringLiteral("update");
    a.diff = QStringLiteral("-  requests.nvidia.com/gpu: \"8\"\n+  requests.nvidia.com/gpu: \"4\"");
    a.note = QStringLiteral("rebalancing");
    model.setEntries({a});
    AuditRow b = a;
    b.when = b.when.addSecs(60);
    b.note.clear();
    model.prepend(b);
    QCOMPARE(
        snapshot(model),
        lines({"When | Who | Namespace | Object | Action | Note",
               "2026-11-30 08:01:00 UTC | admin | team-a | ResourceQuota/compute | update | ",
               "2026-11-30 08:00:00 UTC | admin | team-a | ResourceQuota/compute | update | rebalancing"}));
    QCOMPARE(model.index(1, 0).data(AuditModel::DiffRole).toString(), a.diff);
}

// What the audit log stored becomes the Audit tab's rows: a spec diff for two
// versions of a quota, the texts otherwise; a load is formatted off the GUI thread
// and an entry appended meanwhile lands on top of it.
void TestModels::auditRowsFromStoredEntries() {
    AuditEntry quota;
    quota.at = QDateTime(QDate(2026, 11, 30), QTime(8, 0), Qt::UTC).toSecsSinceEpoch();
    quota.actor = QStringLiteral("admin");
    quota.action = QStringLiteral("quota.apply");
    quota.target = QStringLiteral("team-a/ResourceQuota/compute");
    quota.before = QStringLiteral("spec:\n  hard:\n    requests.nvidia.com/gpu: \"8\"\n");
    quota.after = QStringLiteral("spec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n");
    quota.note = QStringLiteral("rebalancing");
    const AuditRow row = AuditModel::rowFromEntry(quota);
    QCOMPARE(row.namespaceName, QStringLiteral("team-a"));
    QCOMPARE(row.object, QStringLiteral("ResourceQuota/compute"));
    QCOMPARE(row.when, QDateTime(QDate(2026, 11, 30), QTime(8, 0), Qt::UTC));
    QVERIFY2(row.diff.contains(QStringLiteral("requests.nvidia.com/gpu")) &&
                 row.diff.contains(QStringLiteral("8")) && row.diff.contains(QStringLiteral("4")) &&
                 !row.diff.contains(QStringLiteral("--- before")),
             qPrintable(row.diff));

    AuditEntry other;
    other.at = quota.at + 60;
    other.actor = QStringLiteral("cli");
    other.action = QStringLiteral("budget.set");
    other.target = QStringLiteral("budget/user/alice");
    other.before = QStringLiteral("10");
    other.after = QStringLiteral("12");
    const AuditRow plain = AuditModel::rowFromEntry(other);
    QCOMPARE(plain.namespaceName, QString()); // a user's budget belongs to no namespace
    QCOMPARE(plain.diff, QStringLiteral("--- before\n10\n+++ after\n12"));

    AuditModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.loadEntries({quota});
    AuditEntry later = other;
    later.at += 60;
    model.prependEntry(later); // before the load is shown
    QCOMPARE(model.rowCount(), 0);
    QTRY_COMPARE(model.rowCount(), 2);
    QCOMPARE(model.at(0).actor, QStringLiteral("cli"));
    QCOMPARE(model.at(1).note, QStringLiteral("rebalancing"));
    model.prependEntry(other);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.at(0).when, QDateTime::fromSecsSinceEpoch(other.at, Qt::UTC));
}

void TestModels::editableYamlDropsServerFields() {
    const QJsonObject server{
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("gpu-quota")},
                                                 {QStringLiteral("namespace"), QStringLiteral("team-a")},
                                                 {QStringLiteral("resourceVersion"), QStringLiteral("42")},
                                                 {QStringLiteral("uid"), QStringLiteral("u-1")},
                                                 {QStringLiteral("managedFields"), QJsonArray{}}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("hard"),
                      QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("8")}}}}},
        {QStringLiteral("status"), QJsonObject{{QStringLiteral("used"), QJsonObject{}}}}};
    QCOMPARE(resourceVersionOf(server), QStringLiteral("42"));
    QCOMPARE(editableYaml(server, QStringLiteral("ResourceQuota")),
             lines({"apiVersion: v1", "kind: ResourceQuota", "metadata:", "  name: gpu-quota",
                    "  namespace: team-a", "spec:", "  hard:", "    requests.nvidia.com/gpu: \"8\"", ""}));
}

void TestModels::templateInstantiatesPerNamespace() {
    const QString yaml =
        QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n"
                       "    requests.nvidia.com/gpu: \"2\"\n---\napiVersion: v1\nkind: LimitRange\n"
                       "metadata:\n  name: d\nspec:\n  limits: []\n");
    auto objs = TemplateStore::instantiate(yaml, QStringLiteral("team-z"));
    QVERIFY2(objs, qPrintable(objs ? QString() : objs.error().message));
    QCOMPARE(objs->size(), 2);
    QCOMPARE(objs->at(0)
                 .value(QStringLiteral("metadata"))
                 .toObject()
                 .value(QStringLiteral("namespace"))
                 .toString(),
             QStringLiteral("team-z"));
    QCOMPARE(objs->at(1).value(QStringLiteral("kind")).toString(), QStringLiteral("LimitRange"));
}

void TestModels::templateRejectsOtherKinds() {
    auto objs = TemplateStore::instantiate(
        QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"), QStringLiteral("ns"));
    QVERIFY(!objs);
    QCOMPARE(objs.error().field, QStringLiteral("kind"));
    QVERIFY(objs.error().message.contains(QStringLiteral("Pod")));
    QVERIFY(!TemplateStore::instantiate(QStringLiteral("a: [unclosed"), QStringLiteral("ns")));
}

void TestModels::templateSaveNamesAreChecked() {
    QTemporaryDir dir;
    TemplateStore store(dir.path());
    QVERIFY(!store.save(QStringLiteral("../evil"), QStringLiteral("a: 1")));
    QVERIFY(!store.save(QStringLiteral("ok"), QStringLiteral("a: [unclosed")));
    QVERIFY(store.save(QStringLiteral("gpu-heavy"), QStringLiteral("kind: ResourceQuota\n")));
    bool found = false;
    for (const QuotaTemplate &t : store.templates())
        found = found || (t.name == QStringLiteral("gpu-heavy") && !t.builtIn);
    QVERIFY(found);
}

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
