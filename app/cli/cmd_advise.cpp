// `gpuquota advise`: will this fine-tune fit what the team has left? The estimate and
// the recommendation are core/advisor's; the cluster facts, the budget decision and the
// JSON document services/advisor/fitadvisor.h's, shared with the console and the self-service page.
#include "app/cli/advisetext.h"
#include "core/kube/kubeclient.h"
#include "core/domain/quantity.h"
#include "app/cli/usageverbs.h"

#include <QJsonDocument>

namespace gq::cli {
namespace {

using namespace usageverbs;
using namespace advisor;

// Bad input: the message names the flag; exit 2.
struct Bad {
    QString message;
};

template <typename E>
std::optional<E> pick(const Args &a, const char *flag, const QList<std::pair<const char *, E>> &choices,
                      QString *error) {
    const QString name = QLatin1String(flag);
    if (!a.has(name))
        return std::nullopt;
    QStringList names;
    for (const auto &[text, value] : choices) {
        if (a.value(name) == QLatin1String(text))
            return value;
        names << QLatin1String(text);
    }
    *error = QStringLiteral("--%1 must be %2, got '%3'")
                 .arg(name, names.join(QStringLiteral(" | ")), a.value(name));
    return std::nullopt;
}

// A whole number in [min, max] for --name, or `fallback` when not given.
int intFlag(const Args &a, const char *flag, int fallback, int min, int max, QString *error) {
    const QString name = QLatin1String(flag);
    if (!a.has(name) || !error->isEmpty())
        return fallback;
    bool ok = false;
    const int v = a.value(name).toInt(&ok);
    if (!ok || v < min || v > max)
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, got '%4'")
                     .arg(name)
                     .arg(min)
                     .arg(max)
                     .arg(a.value(name));
    return v;
}

// The two switches: bare, or =true / =false.
bool switchValue(const Args &a, const char *flag, QString *error) {
    const QString name = QLatin1String(flag);
    const QString v = a.value(name, QStringLiteral("false"));
    if (v != QLatin1String("true") && v != QLatin1String("false") && error->isEmpty())
        *error = QStringLiteral("--%1 takes no value (or =true / =false), got '%2'").arg(name, v);
    return v == QLatin1String("true");
}

Result<AdviceRequest> parseRequest(const Args &a, FitInput in) {
    QString e;
    auto bad = [&](const QString &message) { return Error::make(Error::Kind::Usage, message); };
    const bool model = a.has(QStringLiteral("model")), params = a.has(QStringLiteral("params"));
    if (model == params)
        return bad(QStringLiteral("give exactly one of --model NAME or --params N"));
    if (model) {
        auto m = findModel(a.value(QStringLiteral("model")));
        if (!m)
            return bad(QStringLiteral("--model: ") + m.error().message);
        in.model = *m;
    } else {
        auto p = parseParamCount(a.value(QStringLiteral("params")));
        if (!p)
            return bad(QStringLiteral("--params: ") + p.error().message);
        in.model = shapeFromParams(*p);
    }
    AdviceRequest r;
    const auto method = pick<std::optional<Method>>(
        a, "method",
        {{"auto", std::nullopt}, {"full", Method::Full}, {"lora", Method::Lora}, {"qlora", Method::Qlora}},
        &e);
    r.method = method.value_or(std::nullopt);
    in.dtype =
        pick<Dtype>(a, "dtype", {{"bf16", Dtype::Bf16}, {"fp16", Dtype::Fp16}, {"fp32", Dtype::Fp32}}, &e)
            .value_or(Dtype::Bf16);
    in.optimizer =
        pick<Optimizer>(
            a, "optimizer",
            {{"adamw", Optimizer::AdamW}, {"adamw-8bit", Optimizer::AdamW8bit}, {"sgd", Optimizer::Sgd}}, &e)
            .value_or(Optimizer::AdamW);
    if (a.has(QStringLiteral("zero")))
        r.zeroStage = intFlag(a, "zero", 3, 0, 3, &e);
    in.seqLen = intFlag(a, "seq-len", 2048, 1, 10'000'000, &e);
    in.microBatch = intFlag(a, "batch", 1, 1, 100'000, &e);
    in.loraRank = intFlag(a, "lora-rank", 8, 1, 65536, &e);
    if (a.has(QStringLiteral("gpus")))
        r.gpusAvailable = intFlag(a, "gpus", 1, 0, 100'000, &e);
    if (e.isEmpty() && a.has(QStringLiteral("hours"))) {
        auto h = numberFlag(a, QStringLiteral("hours"));
        if (!h || *h <= 0)
            e = QStringLiteral("--hours must be a positive number, got '%1'")
                    .arg(a.value(QStringLiteral("hours")));
        else
            r.hours = *h;
    }
    if (e.isEmpty() && a.has(QStringLiteral("gpu-memory"))) {
        auto q = Quantity::parse(a.value(QStringLiteral("gpu-memory")));
        if (!q || q->sign() <= 0)
            e = QStringLiteral("--gpu-memory must be a positive quantity such as 80G or 80Gi, got '%1'")
                    .arg(a.value(QStringLiteral("gpu-memory")));
        else
            r.gpuMemoryBytes = double(q->toBytes());
    }
    if (!e.isEmpty())
        return bad(e);
    r.input = in;
    return r;
}

// --namespace: the quota's free GPUs (unless --gpus) and the nodes' GPU memory (unless
// --gpu-memory). Errors name the flag.
Result<FitClusterFacts> readCluster(const Args &a, AdviceRequest &r) {
    const QString ns = a.value(QStringLiteral("namespace")).trimmed();
    if (ns.isEmpty())
        return Error::make(Error::Kind::Usage, QStringLiteral("--namespace must not be empty"));
    auto client =
        KubeClient::fromKubeconfig(a.value(QStringLiteral("kubeconfig")), a.value(QStringLiteral("context")));
    if (!client)
        return Error::make(Error::Kind::Usage, QStringLiteral("--namespace: ") + client.error().message);
    auto facts = readFitClusterFacts(**client, ns);
    if (!facts)
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("--namespace %1: cannot read its quotas: %2").arg(ns, facts.error().message));
    if (!a.has(QStringLiteral("gpus")))
        r.gpusAvailable = facts->freeGpus ? int(*facts->freeGpus) : 1;
    if (!a.has(QStringLiteral("gpu-memory"))) {
        if (facts->memoryBytes <= 0)
            return Error::make(Error::Kind::Usage,
                               QStringLiteral("--gpu-memory SIZE is needed: %1").arg(facts->memoryError));
        r.gpuMemoryBytes = double(facts->memoryBytes);
    }
    return facts;
}

int runAdvise(const QStringList &argv) {
    QList<Flag> flags = valueFlags(
        {QStringLiteral("model"), QStringLiteral("params"), QStringLiteral("method"), QStringLiteral("dtype"),
         QStringLiteral("optimizer"), QStringLiteral("zero"), QStringLiteral("gpus"),
         QStringLiteral("gpu-memory"), QStringLiteral("seq-len"), QStringLiteral("batch"),
         QStringLiteral("lora-rank"), QStringLiteral("hours"), QStringLiteral("namespace"),
         QStringLiteral("user"), QStringLiteral("db"), QStringLiteral("now"), QStringLiteral("output")});
    flags << switchFlag(QStringLiteral("gradient-checkpointing"), {}, {}, true)
          << switchFlag(QStringLiteral("flash-attn"), {}, {}, true);
    const Args a = parseFlags(argv, flags);
    FitInput in;
    QString switchError;
    in.gradientCheckpointing = switchValue(a, "gradient-checkpointing", &switchError);
    in.flashAttention = switchValue(a, "flash-attn", &switchError);
    if (a.error.isEmpty() && !switchError.isEmpty())
        return fail(switchError, UsageError);
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table or json, got '%1'").arg(format), UsageError);
    auto request = parseRequest(a, in);
    if (!request)
        return fail(request.error().message, UsageError);
    AdviceRequest &r = *request;
    std::optional<FitClusterFacts> cluster;
    if (a.has(QStringLiteral("namespace"))) {
        auto facts = readCluster(a, r);
        if (!facts)
            return fail(facts.error().message, UsageError);
        cluster = *facts;
    } else if (!a.has(QStringLiteral("gpu-memory"))) {
        return fail(QStringLiteral("--gpu-memory SIZE is required without --namespace NS"), UsageError);
    }
    const Advice advice = advise(r);
    std::optional<FitBudget> budget;
    if (a.has(QStringLiteral("db")) || a.has(QStringLiteral("user"))) {
        if (!a.has(QStringLiteral("user")) || a.value(QStringLiteral("user")).trimmed().isEmpty())
            return fail(QStringLiteral("--db needs --user U (whose budget to check)"), UsageError);
        qint64 now = 0;
        std::unique_ptr<UsageStore> db;
        if (auto code = openForReading(a, now, db))
            return UsageError;
        const double needed = advice.gpuHours(r.hours);
        const AdmissionRequest req{AdmissionRequest::Kind::NewJob, double(advice.chosen.gpus), r.hours};
        auto d = db->check(a.value(QStringLiteral("user")), a.value(QStringLiteral("namespace")), req, now);
        if (!d)
            return fail(QStringLiteral("--db: ") + d.error().toString(), UsageError);
        budget = fitBudget(*d, needed);
    }
    if (format == QLatin1String("json"))
        out() << QString::fromUtf8(
            QJsonDocument(adviceJson(r, advice, cluster, budget)).toJson(QJsonDocument::Indented));
    else
        out() << adviseTable(r, advice, cluster, budget);
    return advice.fits() ? Ok : Failed;
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("advise"),
    QStringLiteral("advise (--model NAME | --params N) [--gpus N] [--gpu-memory SIZE] [--namespace NS] ..."),
    QStringLiteral("will this fine-tune fit? memory estimate, method and GPU-hours against quota and "
                   "budget"),
    64, runAdvise, {}, adviseHelp());

} // namespace gq::cli
