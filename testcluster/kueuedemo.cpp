// The demo scenario's Kueue objects (kueue.x-k8s.io/v1beta2): three ResourceFlavors, a
// cohort tree (ai-org with the cohorts training and inference), five ClusterQueues, a
// LocalQueue per team and Workloads, admitted ones and pending ones with the reasons
// Kueue writes. No Kueue runs here: the ClusterQueues' status (flavorsReservation,
// flavorsUsage, borrowed, workload counts) is computed once from the Workloads below,
// as Kueue would have written it.
#include "testcluster/kueuedemo.h"
#include "testcluster/apiserver.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <map>

namespace gq::tc {

namespace {

struct DemoFlavor {
    const char *name;
    const char *product;
};

constexpr DemoFlavor kFlavors[] = {
    {"h100", "NVIDIA-H100-80GB-HBM3"}, {"a100", "NVIDIA-A100-SXM4-80GB"}, {"l40s", "NVIDIA-L40S"}};

struct DemoQuota {
    const char *flavor;
    int nominal;
    int borrowingLimit = -1; // -1: none
    int lendingLimit = -1;
};

struct DemoQueue {
    const char *name;
    const char *cohort;
    std::vector<DemoQuota> quotas;
};

const std::vector<DemoQueue> &queues() {
    static const std::vector<DemoQueue> q = {
        {"cq-vision", "training", {{"h100", 8, 4, 4}, {"a100", 8}}},
        {"cq-nlp", "training", {{"h100", 16, 8}}},
        {"cq-research", "training", {{"a100", 4, -1, 2}}},
        {"cq-serving", "inference", {{"l40s", 16}}},
        {"cq-genai", "inference", {{"l40s", 8, 8}}},
    };
    return q;
}

struct DemoLocalQueue {
    const char *ns;
    const char *name;
    const char *clusterQueue;
};

constexpr DemoLocalQueue kLocalQueues[] = {
    {"team-vision", "vision", "cq-vision"},  {"team-nlp", "nlp", "cq-nlp"},
    {"research", "research", "cq-research"}, {"team-speech", "speech", "cq-serving"},
    {"team-recsys", "recsys", "cq-serving"}, {"team-genai", "genai", "cq-genai"},
};

struct DemoWorkload {
    const char *ns;
    const char *name;
    const char *queue;
    int pods;
    int gpusPerPod;
    const char *flavor; // nullptr: pending
    int priority;
    qint64 ageSeconds;
    const char *reason = nullptr; // pending: the QuotaReserved message
};

const std::vector<DemoWorkload> &workloads() {
    static const std::vector<DemoWorkload> w = {
        {"team-nlp", "job-nlp-pretrain-1", "nlp", 2, 4, "h100", 0, 30 * 3600},
        {"team-nlp", "job-nlp-sft-2", "nlp", 1, 8, "h100", 0, 6 * 3600},
        {"team-nlp", "job-nlp-sft-3", "nlp", 1, 4, "h100", 0, 2 * 3600},
        {"team-nlp", "job-nlp-eval-4", "nlp", 1, 4, nullptr, 0, 1800,
         "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor "
         "h100, 4 more needed"},
        {"team-vision", "job-vision-detr-1", "vision", 1, 4, "h100", 0, 20 * 3600},
        {"team-vision", "job-vision-seg-2", "vision", 1, 2, "a100", 0, 5 * 3600},
        {"team-vision", "job-vision-sweep-3", "vision", 4, 4, nullptr, 100, 900,
         "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor h100, "
         "request > maximum capacity (16 > 12)"},
        {"research", "job-research-lora-1", "research", 1, 2, "a100", 0, 3 * 3600},
        {"research", "job-research-70b-2", "research", 1, 8, nullptr, 0, 7200,
         "couldn't assign flavors to pod set main: insufficient quota for nvidia.com/gpu in flavor a100, "
         "request > maximum capacity (8 > 4)"},
        {"team-speech", "job-speech-asr-1", "speech", 1, 4, "l40s", 0, 40 * 3600},
        {"team-recsys", "job-recsys-rank-1", "recsys", 2, 4, "l40s", 0, 12 * 3600},
        {"team-genai", "job-genai-chat-1", "genai", 1, 8, "l40s", 0, 26 * 3600},
        {"team-genai", "job-genai-chat-2", "genai", 1, 4, "l40s", 0, 4 * 3600},
        {"team-genai", "job-genai-finetune-3", "genai", 2, 4, nullptr, 50, 3000,
         "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor "
         "l40s, 8 more needed"},
        {"team-genai", "job-genai-eval-4", "genai", 1, 2, nullptr, 0, 2400,
         "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor "
         "l40s, 2 more needed"},
    };
    return w;
}

QString ago(qint64 seconds) {
    return QDateTime::currentDateTimeUtc().addSecs(-seconds).toString(Qt::ISODate);
}

QJsonObject named(const QString &name, const QString &ns = {}, qint64 age = 0) {
    QJsonObject m{{QStringLiteral("name"), name}};
    if (!ns.isEmpty())
        m.insert(QStringLiteral("namespace"), ns);
    if (age > 0)
        m.insert(QStringLiteral("creationTimestamp"), ago(age));
    return m;
}

const char *clusterQueueOf(const char *localQueue) {
    for (const DemoLocalQueue &lq : kLocalQueues)
        if (qstrcmp(lq.name, localQueue) == 0)
            return lq.clusterQueue;
    return "";
}

QJsonObject condition(const char *type, bool status, const QString &reason, const QString &message,
                      qint64 age) {
    return QJsonObject{{QStringLiteral("type"), QLatin1String(type)},
                       {QStringLiteral("status"), status ? QStringLiteral("True") : QStringLiteral("False")},
                       {QStringLiteral("reason"), reason},
                       {QStringLiteral("message"), message},
                       {QStringLiteral("lastTransitionTime"), ago(age)}};
}

QJsonObject workloadObject(const DemoWorkload &w) {
    const QString gpus = QString::number(w.gpusPerPod);
    QJsonObject container{
        {QStringLiteral("name"), QStringLiteral("main")},
        {QStringLiteral("image"), QStringLiteral("nvcr.io/nvidia/pytorch:24.05-py3")},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("requests"), QJsonObject{{QStringLiteral("cpu"), QStringLiteral("8")},
                                                              {QStringLiteral("nvidia.com/gpu"), gpus}}}}}};
    QJsonObject podSet{
        {QStringLiteral("name"), QStringLiteral("main")},
        {QStringLiteral("count"), w.pods},
        {QStringLiteral("template"),
         QJsonObject{{QStringLiteral("spec"),
                      QJsonObject{{QStringLiteral("containers"), QJsonArray{container}},
                                  {QStringLiteral("restartPolicy"), QStringLiteral("Never")}}}}}};
    QJsonObject spec{{QStringLiteral("queueName"), QLatin1String(w.queue)},
                     {QStringLiteral("priority"), w.priority},
                     {QStringLiteral("podSets"), QJsonArray{podSet}}};
    QJsonObject status;
    QJsonArray conditions;
    if (w.flavor) {
        const qint64 reservedAge = w.ageSeconds - 30;
        status.insert(
            QStringLiteral("admission"),
            QJsonObject{{QStringLiteral("clusterQueue"), QLatin1String(clusterQueueOf(w.queue))},
                        {QStringLiteral("podSetAssignments"),
                         QJsonArray{QJsonObject{
                             {QStringLiteral("name"), QStringLiteral("main")},
                             {QStringLiteral("count"), w.pods},
                             {QStringLiteral("flavors"),
                              QJsonObject{{QStringLiteral("nvidia.com/gpu"), QLatin1String(w.flavor)}}},
                             {QStringLiteral("resourceUsage"),
                              QJsonObject{{QStringLiteral("nvidia.com/gpu"),
                                           QString::number(w.pods * w.gpusPerPod)}}}}}}});
        conditions.append(condition(
            "QuotaReserved", true, QStringLiteral("QuotaReserved"),
            QStringLiteral("Quota reserved in ClusterQueue %1").arg(QLatin1String(clusterQueueOf(w.queue))),
            reservedAge));
        conditions.append(condition("Admitted", true, QStringLiteral("Admitted"),
                                    QStringLiteral("The workload is admitted"), reservedAge));
    } else {
        conditions.append(condition("QuotaReserved", false, QStringLiteral("Pending"),
                                    QLatin1String(w.reason), w.ageSeconds - 5));
    }
    status.insert(QStringLiteral("conditions"), conditions);
    return QJsonObject{
        {QStringLiteral("metadata"), named(QLatin1String(w.name), QLatin1String(w.ns), w.ageSeconds)},
        {QStringLiteral("spec"), spec},
        {QStringLiteral("status"), status}};
}

