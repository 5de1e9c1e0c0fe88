#include "core/usage/alert.h"

#include <array>
#include <utility>
#include <variant>

namespace gq {

namespace {

constexpr std::array<std::pair<Alert::Kind, const char *>, 8> kKinds{{
    {Alert::Kind::BudgetThreshold, "budget-threshold"},
    {Alert::Kind::BoostExpiring, "boost-expiring"},
    {Alert::Kind::ClampApplied, "clamp-applied"},
    {Alert::Kind::ClampLifted, "clamp-lifted"},
    {Alert::Kind::DatabaseUnwritable, "database-unwritable"},
    {Alert::Kind::IdleGpus, "idle-gpus"},
    {Alert::Kind::WebhookNotCalled, "webhook-not-called"},
    {Alert::Kind::BoostRequestDecided, "boost-request-decided"},
}};

// A field of an alert that JSON carries as it is: its key, and the member it is read
// into and written from.
struct PlainField {
    const char *key;
    std::variant<QString Alert::*, qint64 Alert::*, double Alert::*, int Alert::*> member;
};

// The plain fields of each kind, besides the common ones; a budget threshold's scope
// and period go by their names, apart. One list for both directions, so what is
// written is what is read.
QList<PlainField> kindFields(Alert::Kind kind) {
    switch (kind) {
    case Alert::Kind::BudgetThreshold:
        return {{"budgetId", &Alert::budgetId},           {"subject", &Alert::subject},
                {"threshold", &Alert::threshold},         {"usedGpuHours", &Alert::usedGpuHours},
                {"limitGpuHours", &Alert::limitGpuHours}, {"periodStart", &Alert::periodStart},
                {"periodEnd", &Alert::periodEnd}};
    case Alert::Kind::BoostExpiring:
        return {{"boostId", &Alert::boostId},
                {"target", &Alert::target},
                {"delta", &Alert::delta},
                {"expiry", &Alert::expiry}};
    case Alert::Kind::ClampApplied:
    case Alert::Kind::ClampLifted:
        return {{"resource", &Alert::resource},
                {"before", &Alert::before},
                {"after", &Alert::after},
                {"reason", &Alert::reason}};
    case Alert::Kind::DatabaseUnwritable: return {{"since", &Alert::since}, {"detail", &Alert::detail}};
    case Alert::Kind::IdleGpus:
        return {{"pod", &Alert::pod},
                {"gpus", &Alert::gpus},
                {"since", &Alert::since},
                {"wastedGpuHours", &Alert::wastedGpuHours}};
    case Alert::Kind::WebhookNotCalled:
        return {{"since", &Alert::since},
                {"podCount", &Alert::podCount},
                {"expiry", &Alert::expiry},
                {"detail", &Alert::detail}};
    case Alert::Kind::BoostRequestDecided:
        return {{"request", &Alert::requestId},   {"target", &Alert::target},
                {"decision", &Alert::detail},     {"note", &Alert::reason},
                {"decidedBy", &Alert::decidedBy}, {"delta", &Alert::delta},
                {"expiry", &Alert::expiry},       {"boostId", &Alert::boostId}};
    }
    return {};
}

void readInto(const QJsonValue &v, QString &out) {
    out = v.toString();
}
void readInto(const QJsonValue &v, qint64 &out) {
    out = qint64(v.toDouble());
}
void readInto(const QJsonValue &v, double &out) {
    out = v.toDouble();
}
void readInto(const QJsonValue &v, int &out) {
    out = v.toInt();
}

} // namespace

QString alertKindName(Alert::Kind kind) {
    for (const auto &[k, name] : kKinds)
        if (k == kind)
            return QString::fromLatin1(name);
    return {};
}

Result<Alert::Kind> parseAlertKind(const QString &text) {
    for (const auto &[k, name] : kKinds)
        if (text == QLatin1String(name))
            return k;
    return Error::make(Error::Kind::Invalid, QStringLiteral("unknown alert kind '%1'").arg(elided(text)),
                       QStringLiteral("kind"));
}

// Only the fields of the alert's kind are written, so a webhook receiver sees what
// applies (the common ones always).
QJsonObject alertToJson(const Alert &a) {
    QJsonObject o{{QStringLiteral("kind"), alertKindName(a.kind)},
                  {QStringLiteral("key"), a.key},
                  {QStringLiteral("at"), a.at}};
    if (!a.user.isEmpty())
        o.insert(QStringLiteral("user"), a.user);
    if (!a.ns.isEmpty())
        o.insert(QStringLiteral("namespace"), a.ns);
    if (a.kind == Alert::Kind::BudgetThreshold) {
        o.insert(QStringLiteral("scope"), scopeName(a.scope));
        o.insert(QStringLiteral("period"), periodName(a.period));
    }
    for (const PlainField &f : kindFields(a.kind))
        std::visit([&](auto member) { o.insert(QLatin1String(f.key), a.*member); }, f.member);
    return o;
}

Result<Alert> alertFromJson(const QJsonObject &o) {
    auto kind = parseAlertKind(o.value(QStringLiteral("kind")).toString());
    if (!kind)
        return kind.error();
    Alert a;
    a.kind = *kind;
    a.key = o.value(QStringLiteral("key")).toString();
    if (a.key.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("an alert without a key"),
                           QStringLiteral("key"));
    const auto i64 = [&](const char *k) { return qint64(o.value(QLatin1String(k)).toDouble()); };
    const auto str = [&](const char *k) { return o.value(QLatin1String(k)).toString(); };
    a.at = i64("at");
    a.user = str("user");
    a.ns = str("namespace");
    if (a.kind == Alert::Kind::BudgetThreshold) {
        auto scope = parseScope(str("scope"));
        if (!scope)
            return scope.error();
        a.scope = *scope;
        auto period = parsePeriod(str("period"));
        if (!period)
            return period.error();
        a.period = *period;
    }
    for (const PlainField &f : kindFields(a.kind))
        std::visit([&](auto member) { readInto(o.value(QLatin1String(f.key)), a.*member); }, f.member);
    return a;
}

} // namespace gq
