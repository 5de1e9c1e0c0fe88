#pragma once

#include "core/usage/budget.h"
#include "core/usage/ledger.h"
#include "core/domain/result.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVariantList>

#include <vector>

class QSqlQuery;

namespace gq {

class UsageConnection;

// The columns of usage_intervals in the order intervalFromRow() reads them.
inline constexpr char kIntervalColumns[] =
    "cluster, ns, user_name, pod_uid, pod_name, resource, gpus, weight, start_s, end_s, source";
// The columns of schema v7 the interval readers add after kIntervalColumns.
inline constexpr char kIntervalV7Columns[] = "end_estimated, seen_s";
// One row selected with kIntervalColumns, starting at column `base`.
[[nodiscard]] UsageInterval intervalFromRow(const QSqlQuery &q, int base = 0);

// Reads of raw intervals: ranges, the running set, and per-subject sums computed in
// the client (the naive sum and the exact path for zones off whole UTC hours).
class IntervalQueries {
public:
    IntervalQueries(const UsageConnection &conn, const ResourceWeights &weights)
        : m_conn(conn)
        , m_weights(weights) {}
    Q_DISABLE_COPY_MOVE(IntervalQueries)

    // See UsageStore for these four.
    [[nodiscard]] Result<std::vector<UsageInterval>> intervals(qint64 from, qint64 to, qint64 now) const;
    [[nodiscard]] Result<std::vector<UsageInterval>> runningNow(qint64 now) const;
    [[nodiscard]] Result<QList<QPair<QString, QString>>> runningUsersByNamespace(qint64 now) const;
    [[nodiscard]] Result<qint64> count() const;
    // See UsageStore::namespacesOf.
    [[nodiscard]] Result<QStringList> namespacesOf(const QString &user, const TimeRange &window,
                                                   qint64 now) const;
    // The subject's running intervals (every start).
    [[nodiscard]] Result<std::vector<UsageInterval>> runningFor(BudgetScope scope,
                                                                const QString &subject) const;
    // Weighted GPUs the subject holds at `now`.
    [[nodiscard]] Result<double> runningGpus(BudgetScope scope, const QString &subject, qint64 now) const;
    // For a status as of a `now` that may be in the past: the subject's closed rows that
    // end after `now` (and start before the last window's end). Those started by `now`
    // were held at `now` (heldGpus, weighted); none of their time after `now` was used
    // by then (laterGpuSeconds: per window, the GPU-seconds they count after `now`).
    struct AfterNow {
        double heldGpus = 0;
        QList<double> laterGpuSeconds;
    };
    [[nodiscard]] Result<AfterNow> closedAfter(BudgetScope scope, const QString &subject, qint64 now,
                                               const QList<TimeRange> &windows) const;
    // Weighted GPU-seconds of the subject's rows overlapping `window`, summed in the
    // client: closed rows only, or running ones too (they count up to `now`).
    [[nodiscard]] Result<double> overlappingGpuSeconds(BudgetScope scope, const QString &subject,
                                                       const TimeRange &window, qint64 now,
                                                       bool withRunning) const;

    // What GPU model weights add for budgets: over the subject's rows stored with a
    // model_weight other than 1 (a partial index finds them; none when no model weights
    // are configured), per window Σ overlap x gpus x weight x (model_weight - 1), so
    // weighted GPU-seconds = raw + seconds[i]. Open rows count up to `now` (left out
    // with closedOnly: the admission check adds its running rows itself); heldGpus is
    // the same factor over the rows held at `now` (started by it, not ended).
    struct ModelExtra {
        double heldGpus = 0;
        QList<double> seconds;
    };
    [[nodiscard]] Result<ModelExtra> modelExtra(BudgetScope scope, const QString &subject,
                                                const QList<TimeRange> &windows, qint64 now,
                                                bool closedOnly) const;

private:
    // Rows of usage_intervals matching `where` (with `binds` for its placeholders), in
    // start order; `what` names the read in errors.
    [[nodiscard]] Result<std::vector<UsageInterval>> select(const QString &where, const QVariantList &binds,
                                                            const QString &what) const;

    const UsageConnection &m_conn;
    const ResourceWeights &m_weights;
};

} // namespace gq
