// The console's one way to the usage database (UsageDatabase, UsageLane, StoreWorker)
// against real SQLite files: each lane's connection opens on its own thread at its first
// job and is reused; a new URL moves every lane over at its next job; a cancelled job sees
// it through its token and its answer is dropped; services sharing one database need no
// open() of their own.

#include "core/jobs/jobtracker.h"
#include "core/usage/usagestore.h"
#include "services/budgets/budgetservice.h"
#include "services/usage/storeworker.h"
#include "services/usage/usagechartservice.h"
#include "services/usage/usagedatabase.h"
#include "services/usage/usageservice.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace gq;

namespace {

// What one job saw on its lane.
struct Seen {
    QThread *thread = nullptr;
    const UsageStore *store = nullptr;
    QString error;
    QStringList budgets; // subjects
};

Seen look(StoreWorker *w) {
    Seen s;
    s.thread = QThread::currentThread();
    if (auto r = w->ready(); !r) {
        s.error = r.error().message;
        return s;
    }
    s.store = w->store.get();
    if (auto all = w->store->budgets())
        for (const Budget &b : *all)
            s.budgets << b.subject;
    return s;
}

Budget budgetFor(const QString &subject) {
    Budget b;
    b.scope = BudgetScope::Namespace;
    b.subject = subject;
    b.limitGpuHours = 10;
    return b;
}

} // namespace

class TestUsageLanes : public QObject {
    Q_OBJECT
private slots:
    void init();
    void connectionOpensOnTheLaneAndIsReused();
    void eachLaneHasItsOwnConnection();
    void aNewUrlMovesEveryLaneOver();
    void closedUntilOpenedAgain();
    void cancelledJobSeesItAndIsDropped();
    void servicesShareOneDatabase();

private:
    // Runs look() on `w` through `jobs` and waits for its answer.
    Seen run(JobTracker &jobs, StoreWorker *w);
    QString url(const QString &name) const {
        return QStringLiteral("sqlite://") + m_dir->filePath(name + QStringLiteral(".db"));
    }
    // Creates the schema at `u` with one namespace budget for `subject`.
    void seed(const QString &u, const QString &subject);
    // A database at url("a") with team-a's budget, opened, and a tracker for the jobs sent
    // to its lanes (a test's lanes are declared after it, so they go first).
    struct Opened {
        UsageDatabase db;
        QObject receiver;
        JobTracker jobs{&receiver};
    };
    std::unique_ptr<Opened> openTeamA();

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestUsageLanes::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestUsageLanes::seed(const QString &u, const QString &subject) {
    auto store = UsageStore::open(u);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().message));
    auto saved = (*store)->setBudget(budgetFor(subject));
    QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().message));
}

std::unique_ptr<TestUsageLanes::Opened> TestUsageLanes::openTeamA() {
    seed(url("a"), QStringLiteral("team-a"));
    auto opened = std::make_unique<Opened>();
    opened->db.open(url("a"));
    return opened;
}

Seen TestUsageLanes::run(JobTracker &jobs, StoreWorker *w) {
    JobWait wait;
    std::optional<Seen> seen;
    jobs.runOn(
        w, [w] { return look(w); }, [&seen](Seen s) { seen = s; });
    [&] { QVERIFY(wait.until([&] { return seen.has_value(); }, 20000)); }();
    return seen.value_or(Seen{});
}

void TestUsageLanes::connectionOpensOnTheLaneAndIsReused() {
    seed(url("a"), QStringLiteral("team-a"));
    UsageDatabase db;
    QObject receiver;
    JobTracker jobs(&receiver);
    auto lane = db.lane(new StoreWorker, QStringLiteral("lane-a"));
    StoreWorker *w = lane->worker();

    // No URL yet: the job is refused, nothing is opened.
    const Seen before = run(jobs, w);
    QVERIFY(!before.error.isEmpty());
    QVERIFY(!before.store);

    db.open(url("a"));
    const Seen first = run(jobs, w);
    QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
    QVERIFY(first.store);
    QVERIFY(first.thread != QThread::currentThread());
    QCOMPARE(first.thread->objectName(), QStringLiteral("lane-a"));
    QCOMPARE(first.budgets, QStringList{QStringLiteral("team-a")});

    db.open(url("a")); // the same URL and password: the connection stays
    const Seen second = run(jobs, w);
    QCOMPARE(second.thread, first.thread);
    QCOMPARE(second.store, first.store);
}

void TestUsageLanes::eachLaneHasItsOwnConnection() {
    const auto opened = openTeamA();
    UsageDatabase &db = opened->db;
    JobTracker &jobs = opened->jobs;
    auto one = db.lane(new StoreWorker, QStringLiteral("lane-1"));
    auto two = db.lane(new StoreWorker, QStringLiteral("lane-2"));
    const Seen a = run(jobs, one->worker());
    const Seen b = run(jobs, two->worker());
    QVERIFY(a.store && b.store);
    QVERIFY(a.store != b.store);
    QVERIFY(a.thread != b.thread);
    QCOMPARE(a.budgets, b.budgets);
}

