#include "core/usage/storeconnection.h"

#include "core/usage/storesettings.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagestore.h"

#include <QSqlQuery>

namespace gq {

Result<void> storesettings::put(UsageConnection &conn, const QString &name, const QString &value,
                                const QString &what) {
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("INSERT INTO store_settings (name, value) VALUES (?, ?) "
                                                "ON CONFLICT (name) DO UPDATE SET value = excluded.value"));
        !r)
        return r;
    q.addBindValue(name);
    q.addBindValue(value);
    return conn.exec(q, what);
}

Result<void> storesettings::put(UsageStore &store, const QString &name, const QString &value,
                                const QString &what) {
    return put(storeConnection(store), name, value, what);
}

Result<QString> storesettings::value(const UsageConnection &conn, const QString &name, const QString &what) {
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("SELECT value FROM store_settings WHERE name = ?")); !r)
        return r.error();
    q.addBindValue(name);
    if (auto r = conn.exec(q, what); !r)
        return r.error();
    return q.next() ? q.value(0).toString() : QString();
}

Result<QStringList> storesettings::valuesLike(UsageStore &store, const QString &pattern,
                                              const QString &what) {
    UsageConnection &conn = storeConnection(store);
    QSqlQuery q(conn.database());
    if (auto r = conn.prepare(q, QStringLiteral("SELECT value FROM store_settings WHERE name LIKE ?")); !r)
        return r.error();
    q.addBindValue(pattern);
    if (auto r = conn.exec(q, what); !r)
        return r.error();
    QStringList values;
    while (q.next())
        values << q.value(0).toString();
    return values;
}

} // namespace gq
