#include "services/selfservice/selfservicepage.h"

#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTimeZone>
#include <QTranslator>

#include <algorithm>
#include <cmath>

namespace gq {

namespace {

struct StateLook {
    const char *emoji;
    const char *colour;
};

StateLook lookOf(const QString &state) {
    if (state == QLatin1String("ok"))
        return {"\U0001F7E9", "#2e7d32"};
    if (state == QLatin1String("near"))
        return {"\U0001F7E8", "#f9a825"};
    if (state == QLatin1String("grace"))
        return {"\U0001F7E7", "#ef6c00"};
    if (state == QLatin1String("over"))
        return {"\U0001F7E5", "#c62828"};
    return {"\u2B1C", "#757575"};
}

QString esc(const QString &s) {
    return s.toHtmlEscaped();
}

// The state to draw: under an unlimited newcomer allowance the plain limit does not hold,
// so nothing is near nor over (the status still says what the plain limit would).
QString shownState(const QJsonObject &s) {
    const QString state = s.value(QLatin1String("state")).toString();
    return s.value(QLatin1String("unlimited")).toBool() && state != QLatin1String("none")
               ? QStringLiteral("ok")
               : state;
}

} // namespace

SelfServicePage::SelfServicePage(const QTranslator *translator, QString htmlLang)
    : m_translator(translator)
    , m_htmlLang(std::move(htmlLang)) {}

QString SelfServicePage::t(const char *source) const {
    if (m_translator) {
        const QString translated = m_translator->translate("SelfServicePage", source);
        if (!translated.isEmpty())
            return translated;
    }
    return QString::fromUtf8(source);
}

QString SelfServicePage::shortHours(double h) {
    QString s = QString::number(h, 'f', std::abs(h) < 1 && h != 0 ? 2 : 1);
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.')))
            s.chop(1);
    }
    return s == QLatin1String("-0") ? QStringLiteral("0") : s;
}

QString SelfServicePage::languageFor(const QByteArray &acceptLanguage) {
    // "zh-CN,zh;q=0.9,en;q=0.8": the highest quality among the languages we speak wins.
    double best = 0;
    QString lang = QStringLiteral("en");
    for (const QByteArray &part : acceptLanguage.split(',')) {
        const QList<QByteArray> fields = part.trimmed().split(';');
        const QString tag = QString::fromLatin1(fields.value(0).trimmed()).toLower();
        double q = 1;
        for (qsizetype i = 1; i < fields.size(); ++i) {
            const QByteArray f = fields[i].trimmed();
            if (f.startsWith("q="))
                q = f.mid(2).toDouble();
        }
        QString candidate;
        if (tag.startsWith(QLatin1String("zh")))
            candidate = QStringLiteral("zh_CN");
        else if (tag.startsWith(QLatin1String("en")) || tag == QLatin1String("*"))
            candidate = QStringLiteral("en");
        if (!candidate.isEmpty() && q > best) {
            best = q;
            lang = candidate;
        }
    }
    return lang;
}

