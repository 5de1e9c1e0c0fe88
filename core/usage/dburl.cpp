#include "core/usage/dburl.h"

#include "core/usage/timewindow.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

#include <limits>
#include <optional>

namespace gq {

static Error urlError(const QString &message) {
    return Error::make(Error::Kind::Usage, message, QStringLiteral("db"));
}

// "250ms", or a duration as parseDuration() reads it ("5s", "1m30s", "60").
static std::optional<int> parseTimeoutMs(const QString &value) {
    bool ok = false;
    qint64 ms = -1;
    if (value.endsWith(QLatin1String("ms"))) {
        ms = value.chopped(2).toLongLong(&ok);
        if (!ok)
            return std::nullopt;
    } else if (auto secs = parseDuration(value)) {
        ms = *secs * 1000;
    }
    if (ms < 0 || ms > std::numeric_limits<int>::max())
        return std::nullopt;
    return int(ms);
}

Result<DbUrl> DbUrl::parse(const QString &text) {
    DbUrl u;
    const QString s = text.trimmed();
    if (s.startsWith(QLatin1String("sqlite://"))) {
        u.driver = Driver::Sqlite;
        u.path = s.mid(9);
        if (u.path.isEmpty())
            return urlError(QStringLiteral("SQLite URL has no file path (expected sqlite:///path/usage.db)"));
        return u;
    }
    if (!s.startsWith(QLatin1String("postgresql://")) && !s.startsWith(QLatin1String("postgres://"))) {
        // Do not echo the URL: whatever it is, it might carry a secret.
        const QString scheme = s.section(QLatin1Char(':'), 0, 0);
        return urlError(
            QStringLiteral("unsupported database URL scheme '%1'; expected sqlite:///path/usage.db "
                           "or postgresql://user@host:port/db")
                .arg(scheme.left(20)));
    }
    const QUrl url(s, QUrl::StrictMode);
    if (!url.isValid())
        return urlError(QStringLiteral("malformed PostgreSQL URL (expected postgresql://user@host:port/db)"));
    if (!url.password().isEmpty())
        return urlError(
            QStringLiteral("a password in the database URL is not accepted (it would end up in shell "
                           "history and process lists); set PGPASSWORD or use ~/.pgpass"));
    u.driver = Driver::Postgres;
    u.host = url.host();
    u.port = url.port(5432);
    u.user = url.userName();
    u.database = url.path().mid(1);
    if (u.host.isEmpty())
        return urlError(
            QStringLiteral("PostgreSQL URL has no host (expected postgresql://user@host:port/db)"));
    if (u.database.isEmpty() || u.database.contains(QLatin1Char('/')))
        return urlError(QStringLiteral("PostgreSQL URL needs exactly one database name after the host"));
    const QUrlQuery query(url);
    static const QRegularExpression ident(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]{0,62}$"));
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[key, value] : items) {
        if (key == QLatin1String("schema")) {
            if (!ident.match(value).hasMatch())
                return urlError(
                    QStringLiteral("schema '%1' is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)")
                        .arg(value));
            u.schema = value;
        } else if (key == QLatin1String("sslmode")) {
            static const QStringList modes{QStringLiteral("disable"),   QStringLiteral("allow"),
                                           QStringLiteral("prefer"),    QStringLiteral("require"),
                                           QStringLiteral("verify-ca"), QStringLiteral("verify-full")};
            if (!modes.contains(value))
                return urlError(QStringLiteral("unknown sslmode '%1'").arg(value));
            u.sslmode = value;
        } else if (key == QLatin1String("connect_timeout")) {
            bool ok = false;
            u.connectTimeoutSeconds = value.toInt(&ok);
            if (!ok || u.connectTimeoutSeconds <= 0)
                return urlError(QStringLiteral("connect_timeout must be a positive number of seconds"));
        } else if (key == QLatin1String("lock_timeout") || key == QLatin1String("statement_timeout")) {
            const auto ms = parseTimeoutMs(value);
            if (!ms)
                return urlError(QStringLiteral("%1 must be a duration like 5s, 1m30s or 250ms (0: no limit), "
                                               "got '%2'")
                                    .arg(key, value));
            (key == QLatin1String("lock_timeout") ? u.lockTimeoutMs : u.statementTimeoutMs) = *ms;
        } else {
            return urlError(QStringLiteral("unknown URL parameter '%1' (known: schema, sslmode, "
                                           "connect_timeout, lock_timeout, statement_timeout)")
                                .arg(key));
        }
    }
    return u;
}

QString DbUrl::display() const {
    if (driver == Driver::Sqlite)
        return QStringLiteral("sqlite://") + path;
    QString out = QStringLiteral("postgresql://");
    if (!user.isEmpty())
        out += user + QLatin1Char('@');
    out += host + QLatin1Char(':') + QString::number(port) + QLatin1Char('/') + database;
    if (!schema.isEmpty())
        out += QStringLiteral("?schema=") + schema;
    return out;
}

} // namespace gq
