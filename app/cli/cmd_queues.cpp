// `gpuquota queues` and `gpuquota workloads`: Kueue's ClusterQueues with their GPU quota
// per flavor (nominal, limits, reserved, used, borrowed, lent, pending) and its Workloads
// with the reason a pending one waits, read through the cluster's API server at the
// kueue.x-k8s.io version discovery offers (core/kueue).
#include "app/cli/clioutput.h"
#include "core/domain/clock.h"
#include "core/kube/kubeclient.h"
#include "core/kueue/kueuereader.h"
#include "app/cli/queuegrouping.h"
#include "app/cli/usageverbs.h"
#include "app/cli/verbs.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {
namespace {

using namespace usageverbs;
using namespace gq::kueue;

const char kQueuesHelp[] =
    "Shows Kueue's ClusterQueues with their GPU quota, one line per flavor and GPU resource:\n"
    "cohort, nominal quota, borrowing and lending limits (- when unset), GPUs reserved now\n"
    "(status.flavorsReservation) and used by admitted workloads (status.flavorsUsage), borrowed\n"
    "from the cohort, lent to it (an estimate: Kueue records what a queue borrows, not from whom)\n"
    "and the queue's pending workloads. The kueue.x-k8s.io version is the newest the API server\n"
    "serves of v1beta2 and v1beta1.\n"
    "  -o, --output F   table (default) or json: api_version, cohorts (name, parent, children,\n"
    "                   clusterqueues) and clusterqueues (name, cohort, local_queues, pending,\n"
    "                   admitted, flavors: flavor, resource, nominal, borrowing_limit,\n"
    "                   lending_limit, reserved, used, borrowed, lent)\n"
    "  --kubeconfig F, --context C   the cluster\n"
    "Exit codes: 0 read, 1 Kueue is not installed or could not be read, 2 usage.\n";

const char kWorkloadsHelp[] =
    "Shows Kueue's Workloads: pending ones first, in the order Kueue tries them (higher priority,\n"
    "then older), with the reason Kueue gives (the QuotaReserved condition's message), then the\n"
    "ones holding quota with their GPUs, flavor and age.\n"
    "  --namespace N    one namespace (default: all)\n"
    "  --pending        pending workloads only\n"
    "  -o, --output F   table (default) or json: one object per workload with namespace, name,\n"
    "                   local_queue, cluster_queue, state (pending, reserved, admitted), position\n"
    "                   (pending: 1 is tried first within its ClusterQueue), priority, gpus,\n"
    "                   flavors, age_seconds, reason\n"
    "  --kubeconfig F, --context C   the cluster\n"
    "Exit codes: 0 read, 1 Kueue is not installed or could not be read, 2 usage.\n";

QJsonValue optionalNumber(const std::optional<qint64> &v) {
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QString optionalCell(const std::optional<qint64> &v) {
    return v ? QString::number(*v) : QStringLiteral("-");
}

QString ageText(qint64 ms, qint64 nowMs) {
    if (ms <= 0)
        return QStringLiteral("-");
    const qint64 s = std::max<qint64>(0, (nowMs - ms) / 1000);
    if (s < 120)
        return QStringLiteral("%1s").arg(s);
    if (s < 2 * 3600)
        return QStringLiteral("%1m").arg(s / 60);
    if (s < 2 * 86400)
        return QStringLiteral("%1h").arg(s / 3600);
    return QStringLiteral("%1d").arg(s / 86400);
}

Result<Snapshot> readFromCluster(const Args &a, const QString &ns) {
    auto client = kueueCluster(a);
    if (!client)
        return client.error();
    return readSnapshot(**client, ns);
}

// The flags (-o, the cluster, `extra`), then the snapshot; a usage error is kind Usage.
// `nsFlag` names the flag that limits the read to a namespace (its value into *ns).
Result<Snapshot> readFor(const QStringList &argv, QStringList extra, const QString &nsFlag, QString &format,
                         QString *ns = nullptr) {
    const Args a = parseArgs(argv, extra << QStringLiteral("output"));
    if (!a.error.isEmpty())
        return Error::make(Error::Kind::Usage, a.error);
    if (!a.positional.isEmpty())
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("unexpected argument %1").arg(a.positional.first()));
    format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("-o: expected table or json, not %1").arg(format));
    const QString limit = nsFlag.isEmpty() ? QString() : a.value(nsFlag);
    if (ns)
        *ns = limit;
    return readFromCluster(a, limit);
}

