#include "services/usage/usageservice.h"

#include "core/domain/clock.h"
#include "services/usage/storeworker.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

namespace gq {

// One budget refresh, carried from slice to slice on the database thread.
struct UsageService::Refresh {
    qint64 now = 0;
    bool started = false;
    bool ok = false;
    QStringList namespaces;                  // with a namespace budget, each once
    QStringList users;                       // with a user budget and GPU pods running now
    QHash<QString, QSet<QString>> runningIn; // user -> namespaces they run pods in
    qsizetype next = 0;                      // users first, then namespaces
    NamespaceBudgets budgets;
    QSet<QString> usersOver;
    UsageStore::CheckCacheStats stats;
};

namespace {
// How long one slice of a budget refresh may hold the database thread: what a
// queued audit write waits at most (plus one budget check).
constexpr qint64 kRefreshSliceNs = 4'000'000;

BudgetUse::Period listPeriod(Period p) {
    switch (p) {
    case Period::Week: return BudgetUse::Period::Week;
    case Period::Month: return BudgetUse::Period::Month;
    default: return BudgetUse::Period::Day; // hours are not a budget period
    }
}
} // namespace

// Lives on the service's thread; owns the store and everything that touches the connection.
class UsageService::Worker final : public StoreWorker {
public:
    // Runs one slice of `job` and posts the next to the back of this thread's queue,
    // behind whatever was requested meanwhile; `done` gets the finished job.
    void refresh(const std::shared_ptr<Refresh> &job,
                 const std::function<void(const std::shared_ptr<Refresh> &)> &done) {
        if (!ready()) { // closed under a running refresh
            done(job);
            return;
        }
        if (!job->started) {
            if (!start(*job)) {
                done(job);
                return;
            }
            // Listing the budgets was this slice: what queued up meanwhile goes first.
            QMetaObject::invokeMethod(
                this, [this, job, done] { refresh(job, done); }, Qt::QueuedConnection);
            return;
        }
        const AdmissionRequest running{AdmissionRequest::Kind::Running, 0, 0};
        const qsizetype total = job->users.size() + job->namespaces.size();
        QElapsedTimer slice;
        slice.start();
        for (int inSlice = 0; job->next < total; ++inSlice) {
            if (inSlice > 0 && slice.nsecsElapsed() > kRefreshSliceNs) {
                QMetaObject::invokeMethod(
                    this, [this, job, done] { refresh(job, done); }, Qt::QueuedConnection);
                return;
            }
            const qsizetype i = job->next++;
            if (i < job->users.size()) {
                const QString &user = job->users.at(i);
                auto each = store->checkEach(user, QString(), running, job->now);
                if (each && std::any_of(each->cbegin(), each->cend(),
                                        [](const Decision &d) { return d.overLimit(); }))
                    job->usersOver.insert(user);
                continue;
            }
            const QString &ns = job->namespaces.at(i - job->users.size());
            auto each = store->checkEach(QString(), ns, running, job->now);
            if (!each)
                continue; // a broken budget row must not hide the others
            QList<BudgetUse> uses;
            for (const Decision &d : *each) {
                if (!d.hasBudget)
                    continue;
                BudgetUse u{listPeriod(d.budget.period), d.used, d.limit};
                u.inGrace = d.outcome == Decision::Outcome::AllowedInGrace;
                u.graceEndsAt = graceEnd(d, job->now).value_or(0);
                u.graceSeconds = d.budget.graceSeconds;
                u.at = job->now;
                uses << u;
            }
            if (!uses.isEmpty())
                job->budgets.insert(ns, uses);
        }
        job->ok = true;
        job->stats = store->checkCacheStats();
        done(job);
    }

private:
    // The subjects: every namespace with a budget, and the users with a budget who
    // run GPU pods now (one read of the running rows, only when user budgets exist).
    bool start(Refresh &job) {
        job.started = true;
        auto budgets = store->budgets();
        if (!budgets)
            return false;
        QSet<QString> namespaces, users;
        for (const Budget &b : *budgets) {
            if (b.scope == BudgetScope::Namespace && !namespaces.contains(b.subject)) {
                namespaces.insert(b.subject);
                job.namespaces << b.subject;
            } else if (b.scope == BudgetScope::User) {
                users.insert(b.subject);
            }
        }
        if (!users.isEmpty()) {
            auto running = store->runningUsersByNamespace(job.now);
            if (!running)
                return false;
            for (const auto &[ns, user] : std::as_const(*running))
                if (users.contains(user))
                    job.runningIn[user].insert(ns);
            job.users = job.runningIn.keys();
        }
        return true;
    }
};

namespace {
// The store keeps the admission check's inputs: see the class comment.
UsageStore::Options cachingChecks() {
    UsageStore::Options options;
    options.cacheChecks = true;
    return options;
}
} // namespace

UsageService::UsageService(UsageDatabase *database, QObject *parent)
    : StoreService(new Worker, QStringLiteral("usage-db"), cachingChecks(), true, database, parent)
    , m_budgetTimer(new QTimer(this))
    , m_graceTimer(new QTimer(this)) {
    m_budgetTimer->setInterval(30000);
    connect(m_budgetTimer, &QTimer::timeout, this, &UsageService::checkBudgets);
    m_graceTimer->setSingleShot(true);
    connect(m_graceTimer, &QTimer::timeout, this, &UsageService::checkBudgets);
    connect(this, &UsageService::opened, this, [this] {
        checkBudgets();
        if (m_budgetTimer->interval() > 0)
            m_budgetTimer->start();
    });
}

UsageService::~UsageService() {
    shutDown(); // nothing still out is delivered to a half-destroyed object
    m_budgetTimer->stop();
    m_graceTimer->stop();
}

UsageService::Worker *UsageService::worker() const {
    return static_cast<Worker *>(m_worker); // made as one in the constructor
}

void UsageService::open(const QString &url, const QString &password) {
    m_url = url;
    m_password = password;
    m_open = false;
    StoreService::open(url, password);
}

void UsageService::close() {
    m_jobs.cancel();
    m_budgetTimer->stop();
    m_graceTimer->stop();
    m_checkRunning = false;
    m_checkAgain = false;
    m_open = false;
    m_url.clear();
    QMetaObject::invokeMethod(m_worker, [w = m_worker] { w->close(); });
    emit budgetsChanged({});
    emit usersOverBudgetChanged({});
    emit overBudgetChanged({});
}

void UsageService::appendAudit(const QString &actor, const QString &action, const QString &target,
                               const QString &before, const QString &after, const QString &note) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, actor, action, target, before, after, note]() -> Result<AuditEntry> {
            if (!w->ready() || !w->audit)
                return Error::make(Error::Kind::Database,
                                   tr("The usage database is not open; the change "
                                      "was applied but not recorded in the audit log."));
            return w->audit->append(actor, action, target, before, after, note);
        },
        [this](const Result<AuditEntry> &entry) {
            if (entry) {
                if (entry->seq > m_auditHead.count)
                    m_auditHead = AuditHead{entry->seq, entry->hash};
                emit auditAppended(*entry);
            } else {
                emit failed(entry.error());
            }
        });
}

