#include "core/usage/usagestore.h"

#include "core/usage/admissionchecker.h"
#include "core/usage/auditschema.h"
#include "core/usage/boosts.h"
#include "core/usage/budgetstore.h"
#include "core/usage/bulkloader.h"
#include "core/usage/changemonitor.h"
#include "core/usage/chartqueries.h"
#include "core/usage/checkinputs.h"
#include "core/usage/intervalqueries.h"
#include "core/usage/intervalwriter.h"
#include "core/usage/pgping.h"
#include "core/usage/rollups.h"
#include "core/usage/rollupwriter.h"
#include "core/usage/storeconnection.h"
#include "core/usage/usageconnection.h"
#include "core/usage/usagecsv.h"

namespace gq {

UsageStore::UsageStore(Options options)
    : m_options(std::move(options)) {}

UsageStore::~UsageStore() {
    if (m_conn)
        m_conn->setWriteListener({}); // the checker goes first
}

Result<std::unique_ptr<UsageStore>> UsageStore::open(const QString &urlText, Options options) {
    auto url = DbUrl::parse(urlText);
    if (!url)
        return url.error();
    url->password = options.password;
    std::unique_ptr<UsageStore> store(new UsageStore(std::move(options)));
    UsageStore &s = *store;
    auto conn = UsageConnection::open(*url, s.m_options.busyTimeoutMs, s.m_options.readOnly);
    if (!conn)
        return conn.error();
    s.m_conn = std::move(*conn);
    if (auto r = migrateUsageSchema(*s.m_conn, s.m_options.rollupZone); !r)
        return r.error();
    if (auto r = migrateAuditLog(*s.m_conn); !r)
        return r.error();
    auto zone = storedRollupZone(*s.m_conn);
    if (!zone)
        return zone.error();
    s.m_rollupZone = QString::fromUtf8(zone->id());
    s.m_days = std::make_unique<DayIndex>(*zone);

    const ResourceWeights &weights = s.m_options.weights;
    s.m_rollups = std::make_unique<RollupWriter>(*s.m_conn, *s.m_days);
    s.m_writer = std::make_unique<IntervalWriter>(*s.m_conn, weights, *s.m_days, *s.m_rollups);
    s.m_bulk = std::make_unique<BulkLoader>(*s.m_conn, weights, *s.m_days, *s.m_rollups);
    s.m_intervals = std::make_unique<IntervalQueries>(*s.m_conn, weights);
    s.m_charts =
        std::make_unique<ChartQueries>(*s.m_conn, weights, *s.m_days, s.m_rollupZone, *s.m_intervals);
    s.m_boosts = std::make_unique<BoostStore>(*s.m_conn);
    s.m_budgets = std::make_unique<BudgetStore>(*s.m_conn, *s.m_intervals, *s.m_charts, *s.m_boosts);
    s.m_checkInputs = std::make_unique<CheckInputReader>(*s.m_conn, *s.m_days, *s.m_intervals);
    s.m_checker = std::make_unique<AdmissionChecker>(weights, *s.m_checkInputs);
    if (s.m_options.cacheChecks) {
        auto monitor = ChangeMonitor::create(*s.m_conn);
        if (!monitor)
            return monitor.error();
        s.m_checker->keepInputs(std::move(*monitor));
    }
    // Writes through this connection drop kept check inputs at once (also on rollback).
    AdmissionChecker *checker = s.m_checker.get();
    s.m_conn->setWriteListener([checker] { checker->drop(); });
    return store;
}

UsageConnection &storeConnection(const UsageStore &store) {
    return *store.m_conn;
}

UsageTx UsageStore::transaction() const {
    return UsageTx(*m_conn);
}

Result<void> UsageStore::ping(int timeoutMs) const {
    return pingConnection(*m_conn, timeoutMs);
}

const DbUrl &UsageStore::url() const {
    return m_conn->url();
}

bool UsageStore::isPostgres() const {
    return m_conn->isPostgres();
}

QSqlDatabase UsageStore::database() const {
    return m_conn->database();
}

Result<int> UsageStore::schemaVersion() const {
    return usageSchemaVersion(*m_conn);
}

// --- intervals --------------------------------------------------------------------

Result<UsageStore::UpsertOutcome> UsageStore::upsertInterval(const UsageInterval &iv) {
    return m_writer->upsert(iv);
}

Result<bool> UsageStore::closeInterval(const QString &cluster, const QString &podUid, const QString &resource,
                                       qint64 start, qint64 end, bool estimated) {
    return m_writer->close(cluster, podUid, resource, start, end, estimated);
}

Result<qint64> UsageStore::markIntervalsSeen(const QString &cluster, const QString &source, qint64 now) {
    return m_writer->markSeen(cluster, source, now);
}

Result<void> UsageStore::inTransaction(const std::function<Result<void>()> &writes) {
    UsageTx tx(*m_conn);
    if (auto r = tx.begin(); !r)
        return r;
    if (auto r = writes(); !r)
        return r; // the guard rolls back
    return tx.commit();
}

Result<qint64> UsageStore::insertBulk(const std::vector<UsageInterval> &intervals) {
    return m_bulk->insert(intervals);
}

void UsageStore::setBulkRollupCellLimit(size_t cells) {
    m_bulk->setRollupCellLimit(cells);
}

void UsageStore::setBulkHugeLoadFrom(qint64 rows) {
    m_bulk->setHugeLoadFrom(rows);
}

Result<std::unique_ptr<UsageStore::BulkLoad>> UsageStore::beginBulk(qint64 expectedRows) {
    return m_bulk->begin(expectedRows);
}

Result<UsageStore::RollupRebuildReport> UsageStore::rebuildRollups() {
    return m_rollups->rebuild();
}

Result<std::vector<UsageInterval>> UsageStore::intervals(qint64 from, qint64 to, qint64 now) const {
    return m_intervals->intervals(from, to, now);
}

Result<std::vector<UsageInterval>> UsageStore::runningNow(qint64 now) const {
    return m_intervals->runningNow(now);
}

Result<qint64> UsageStore::intervalCount() const {
    return m_intervals->count();
}

// --- CSV --------------------------------------------------------------------------

Result<UsageStore::ImportStats> UsageStore::importCsv(QIODevice &in, const ImportOptions &options) {
    return importUsageCsv(*m_conn, *m_writer, *m_bulk, in, options);
}

Result<qint64> UsageStore::exportCsv(QIODevice &out, std::optional<qint64> from,
                                     std::optional<qint64> to) const {
    return exportUsageCsv(*m_conn, out, from, to);
}

// --- queries ----------------------------------------------------------------------

Result<std::vector<UsageStore::SeriesPoint>> UsageStore::gpuHoursSeries(GroupBy by, Period period,
                                                                        qint64 from, qint64 to,
                                                                        const QTimeZone &tz,
                                                                        qint64 now) const {
    return m_charts->gpuHoursSeries(by, period, from, to, tz, now);
}

Result<std::vector<std::pair<QString, double>>> UsageStore::topUsers(qint64 from, qint64 to, int n,
                                                                     qint64 now) const {
    return m_charts->topUsers(from, to, n, now);
}

Result<double> UsageStore::usedGpuHours(BudgetScope scope, const QString &subject, const TimeRange &window,
                                        qint64 now) const {
    return m_charts->usedGpuHours(scope, subject, window, now);
}

Result<double> UsageStore::usedGpuHoursNaive(BudgetScope scope, const QString &subject,
                                             const TimeRange &window, qint64 now) const {
    return m_charts->usedGpuHoursNaive(scope, subject, window, now);
}

Result<QList<QPair<QString, QString>>> UsageStore::runningUsersByNamespace(qint64 now) const {
    return m_intervals->runningUsersByNamespace(now);
}

Result<QStringList> UsageStore::namespacesOf(const QString &user, const TimeRange &window, qint64 now) const {
    return m_intervals->namespacesOf(user, window, now);
}

Result<double> UsageStore::runningGpus(BudgetScope scope, const QString &subject, qint64 now) const {
    return m_intervals->runningGpus(scope, subject, now);
}

// --- budgets and the admission check ------------------------------------------------

Result<Budget> UsageStore::setBudget(const Budget &budget) {
    return m_budgets->set(budget);
}

Result<QList<Budget>> UsageStore::budgets() const {
    return m_budgets->all();
}

Result<QList<Budget>> UsageStore::budgetsFor(BudgetScope scope, const QString &subject) const {
    return m_budgets->forSubject(scope, subject);
}

Result<int> UsageStore::deleteBudget(BudgetScope scope, const QString &subject,
                                     std::optional<Period> period) {
    return m_budgets->remove(scope, subject, period);
}

Result<QList<Decision>> UsageStore::budgetStatus(BudgetScope scope, const QString &subject,
                                                 qint64 now) const {
    return m_budgets->status(scope, subject, now);
}

Result<Decision> UsageStore::check(const QString &user, const QString &ns, const AdmissionRequest &request,
                                   qint64 now) const {
    return m_checker->check(user, ns, request, now);
}

Result<QList<Decision>> UsageStore::checkEach(const QString &user, const QString &ns,
                                              const AdmissionRequest &request, qint64 now) const {
    return m_checker->checkEach(user, ns, request, now);
}

UsageStore::CheckCacheStats UsageStore::checkCacheStats() const {
    return m_checker->stats();
}

// --- boosts -----------------------------------------------------------------------

Result<Boost> UsageStore::addBoost(const Boost &boost) {
    return m_boosts->add(boost);
}

Result<QList<Boost>> UsageStore::boosts() const {
    return m_boosts->all();
}

Result<bool> UsageStore::setBoostState(qint64 id, Boost::State state) {
    return m_boosts->setState(id, state);
}

Result<double> UsageStore::activeBudgetBoost(BudgetScope scope, const QString &subject, qint64 now) const {
    return m_boosts->activeBudgetBoost(scope, subject, now);
}

} // namespace gq
