#include "alert.h"

#include <array>
#include <utility>

namespace gq {

namespace {

constexpr std::array<std::pair<Alert::Kind, const char *>, 6> kKinds{{
    {Alert::Kind::BudgetThreshold, "budget-threshold"},
    {Alert::Kind::BoostExpiring, "boost-expiring"},
    {Alert::Kind::ClampApplied, "clamp-applied"},
    {Alert::Kind::ClampLifted, "clamp-lifted"},
    {Alert::Kind::DatabaseUnwritable, "database-unwritable"},
    {Alert::Kind::IdleGpus, "idle-gpus"},
}};

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
    switch (a.kind) {
    case Alert::Kind::BudgetThreshold:
        o.insert(QStringLiteral("budgetId"), a.budgetId);
        o.insert(QStringLiteral("scope"), scopeName(a.scope));
        o.insert(QStringLiteral("subject"), a.subject);
        o.insert(QStringLiteral("period"), periodName(a.period));
        o.insert(QStringLiteral("threshold"), a.threshold);
        o.insert(QStringLiteral("usedGpuHours"), a.usedGpuHours);
        o.insert(QStringLiteral("limitGpuHours"), a.limitGpuHours);
        o.insert(QStringLiteral("periodStart"), a.periodStart);
        o.insert(QStringLiteral("periodEnd"), a.periodEnd);
        break;
    case Alert::Kind::BoostExpiring:
        o.insert(QStringLiteral("boostId"), a.boostId);
        o.insert(QStringLiteral("target"), a.target);
        o.insert(QStringLiteral("delta"), a.delta);
        o.insert(QStringLiteral("expiry"), a.expiry);
        break;
    case Alert::Kind::ClampApplied:
    case Alert::Kind::ClampLifted:
        o.insert(QStringLiteral("resource"), a.resource);
        o.insert(QStringLiteral("before"), a.before);
        o.insert(QStringLiteral("after"), a.after);
        o.insert(QStringLiteral("reason"), a.reason);
        break;
    case Alert::Kind::DatabaseUnwritable:
        o.insert(QStringLiteral("since"), a.since);
        o.insert(QStringLiteral("detail"), a.detail);
        break;
    case Alert::Kind::IdleGpus:
        o.insert(QStringLiteral("pod"), a.pod);
        o.insert(QStringLiteral("gpus"), a.gpus);
        o.insert(QStringLiteral("since"), a.since);
        o.insert(QStringLiteral("wastedGpuHours"), a.wastedGpuHours);
        break;
    }
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
    switch (a.kind) {
    case Alert::Kind::BudgetThreshold: {
        a.budgetId = i64("budgetId");
        auto scope = parseScope(str("scope"));
        if (!scope)
            return scope.error();
        a.scope = *scope;
        a.subject = str("subject");
        auto period = parsePeriod(str("period"));
        if (!period)
            return period.error();
        a.period = *period;
        a.threshold = o.value(QStringLiteral("threshold")).toInt();
        a.usedGpuHours = o.value(QStringLiteral("usedGpuHours")).toDouble();
        a.limitGpuHours = o.value(QStringLiteral("limitGpuHours")).toDouble();
        a.periodStart = i64("periodStart");
        a.periodEnd = i64("periodEnd");
        break;
    }
    case Alert::Kind::BoostExpiring:
        a.boostId = i64("boostId");
        a.target = str("target");
        a.delta = str("delta");
        a.expiry = i64("expiry");
        break;
    case Alert::Kind::ClampApplied:
    case Alert::Kind::ClampLifted:
        a.resource = str("resource");
        a.before = str("before");
        a.after = str("after");
        a.reason = str("reason");
        break;
    case Alert::Kind::DatabaseUnwritable:
        a.since = i64("since");
        a.detail = str("detail");
        break;
    case Alert::Kind::IdleGpus:
        a.pod = str("pod");
        a.gpus = o.value(QStringLiteral("gpus")).toDouble();
        a.since = i64("since");
        a.wastedGpuHours = o.value(QStringLiteral("wastedGpuHours")).toDouble();
        break;
    }
    return a;
}

} // namespace gq
