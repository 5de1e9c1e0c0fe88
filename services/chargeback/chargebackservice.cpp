#include "chargebackservice.h"

#include "chargebackquery.h"
#include "clock.h"
#include "ratecard.h"
#include "timewindow.h"
#include "usagestore.h"

#include <QFileInfo>

namespace gq {

Result<ChargebackReport> readChargeback(const QString &url, const QString &password,
                                        const ChargebackRequest &r, qint64 now) {
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
    UsageStore::Options options;
    options.readOnly = true;
    options.password = password;
    auto store = UsageStore::open(url, options);
    if (!store)
        return store.error();
    return queryChargeback(**store, r.by, *month, rates, now, r.regroup);
}

ChargebackService::ChargebackService(QObject *parent)
    : QObject(parent) {}

void ChargebackService::setDatabase(const QString &url, const QString &password) {
    m_jobs.cancel(); // an answer from the previous database must not land
    m_url = url;
    m_password = password;
}

void ChargebackService::load(const ChargebackRequest &request) {
    m_jobs.cancel(); // a newer request replaces the one still out
    if (m_url.isEmpty())
        return;
    m_jobs.run([url = m_url, password = m_password,
                request] { return readChargeback(url, password, request, Clock::system().nowSecs()); },
               [this](const Result<ChargebackReport> &report) {
                   if (report)
                       emit reportReady(*report);
                   else
                       emit failed(report.error());
               });
}

} // namespace gq
