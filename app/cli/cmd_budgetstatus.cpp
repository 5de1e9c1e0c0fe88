// `gpuquota budget status`: where one user's or namespace's budgets stand now, with
// the forecast of when they run out at the current rate (core/usage/forecast.h, the
// same function the console's Budgets page uses).
#include "app/cli/budgetstatus.h"
#include "app/cli/queuegrouping.h"
#include "app/cli/usageverbs.h"
#include "core/usage/forecast.h"
#include "core/usage/newcomer.h"
#include "services/budgets/budgetservice.h"
#include "services/quotas/quotastatus.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {

QString budgetHelp() {
    return QStringLiteral(
        "Usage:\n"
        "  gpuquota budget set --db URL (--user U | --namespace N) --limit GPU-H [--period day|week|month]\n"
        "                      [--grace DURATION] [--tz ZONE] [--note TEXT] [--actor NAME]\n"
        "  gpuquota budget list --db URL [--now T] [-o table|json]\n"
        "  gpuquota budget delete --db URL (--user U | --namespace N) [--period P] [--note TEXT]\n"
        "  gpuquota budget status --db URL (--user U | --namespace N) [--now T] [-o table|json]\n"
        "  gpuquota budget status --db URL --by clusterqueue|localqueue [--user U | --namespace N]\n"
        "                         [--kubeconfig F] [--context C] [--now T] [-o table|json]\n"
        "  gpuquota budget newcomer (policy|list|add|end|sweep) ...   (see budget newcomer --help)\n"
        "\n"
        "status: every budget of the subject in the period containing --now (default: now), as of\n"
        "--now: a past --now counts what was used up to it and what ran at it.\n"
        "Exit 0 (also when the subject has no budget: an empty list), 2 on bad input.\n"
        "JSON (-o json): {\"scope\", \"subject\", \"now\", \"budgets\": [...]}, each budget:\n"
        "  period               day | week | month\n"
        "  tz                   the IANA zone of the period (instants below carry its offset)\n"
        "  used                 GPU-hours used this period up to --now (running pods too), weighted:\n"
        "                       x the GPU model's weight stored with each interval (the controller's\n"
        "                       gpuModelWeights; a model without one counts 1); budgets count these\n"
        "  used_raw             the same without GPU model weights (equal to used when none apply)\n"
        "  limit                the effective limit: budget_limit (x the newcomer factor) + boost\n"
        "  budget_limit         the budget as set\n"
        "  boost                GPU-hours active budget boosts add now\n"
        "  remaining            limit - used (negative when over)\n"
        "  period_start         RFC 3339\n"
        "  period_end           RFC 3339 (exclusive)\n"
        "  state                ok | near (less than 20% left) | grace | over\n"
        "  grace_seconds        the budget's grace duration\n"
        "  grace_end            RFC 3339 while in grace (running work is denied after it), else null\n"
        "  running_gpus         weighted GPUs the subject held at --now (MIG slices count their share,\n"
        "                       and GPU model weights apply)\n"
        "  forecast             nothing-running | runs-out | in-grace | not-at-this-rate | spent\n"
        "  forecast_exhaustion  RFC 3339: when the limit is reached at the current rate (in grace:\n"
        "                       when grace ends); null when nothing runs, when it is not reached\n"
        "                       before period_end, or when it is already spent\n"
        "  newcomerUntil        RFC 3339: the end (exclusive) of the user's newcomer allowance in\n"
        "                       force (budget newcomer --help), else null\n"
        "  newcomer             \"newcomer allowance until MM-dd\" (its last day), else empty\n"
        "  unlimited            true while an unlimited newcomer allowance is in force\n"
        "\n"
        "--by clusterqueue|localqueue: every budget (or the subject's) under the Kueue queue it is\n"
        "charged to, read from the cluster's LocalQueues (--kubeconfig/--context), with per-queue\n"
        "subtotals of used and limit. A namespace budget goes to its namespace's LocalQueue and that\n"
        "queue's ClusterQueue (several LocalQueues jointly, \"ns/a+b\"; none: \"(no queue)\"), as\n"
        "`usage --by` does. A user budget goes to the queues of the namespaces the user ran in this\n"
        "period (several jointly, \"cq-a+cq-b\"; none: \"(no queue)\"). Subtotals add each budget's\n"
        "own period, and a user's hours in a namespace that has a budget count in both.\n"
        "JSON: {\"by\", \"now\", \"groups\": [{\"clusterQueue\"|\"localQueue\", \"used\", \"limit\",\n"
        "\"unlimited\" (budgets without a limit), \"budgets\": [...]}]}, each budget as above with\n"
        "\"scope\", \"subject\" and the queue key.\n");
}