void UsageService::loadAudit(int limit) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, limit]() -> std::optional<Result<QList<AuditEntry>>> {
            if (!w->ready() || !w->audit)
                return std::nullopt;
            AuditLog::Filter f;
            f.limit = limit;
            return w->audit->list(f);
        },
        [this](const std::optional<Result<QList<AuditEntry>>> &entries) {
            if (!entries)
                return;
            if (*entries) {
                const QList<AuditEntry> &loaded = **entries; // newest first
                if (!loaded.isEmpty() && loaded.first().seq >= m_auditHead.count)
                    m_auditHead = AuditHead{loaded.first().seq, loaded.first().hash};
                emit auditLoaded(loaded);
            } else {
                emit failed(entries->error());
            }
        });
}

void UsageService::verifyAudit() {
    m_jobs.runOn(
        m_worker,
        [w = m_worker]() -> Result<AuditChainReport> {
            if (!w->ready() || !w->audit)
                return Error::make(Error::Kind::Database, tr("The usage database is not open."));
            AuditAnchor anchor;
            const QString cp = qEnvironmentVariable("GQ_AUDIT_CHECKPOINT");
            if (!cp.isEmpty() && QFileInfo::exists(cp)) {
                auto read = AuditCheckpoint::readFile(cp);
                if (!read)
                    return read.error();
                anchor.checkpoint = *read;
            }
            return w->audit->verifyChain(anchor);
        },
        [this](const Result<AuditChainReport> &report) {
            if (report)
                emit auditVerified(*report);
            else
                emit failed(report.error());
        });
}

