#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>

class QTranslator;

namespace gq {

// The self-service page (`GET /quota`): one self-contained HTML document (inline CSS,
// inline SVG, no script, no external asset) drawn from the status document of
// quotaStatus(). Strings are in the SelfServicePage translation context; the
// translator of the request's language is passed in, because one controller answers
// people in several languages at once (the process-wide translator cannot be switched
// per request). Without a translator (or for a string it lacks) the text is English.
class SelfServicePage {
    Q_DECLARE_TR_FUNCTIONS(SelfServicePage)

public:
    explicit SelfServicePage(const QTranslator *translator = nullptr,
                             QString htmlLang = QStringLiteral("en"));

    [[nodiscard]] QString render(const QJsonObject &status) const;
    // "🟩 2.3 GPU-h left of 8 today" for the primary budget; also what `gpuquota status` prints.
    [[nodiscard]] QString batteryLine(const QJsonObject &status, bool withEmoji = true) const;
    // The forecast in words ("At this rate (2 GPUs) it runs out at 15:40.").
    [[nodiscard]] QString forecastText(const QJsonObject &budget, const QString &nowRfc3339) const;
    // "Signed in as alice@example.com: budget user alice (e-mail local part)" from the
    // status document's `identity` block (selfservice.h); empty without one.
    [[nodiscard]] QString identityLine(const QJsonObject &identity) const;

    // "en" or "zh_CN" from an Accept-Language header (quality values honoured; English
    // when nothing we speak is asked for).
    [[nodiscard]] static QString languageFor(const QByteArray &acceptLanguage);
    // "2.3", "8", "0.25": GPU-hours as the battery line shows them.
    [[nodiscard]] static QString shortHours(double h);

private:
    QString t(const char *source) const;
    QString when(const QString &rfc3339, const QString &tz, const QString &nowRfc3339) const;
    QString historyChart(const QJsonObject &status) const;
    // render()'s parts, in the order of the page.
    static QJsonObject primaryBudget(const QJsonObject &status);
    QString pageHead(const QString &subject) const;
    QString summaryCard(const QJsonObject &status, const QJsonObject &primary) const;
    QString boostsCard(const QJsonObject &status) const;
    QString limitCard(const QJsonObject &status, const QJsonObject &primary) const;

    const QTranslator *m_translator;
    QString m_htmlLang;
};

} // namespace gq