QJsonObject queuesJson(const Snapshot &s) {
    QJsonArray cohorts;
    for (const CohortNode &n : cohortTree(s))
        cohorts.append(QJsonObject{
            {QStringLiteral("name"), n.cohort.name},
            {QStringLiteral("parent"), n.cohort.parent.isEmpty() ? QJsonValue() : n.cohort.parent},
            {QStringLiteral("implicit"), n.cohort.implicit},
            {QStringLiteral("children"), QJsonArray::fromStringList(n.children)},
            {QStringLiteral("clusterqueues"), QJsonArray::fromStringList(n.clusterQueues)}});
    const std::vector<GpuRow> rows = gpuRows(s);
    QJsonArray queues;
    for (const ClusterQueue &cq : s.clusterQueues) {
        QJsonArray flavors;
        int pending = cq.pendingWorkloads;
        for (const GpuRow &r : rows) {
            if (r.clusterQueue != cq.name)
                continue;
            pending = r.pending;
            flavors.append(QJsonObject{{QStringLiteral("flavor"), r.flavor},
                                       {QStringLiteral("resource"), r.resource},
                                       {QStringLiteral("nominal"), double(r.nominal)},
                                       {QStringLiteral("borrowing_limit"), optionalNumber(r.borrowingLimit)},
                                       {QStringLiteral("lending_limit"), optionalNumber(r.lendingLimit)},
                                       {QStringLiteral("reserved"), double(r.reserved)},
                                       {QStringLiteral("used"), double(r.used)},
                                       {QStringLiteral("borrowed"), double(r.borrowed)},
                                       {QStringLiteral("lent"), double(r.lent)}});
        }
        QJsonArray localQueues;
        for (const LocalQueue &lq : s.localQueues)
            if (lq.clusterQueue == cq.name)
                localQueues.append(
                    QJsonObject{{QStringLiteral("namespace"), lq.ns}, {QStringLiteral("name"), lq.name}});
        queues.append(QJsonObject{{QStringLiteral("name"), cq.name},
                                  {QStringLiteral("cohort"), cq.cohort.isEmpty() ? QJsonValue() : cq.cohort},
                                  {QStringLiteral("local_queues"), localQueues},
                                  {QStringLiteral("pending"), pending},
                                  {QStringLiteral("admitted"), cq.admittedWorkloads},
                                  {QStringLiteral("flavors"), flavors}});
    }
    return QJsonObject{
        {QStringLiteral("api_version"), QString(QString::fromUtf16(kGroup) + u'/' + s.apiVersion)},
        {QStringLiteral("cohorts"), cohorts},
        {QStringLiteral("clusterqueues"), queues}};
}

int runQueues(const QStringList &argv) {
    QString format;
    auto s = readFor(argv, {}, QString(), format);
    if (!s)
        return s.error().kind == Error::Kind::Usage ? fail(s.error().message, UsageError)
                                                    : failWith(s.error());
    if (format == QLatin1String("json")) {
        out() << QString::fromUtf8(QJsonDocument(queuesJson(*s)).toJson(QJsonDocument::Indented));
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("COHORT"), QStringLiteral("CLUSTERQUEUE"),
                             QStringLiteral("FLAVOR"), QStringLiteral("RESOURCE"), QStringLiteral("NOMINAL"),
                             QStringLiteral("BORROW-LIMIT"), QStringLiteral("LEND-LIMIT"),
                             QStringLiteral("RESERVED"), QStringLiteral("USED"), QStringLiteral("BORROWED"),
                             QStringLiteral("LENT"), QStringLiteral("PENDING")}};
    for (const GpuRow &r : gpuRows(*s))
        rows << QStringList{r.cohort.isEmpty() ? QStringLiteral("-") : r.cohort,
                            r.clusterQueue,
                            r.flavor,
                            r.resource,
                            QString::number(r.nominal),
                            optionalCell(r.borrowingLimit),
                            optionalCell(r.lendingLimit),
                            QString::number(r.reserved),
                            QString::number(r.used),
                            QString::number(r.borrowed),
                            QString::number(r.lent),
                            QString::number(r.pending)};
    out() << "Kueue " << QString::fromUtf16(kGroup) << '/' << s->apiVersion << '\n';
    printTable(rows);
    return Ok;
}

struct WorkloadLine {
    const Workload *w;
    QString clusterQueue;
    QString state;
    int position = 0;
};

