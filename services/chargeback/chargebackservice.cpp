#include "services/chargeback/chargebackservice.h"

#include "core/report/chargebackquery.h"
#include "core/domain/clock.h"
#include "core/report/ratecard.h"
#include "services/usage/storeworker.h"
#include "core/usage/timewindow.h"
#include "services/usage/usagedatabase.h"
#include "core/usage/usagestore.h"

#include <QFileInfo>

namespace gq {

namespace {
UsageStore::Options readOnly() {
    UsageStore::Options options;
    options.readOnly = true;
    return options;
}

// With `store`, or one opened here by `open`.
template <typename Open> Result<ChargebackReport> read(const ChargebackRequest &r, qint64 now, Open open) {
    auto tz = parseZone(r.zone, QStringLiteral("zone"));
    if (!tz)
        return tz.error();
    auto month = parseChargebackMonth(
        QStringLiteral("%1-%2").arg(r.year, 4, 10, QLatin1Char('0')).arg(r.month, 2, 10, QLatin1Char('0')),
        *tz, QStringLiteral("month"));
    if (!month)
        return month.error();
    RateCard rates = RateCard::flat(r.rateMicros);
    if (!r.ratesFile.isEmpty()) {
        auto card = loadRateCard(r.ratesFile);
        if (!card) {
            Error e = card.error();
            e.message = QStringLiteral("%1%2: %3")
                            .arg(QFileInfo(r.ratesFile).fileName(),
                                 e.line > 0 ? QStringLiteral(":%1").arg(e.line) : QString(), e.toString());
            e.field.clear();
            return e;
        }
        rates = *card;
    }
    if (rates.currency.isEmpty())
        rates.currency = r.currency;
    return open(
        [&](const UsageStore &store) { return queryChargeback(store, r.by, *month, rates, now, r.regroup); });
}
} // namespace

Result<ChargebackReport> readChargeback(const UsageStore &store, const ChargebackRequest &r, qint64 now) {
    return read(r, now, [&store](const auto &query) -> Result<ChargebackReport> { return query(store); });
}

ChargebackService::ChargebackService(UsageDatabase *database, QObject *parent)
    : QObject(parent)
    , m_database(database ? database : new UsageDatabase(this))
    , m_lane(m_database->lane(new StoreWorker, QStringLiteral("gq-chargeback"), readOnly()))
    , m_worker(m_lane->worker()) {}

ChargebackService::~ChargebackService() {
    m_jobs.cancel();
    m_lane->shutDown();
}

void ChargebackService::setDatabase(const QString &url, const QString &password) {
    m_jobs.cancel(); // an answer from the previous database must not land
    m_url = url;
    if (!url.isEmpty())
        m_database->open(url, password);
}

void ChargebackService::load(const ChargebackRequest &request) {
    m_jobs.cancel(); // a newer request replaces the one still out
    if (m_url.isEmpty())
        return;
    m_jobs.runOn(
        m_worker,
        [w = m_worker, request](const JobToken &token) -> Result<ChargebackReport> {
            if (token.isCancelled()) // replaced before it started: dropped anyway
                return ChargebackReport{};
            return read(request, Clock::system().nowSecs(),
                        [w](const auto &query) -> Result<ChargebackReport> {
                            // As `gpuquota report chargeback`: a database that did not open is tried
                            // again at each report, and its own error shown.
                            if (!w->ready())
                                if (auto opened = w->open(); !opened)
                                    return opened.error();
                            return query(*w->store);
                        });
        },
        [this](const Result<ChargebackReport> &report) {
            if (report)
                emit reportReady(*report);
            else
                emit failed(report.error());
        });
}

} // namespace gq