QJsonArray resourceGroups(const DemoQueue &q) {
    QJsonArray flavors;
    for (const DemoQuota &quota : q.quotas) {
        QJsonObject gpu{{QStringLiteral("name"), QStringLiteral("nvidia.com/gpu")},
                        {QStringLiteral("nominalQuota"), QString::number(quota.nominal)}};
        if (quota.borrowingLimit >= 0)
            gpu.insert(QStringLiteral("borrowingLimit"), QString::number(quota.borrowingLimit));
        if (quota.lendingLimit >= 0)
            gpu.insert(QStringLiteral("lendingLimit"), QString::number(quota.lendingLimit));
        flavors.append(QJsonObject{{QStringLiteral("name"), QLatin1String(quota.flavor)},
                                   {QStringLiteral("resources"), QJsonArray{gpu}}});
    }
    return QJsonArray{
        QJsonObject{{QStringLiteral("coveredResources"), QJsonArray{QStringLiteral("nvidia.com/gpu")}},
                    {QStringLiteral("flavors"), flavors}}};
}

// status as Kueue writes it: per flavor the GPUs reserved (and borrowed above nominal).
QJsonObject queueStatus(const DemoQueue &q) {
    std::map<QString, int> reserved;
    int admitted = 0;
    int pending = 0;
    for (const DemoWorkload &w : workloads()) {
        if (qstrcmp(clusterQueueOf(w.queue), q.name) != 0)
            continue;
        if (w.flavor) {
            reserved[QLatin1String(w.flavor)] += w.pods * w.gpusPerPod;
            ++admitted;
        } else {
            ++pending;
        }
    }
    QJsonArray flavors;
    for (const DemoQuota &quota : q.quotas) {
        const int total = reserved[QLatin1String(quota.flavor)];
        flavors.append(
            QJsonObject{{QStringLiteral("name"), QLatin1String(quota.flavor)},
                        {QStringLiteral("resources"),
                         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("nvidia.com/gpu")},
                                                {QStringLiteral("total"), QString::number(total)},
                                                {QStringLiteral("borrowed"),
                                                 QString::number(std::max(0, total - quota.nominal))}}}}});
    }
    return QJsonObject{{QStringLiteral("flavorsReservation"), flavors},
                       {QStringLiteral("flavorsUsage"), flavors},
                       {QStringLiteral("pendingWorkloads"), pending},
                       {QStringLiteral("reservingWorkloads"), admitted},
                       {QStringLiteral("admittedWorkloads"), admitted}};
}

