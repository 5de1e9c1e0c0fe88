#pragma once

#include <QCoreApplication>
#include <QJsonArray>
#include <QString>
#include <QUrlQuery>

class QTranslator;

namespace gq {

// The self-service page's boost request section (`GET /quota`): the caller's requests
// with their state and the admin's decision, and a form that asks for more GPU-hours
// on the page's budget (POST /quota/boost-requests/form, urlencoded: hours, for, note;
// the controller answers 303 back to the page). Plain HTML, no script, strings in the
// BoostRequestForm translation context with the request's translator (as
// SelfServicePage).
class BoostRequestForm {
    Q_DECLARE_TR_FUNCTIONS(BoostRequestForm)

public:
    explicit BoostRequestForm(const QTranslator *translator = nullptr);

    // `requests` as boostRequestJson() writes them; `page` is the page's query (user= or
    // namespace= stay; requested=ID or request_error=TEXT, where the form's POST sent
    // the browser back, become a line above the form).
    [[nodiscard]] QString render(const QJsonArray &requests, const QUrlQuery &page) const;
    // "pending", "approved", ... in the page's language.
    [[nodiscard]] QString stateText(const QString &state) const;

private:
    QString t(const char *source) const;
    const QTranslator *m_translator;
};

} // namespace gq