QString SelfServicePage::when(const QString &rfc3339, const QString &tz, const QString &nowRfc3339) const {
    const QTimeZone zone(tz.toUtf8());
    const QDateTime at = QDateTime::fromString(rfc3339, Qt::ISODate).toTimeZone(zone);
    const QDateTime now = QDateTime::fromString(nowRfc3339, Qt::ISODate).toTimeZone(zone);
    if (!at.isValid())
        return rfc3339;
    if (at.date() == now.date())
        return at.toString(QStringLiteral("HH:mm"));
    if (at.date() == now.date().addDays(1))
        return t(QT_TR_NOOP("tomorrow %1")).arg(at.toString(QStringLiteral("HH:mm")));
    return at.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString SelfServicePage::batteryLine(const QJsonObject &s, bool withEmoji) const {
    const QString state = shownState(s);
    const QString period = s.value(QLatin1String("period")).toString();
    // The page draws its own square: a browser without a colour emoji font shows a box.
    const QString emoji = withEmoji ? QString::fromUtf8(lookOf(state).emoji) + QLatin1Char(' ') : QString();
    const double used = s.value(QLatin1String("used")).toDouble();
    const double limit = s.value(QLatin1String("limit")).toDouble();
    const double remaining = s.value(QLatin1String("remaining")).toDouble();
    if (state == QLatin1String("none"))
        return emoji + QLatin1Char(' ') +
               t(QT_TR_NOOP("No budget: %1 GPU-h used today")).arg(shortHours(used));
    QString line;
    if (s.value(QLatin1String("unlimited")).toBool()) { // a newcomer's: no remainder to show
        line = period == QLatin1String("week")    ? t(QT_TR_NOOP("No limit: %1 GPU-h used this week"))
               : period == QLatin1String("month") ? t(QT_TR_NOOP("No limit: %1 GPU-h used this month"))
                                                  : t(QT_TR_NOOP("No limit: %1 GPU-h used today"));
        return emoji + line.arg(shortHours(used));
    }
    if (state == QLatin1String("ok") || state == QLatin1String("near")) {
        line = period == QLatin1String("week")    ? t(QT_TR_NOOP("%1 GPU-h left of %2 this week"))
               : period == QLatin1String("month") ? t(QT_TR_NOOP("%1 GPU-h left of %2 this month"))
                                                  : t(QT_TR_NOOP("%1 GPU-h left of %2 today"));
        return emoji + line.arg(shortHours(remaining), shortHours(limit));
    }
    if (state == QLatin1String("grace")) {
        line = period == QLatin1String("week")    ? t(QT_TR_NOOP("%1 GPU-h over %2 this week, in grace"))
               : period == QLatin1String("month") ? t(QT_TR_NOOP("%1 GPU-h over %2 this month, in grace"))
                                                  : t(QT_TR_NOOP("%1 GPU-h over %2 today, in grace"));
        return emoji + line.arg(shortHours(-remaining), shortHours(limit));
    }
    line = period == QLatin1String("week")    ? t(QT_TR_NOOP("Spent: %1 of %2 GPU-h used this week"))
           : period == QLatin1String("month") ? t(QT_TR_NOOP("Spent: %1 of %2 GPU-h used this month"))
                                              : t(QT_TR_NOOP("Spent: %1 of %2 GPU-h used today"));
    return emoji + line.arg(shortHours(used), shortHours(limit));
}

QString SelfServicePage::forecastText(const QJsonObject &b, const QString &nowRfc3339) const {
    const QString tz = b.value(QLatin1String("tz")).toString();
    const QString kind = b.value(QLatin1String("forecast")).toString();
    const QString gpus = shortHours(b.value(QLatin1String("running_gpus")).toDouble());
    const QString at = when(b.value(QLatin1String("forecast_exhaustion")).toString(), tz, nowRfc3339);
    if (kind == QLatin1String("runs-out"))
        return t(QT_TR_NOOP("At this rate (%1 GPUs) it runs out at %2.")).arg(gpus, at);
    if (kind == QLatin1String("not-at-this-rate"))
        return t(QT_TR_NOOP("At this rate (%1 GPUs) it lasts until the period ends.")).arg(gpus);
    if (kind == QLatin1String("in-grace"))
        return t(QT_TR_NOOP("In grace: at this rate (%1 GPUs) grace ends at %2.")).arg(gpus, at);
    if (kind == QLatin1String("spent"))
        return t(QT_TR_NOOP("Spent: no new GPU job can start this period."));
    return t(QT_TR_NOOP("Nothing is running now."));
}

QString SelfServicePage::historyChart(const QJsonObject &s) const {
    const QJsonArray days =
        s.value(QLatin1String("history")).toObject().value(QLatin1String("days")).toArray();
    // The daily limit, when the primary budget is a day budget, is drawn as a line.
    double dailyLimit = 0;
    for (const QJsonValue &b : s.value(QLatin1String("budgets")).toArray())
        if (b.toObject().value(QLatin1String("period")).toString() == QLatin1String("day"))
            dailyLimit = std::max(dailyLimit, b.toObject().value(QLatin1String("limit")).toDouble());
    double top = dailyLimit;
    for (const QJsonValue &d : days)
        top = std::max(top, d.toObject().value(QLatin1String("gpu_hours")).toDouble());
    if (top <= 0)
        top = 1;
    top *= 1.1;
    const int w = 640, h = 200, left = 40, bottom = 24, plotH = h - bottom - 8;
    const double slot = days.isEmpty() ? 0 : double(w - left - 4) / days.size();
    QString svg =
        QStringLiteral("<svg class=\"chart\" viewBox=\"0 0 %1 %2\" width=\"%1\" height=\"%2\" role=\"img\" "
                       "aria-label=\"%3\">")
            .arg(w)
            .arg(h)
            .arg(esc(t(QT_TR_NOOP("GPU-hours per day, last 30 days"))));
    // Three grid lines with their values.
    for (int i = 0; i <= 2; ++i) {
        const double v = top / 1.1 * i / 2;
        const double y = 8 + plotH - v / top * plotH;
        svg += QStringLiteral("<line x1=\"%1\" x2=\"%2\" y1=\"%3\" y2=\"%3\" class=\"grid\"/>"
                              "<text x=\"%4\" y=\"%5\" class=\"axis\" text-anchor=\"end\">%6</text>")
                   .arg(left)
                   .arg(w - 4)
                   .arg(y, 0, 'f', 1)
                   .arg(left - 4)
                   .arg(y + 4, 0, 'f', 1)
                   .arg(shortHours(v));
    }
    const QString colour = QString::fromLatin1(lookOf(shownState(s)).colour);
    for (qsizetype i = 0; i < days.size(); ++i) {
        const QJsonObject d = days[i].toObject();
        const double v = d.value(QLatin1String("gpu_hours")).toDouble();
        const double bh = v / top * plotH;
        const double x = left + i * slot + slot * 0.15;
        const bool today = i == days.size() - 1;
        const QString date = d.value(QLatin1String("date")).toString();
        svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" rx=\"2\" fill=\"%5\"%6>"
                              "<title>%7: %8 GPU-h</title></rect>")
                   .arg(x, 0, 'f', 1)
                   .arg(8 + plotH - bh, 0, 'f', 1)
                   .arg(slot * 0.7, 0, 'f', 1)
                   .arg(bh, 0, 'f', 1)
                   .arg(today ? colour : QStringLiteral("#90a4ae"))
                   .arg(today ? QStringLiteral(" class=\"today\"") : QString())
                   .arg(esc(date), QString::number(v, 'f', 2));
        if (i % 7 == (days.size() - 1) % 7)
            // The last label ends at its bar so it stays inside the chart.
            svg += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"axis\" text-anchor=\"%3\">%4</text>")
                       .arg(today ? x + slot * 0.7 : x + slot * 0.35, 0, 'f', 1)
                       .arg(h - 6)
                       .arg(today ? QStringLiteral("end") : QStringLiteral("middle"),
                            today ? esc(t(QT_TR_NOOP("today"))) : esc(date.mid(5)));
    }
    if (dailyLimit > 0) {
        const double y = 8 + plotH - dailyLimit / top * plotH;
        svg +=
            QStringLiteral("<line x1=\"%1\" x2=\"%2\" y1=\"%3\" y2=\"%3\" class=\"limit\"/>"
                           "<text x=\"%2\" y=\"%4\" class=\"axis limitlabel\" text-anchor=\"end\">%5</text>")
                .arg(left)
                .arg(w - 4)
                .arg(y, 0, 'f', 1)
                .arg(y - 4, 0, 'f', 1)
                .arg(esc(t(QT_TR_NOOP("daily limit %1 GPU-h")).arg(shortHours(dailyLimit))));
    }
    return svg + QStringLiteral("</svg>");
}

