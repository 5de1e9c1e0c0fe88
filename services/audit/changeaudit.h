#pragma once

// The audit policy of a write to a cluster object (a quota, a limit range, a namespace):
// what the entry of one change says — action name, target, before/after text — decided
// here once, so the console, its templates and `gpuquota apply` write the same entry
// for the same change. QuotaWriter applies it through an injected ChangeAuditSink,
// which says who the actor is and where the entry goes.

#include "result.h"

#include <QJsonObject>
#include <QString>

namespace gq {

struct ChangeAuditEntry {
    QString action; // quota.apply, limitrange.apply, namespace.apply
    QString target; // "ns/Kind/name", "Kind/name" for a cluster-scoped object
    QString before; // what an admin changes of the object before, as YAML; empty: created
    QString after;  // the same of the object as written
    QString note;   // the reason given
};

// Where a tool's entries go and whom they name: the CLI's --db audit log, the console's
// usage database. append() may be asynchronous (the console's database thread); an
// error it returns is one the writer can report.
class ChangeAuditSink {
public:
    virtual ~ChangeAuditSink() = default;
    [[nodiscard]] virtual Result<void> append(const ChangeAuditEntry &entry) = 0;
};

namespace changeaudit {

// The part of an object an admin changes: spec (or, for a Namespace, its labels and
// annotations minus kubectl's last-applied record) as YAML; empty for no object.
[[nodiscard]] QString objectText(const QJsonObject &object);

// The entry of one change of `kind` ns/name from `before` (empty: created) to `after`.
[[nodiscard]] ChangeAuditEntry entryFor(const QString &kind, const QString &ns, const QString &name,
                                        const QJsonObject &before, const QJsonObject &after,
                                        const QString &note);

} // namespace changeaudit
} // namespace gq
