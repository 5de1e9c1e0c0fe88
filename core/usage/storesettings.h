#pragma once

#include "core/domain/result.h"

#include <QString>
#include <QStringList>

namespace gq {

class UsageConnection;
class UsageStore;

// The store_settings table (name → value) for settings kept by one feature each (the
// webhook replicas' last reviews, the newcomer policy). On the store's thread; the
// UsageConnection forms serve code already inside a transaction on it.
namespace storesettings {
// Sets `name` to `value`, inserting or replacing; `what` names the write in an error.
[[nodiscard]] Result<void> put(UsageConnection &conn, const QString &name, const QString &value,
                               const QString &what);
[[nodiscard]] Result<void> put(UsageStore &store, const QString &name, const QString &value,
                               const QString &what);
// The value of `name`, empty when it is not set; `what` names the read in an error.
[[nodiscard]] Result<QString> value(const UsageConnection &conn, const QString &name, const QString &what);
// The values of the settings whose name matches the SQL LIKE `pattern`; `what` names the
// read in an error.
[[nodiscard]] Result<QStringList> valuesLike(UsageStore &store, const QString &pattern, const QString &what);
} // namespace storesettings

} // namespace gq