QString SelfServicePage::identityLine(const QJsonObject &identity) const {
    const QString username = identity.value(QLatin1String("username")).toString();
    if (username.isEmpty())
        return {};
    if (identity.contains(QLatin1String("error")))
        return t(QT_TR_NOOP("Signed in as %1, which is no budget user: %2"))
            .arg(username, identity.value(QLatin1String("error")).toString());
    QStringList how;
    const QStringList steps = identity.value(QLatin1String("rule")).toString().split(QLatin1Char('+'));
    for (const QString &step : steps) {
        if (step == QLatin1String("table"))
            how.append(t(QT_TR_NOOP("from the identity table")));
        else if (step == QLatin1String("service-account"))
            how.append(t(QT_TR_NOOP("a ServiceAccount counts for its namespace")));
        else if (step == QLatin1String("prefix"))
            how.append(t(QT_TR_NOOP("prefix removed")));
        else if (step == QLatin1String("issuer"))
            how.append(t(QT_TR_NOOP("issuer removed")));
        else if (step == QLatin1String("email"))
            how.append(t(QT_TR_NOOP("e-mail local part")));
        else
            how.append(t(QT_TR_NOOP("the name as it is")));
    }
    const QString subject = identity.value(QLatin1String("subject")).toString();
    const QString line = identity.value(QLatin1String("scope")).toString() == QLatin1String("namespace")
                             ? t(QT_TR_NOOP("Signed in as %1: the budget of namespace %2 (%3)"))
                             : t(QT_TR_NOOP("Signed in as %1: budget user %2 (%3)"));
    return line.arg(username, subject, how.join(t(QT_TR_NOOP(", "))));
}

