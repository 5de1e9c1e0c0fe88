#include "models/usagedatabase.h"

#include "core/auditlog.h"
#include "core/clock.h"
#include "core/limitrangespec.h"
#include "core/quotaspec.h"
#include "core/specdiff.h"
#include "core/usagestore.h"

#include <QDateTime>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <optional>

namespace gq {

// Lives on m_thread; owns the store and everything that touches the connection.
class UsageDatabase::Worker final : public QObject {
public:
    std::unique_ptr<UsageStore> store;
    std::unique_ptr<AuditLog> audit;
};

UsageDatabase::UsageDatabase(QObject *parent)
    : QObject(parent)
    , m_worker(new Worker)
    , m_budgetTimer(new QTimer(this))
    , m_clock(&Clock::system()) {
    m_thread.setObjectName(QStringLiteral("usage-db"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    m_budgetTimer->setInterval(30000);
    connect(m_budgetTimer, &QTimer::timeout, this, &UsageDatabase::checkBudgets);
    connect(this, &UsageDatabase::opened, this, [this] {
        checkBudgets();
        if (m_budgetTimer->interval() > 0)
            m_budgetTimer->start();
    });
}

UsageDatabase::~UsageDatabase() {
    m_budgetTimer->stop();
    // The store must be closed on its own thread before the thread goes.
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker] {
            w->audit.reset();
            w->store.reset();
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void UsageDatabase::open(const QString &url) {
    m_url = url;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, url] {
            auto store = UsageStore::open(url);
            if (!store) {
                const Error e = store.error();
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            w->store = std::move(*store);
            w->audit = std::make_unique<AuditLog>(*w->store);
            QMetaObject::invokeMethod(
                this,
                [this] {
                    m_open = true;
                    emit opened();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

AuditRow UsageDatabase::rowFromEntry(qint64 at, const QString &actor, const QString &action,
                                     const QString &target, const QString &before, const QString &after,
                                     const QString &note) {
    AuditRow row;
    row.when = QDateTime::fromSecsSinceEpoch(at, Qt::UTC);
    row.actor = actor;
    row.action = action;
    row.note = note;
    const QStringList parts = target.split(QLatin1Char('/'));
    if (parts.size() >= 3) {
        row.namespaceName = parts.at(0);
        row.object = parts.mid(1).join(QLatin1Char('/'));
    } else {
        row.object = target;
    }
    QString diff;
    if (target.contains(QLatin1String("/ResourceQuota/"))) {
        auto b = before.isEmpty() ? Result<QuotaSpec>(QuotaSpec()) : QuotaSpec::fromYaml(before.toUtf8());
        auto a = after.isEmpty() ? Result<QuotaSpec>(QuotaSpec()) : QuotaSpec::fromYaml(after.toUtf8());
        if (a && b)
            diff = diffQuota(*b, *a).toText();
    } else if (target.contains(QLatin1String("/LimitRange/"))) {
        auto b = before.isEmpty() ? Result<LimitRangeSpec>(LimitRangeSpec())
                                  : LimitRangeSpec::fromYaml(before.toUtf8());
        auto a = after.isEmpty() ? Result<LimitRangeSpec>(LimitRangeSpec())
                                 : LimitRangeSpec::fromYaml(after.toUtf8());
        if (a && b)
            diff = diffLimitRange(*b, *a).toText();
    }
    if (diff.isEmpty())
        diff = QLatin1String("--- before\n") + before + QLatin1String("\n+++ after\n") + after;
    row.diff = diff;
    return row;
}

void UsageDatabase::appendAudit(const QString &actor, const QString &action, const QString &target,
                                const QString &before, const QString &after, const QString &note) {
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, actor, action, target, before, after, note] {
            if (!w->audit) {
                const Error e =
                    Error::make(Error::Kind::Database, tr("The usage database is not open; the change "
                                                          "was applied but not recorded in the audit log."));
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            auto entry = w->audit->append(actor, action, target, before, after, note);
            if (!entry) {
                const Error e = entry.error();
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            const AuditRow row = rowFromEntry(entry->at, entry->actor, entry->action, entry->target,
                                              entry->before, entry->after, entry->note);
            QMetaObject::invokeMethod(
                this, [this, row] { emit auditAppended(row); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void UsageDatabase::loadAudit(int limit) {
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, limit] {
            if (!w->audit)
                return;
            AuditLog::Filter f;
            f.limit = limit;
            auto entries = w->audit->list(f);
            if (!entries) {
                const Error e = entries.error();
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            QList<AuditRow> rows;
            for (const AuditEntry &e : *entries)
                rows << rowFromEntry(e.at, e.actor, e.action, e.target, e.before, e.after, e.note);
            QMetaObject::invokeMethod(
                this, [this, rows] { emit auditLoaded(rows); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void UsageDatabase::setBudgetRefreshInterval(int ms) {
    m_budgetTimer->setInterval(std::max(ms, 0));
    if (ms <= 0)
        m_budgetTimer->stop();
    else if (m_open)
        m_budgetTimer->start();
}

int UsageDatabase::budgetRefreshInterval() const {
    return m_budgetTimer->interval();
}

void UsageDatabase::setBudget(const Budget &budget) {
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, budget] {
            if (!w->store) {
                const Error e = Error::make(Error::Kind::Database,
                                            tr("The usage database is not open; the budget was not saved."));
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            if (auto saved = w->store->setBudget(budget); !saved) {
                const Error e = saved.error();
                QMetaObject::invokeMethod(
                    this, [this, e] { emit failed(e); }, Qt::QueuedConnection);
                return;
            }
            QMetaObject::invokeMethod(this, &UsageDatabase::checkBudgets, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

namespace {
BudgetUse::Period listPeriod(Period p) {
    switch (p) {
    case Period::Week: return BudgetUse::Period::Week;
    case Period::Month: return BudgetUse::Period::Month;
    default: return BudgetUse::Period::Day; // hours are not a budget period
    }
}
} // namespace

void UsageDatabase::checkBudgets() {
    // One check at a time: with many budgets a check can outlast the refresh
    // interval, and queueing more would only answer stale questions.
    if (m_checkRunning) {
        m_checkAgain = true;
        return;
    }
    m_checkRunning = true;
    QMetaObject::invokeMethod(
        m_worker,
        [this, w = m_worker, clock = m_clock] {
            std::optional<NamespaceBudgets> result;
            if (w->store) {
                if (auto budgets = w->store->budgets()) {
                    NamespaceBudgets all;
                    const qint64 now = clock->nowSecs();
                    QSet<QString> done;
                    for (const Budget &b : *budgets) {
                        if (b.scope != BudgetScope::Namespace || done.contains(b.subject))
                            continue;
                        done.insert(b.subject);
                        auto status = w->store->budgetStatus(BudgetScope::Namespace, b.subject, now);
                        if (!status)
                            continue; // a broken budget row must not hide the others
                        QList<BudgetUse> uses;
                        for (const Decision &d : *status)
                            if (d.hasBudget)
                                uses << BudgetUse{listPeriod(d.budget.period), d.used, d.limit};
                        if (!uses.isEmpty())
                            all.insert(b.subject, uses);
                    }
                    result = std::move(all);
                }
            }
            QMetaObject::invokeMethod(
                this,
                [this, result] {
                    m_checkRunning = false;
                    if (result) {
                        QSet<QString> over;
                        for (auto it = result->constBegin(); it != result->constEnd(); ++it)
                            for (const BudgetUse &u : it.value())
                                if (u.over())
                                    over.insert(it.key());
                        emit budgetsChanged(*result);
                        emit overBudgetChanged(over);
                    }
                    if (m_checkAgain) {
                        m_checkAgain = false;
                        checkBudgets();
                    }
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace gq