namespace {

using namespace usageverbs;

QString forecastText(const Forecast &f, const Decision &d, const QTimeZone &tz) {
    const QString gpus = QString::number(d.runningGpus, 'g', 4);
    switch (f.kind) {
    case Forecast::Kind::NothingRunning: return QStringLiteral("nothing running");
    case Forecast::Kind::NotAtThisRate:
        return QStringLiteral("not at this rate (%1 GPUs) before the period ends").arg(gpus);
    case Forecast::Kind::RunsOut:
        return QStringLiteral("spent by %1 at this rate (%2 GPUs)")
            .arg(formatInstant(*f.exhaustsAt, tz), gpus);
    case Forecast::Kind::InGrace:
        return QStringLiteral("grace ends %1 at this rate (%2 GPUs)")
            .arg(formatInstant(*f.exhaustsAt, tz), gpus);
    case Forecast::Kind::Spent: return QStringLiteral("spent");
    }
    return {};
}

} // namespace

namespace {

// One budget's lines of the table: "user alice, day budget in UTC" and its fields.
QString budgetText(const Decision &d, qint64 now) {
    const QTimeZone tz = parseZone(d.budget.tz).value_or(QTimeZone(QByteArrayLiteral("UTC")));
    const Forecast f = forecast(d, now);
    const std::optional<qint64> grace = graceEnd(d, now);
    const double base = d.newcomerUntil > 0 && !d.unlimited ? d.allowanceLimit : d.budget.limitGpuHours;
    const double boost = d.limit - base;
    const QString newcomer = newcomerText(d);
    QString limit = d.unlimited ? QStringLiteral("none") : formatGpuHours(d.limit) + QStringLiteral(" GPU-h");
    if (!d.unlimited && std::abs(boost) > kGpuHourTolerance)
        limit += QStringLiteral(" (%1 + %2 boost)").arg(formatGpuHours(base), formatGpuHours(boost));
    if (!newcomer.isEmpty())
        limit +=
            QStringLiteral(" — %1 (budget %2 GPU-h)").arg(newcomer, formatGpuHours(d.budget.limitGpuHours));
    QString text =
        QStringLiteral("%1 %2, %3 budget in %4\n")
            .arg(scopeName(d.budget.scope), d.budget.subject, periodName(d.budget.period), d.budget.tz);
    const QList<std::pair<const char *, QString>> lines{
        {"used", formatGpuHours(d.used) + QStringLiteral(" GPU-h") +
                     (d.weighted() ? QStringLiteral(" weighted (%1 GPU-h raw)").arg(formatGpuHours(d.usedRaw))
                                   : QString())},
        {"limit", limit},
        {"remaining",
         d.unlimited ? QStringLiteral("unlimited") : formatGpuHours(d.remaining) + QStringLiteral(" GPU-h")},
        {"period start", formatInstant(d.period.start, tz)},
        {"period end", formatInstant(d.period.end, tz)},
        {"state", budgetStateName(budgetState(d))},
        {"grace", formatDuration(d.budget.graceSeconds)},
        {"grace end", grace ? formatInstant(*grace, tz) : QStringLiteral("-")},
        {"forecast", forecastText(f, d, tz)}};
    for (const auto &[key, value] : lines)
        text += QStringLiteral("  %1%2\n").arg(QString::fromLatin1(key) + QLatin1Char(':'), -15).arg(value);
    return text;
}

// `budget status --by clusterqueue|localqueue`: the budgets under their Kueue queues.
int groupedStatus(const Args &a, kueue::QueueLevel level, std::optional<std::pair<BudgetScope, QString>> only,
                  bool json) {
    auto queues = readQueueAttribution(a);
    if (!queues)
        return failWith(queues.error());
    qint64 now = 0;
    std::unique_ptr<UsageStore> db;
    if (auto code = openForReading(a, now, db))
        return *code;
    // The Budgets page's rows: every budget with the namespaces its usage went to.
    auto overview = readBudgetOverview(*db, now, true);
    if (!overview)
        return failWith(overview.error());
    QList<BudgetRow> rows;
    for (const BudgetRow &r : std::as_const(overview->rows))
        if (!only || (r.budget.scope == only->first && r.budget.subject == only->second))
            rows << r;
    const QString key = kueue::queueLevelKey(level);
    QJsonArray groups;
    QList<QStringList> table{{kueue::queueLevelName(level).toUpper(), QStringLiteral("SCOPE"),
                              QStringLiteral("SUBJECT"), QStringLiteral("PERIOD"), QStringLiteral("USED"),
                              QStringLiteral("LIMIT"), QStringLiteral("STATE")}};
    for (const BudgetGroup &g : groupByQueue(rows, *queues, level)) {
        QJsonArray budgets;
        for (const int i : g.members) {
            const Decision &d = rows.at(i).decision;
            QJsonObject o = budgetStatusJson(d, now);
            o.insert(QStringLiteral("scope"), scopeName(d.budget.scope));
            o.insert(QStringLiteral("subject"), d.budget.subject);
            o.insert(key, g.key);
            budgets.append(o);
            table << QStringList{g.key,
                                 scopeName(d.budget.scope),
                                 d.budget.subject,
                                 periodName(d.budget.period),
                                 formatGpuHours(d.used),
                                 d.unlimited ? QStringLiteral("none") : formatGpuHours(d.limit),
                                 budgetStateName(budgetState(d))};
        }
        groups.append(QJsonObject{{key, g.key},
                                  {QStringLiteral("used"), g.used},
                                  {QStringLiteral("limit"), g.limit},
                                  {QStringLiteral("unlimited"), g.unlimited},
                                  {QStringLiteral("budgets"), budgets}});
        table << QStringList{g.key,
                             QString(),
                             QStringLiteral("subtotal"),
                             QString(),
                             formatGpuHours(g.used),
                             formatGpuHours(g.limit) + (g.unlimited ? QStringLiteral(" +none") : QString()),
                             QString()};
    }
    if (json) {
        const QJsonObject doc{{QStringLiteral("by"), kueue::queueLevelName(level)},
                              {QStringLiteral("now"), formatInstantUtc(now)},
                              {QStringLiteral("groups"), groups}};
        out() << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else if (rows.isEmpty()) {
        out() << "no budgets\n";
    } else {
        printTable(table);
    }
    return Ok;
}

} // namespace

int runBudgetStatus(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                                    QStringLiteral("now"), QStringLiteral("output"), QStringLiteral("by")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    std::optional<kueue::QueueLevel> level;
    if (a.has(QStringLiteral("by"))) {
        level = kueue::parseQueueLevel(a.value(QStringLiteral("by")));
        if (!level)
            return fail(QStringLiteral("--by must be clusterqueue or localqueue, got '%1'")
                            .arg(a.value(QStringLiteral("by"))),
                        UsageError);
    }
    const bool u = a.has(QStringLiteral("user")), n = a.has(QStringLiteral("namespace"));
    if (u && n)
        return fail(QStringLiteral("give exactly one of --user U or --namespace N"), UsageError);
    if (!u && !n && !level)
        return fail(QStringLiteral("give exactly one of --user U or --namespace N (or --by clusterqueue|"
                                   "localqueue for every budget)"),
                    UsageError);
    const BudgetScope scope = u ? BudgetScope::User : BudgetScope::Namespace;
    const QString flag = u ? QStringLiteral("--user") : QStringLiteral("--namespace");
    const QString subject = a.value(flag.mid(2)).trimmed();
    if ((u || n) && subject.isEmpty())
        return fail(QStringLiteral("%1 must not be empty").arg(flag), UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table or json, got '%1'").arg(format), UsageError);
    if (level)
        return groupedStatus(a, *level, u || n ? std::optional(std::make_pair(scope, subject)) : std::nullopt,
                             format == QLatin1String("json"));
    qint64 now = 0;
    std::unique_ptr<UsageStore> db;
    if (auto code = openForReading(a, now, db))
        return *code;
    auto status = db->budgetStatus(scope, subject, now);
    if (!status)
        return failWith(status.error());
    if (format == QLatin1String("json")) {
        QJsonArray json;
        for (const Decision &d : std::as_const(*status))
            json.append(budgetStatusJson(d, now));
        const QJsonObject doc{{QStringLiteral("scope"), scopeName(scope)},
                              {QStringLiteral("subject"), subject},
                              {QStringLiteral("now"), formatInstantUtc(now)},
                              {QStringLiteral("budgets"), json}};
        out() << QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    } else if (status->isEmpty()) {
        out() << "no budget for " << scopeName(scope) << ' ' << subject << '\n';
    } else {
        for (const Decision &d : std::as_const(*status))
            out() << budgetText(d, now);
    }
    return Ok;
}

} // namespace gq::cli