// The budget whose period and remaining hours the status reports at its top level.
QJsonObject SelfServicePage::primaryBudget(const QJsonObject &s) {
    QJsonObject primary;
    for (const QJsonValue &b : s.value(QLatin1String("budgets")).toArray())
        if (b.toObject().value(QLatin1String("period")) == s.value(QLatin1String("period")) &&
            b.toObject().value(QLatin1String("remaining")) == s.value(QLatin1String("remaining")))
            primary = b.toObject();
    return primary;
}

// The document up to <main>: language, title and the style sheet.
QString SelfServicePage::pageHead(const QString &subject) const {
    QString html =
        QStringLiteral("<!DOCTYPE html><html lang=\"%1\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                       "<title>%2</title><style>")
            .arg(m_htmlLang == QLatin1String("zh_CN") ? QStringLiteral("zh-CN") : QStringLiteral("en"),
                 esc(t(QT_TR_NOOP("GPU quota")) + QStringLiteral(" · ") + subject));
    html += QStringLiteral(
        "body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans','Noto Sans CJK SC',sans-serif;"
        "margin:0;background:#f4f6f8;color:#1f2933}"
        "main{max-width:720px;margin:24px auto;padding:0 16px}"
        ".card{background:#fff;border-radius:10px;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:18px 22px;"
        "margin-bottom:16px}"
        "h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 10px}"
        ".sub{color:#607080;font-size:13px}"
        ".battery{font-size:26px;font-weight:600;margin:8px 0 10px}"
        ".sq{display:inline-block;width:.8em;height:.8em;border-radius:3px;margin-right:.35em;vertical-align:"
        "-.02em}"
        ".bar{height:14px;border-radius:7px;background:#e3e8ee;overflow:hidden}"
        ".bar>div{height:100%;border-radius:7px}"
        "dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:14px 0 0;font-size:14px}"
        "dt{color:#607080}dd{margin:0}"
        ".chart{width:100%;height:auto}.grid{stroke:#e3e8ee}.axis{font-size:11px;fill:#607080}"
        ".limit{stroke:#c62828;stroke-dasharray:5 4}.limitlabel{fill:#c62828}"
        "ul{margin:0;padding-left:20px;font-size:14px}p{font-size:14px;line-height:1.5;margin:0 0 6px}"
        "</style></head><body><main>");
    return html;
}

// Whose quota, as of when, the battery line and bar, and the primary budget's figures.
QString SelfServicePage::summaryCard(const QJsonObject &s, const QJsonObject &primary) const {
    const QString state = shownState(s);
    const StateLook look = lookOf(state);
    const QString now = s.value(QLatin1String("now")).toString();
    const QString tz = s.value(QLatin1String("tz")).toString();
    const bool user = s.value(QLatin1String("scope")).toString() == QLatin1String("user");
    const QString subject = s.value(QLatin1String("subject")).toString();
    const double limit = s.value(QLatin1String("limit")).toDouble();
    const double used = s.value(QLatin1String("used")).toDouble();
    const bool unlimited = s.value(QLatin1String("unlimited")).toBool();
    const double fill = unlimited ? 1
                        : state == QLatin1String("none") || limit <= 0
                            ? 0
                            : std::clamp(1 - used / limit, 0.0, 1.0);

    QString html =
        QStringLiteral("<section class=\"card\"><h1>%1</h1><div class=\"sub\">%2</div>")
            .arg(esc((user ? t(QT_TR_NOOP("GPU quota of %1")) : t(QT_TR_NOOP("GPU quota of namespace %1")))
                         .arg(subject)),
                 esc(t(QT_TR_NOOP("As of %1 (%2)")).arg(when(now, tz, now), tz)));
    if (const QString who = identityLine(s.value(QLatin1String("identity")).toObject()); !who.isEmpty())
        html += QStringLiteral("<div class=\"sub\" id=\"identity\">%1</div>").arg(esc(who));
    html += QStringLiteral("<div class=\"battery\" id=\"battery\" style=\"color:%1\"><span class=\"sq\" "
                           "style=\"background:%1\"></span>%2</div>")
                .arg(QLatin1String(look.colour), esc(batteryLine(s, false)));
    html += QStringLiteral("<div class=\"bar\"><div style=\"width:%1%;background:%2\"></div></div>")
                .arg(fill * 100, 0, 'f', 1)
                .arg(QLatin1String(look.colour));
    html += QStringLiteral("<dl>");
    auto row = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<dt>%1</dt><dd>%2</dd>").arg(esc(k), esc(v));
    };
    row(t(QT_TR_NOOP("Used")), t(QT_TR_NOOP("%1 GPU-h")).arg(shortHours(used)));
    if (!primary.isEmpty()) {
        QString lim = t(QT_TR_NOOP("%1 GPU-h")).arg(shortHours(limit));
        if (const double boost = primary.value(QLatin1String("boost")).toDouble(); std::abs(boost) > 1e-9)
            lim += QLatin1Char(' ') +
                   t(QT_TR_NOOP("(%1 + %2 boost)"))
                       .arg(shortHours(primary.value(QLatin1String("budget_limit")).toDouble()),
                            shortHours(boost));
        row(t(QT_TR_NOOP("Limit")), unlimited ? t(QT_TR_NOOP("no limit")) : lim);
        row(t(QT_TR_NOOP("Left")),
            unlimited
                ? t(QT_TR_NOOP("no limit"))
                : t(QT_TR_NOOP("%1 GPU-h")).arg(shortHours(s.value(QLatin1String("remaining")).toDouble())));
        if (const QString until = primary.value(QLatin1String("newcomerUntil")).toString();
            !until.isEmpty()) {
            // The last day it covers, as `budget status` and the console say it.
            const QTimeZone zone(primary.value(QLatin1String("tz")).toString().toUtf8());
            const QDateTime end = QDateTime::fromString(until, Qt::ISODate).addSecs(-1).toTimeZone(zone);
            row(t(QT_TR_NOOP("Newcomer")),
                t(QT_TR_NOOP("newcomer allowance until %1")).arg(end.toString(QStringLiteral("MM-dd"))));
        }
        row(t(QT_TR_NOOP("Period")), when(s.value(QLatin1String("period_start")).toString(), tz, now) +
                                         QStringLiteral(" – ") +
                                         when(s.value(QLatin1String("period_end")).toString(), tz, now));
        row(t(QT_TR_NOOP("Forecast")), forecastText(primary, now));
        if (s.value(QLatin1String("grace_end")).isString())
            row(t(QT_TR_NOOP("Grace ends")), when(s.value(QLatin1String("grace_end")).toString(), tz, now));
    }
    html += QStringLiteral("</dl></section>");
    return html;
}

