#include "services/selfservice/boostrequestform.h"

#include <QJsonObject>
#include <QTranslator>

namespace gq {

namespace {

QString esc(const QString &s) {
    return s.toHtmlEscaped();
}

// Badge colours by state (the battery's palette).
const char *colourOf(const QString &state) {
    if (state == QLatin1String("approved"))
        return "#2e7d32";
    if (state == QLatin1String("denied"))
        return "#c62828";
    if (state == QLatin1String("pending"))
        return "#f9a825";
    return "#607080";
}

} // namespace

BoostRequestForm::BoostRequestForm(const QTranslator *translator)
    : m_translator(translator) {}

QString BoostRequestForm::t(const char *source) const {
    if (m_translator) {
        const QString translated = m_translator->translate("BoostRequestForm", source);
        if (!translated.isEmpty())
            return translated;
    }
    return QString::fromUtf8(source);
}

QString BoostRequestForm::stateText(const QString &state) const {
    if (state == QLatin1String("pending"))
        return t(QT_TR_NOOP("pending"));
    if (state == QLatin1String("approved"))
        return t(QT_TR_NOOP("approved"));
    if (state == QLatin1String("denied"))
        return t(QT_TR_NOOP("denied"));
    if (state == QLatin1String("expired"))
        return t(QT_TR_NOOP("expired"));
    return t(QT_TR_NOOP("withdrawn"));
}

QString BoostRequestForm::render(const QJsonArray &requests, const QUrlQuery &page) const {
    QString message;
    if (page.hasQueryItem(QStringLiteral("requested")))
        message = t(QT_TR_NOOP("Request #%1 sent: an admin approves or denies it."))
                      .arg(page.queryItemValue(QStringLiteral("requested"), QUrl::FullyDecoded));
    else if (page.hasQueryItem(QStringLiteral("request_error")))
        message = t(QT_TR_NOOP("The request was not sent: %1"))
                      .arg(page.queryItemValue(QStringLiteral("request_error"), QUrl::FullyDecoded));
    QString html = QStringLiteral("<section class=\"card\" id=\"boost-requests\"><h2>%1</h2>")
                       .arg(esc(t(QT_TR_NOOP("Ask for more GPU-hours"))));
    if (!message.isEmpty())
        html += QStringLiteral("<p id=\"request-message\">%1</p>").arg(esc(message));
    if (!requests.isEmpty()) {
        html += QStringLiteral("<ul id=\"my-requests\">");
        for (const QJsonValue &v : requests) {
            const QJsonObject r = v.toObject();
            const QString state = r.value(QLatin1String("state")).toString();
            QString line = t(QT_TR_NOOP("#%1: %2 GPU-h until %3 (%4)"))
                               .arg(r.value(QLatin1String("id")).toInteger())
                               .arg(r.value(QLatin1String("hours")).toDouble())
                               .arg(r.value(QLatin1String("until")).toString(),
                                    r.value(QLatin1String("note")).toString());
            html += QStringLiteral("<li><b style=\"color:%1\">%2</b> %3")
                        .arg(QLatin1String(colourOf(state)), esc(stateText(state)), esc(line));
            if (r.contains(QLatin1String("decided_by")) &&
                !r.value(QLatin1String("decision_note")).toString().isEmpty())
                html += QStringLiteral("<br><span class=\"sub\">%1</span>")
                            .arg(esc(t(QT_TR_NOOP("%1: %2"))
                                         .arg(r.value(QLatin1String("decided_by")).toString(),
                                              r.value(QLatin1String("decision_note")).toString())));
            html += QStringLiteral("</li>");
        }
        html += QStringLiteral("</ul>");
    }
    QUrlQuery keep;
    for (const char *k : {"user", "namespace"})
        if (page.hasQueryItem(QLatin1String(k)))
            keep.addQueryItem(QLatin1String(k), page.queryItemValue(QLatin1String(k), QUrl::FullyDecoded));
    const QString action =
        QStringLiteral("/quota/boost-requests/form") +
        (keep.isEmpty() ? QString() : QString(QLatin1Char('?') + keep.toString(QUrl::FullyEncoded)));
    html += QStringLiteral("<form method=\"post\" action=\"%1\" id=\"request-form\"><p>").arg(esc(action));
    html += QStringLiteral("<label>%1 <input name=\"hours\" type=\"number\" min=\"0.25\" step=\"0.25\" "
                           "value=\"4\" size=\"5\"></label> ")
                .arg(esc(t(QT_TR_NOOP("Extra GPU-hours"))));
    html += QStringLiteral("<label>%1 <select name=\"for\">").arg(esc(t(QT_TR_NOOP("for"))));
    const QList<QPair<const char *, const char *>> spans{{"2h", QT_TR_NOOP("2 hours")},
                                                         {"6h", QT_TR_NOOP("6 hours")},
                                                         {"1d", QT_TR_NOOP("1 day")},
                                                         {"3d", QT_TR_NOOP("3 days")},
                                                         {"7d", QT_TR_NOOP("7 days")}};
    for (const auto &[value, label] : spans)
        html += QStringLiteral("<option value=\"%1\"%2>%3</option>")
                    .arg(QLatin1String(value),
                         qstrcmp(value, "1d") == 0 ? QStringLiteral(" selected") : QString(), esc(t(label)));
    html +=
        QStringLiteral("</select></label></p><p><label>%1<br><textarea name=\"note\" rows=\"2\" cols=\"60\" "
                       "minlength=\"10\" required placeholder=\"%2\"></textarea></label></p>")
            .arg(esc(t(QT_TR_NOOP("Why (at least 10 characters)"))),
                 esc(t(QT_TR_NOOP("e.g. paper deadline on Friday, final runs"))));
    html += QStringLiteral("<p><button type=\"submit\">%1</button> <span class=\"sub\">%2</span></p></form>")
                .arg(esc(t(QT_TR_NOOP("Send request"))), esc(t(QT_TR_NOOP("The decision shows here."))));
    html += QStringLiteral("</section>");
    return html;
}

} // namespace gq
