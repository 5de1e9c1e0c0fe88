#include "app/cli/usageverbs.h"

#include "core/usage/auditlog.h"
#include "services/platform/platform.h"
#include "app/cli/settingsdefaults.h"

#include <cmath>

namespace gq::cli::usageverbs {

Args parseArgs(const QStringList &args, const QStringList &known) {
    return parseFlags(args, valueFlags(known));
}

Result<std::unique_ptr<UsageStore>> openDb(const Args &a, DbAccess access) {
    QString url = a.value(QStringLiteral("db"));
    if (url.isEmpty()) {
        // The console's connection of the context in use, as the default.
        const SettingsDefaults d =
            settingsDefaults(a.value(QStringLiteral("kubeconfig")), a.value(QStringLiteral("context")));
        url = d.usageDatabase;
        if (url.isEmpty())
            return Error::make(
                Error::Kind::Usage,
                QStringLiteral("--db URL is required (sqlite:///path/usage.db or "
                               "postgresql://user@host:port/db), or set the usage database of %1 in the "
                               "console's Preferences > Connections (settings file %2)")
                    .arg(d.context.isEmpty() ? QStringLiteral("the current context")
                                             : QStringLiteral("context \"%1\"").arg(d.context),
                         d.file));
    }
    UsageStore::Options options;
    options.readOnly = access == DbAccess::ReadOnly;
    // Only used when the database is created: the zone of its daily rollups.
    if (a.has(QStringLiteral("rollup-tz"))) {
        auto tz = parseZone(a.value(QStringLiteral("rollup-tz")), QStringLiteral("--rollup-tz"));
        if (!tz) {
            Error e = tz.error();
            e.kind = Error::Kind::Usage;
            return e;
        }
        options.rollupZone = QString::fromUtf8(tz->id());
    }
    // GPU model weights (the controller's gpuModelWeights) for what this verb weighs
    // itself (check --gpu-model) or writes; stored rows keep the factor they were written with.
    if (a.has(QStringLiteral("gpu-model-weights")))
        if (auto r = options.weights.addModels(a.value(QStringLiteral("gpu-model-weights")),
                                               QStringLiteral("--gpu-model-weights"));
            !r) {
            Error e = r.error();
            e.kind = Error::Kind::Usage;
            return e;
        }
    return UsageStore::open(url, options);
}

Result<qint64> instantFlag(const Args &a, const QString &name, std::optional<qint64> fallback) {
    if (!a.has(name)) {
        if (fallback)
            return *fallback;
        return Error::make(Error::Kind::Usage, QStringLiteral("--%1 TIME is required (RFC 3339)").arg(name));
    }
    auto t = parseInstant(a.value(name), QStringLiteral("--") + name);
    if (!t) {
        Error e = t.error();
        e.kind = Error::Kind::Usage;
        return e;
    }
    return *t;
}

Result<double> numberFlag(const Args &a, const QString &name) {
    if (!a.has(name))
        return Error::make(Error::Kind::Usage, QStringLiteral("--%1 is required").arg(name));
    bool ok = false;
    const double v = a.value(name).toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0)
        return Error::make(
            Error::Kind::Usage,
            QStringLiteral("--%1 must be a non-negative number, got '%2'").arg(name, a.value(name)));
    return v;
}

QString nowDefault(const Args &a, qint64 *now) {
    auto t = instantFlag(a, QStringLiteral("now"), Clock::system().nowSecs());
    if (!t)
        return t.error().toString();
    *now = *t;
    return {};
}

std::optional<int> openForReading(const Args &a, qint64 &now, std::unique_ptr<UsageStore> &store) {
    if (const QString e = nowDefault(a, &now); !e.isEmpty())
        return fail(e, UsageError);
    auto db = openDb(a, DbAccess::ReadOnly);
    if (!db)
        return failWith(db.error());
    store = std::move(*db);
    return std::nullopt;
}

void printTable(const QList<QStringList> &rows) {
    if (rows.isEmpty())
        return;
    QList<int> width(rows.first().size(), 0);
    for (const QStringList &r : rows)
        for (int c = 0; c < r.size() && c < width.size(); ++c)
            width[c] = std::max(width[c], int(r[c].size()));
    for (const QStringList &r : rows) {
        QString line;
        for (int c = 0; c < r.size(); ++c)
            line += c + 1 == r.size() ? r[c] : r[c].leftJustified(width[c] + 3);
        out() << line << '\n';
    }
}

QString actorOf(const Args &a) {
    const QString given = a.value(QStringLiteral("actor")).trimmed();
    if (!given.isEmpty())
        return given;
    // The account the process runs as, not $USER: the environment is the caller's to set.
    return platform::osUserName();
}

Result<void> audit(UsageStore &store, const Args &a, const QString &action, const QString &target,
                   const QString &before, const QString &after) {
    AuditLog log(store);
    auto r = log.append(actorOf(a), action, target, before, after, a.value(QStringLiteral("note")));
    if (!r)
        return r.error();
    return {};
}

} // namespace gq::cli::usageverbs