QString SelfServicePage::boostsCard(const QJsonObject &s) const {
    const QString now = s.value(QLatin1String("now")).toString();
    const QString tz = s.value(QLatin1String("tz")).toString();
    QString html =
        QStringLiteral("<section class=\"card\"><h2>%1</h2>").arg(esc(t(QT_TR_NOOP("Active boosts"))));
    const QJsonArray boosts = s.value(QLatin1String("active_boosts")).toArray();
    if (boosts.isEmpty()) {
        html += QStringLiteral("<p>%1</p>").arg(esc(t(QT_TR_NOOP("No boost is active."))));
    } else {
        html += QStringLiteral("<ul>");
        for (const QJsonValue &v : boosts) {
            const QJsonObject b = v.toObject();
            const bool budget = b.value(QLatin1String("kind")).toString() == QLatin1String("budget");
            const QString what =
                budget
                    ? t(QT_TR_NOOP("+%1 GPU-h on the budget")).arg(b.value(QLatin1String("delta")).toString())
                    : t(QT_TR_NOOP("+%1 %2 on the quota"))
                          .arg(b.value(QLatin1String("delta")).toString(),
                               b.value(QLatin1String("resource")).toString());
            QString line =
                what + QStringLiteral(", ") +
                t(QT_TR_NOOP("until %1")).arg(when(b.value(QLatin1String("expiry")).toString(), tz, now));
            if (const QString note = b.value(QLatin1String("note")).toString(); !note.isEmpty())
                line += QStringLiteral(" — ") + note;
            html += QStringLiteral("<li>%1</li>").arg(esc(line));
        }
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("</section>");
    return html;
}

// What the budget does when it runs out: refusal, grace, whom to ask.
QString SelfServicePage::limitCard(const QJsonObject &s, const QJsonObject &primary) const {
    const QString now = s.value(QLatin1String("now")).toString();
    const QString tz = s.value(QLatin1String("tz")).toString();
    QString html = QStringLiteral("<section class=\"card\"><h2>%1</h2>")
                       .arg(esc(t(QT_TR_NOOP("What happens at the limit"))));
    if (primary.isEmpty()) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(esc(t(QT_TR_NOOP(
                        "No GPU-hour budget applies: only the namespace's GPU quota limits what can run."))));
    } else {
        const qint64 grace = qint64(primary.value(QLatin1String("grace_seconds")).toDouble());
        html += QStringLiteral("<p>%1</p>")
                    .arg(esc(
                        t(QT_TR_NOOP("When nothing is left, new GPU pods are refused until the budget starts "
                                     "again (%1)."))
                            .arg(when(s.value(QLatin1String("period_end")).toString(), tz, now))));
        html +=
            QStringLiteral("<p>%1</p>")
                .arg(esc(grace > 0
                             ? t(QT_TR_NOOP("Pods already running are not stopped at once: they may run on "
                                            "for a grace of %1 minutes at their current size."))
                                   .arg(grace / 60)
                             : t(QT_TR_NOOP("This budget has no grace period."))));
        html += QStringLiteral("<p>%1</p>")
                    .arg(esc(t(QT_TR_NOOP("Need more? Ask your cluster admin for a boost."))));
    }
    html += QStringLiteral("</section>");
    return html;
}

QString SelfServicePage::render(const QJsonObject &s) const {
    const QJsonObject primary = primaryBudget(s);
    QString html = pageHead(s.value(QLatin1String("subject")).toString());
    html += summaryCard(s, primary);
    html += QStringLiteral("<section class=\"card\"><h2>%1</h2>%2</section>")
                .arg(esc(t(QT_TR_NOOP("Last 30 days"))), historyChart(s));
    html += boostsCard(s);
    html += limitCard(s, primary);
    html += QStringLiteral("</main></body></html>");
    return html;
}

} // namespace gq