void create(ApiServer &server, Resource r, const QString &ns, const QJsonObject &object) {
    const ApiServer::HookReply reply = server.createObject(r, ns, object);
    if (reply.status != 201)
        std::fprintf(stderr, "gpuquota-testcluster: Kueue demo object rejected (%d): %s\n", reply.status,
                     reply.body.constData());
}

} // namespace

void kueueDemo(ApiServer &server) {
    const qint64 month = 30 * 86400;
    for (const DemoFlavor &f : kFlavors)
        create(server, Resource::ResourceFlavor, {},
               QJsonObject{{QStringLiteral("metadata"), named(QLatin1String(f.name), {}, month)},
                           {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("nodeLabels"),
                                         QJsonObject{{QStringLiteral("nvidia.com/gpu.product"),
                                                      QLatin1String(f.product)}}}}}});
    create(server, Resource::Cohort, {},
           QJsonObject{{QStringLiteral("metadata"), named(QStringLiteral("ai-org"), {}, month)}});
    for (const char *child : {"training", "inference"})
        create(server, Resource::Cohort, {},
               QJsonObject{{QStringLiteral("metadata"), named(QLatin1String(child), {}, month)},
                           {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("parentName"), QStringLiteral("ai-org")}}}});
    for (const DemoQueue &q : queues())
        create(server, Resource::ClusterQueue, {},
               QJsonObject{{QStringLiteral("metadata"), named(QLatin1String(q.name), {}, month)},
                           {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("cohortName"), QLatin1String(q.cohort)},
                                        {QStringLiteral("namespaceSelector"), QJsonObject()},
                                        {QStringLiteral("resourceGroups"), resourceGroups(q)}}},
                           {QStringLiteral("status"), queueStatus(q)}});
    for (const DemoLocalQueue &lq : kLocalQueues) {
        int pending = 0;
        int admitted = 0;
        for (const DemoWorkload &w : workloads())
            if (qstrcmp(w.ns, lq.ns) == 0 && qstrcmp(w.queue, lq.name) == 0)
                ++(w.flavor ? admitted : pending);
        create(server, Resource::LocalQueue, QLatin1String(lq.ns),
               QJsonObject{
                   {QStringLiteral("metadata"), named(QLatin1String(lq.name), QLatin1String(lq.ns), month)},
                   {QStringLiteral("spec"),
                    QJsonObject{{QStringLiteral("clusterQueue"), QLatin1String(lq.clusterQueue)}}},
                   {QStringLiteral("status"), QJsonObject{{QStringLiteral("pendingWorkloads"), pending},
                                                          {QStringLiteral("admittedWorkloads"), admitted}}}});
    }
    for (const DemoWorkload &w : workloads())
        create(server, Resource::Workload, QLatin1String(w.ns), workloadObject(w));
}

} // namespace gq::tc