std::vector<WorkloadLine> workloadLines(const Snapshot &s, const std::vector<Workload> &pending,
                                        const std::vector<Workload> &holding) {
    std::vector<WorkloadLine> lines;
    std::map<QString, int> positions;
    for (const Workload &w : pending) {
        const QString cq = s.clusterQueueOf(w);
        lines.push_back(WorkloadLine{&w, cq, QStringLiteral("pending"), ++positions[cq]});
    }
    for (const Workload &w : holding)
        lines.push_back(WorkloadLine{&w, s.clusterQueueOf(w),
                                     w.admitted ? QStringLiteral("admitted") : QStringLiteral("reserved"),
                                     0});
    return lines;
}

QString flavorsText(const Workload &w) {
    QStringList f;
    for (const auto &[resource, flavor] : w.gpuFlavors)
        f << flavor;
    return f.isEmpty() ? QStringLiteral("-") : f.join(u',');
}

int runWorkloads(QStringList argv) {
    const bool pendingOnly = argv.removeAll(QStringLiteral("--pending")) > 0;
    QString format;
    QString ns;
    auto s = readFor(argv, {QStringLiteral("namespace")}, QStringLiteral("namespace"), format, &ns);
    if (!s)
        return s.error().kind == Error::Kind::Usage ? fail(s.error().message, UsageError)
                                                    : failWith(s.error());
    const std::vector<Workload> pending = pendingInOrder(*s, ns);
    const std::vector<Workload> holding = pendingOnly ? std::vector<Workload>{} : holdingQuota(*s, ns);
    const qint64 now = Clock::system().nowMSecs();
    const std::vector<WorkloadLine> lines = workloadLines(*s, pending, holding);
    if (format == QLatin1String("json")) {
        QJsonArray array;
        for (const WorkloadLine &l : lines) {
            QJsonObject flavors;
            for (const auto &[resource, flavor] : l.w->gpuFlavors)
                flavors.insert(resource, flavor);
            array.append(QJsonObject{
                {QStringLiteral("namespace"), l.w->ns},
                {QStringLiteral("name"), l.w->name},
                {QStringLiteral("local_queue"), l.w->queueName},
                {QStringLiteral("cluster_queue"), l.clusterQueue.isEmpty() ? QJsonValue() : l.clusterQueue},
                {QStringLiteral("state"), l.state},
                {QStringLiteral("position"), l.position > 0 ? QJsonValue(l.position) : QJsonValue()},
                {QStringLiteral("priority"), l.w->priority},
                {QStringLiteral("gpus"), double(l.w->gpus)},
                {QStringLiteral("flavors"), flavors},
                {QStringLiteral("age_seconds"),
                 l.w->createdMs > 0 ? QJsonValue(double((now - l.w->createdMs) / 1000)) : QJsonValue()},
                {QStringLiteral("reason"), l.w->reason.isEmpty() ? QJsonValue() : l.w->reason}});
        }
        out() << QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented));
        return Ok;
    }
    QList<QStringList> rows{{QStringLiteral("NAMESPACE"), QStringLiteral("NAME"),
                             QStringLiteral("CLUSTERQUEUE"), QStringLiteral("STATE"), QStringLiteral("POS"),
                             QStringLiteral("PRIO"), QStringLiteral("GPUS"), QStringLiteral("FLAVOR"),
                             QStringLiteral("AGE"), QStringLiteral("REASON")}};
    for (const WorkloadLine &l : lines)
        rows << QStringList{l.w->ns,
                            l.w->name,
                            l.clusterQueue.isEmpty() ? QStringLiteral("-") : l.clusterQueue,
                            l.state,
                            l.position > 0 ? QString::number(l.position) : QStringLiteral("-"),
                            QString::number(l.w->priority),
                            QString::number(l.w->gpus),
                            flavorsText(*l.w),
                            ageText(l.w->createdMs, now),
                            l.w->reason.isEmpty() ? QStringLiteral("-") : l.w->reason};
    printTable(rows);
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("queues"), QStringLiteral("queues [-o table|json]"),
                 QStringLiteral("Kueue ClusterQueues: GPU quota, reserved, borrowed, pending per flavor"), 62,
                 runQueues, {}, QString::fromLatin1(kQueuesHelp));
GQ_REGISTER_VERB(
    QStringLiteral("workloads"), QStringLiteral("workloads [--namespace N] [--pending] [-o table|json]"),
    QStringLiteral("Kueue Workloads: pending ones in order with Kueue's reason, admitted ones"), 63,
    [](const QStringList &args) { return runWorkloads(args); }, {}, QString::fromLatin1(kWorkloadsHelp));

} // namespace gq::cli
