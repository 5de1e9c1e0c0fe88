// `gpuquota report chargeback`: a month's GPU-hours per namespace, user or Kueue queue
// (the namespaces' hours to their LocalQueue / ClusterQueue) times a rate,
// as a table, CSV, JSON or (with the console's layers built) a PDF.
#include "core/report/chargebackformat.h"
#include "core/report/chargebackquery.h"
#include "core/report/money.h"
#include "app/cli/queuegrouping.h"
#include "app/cli/usageverbs.h"

#include "core/domain/atomicfile.h"

#include <QJsonDocument>
#ifdef GQ_CLI_GUI
#include "core/reportpdf/chargebackpdf.h"

#include <QCoreApplication>
#include <QTranslator>
#endif

namespace gq::cli {
namespace {

using namespace usageverbs;

Error usage(Error e) {
    e.kind = Error::Kind::Usage;
    return e;
}

QString outputFormat(const Args &a) {
    return a.value(QStringLiteral("output"), QStringLiteral("table"));
}

// Before parsing (main() asks, to pick the application class): is the format pdf?
bool wantsPdf(const QStringList &argv) {
    if (argv.isEmpty() || argv.first() != QLatin1String("chargeback"))
        return false;
    for (qsizetype i = 1; i < argv.size(); ++i) {
        const QString &arg = argv.at(i);
        if ((arg == QLatin1String("-o") || arg == QLatin1String("--output")) && i + 1 < argv.size() &&
            argv.at(i + 1) == QLatin1String("pdf"))
            return true;
        if (arg == QLatin1String("-opdf") || arg == QLatin1String("--output=pdf"))
            return true;
    }
    return false;
}

#ifdef GQ_CLI_GUI
// The PDF speaks the user's language (LANGUAGE / LC_ALL / LC_MESSAGES / LANG); the
// other formats are for scripts and stay English.
void installTranslator() {
    auto *t = new QTranslator(QCoreApplication::instance());
    if (t->load(QLocale::system(), QStringLiteral("gpuquota"), QStringLiteral("_"),
                QStringLiteral(":/i18n")) ||
        t->load(QStringLiteral("gpuquota_en"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(t);
}
#endif

// --rate R (one flat rate) or --rates FILE.yaml (a rate card): an exit code when neither or both.
std::optional<int> readRates(const Args &a, RateCard &rates) {
    const bool hasRate = a.has(QStringLiteral("rate")), hasRates = a.has(QStringLiteral("rates"));
    if (hasRate == hasRates)
        return fail(hasRate ? QStringLiteral("give --rate or --rates, not both")
                            : QStringLiteral("--rate R (per GPU-hour) or --rates FILE.yaml is required"),
                    UsageError);
    if (hasRate) {
        auto micros = parseRateMicros(a.value(QStringLiteral("rate")), QStringLiteral("--rate"));
        if (!micros)
            return failWith(usage(micros.error()));
        rates = RateCard::flat(*micros);
    } else {
        const QString file = a.value(QStringLiteral("rates"));
        auto card = loadRateCard(file);
        if (!card) {
            const Error &e = card.error();
            QString where = QStringLiteral("--rates ") + file;
            if (e.line > 0)
                where += QStringLiteral(":%1").arg(e.line);
            return fail(where + QStringLiteral(": ") + e.toString(), UsageError);
        }
        rates = *card;
    }
    return std::nullopt;
}

// The report as -o asks: a PDF (with the console's layers built), CSV, JSON or a table,
// to --out FILE or standard output.
int writeChargeback(const ChargebackReport &report, const QString &format, const QString &outPath) {
#ifdef GQ_CLI_GUI
    if (format == QLatin1String("pdf")) {
        installTranslator();
        auto pages = writeChargebackPdf(report, outPath);
        if (!pages)
            return fail(QStringLiteral("writing %1: %2").arg(outPath, pages.error().toString()));
        out() << "wrote " << outPath << " (" << *pages << (*pages == 1 ? " page" : " pages") << ")\n";
        return Ok;
    }
#endif
    QByteArray bytes;
    if (format == QLatin1String("csv"))
        bytes = chargebackCsv(report);
    else if (format == QLatin1String("json"))
        bytes = QJsonDocument(chargebackJson(report)).toJson(QJsonDocument::Indented);
    else
        bytes = chargebackTable(report).toUtf8();
    if (outPath.isEmpty()) {
        out() << QString::fromUtf8(bytes);
        return Ok;
    }
    if (auto r = writeFileAtomically(outPath, bytes); !r)
        return fail(QStringLiteral("writing %1: %2").arg(outPath, r.error().toString()));
    return Ok;
}

int runChargeback(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("db"), QStringLiteral("month"), QStringLiteral("tz"),
                                    QStringLiteral("by"), QStringLiteral("rate"), QStringLiteral("rates"),
                                    QStringLiteral("output"), QStringLiteral("out")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (!a.positional.isEmpty())
        return fail(QStringLiteral("unexpected argument '%1'").arg(a.positional.first()), UsageError);
    auto tz = parseZone(a.value(QStringLiteral("tz"), QStringLiteral("UTC")), QStringLiteral("--tz"));
    if (!tz)
        return failWith(usage(tz.error()));
    if (!a.has(QStringLiteral("month")))
        return fail(QStringLiteral("--month YYYY-MM is required (e.g. --month 2026-11)"), UsageError);
    auto month = parseChargebackMonth(a.value(QStringLiteral("month")), *tz, QStringLiteral("--month"));
    if (!month)
        return failWith(usage(month.error()));
    const QString by = a.value(QStringLiteral("by"), QStringLiteral("namespace"));
    const std::optional<kueue::QueueLevel> queueLevel = kueue::parseQueueLevel(by);
    if (by != QLatin1String("namespace") && by != QLatin1String("user") && !queueLevel)
        return fail(QStringLiteral("--by must be namespace, user, clusterqueue or localqueue, got '%1'")
                        .arg(elided(by)),
                    UsageError);
    const GroupBy groupBy = by == QLatin1String("user") ? GroupBy::User : GroupBy::Namespace;
    const QString format = outputFormat(a);
    if (format != QLatin1String("table") && format != QLatin1String("csv") &&
        format != QLatin1String("json") && format != QLatin1String("pdf"))
        return fail(QStringLiteral("-o must be table, csv, json or pdf, got '%1'").arg(elided(format)),
                    UsageError);
#ifndef GQ_CLI_GUI
    if (format == QLatin1String("pdf"))
        return fail(QStringLiteral("-o pdf: this gpuquota was built without Qt Gui (GQ_BUILD_GUI=OFF)"),
                    UsageError);
#endif
    const QString outPath = a.value(QStringLiteral("out"));
    if (a.has(QStringLiteral("out")) && outPath.isEmpty())
        return fail(QStringLiteral("--out needs a file name"), UsageError);
    if (format == QLatin1String("pdf") && outPath.isEmpty())
        return fail(QStringLiteral("-o pdf needs --out FILE.pdf (a PDF is not written to a terminal)"),
                    UsageError);
    RateCard rates;
    if (auto code = readRates(a, rates))
        return *code;

    ChargebackRegroup regroup;
    if (queueLevel) {
        auto queues = readQueueAttribution(a);
        if (!queues)
            return failWith(queues.error());
        regroup.name = kueue::queueLevelName(*queueLevel);
        regroup.subjectOf = [attribution = std::move(*queues), level = *queueLevel](const QString &ns) {
            return attribution.subjectOf(ns, level);
        };
    }
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    auto report = queryChargeback(**db, groupBy, *month, rates, Clock::system().nowSecs(), regroup);
    if (!report)
        return failWith(report.error());
    return writeChargeback(*report, format, outPath);
}

int runReport(const QStringList &argv) {
    if (argv.isEmpty() || argv.first() != QLatin1String("chargeback"))
        return fail(QStringLiteral("report needs a kind: chargeback"), UsageError);
    return runChargeback(argv.mid(1));
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("report"), QStringLiteral("report chargeback --db URL --month YYYY-MM"),
    QStringLiteral("GPU-hours x rate per namespace|user|clusterqueue|localqueue for a month [--tz Z] "
                   "[--by B] "
                   "[--rate R|--rates F] [-o table|csv|json|pdf] [--out F]"),
    65, runReport, wantsPdf);

} // namespace gq::cli
