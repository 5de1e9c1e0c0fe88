// `gpuquota status`: the self-service view for the person who runs the jobs: the
// battery line of their budget and the last 7 days, from the controller's
// /quota/status (services/controller/selfservice.h) or, for admins, straight from the database
// with the same function (quotaStatus()).
#include "app/cli/controllercall.h"
#include "services/quotas/quotastatus.h"
#include "services/selfservice/selfservicepage.h"
#include "app/cli/usageverbs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace gq::cli {
namespace {

using namespace usageverbs;

const char *const kStatusHelp =
    "Usage:\n"
    "  gpuquota status --server URL --token-file F [--user U | --namespace N] [--ca-file F] [-o table|json]\n"
    "  gpuquota status --db URL (--user U | --namespace N) [--now T] [-o table|json]\n"
    "\n"
    "Prints the battery line of the budget with the least left (\"2.3 GPU-h left of 8 today\") and the\n"
    "GPU-hours of the last 7 days. --server asks the controller's GET /quota/status with the bearer\n"
    "token in F (\"-\" reads standard input; default: your own user); --db reads the usage database\n"
    "directly (admins). -o json prints the whole status document. Exit 0, 1 on failure (401, 403,\n"
    "unreachable), 2 on bad usage.\n";

void printStatus(const QJsonObject &doc) {
    const SelfServicePage page;
    out() << page.batteryLine(doc) << '\n';
    const QString scope = doc.value(QLatin1String("scope")).toString();
    out() << "  " << scope << ' ' << doc.value(QLatin1String("subject")).toString();
    if (doc.value(QLatin1String("state")).toString() != QLatin1String("none")) {
        QJsonObject primary;
        for (const QJsonValue &b : doc.value(QLatin1String("budgets")).toArray())
            if (b.toObject().value(QLatin1String("remaining")) == doc.value(QLatin1String("remaining")))
                primary = b.toObject();
        out() << ", " << doc.value(QLatin1String("period")).toString() << " budget until "
              << doc.value(QLatin1String("period_end")).toString() << "\n  "
              << page.forecastText(primary, doc.value(QLatin1String("now")).toString());
    }
    out() << '\n';
    if (const QString who = page.identityLine(doc.value(QLatin1String("identity")).toObject());
        !who.isEmpty())
        out() << "  " << who << '\n';
    const QJsonArray boosts = doc.value(QLatin1String("active_boosts")).toArray();
    for (const QJsonValue &v : boosts) {
        const QJsonObject b = v.toObject();
        out() << "  boost #" << b.value(QLatin1String("id")).toInteger() << ": +"
              << b.value(QLatin1String("delta")).toString() << ' '
              << b.value(QLatin1String("resource")).toString() << " until "
              << b.value(QLatin1String("expiry")).toString() << '\n';
    }
    const QJsonArray days =
        doc.value(QLatin1String("history")).toObject().value(QLatin1String("days")).toArray();
    out() << "last 7 days (" << doc.value(QLatin1String("tz")).toString() << "):\n";
    double top = 0;
    for (qsizetype i = std::max<qsizetype>(0, days.size() - 7); i < days.size(); ++i)
        top = std::max(top, days[i].toObject().value(QLatin1String("gpu_hours")).toDouble());
    for (qsizetype i = std::max<qsizetype>(0, days.size() - 7); i < days.size(); ++i) {
        const QJsonObject day = days[i].toObject();
        const double h = day.value(QLatin1String("gpu_hours")).toDouble();
        const int bar = top > 0 ? int(h / top * 30 + 0.5) : 0;
        out() << "  " << day.value(QLatin1String("date")).toString() << "  "
              << QStringLiteral("%1").arg(QString::number(h, 'f', 2), 8) << " GPU-h  "
              << QString(bar, QChar(0x2588)) << '\n';
    }
}

Result<QJsonObject> fromServer(const Args &a) {
    QUrlQuery q;
    if (a.has(QStringLiteral("user")))
        q.addQueryItem(QStringLiteral("user"), a.value(QStringLiteral("user")));
    if (a.has(QStringLiteral("namespace")))
        q.addQueryItem(QStringLiteral("namespace"), a.value(QStringLiteral("namespace")));
    return callController(a, HttpMethod::Get, QStringLiteral("quota/status"), q);
}

int runStatus(const QStringList &argv) {
    const Args a =
        parseArgs(argv, {QStringLiteral("server"), QStringLiteral("token-file"), QStringLiteral("ca-file"),
                         QStringLiteral("db"), QStringLiteral("user"), QStringLiteral("namespace"),
                         QStringLiteral("now"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    const bool server = a.has(QStringLiteral("server")), db = a.has(QStringLiteral("db"));
    if (server == db)
        return fail(QStringLiteral("give exactly one of --server URL or --db URL"), UsageError);
    const bool u = a.has(QStringLiteral("user")), n = a.has(QStringLiteral("namespace"));
    if (u && n)
        return fail(QStringLiteral("give --user U or --namespace N, not both"), UsageError);
    if (db && !u && !n)
        return fail(QStringLiteral("--db needs --user U or --namespace N"), UsageError);
    if ((u && a.value(QStringLiteral("user")).trimmed().isEmpty()) ||
        (n && a.value(QStringLiteral("namespace")).trimmed().isEmpty()))
        return fail(QStringLiteral("%1 must not be empty")
                        .arg(u ? QStringLiteral("--user") : QStringLiteral("--namespace")),
                    UsageError);
    if (server && a.has(QStringLiteral("now")))
        return fail(QStringLiteral("--now works only with --db (the controller answers for its own clock)"),
                    UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table or json, got '%1'").arg(format), UsageError);

    Result<QJsonObject> doc = Error::make(Error::Kind::Internal, QString());
    if (server) {
        doc = fromServer(a);
        if (!doc)
            return fail(doc.error().message, doc.error().kind == Error::Kind::Usage ? UsageError : Failed);
    } else {
        qint64 now = 0;
        std::unique_ptr<UsageStore> store;
        if (auto code = openForReading(a, now, store))
            return *code;
        const BudgetScope scope = u ? BudgetScope::User : BudgetScope::Namespace;
        doc = quotaStatus(*store, scope,
                          a.value(u ? QStringLiteral("user") : QStringLiteral("namespace")).trimmed(), now);
        if (!doc)
            return failWith(doc.error());
    }
    if (format == QLatin1String("json"))
        out() << QString::fromUtf8(QJsonDocument(*doc).toJson(QJsonDocument::Indented));
    else
        printStatus(*doc);
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("status"),
                 QStringLiteral("status (--server URL --token-file F | --db URL --user U)"),
                 QStringLiteral("your GPU-hour budget: what is left and the last 7 days"), 65, runStatus, {},
                 QString::fromLatin1(kStatusHelp));

} // namespace gq::cli