void TestUsageLanes::aNewUrlMovesEveryLaneOver() {
    seed(url("b"), QStringLiteral("team-b"));
    const auto opened = openTeamA();
    UsageDatabase &db = opened->db;
    JobTracker &jobs = opened->jobs;
    auto one = db.lane(new StoreWorker, QStringLiteral("lane-1"));
    auto two = db.lane(new StoreWorker, QStringLiteral("lane-2"));
    QCOMPARE(run(jobs, one->worker()).budgets, QStringList{QStringLiteral("team-a")});
    QCOMPARE(run(jobs, two->worker()).budgets, QStringList{QStringLiteral("team-a")});

    db.open(url("b"));
    QCOMPARE(db.url(), url("b"));
    QCOMPARE(run(jobs, one->worker()).budgets, QStringList{QStringLiteral("team-b")});
    QCOMPARE(run(jobs, two->worker()).budgets, QStringList{QStringLiteral("team-b")});

    // A URL that cannot be opened: refused, and the old connection is not used.
    db.open(QStringLiteral("sqlite:///nonexistent-dir/x/y.db"));
    const Seen broken = run(jobs, one->worker());
    QVERIFY(!broken.error.isEmpty());
    QVERIFY(!broken.store);
}

void TestUsageLanes::closedUntilOpenedAgain() {
    const auto opened = openTeamA();
    UsageDatabase &db = opened->db;
    JobTracker &jobs = opened->jobs;
    auto lane = db.lane(new StoreWorker, QStringLiteral("lane"));
    StoreWorker *w = lane->worker();
    QVERIFY(run(jobs, w).store);

    JobWait wait;
    std::optional<bool> closed;
    jobs.runOn(
        w,
        [w] {
            w->close();
            return !w->store && !w->ready();
        },
        [&closed](bool c) { closed = c; });
    QVERIFY(wait.until([&] { return closed.has_value(); }, 20000));
    QVERIFY(*closed);
    QVERIFY(!run(jobs, w).error.isEmpty());

    std::optional<bool> reopened;
    jobs.runOn(
        w, [w] { return bool(w->open()); }, [&reopened](bool ok) { reopened = ok; });
    QVERIFY(wait.until([&] { return reopened.has_value(); }, 20000));
    QVERIFY(*reopened);
    QCOMPARE(run(jobs, w).budgets, QStringList{QStringLiteral("team-a")});
}

void TestUsageLanes::cancelledJobSeesItAndIsDropped() {
    const auto opened = openTeamA();
    UsageDatabase &db = opened->db;
    JobTracker &jobs = opened->jobs;
    auto lane = db.lane(new StoreWorker, QStringLiteral("lane"));
    StoreWorker *w = lane->worker();

    std::atomic<bool> started{false};
    std::atomic<bool> sawCancel{false};
    bool delivered = false;
    jobs.runOn(
        w,
        [w, &started, &sawCancel](const JobToken &token) {
            const Seen s = look(w);
            started = true;
            QDeadlineTimer limit(20000);
            while (!token.isCancelled() && !limit.hasExpired())
                QThread::msleep(2);
            sawCancel = token.isCancelled();
            return s;
        },
        [&delivered](const Seen &) { delivered = true; });
    QTRY_VERIFY_WITH_TIMEOUT(started, 20000);
    jobs.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(sawCancel, 20000);
    // A job after the cancel is answered (the lane was not blocked), the cancelled one is not.
    const Seen after = run(jobs, w);
    QCOMPARE(after.budgets, QStringList{QStringLiteral("team-a")});
    QVERIFY(!delivered);
}

void TestUsageLanes::servicesShareOneDatabase() {
    UsageDatabase db;
    UsageService usage(&db);
    BudgetService budgets(&db);
    UsageChartService charts(&db);
    QSignalSpy opened(&usage, &UsageService::opened);
    usage.open(url("shared")); // creates the database; the others follow without open()
    QTRY_VERIFY_WITH_TIMEOUT(!opened.isEmpty(), 20000);
    QCOMPARE(db.url(), url("shared"));

    QSignalSpy changed(&budgets, &BudgetService::changed);
    QSignalSpy failed(&budgets, &BudgetService::failed);
    budgets.save(budgetFor(QStringLiteral("team-s")), std::nullopt, QStringLiteral("alice"),
                 QStringLiteral("shared lane"));
    QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty() || !failed.isEmpty(), 20000);
    QVERIFY2(failed.isEmpty(),
             qPrintable(failed.isEmpty() ? QString() : failed.first().first().value<Error>().message));
    // The usage service's lane sees what the budgets' lane wrote: one database.
    NamespaceBudgets last;
    connect(&usage, &UsageService::budgetsChanged, this, [&last](const NamespaceBudgets &b) { last = b; });
    usage.checkBudgets();
    QTRY_VERIFY_WITH_TIMEOUT(last.contains(QStringLiteral("team-s")), 20000);
}

QTEST_GUILESS_MAIN(TestUsageLanes)
#include "tst_usagelanes.moc"
