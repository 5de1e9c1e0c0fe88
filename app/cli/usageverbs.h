#pragma once

// What the usage verbs (cmd_usagedata.cpp, cmd_usagereport.cpp) share: output
// streams, errors, flag parsing and opening the database named by --db.

#include "app/cli/cliargs.h"
#include "app/cli/clioutput.h"
#include "core/usage/usagestore.h"
#include "app/cli/verbs.h"

#include <QHash>
#include <QTextStream>

#include <memory>
#include <optional>

namespace gq::cli::usageverbs {

using cli::err;
using cli::fail;
using cli::failWith;
using cli::out;

using cli::Args;

// Every name in `known` a flag with a value (--name VALUE, --name=VALUE; -o for output),
// through the one parser (cliargs.h); anything else that is no flag is positional.
Args parseArgs(const QStringList &args, const QStringList &known);
// The store at --db; --rollup-tz picks the zone of a new database's daily rollups.
// ReadOnly for verbs that only read: SQLite opens read-only (a database on a read-only
// file system can be read) and nothing is created or migrated.
enum class DbAccess { ReadWrite, ReadOnly };
Result<std::unique_ptr<UsageStore>> openDb(const Args &a, DbAccess access = DbAccess::ReadWrite);
Result<qint64> instantFlag(const Args &a, const QString &name, std::optional<qint64> fallback = {});
Result<double> numberFlag(const Args &a, const QString &name);
// --now, or the current time; an error text when --now is malformed.
QString nowDefault(const Args &a, qint64 *now);
// What a verb that only reads starts with: `now` from nowDefault() and `store` opened
// read-only; the exit code, the reason said, when either fails.
std::optional<int> openForReading(const Args &a, qint64 &now, std::unique_ptr<UsageStore> &store);
void printTable(const QList<QStringList> &rows);
// Who the audit log names for a change made by this command: --actor, or the OS user.
QString actorOf(const Args &a);
// Appends one audit entry by actorOf(a) with --note as the reason.
Result<void> audit(UsageStore &store, const Args &a, const QString &action, const QString &target,
                   const QString &before, const QString &after);

} // namespace gq::cli::usageverbs