void UsageService::setBudgetRefreshInterval(int ms) {
    m_budgetTimer->setInterval(std::max(ms, 0));
    if (ms <= 0) {
        m_budgetTimer->stop();
        m_graceTimer->stop();
    } else if (m_open)
        m_budgetTimer->start();
}

int UsageService::budgetRefreshInterval() const {
    return m_budgetTimer->interval();
}

void UsageService::setBudget(const Budget &budget) {
    m_jobs.runOn(
        m_worker,
        [w = m_worker, budget]() -> Result<void> {
            if (!w->ready())
                return Error::make(Error::Kind::Database,
                                   tr("The usage database is not open; the budget was not saved."));
            if (auto saved = w->store->setBudget(budget); !saved)
                return saved.error();
            return {};
        },
        [this](const Result<void> &saved) {
            if (saved)
                checkBudgets();
            else
                emit failed(saved.error());
        });
}

void UsageService::checkBudgets() {
    // One check at a time: with many budgets a check can outlast the refresh
    // interval, and queueing more would only answer stale questions.
    if (m_checkRunning) {
        m_checkAgain = true;
        return;
    }
    m_checkRunning = true;
    auto job = std::make_shared<Refresh>();
    job->now = m_clock->nowSecs();
    // The refresh runs in slices on the worker and finishes when it is done, not when
    // the first slice returns: it calls `done` then.
    auto done = m_jobs.deliverer<std::shared_ptr<Refresh>>(
        [this](const std::shared_ptr<Refresh> &finished) { refreshDone(finished); });
    QMetaObject::invokeMethod(
        m_worker, [w = worker(), job, done] { w->refresh(job, done); }, Qt::QueuedConnection);
}

void UsageService::refreshDone(const std::shared_ptr<Refresh> &job) {
    m_checkRunning = false;
    if (job->ok) {
        m_cacheStats = job->stats;
        UsersOverBudget users;
        for (const QString &user : std::as_const(job->usersOver))
            for (const QString &ns : job->runningIn.value(user))
                users[ns] << user;
        for (QStringList &names : users)
            names.sort();
        QSet<QString> over;
        for (auto it = job->budgets.constBegin(); it != job->budgets.constEnd(); ++it)
            for (const BudgetUse &u : it.value())
                if (u.over())
                    over.insert(it.key());
        emit usersOverBudgetChanged(users);
        emit budgetsChanged(job->budgets);
        emit overBudgetChanged(over);
        armGraceTimer(job->budgets);
    }
    if (m_checkAgain) {
        m_checkAgain = false;
        checkBudgets();
    }
}

void UsageService::armGraceTimer(const NamespaceBudgets &budgets) {
    // The badge turns red the second a grace ends, not up to one refresh later.
    // Only with automatic refresh on: without it, checks are the caller's to make.
    m_graceTimer->stop();
    if (m_budgetTimer->interval() <= 0)
        return;
    qint64 earliest = 0;
    for (const QList<BudgetUse> &uses : budgets)
        for (const BudgetUse &u : uses)
            if (u.state() == BudgetUse::State::InGrace && (!earliest || u.graceEndsAt < earliest))
                earliest = u.graceEndsAt;
    if (!earliest)
        return;
    // At the end itself running work is still allowed; one second later it is not.
    const qint64 delayMs = (earliest + 1 - m_clock->nowSecs()) * 1000;
    if (delayMs < 24 * 3600 * 1000)
        m_graceTimer->start(int(std::max<qint64>(delayMs, 0)));
}

} // namespace gq
