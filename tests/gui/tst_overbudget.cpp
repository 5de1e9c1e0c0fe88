// "Over budget" badges in the namespace list come from GPU-hour budgets in the usage
// database (a real SQLite file), not from Kubernetes. The badge, its text and its
// tooltip numbers must follow usage and budget changes made by other processes (the
// CLI, the controller) without anyone pressing refresh. A budget shows one of three
// states: near (amber outline), over in grace (orange, with the local time the grace
// ends), over (red). The second half drives the
// real window against the test cluster: the badge is painted, and the namespace
// list fits its columns without a horizontal scroll bar.

#include "chargebackmodel.h"
#include "chargebackpage.h"
#include "clock.h"
#include "clusterusagepage.h"
#include "consolesettings.h"
#include "draftstore.h"
#include "errorbanner.h"
#include "gui/guitestutil.h"
#include "mainwindow.h"
#include "namespacelistmodel.h"
#include "namespacepanel.h"
#include "preferencesdialog.h"
#include "quotapage.h"
#include "templatedialog.h"
#include "testclusterprocess.h"
#include "usage/clockeddatabase.h"
#include "usagebardelegate.h"
#include "usagerangebar.h"
#include "usageservice.h"
#include "usagestore.h"
#include "usagetestdata.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QHelpEvent>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTemporaryDir>

#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>
#include <ctime>
#include <optional>

using namespace gq;
using namespace gq::test;

namespace {

// Worst status first, as the namespace panel sorts its list.
void sortByStatus(NamespaceFilterModel &proxy, NamespaceListModel &model) {
    proxy.setSourceModel(&model);
    proxy.sort(NamespaceListModel::StatusColumn, Qt::DescendingOrder);
}

// The process's local zone for one test (Qt reads TZ on every local-time conversion).
class LocalZone {
public:
    explicit LocalZone(const char *zone)
        : m_had(qEnvironmentVariableIsSet("TZ"))
        , m_old(qgetenv("TZ")) {
        qputenv("TZ", zone);
        tzset();
    }
    ~LocalZone() {
        if (m_had)
            qputenv("TZ", m_old);
        else
            qunsetenv("TZ");
        tzset();
    }
    Q_DISABLE_COPY_MOVE(LocalZone)

private:
    bool m_had;
    QByteArray m_old;
};

NamespaceSummary row(const QString &name) {
    NamespaceSummary s;
    s.name = name;
    s.quotaCount = 1;
    s.gpu = UsageBar{Quantity::fromInt(1), Quantity::fromInt(8), true};
    return s;
}

QModelIndex statusOf(const QAbstractItemModel *model, const QString &ns) {
    const int r = rowWithText(model, NamespaceListModel::NameColumn, ns);
    return r < 0 ? QModelIndex() : model->index(r, NamespaceListModel::StatusColumn);
}

bool isOver(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(NamespaceListModel::BadgesRole).toInt() &
           NamespaceListModel::OverBudgetBadge;
}

// Only the budget badges (near, in grace, over) of the status cell.
int budgetBadges(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(NamespaceListModel::BadgesRole).toInt() &
           (NamespaceListModel::NearBudgetBadge | NamespaceListModel::InGraceBadge |
            NamespaceListModel::OverBudgetBadge);
}

// Pixels of the status cell within 8 of `color` per channel.
int pixelsOf(QTreeView *view, const QModelIndex &idx, const QColor &color) {
    view->scrollTo(idx);
    const QImage img = view->viewport()->grab(view->visualRect(idx)).toImage();
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += qAbs(c.red() - color.red()) < 8 && qAbs(c.green() - color.green()) < 8 &&
                 qAbs(c.blue() - color.blue()) < 8;
        }
    return n;
}

QString tip(const QAbstractItemModel *model, const QString &ns) {
    return statusOf(model, ns).data(Qt::ToolTipRole).toString();
}

} // namespace

class TestOverBudget : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void badgeFollowsUsageAndBudget();
    void checksDoNotPileUp();
    void graceBadgesFlipAtTheRightInstants();
    void manyBudgetsStayOffTheGuiThread();
    void restoredHeaderKeepsNameStretching();
    void windowPaintsBadgeAndFitsColumns();
    void windowFitsAt1200AndElidesLongNames();
    void emptyFilterResultSaysSo();
    void contextMenuOffersTemplateForNamespaceWithoutQuota();
    void preferencesReachThePages();
    void cleanupTestCase();

private:
    void startWindow();
    // GQ_SHOT_DIR=dir saves what the window looks like at each step (for reviewing
    // the layout by eye; nothing is asserted on the images).
    void shot(const QString &name) {
        const QString dir = qEnvironmentVariable("GQ_SHOT_DIR");
        if (!dir.isEmpty() && m_window)
            m_window->grab().save(dir + QLatin1Char('/') + name + QLatin1String(".png"));
    }

    QTemporaryDir m_dir;
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::unique_ptr<ConsoleSettings> m_settings;
    std::unique_ptr<DraftStore> m_drafts;
    std::unique_ptr<MainWindow> m_window;
    ManualClock m_windowClock{kNow};
};

void TestOverBudget::initTestCase() {
    QVERIFY(m_dir.isValid());
    QLocale::setDefault(QLocale::c()); // "12.5", not "12,5"
}

void TestOverBudget::cleanupTestCase() {
    m_window.reset();
    m_cluster.reset();
}

void TestOverBudget::badgeFollowsUsageAndBudget() {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("model.db"));
    // Another process's view of the database: what the CLI or the controller writes.
    auto other = UsageStore::open(url);
    QVERIFY2(other, qPrintable(other ? QString() : other.error().toString()));
    UsageStore &cli = **other;
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-a"), 8)));
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-b"), 20)));
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-b"), 100, 0,
                                 QStringLiteral("UTC"), Period::Week)));
    // team-a: 5 GPUs for 2.5 h = 12.5 GPU-h today; team-b: 2 GPUs for 2 h = 4.
    QVERIFY(cli.upsertInterval(interval(QStringLiteral("team-a"), QStringLiteral("alice"),
                                        QStringLiteral("p1"), 5, at(10), at(12, 30))));
    QVERIFY(cli.upsertInterval(interval(QStringLiteral("team-b"), QStringLiteral("alice"),
                                        QStringLiteral("p1"), 2, at(12), at(14))));

    NamespaceListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.resetAll(
        {row(QStringLiteral("team-a")), row(QStringLiteral("team-b")), row(QStringLiteral("team-c"))});
    NamespaceFilterModel proxy;
    sortByStatus(proxy, model);

    ClockedDatabase w(kNow.toSecsSinceEpoch(), 100); // the periodic check, sped up
    connect(&w.db, &UsageService::budgetsChanged, &model, &NamespaceListModel::setBudgets);
    QSignalSpy checked(&w.db, &UsageService::budgetsChanged);
    w.db.open(url);
    QVERIFY(checked.wait(10000));

    // Over: badge flag, text, tooltip with the numbers; it sorts first by status.
    QVERIFY(isOver(&model, QStringLiteral("team-a")));
    QVERIFY(
        statusOf(&model, QStringLiteral("team-a")).data().toString().contains(QStringLiteral("over budget")));
    QVERIFY2(tip(&model, QStringLiteral("team-a")).contains(QStringLiteral("12.5 of 8.0 GPU-h today")),
             qPrintable(tip(&model, QStringLiteral("team-a"))));
    QCOMPARE(proxy.index(0, NamespaceListModel::NameColumn).data().toString(), QStringLiteral("team-a"));
    // Under: no badge, but the tooltip still says where it stands, per period.
    QVERIFY(!isOver(&model, QStringLiteral("team-b")));
    QVERIFY(!statusOf(&model, QStringLiteral("team-b")).data().toString().contains(QStringLiteral("over")));
    QVERIFY(tip(&model, QStringLiteral("team-b")).contains(QStringLiteral("4.0 of 20.0 GPU-h today")));
    QVERIFY(tip(&model, QStringLiteral("team-b")).contains(QStringLiteral("4.0 of 100.0 GPU-h this week")));
    // No budget: nothing about GPU-hours at all.
    QVERIFY(!isOver(&model, QStringLiteral("team-c")));
    QVERIFY(!tip(&model, QStringLiteral("team-c")).contains(QStringLiteral("GPU-h")));

    // The console raises team-a's budget: the badge goes at once.
    w.db.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-a"), 16));
    QTRY_VERIFY_WITH_TIMEOUT(!isOver(&model, QStringLiteral("team-a")), 5000);
    QVERIFY(tip(&model, QStringLiteral("team-a")).contains(QStringLiteral("12.5 of 16.0 GPU-h today")));
    QVERIFY(!statusOf(&model, QStringLiteral("team-a")).data().toString().contains(QStringLiteral("over")));

    // The controller records more team-b usage (10 GPUs for 2 h): 24 of 20, with no
    // call from us; the periodic check finds it.
    QVERIFY(cli.upsertInterval(interval(QStringLiteral("team-b"), QStringLiteral("alice"),
                                        QStringLiteral("p2"), 10, at(12), at(14))));
    QTRY_VERIFY_WITH_TIMEOUT(isOver(&model, QStringLiteral("team-b")), 5000);
    QVERIFY(tip(&model, QStringLiteral("team-b")).contains(QStringLiteral("24.0 of 20.0 GPU-h today")));
    QCOMPARE(proxy.index(0, NamespaceListModel::NameColumn).data().toString(), QStringLiteral("team-b"));

    // The CLI lowers team-a's budget below its use and raises team-b's.
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-a"), 10)));
    QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-b"), 30)));
    QTRY_VERIFY_WITH_TIMEOUT(
        isOver(&model, QStringLiteral("team-a")) && !isOver(&model, QStringLiteral("team-b")), 5000);

    // A new day: nothing used yet today, so nobody is over; the week still counts.
    w.clock.set(QDateTime(kNow.date().addDays(1), QTime(1, 0), Qt::UTC));
    QTRY_VERIFY_WITH_TIMEOUT(!isOver(&model, QStringLiteral("team-a")), 5000);
    QTRY_VERIFY(tip(&model, QStringLiteral("team-a")).contains(QStringLiteral("0.0 of 10.0 GPU-h today")));
    QVERIFY2(tip(&model, QStringLiteral("team-b")).contains(QStringLiteral("24.0 of 100.0 GPU-h this week")),
             qPrintable(tip(&model, QStringLiteral("team-b"))));

    // A budget deleted elsewhere takes its numbers out of the tooltip.
    QVERIFY(cli.deleteBudget(BudgetScope::Namespace, QStringLiteral("team-a")));
    QTRY_VERIFY_WITH_TIMEOUT(!tip(&model, QStringLiteral("team-a")).contains(QStringLiteral("GPU-h")), 5000);
}

void TestOverBudget::checksDoNotPileUp() {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("pile.db"));
    auto other = UsageStore::open(url);
    QVERIFY(other);
    QVERIFY((*other)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-a"), 1)));
    ClockedDatabase w(kNow.toSecsSinceEpoch(), 0);
    QSignalSpy opened(&w.db, &UsageService::opened);
    QSignalSpy checked(&w.db, &UsageService::budgetsChanged);
    w.db.open(url);
    QVERIFY(opened.wait(10000));
    QTRY_COMPARE(checked.count(), 1); // the check on open
    // A burst of requests while one runs folds into one more run, not 50.
    for (int i = 0; i < 50; ++i)
        w.db.checkBudgets();
    QTRY_COMPARE(checked.count(), 3);
    QTest::qWait(300);
    QCOMPARE(checked.count(), 3);
    QCOMPARE(w.db.budgetRefreshInterval(), 0);
}

// Three namespaces through a day, the clock moved to the seconds around each change,
// shown in Asia/Kolkata local time (UTC+05:30):
// - team-grace: 8 GPU-h a day in America/New_York (EDT, the day starts 04:00 UTC),
//   grace 15 min, alice and dave run 1 GPU each since 10:00 UTC. The limit is crossed
//   at 14:00:00 UTC; the grace allowance (2 GPUs x 15 min) is spent at 14:15:00 UTC =
//   19:45 in Kolkata. Both users are over their own budgets.
// - team-near: 10 GPU-h a day (UTC), bob runs 1 GPU since 08:00: 80 % at 16:00:00.
// - team-red: 1 GPU-h with 15 min grace, 2 GPU-h used and nothing running: red.
void TestOverBudget::graceBadgesFlipAtTheRightInstants() {
    const LocalZone zone("Asia/Kolkata");
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("grace.db"));
    const QString grace = QStringLiteral("team-grace"), nearNs = QStringLiteral("team-near"),
                  red = QStringLiteral("team-red");
    {
        auto store = UsageStore::open(url);
        QVERIFY(store);
        UsageStore &cli = **store;
        QVERIFY(
            cli.setBudget(budget(BudgetScope::Namespace, grace, 8, 900, QStringLiteral("America/New_York"))));
        QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, nearNs, 10)));
        QVERIFY(cli.setBudget(budget(BudgetScope::Namespace, red, 1, 900)));
        QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("alice"), 1)));
        QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("dave"), 2)));
        QVERIFY(cli.setBudget(budget(BudgetScope::User, QStringLiteral("bob"), 1000)));
        QVERIFY(cli.upsertInterval(
            interval(grace, QStringLiteral("alice"), QStringLiteral("a"), 1, utc(10, 10), std::nullopt)));
        QVERIFY(cli.upsertInterval(
            interval(grace, QStringLiteral("dave"), QStringLiteral("d"), 1, utc(10, 10), std::nullopt)));
        QVERIFY(cli.upsertInterval(
            interval(nearNs, QStringLiteral("bob"), QStringLiteral("b"), 1, utc(10, 8), std::nullopt)));
        QVERIFY(cli.upsertInterval(
            interval(red, QStringLiteral("erin"), QStringLiteral("r"), 2, utc(10, 9), utc(10, 10))));
    }
    NamespaceListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.resetAll({row(grace), row(nearNs), row(red)});
    NamespaceFilterModel proxy;
    sortByStatus(proxy, model);

    ClockedDatabase w(utc(10, 14, 0, 0), 0); // each check below is asked for
    connect(&w.db, &UsageService::budgetsChanged, &model, &NamespaceListModel::setBudgets);
    connect(&w.db, &UsageService::usersOverBudgetChanged, &model, &NamespaceListModel::setUsersOverBudget);
    QSignalSpy checked(&w.db, &UsageService::budgetsChanged);
    w.db.open(url);
    QVERIFY(checked.wait(10000));
    auto at = [&](qint64 t) {
        w.clock.set(t);
        const qsizetype before = checked.count();
        w.db.checkBudgets();
        return QTest::qWaitFor([&] { return checked.count() > before; }, 10000);
    };
    const int Near = NamespaceListModel::NearBudgetBadge, Grace = NamespaceListModel::InGraceBadge,
              Over = NamespaceListModel::OverBudgetBadge;
    auto order = [&] {
        QStringList names;
        for (int r = 0; r < proxy.rowCount(); ++r)
            names << proxy.index(r, NamespaceListModel::NameColumn).data().toString();
        return names.join(QLatin1Char(' '));
    };

    // At the limit exactly: near, not over.
    QCOMPARE(budgetBadges(&model, grace), Near);
    QVERIFY2(tip(&model, grace)
                 .contains(QStringLiteral("Near its GPU-hour budget: 8.0 of 8.0 GPU-h today (100%)")),
             qPrintable(tip(&model, grace)));
    QCOMPARE(budgetBadges(&model, nearNs), 0);
    QCOMPARE(budgetBadges(&model, red), Over);
    QVERIFY2(tip(&model, red)
                 .contains(QStringLiteral("Over its GPU-hour budget: 2.0 of 1.0 GPU-h today — grace "
                                          "(15 min) is over; new and running jobs are denied")),
             qPrintable(tip(&model, red)));

    // One second later: in grace until 19:45 Kolkata time.
    QVERIFY(at(utc(10, 14, 0, 1)));
    QCOMPARE(budgetBadges(&model, grace), Grace);
    QCOMPARE(statusOf(&model, grace).data(NamespaceListModel::GraceEndRole).toString(),
             QStringLiteral("19:45"));
    QCOMPARE(statusOf(&model, grace).data().toString(), QStringLiteral("grace until 19:45"));
    const QString graceTip = tip(&model, grace);
    QVERIFY2(
        graceTip.contains(QStringLiteral("Over its GPU-hour budget: 8.0 of 8.0 GPU-h today — running jobs "
                                         "may continue until 19:45 (grace 15 min); new jobs are denied")),
        qPrintable(graceTip));
    QVERIFY2(graceTip.contains(QStringLiteral("2 user")) &&
                 graceTip.contains(QStringLiteral(": alice, dave")),
             qPrintable(graceTip));
    QVERIFY(!tip(&model, nearNs).contains(QStringLiteral("user")));
    QCOMPARE(order(), QStringLiteral("team-red team-grace team-near"));

    QVERIFY(at(utc(10, 14, 15, 0)));
    QCOMPARE(budgetBadges(&model, grace), Grace);
    QCOMPARE(statusOf(&model, grace).data().toString(), QStringLiteral("grace until 19:45"));
    QVERIFY(at(utc(10, 14, 15, 1)));
    QCOMPARE(budgetBadges(&model, grace), Over);
    QCOMPARE(statusOf(&model, grace).data().toString(), QStringLiteral("over budget"));
    QVERIFY(tip(&model, grace).contains(QStringLiteral("grace (15 min) is over")));
    QVERIFY(statusOf(&model, grace).data(NamespaceListModel::GraceEndRole).toString().isEmpty());

    QVERIFY(at(utc(10, 15, 59, 59)));
    QCOMPARE(budgetBadges(&model, nearNs), 0);
    QVERIFY(tip(&model, nearNs).contains(QStringLiteral("GPU-hour budget: 8.0 of 10.0 GPU-h today")));
    QVERIFY(at(utc(10, 16, 0, 0)));
    QCOMPARE(budgetBadges(&model, nearNs), Near);
    QCOMPARE(statusOf(&model, nearNs).data().toString(), QStringLiteral("near budget"));
    QVERIFY2(tip(&model, nearNs)
                 .contains(QStringLiteral("Near its GPU-hour budget: 8.0 of 10.0 GPU-h today (80%)")),
             qPrintable(tip(&model, nearNs)));
    QCOMPARE(order(), QStringLiteral("team-red team-grace team-near")); // both red: by name

    // Midnight in New York is 09:30 in Kolkata: team-grace starts over, team-near's
    // UTC day started four hours ago (4 of 10).
    QVERIFY(at(utc(11, 3, 59, 59)));
    QCOMPARE(budgetBadges(&model, grace), Over);
    QVERIFY(at(utc(11, 4, 0, 0)));
    QCOMPARE(budgetBadges(&model, grace), 0);
    QVERIFY(tip(&model, grace).contains(QStringLiteral("GPU-hour budget: 0.0 of 8.0 GPU-h today")));
    QCOMPARE(budgetBadges(&model, nearNs), 0);
}

// 20,000 namespaces, 2,000 of them with a daily budget and usage: the check runs on
// the database thread; the GUI thread only merges the answer. Prints both figures.
void TestOverBudget::manyBudgetsStayOffTheGuiThread() {
    const int kNamespaces = 20000, kBudgets = 2000;
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("scale.db"));
    {
        auto store = UsageStore::open(url);
        QVERIFY(store);
        QSqlQuery fast((*store)->database());
        QVERIFY(fast.exec(QStringLiteral("PRAGMA synchronous=OFF"))); // set-up speed only
        std::vector<UsageInterval> ivs;
        for (int i = 0; i < kBudgets; ++i) {
            const QString ns = QStringLiteral("ns-%1").arg(i, 5, 10, QLatin1Char('0'));
            QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, ns, 10)));
            // Every other one is over: 6 GPUs x 2 h = 12 of 10.
            ivs.push_back(
                interval(ns, QStringLiteral("alice"), QStringLiteral("p"), i % 2 ? 6 : 2, at(10), at(12)));
        }
        QVERIFY((*store)->insertBulk(ivs));
    }
    QList<NamespaceSummary> rows;
    for (int i = 0; i < kNamespaces; ++i)
        rows << row(QStringLiteral("ns-%1").arg(i, 5, 10, QLatin1Char('0')));
    NamespaceListModel model;
    model.resetAll(rows);
    NamespaceFilterModel proxy;
    sortByStatus(proxy, model);

    ClockedDatabase w(kNow.toSecsSinceEpoch(), 0);
    qint64 guiMs = -1;
    connect(&w.db, &UsageService::budgetsChanged, &model, [&](const NamespaceBudgets &b) {
        QElapsedTimer t;
        t.start();
        model.setBudgets(b);
        guiMs = t.elapsed();
    });
    QSignalSpy opened(&w.db, &UsageService::opened);
    QSignalSpy checked(&w.db, &UsageService::budgetsChanged);
    w.db.open(url);
    QVERIFY(opened.wait(20000));
    QVERIFY(checked.count() == 1 || checked.wait(60000));
    const qint64 firstGuiMs = guiMs;
    QElapsedTimer wall;
    wall.start();
    w.db.checkBudgets();
    QVERIFY(checked.wait(60000));
    const qint64 checkMs = wall.elapsed();
    qInfo("budget check, %d namespace budgets: %lld ms on the usage-db thread (request to answer); "
          "GUI thread merge into %d rows: first %lld ms (badges flip, proxy re-sorts), repeat %lld ms",
          kBudgets, checkMs, kNamespaces, firstGuiMs, guiMs);
    int over = 0;
    for (int i = 0; i < kBudgets; ++i)
        over += bool(model.badges(i) & NamespaceListModel::OverBudgetBadge);
    QCOMPARE(over, kBudgets / 2);
    QVERIFY(!(model.badges(kBudgets) & NamespaceListModel::OverBudgetBadge));
}

// A header state saved by an older layout (fixed name width, last column stretching)
// keeps the user's sort order but not the layout that caused the scroll bar.
void TestOverBudget::restoredHeaderKeepsNameStretching() {
    NamespaceListModel model;
    model.resetAll({row(QStringLiteral("team-a")), row(QStringLiteral("team-b"))});
    QByteArray old;
    {
        NamespacePanel panel(&model);
        QHeaderView *h = panel.view()->header();
        h->setSectionResizeMode(QHeaderView::Interactive);
        h->setStretchLastSection(true);
        h->resizeSection(NamespaceListModel::NameColumn, 400);
        panel.view()->sortByColumn(NamespaceListModel::GpuColumn, Qt::DescendingOrder);
        old = panel.headerState();
    }
    NamespacePanel panel(&model);
    panel.resize(600, 300);
    panel.restoreHeaderState(old);
    QHeaderView *h = panel.view()->header();
    QCOMPARE(h->sectionResizeMode(NamespaceListModel::NameColumn), QHeaderView::Stretch);
    QCOMPARE(h->sectionResizeMode(NamespaceListModel::StatusColumn), QHeaderView::Interactive);
    QVERIFY(!h->stretchLastSection());
    QCOMPARE(h->sortIndicatorSection(), int(NamespaceListModel::GpuColumn));
    QCOMPARE(h->sortIndicatorOrder(), Qt::DescendingOrder);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY(!panel.view()->horizontalScrollBar()->isVisible());
}

void TestOverBudget::startWindow() {
    TestClusterProcess::Options opts;
    opts.scenario = QStringLiteral("demo");
    m_cluster = std::make_unique<TestClusterProcess>(opts);
    QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
    m_settings = std::make_unique<ConsoleSettings>(m_dir.filePath(QStringLiteral("settings.ini")));
    m_drafts = std::make_unique<DraftStore>(nullptr, m_dir.filePath(QStringLiteral("drafts")));

    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("window.db"));
    {
        auto store = UsageStore::open(url);
        QVERIFY(store);
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-vision"), 8)));
        // team-nlp: 6 of 5.5 GPU-h at 15:00 with 2 GPUs running and 1 h grace: in grace
        // until 15:45 UTC. research: 8.5 of 10, near.
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("team-nlp"), 5.5, 3600)));
        QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QStringLiteral("research"), 10)));
        // alice runs team-nlp's pod and is over her own 1 GPU-h.
        QVERIFY((*store)->setBudget(budget(BudgetScope::User, QStringLiteral("alice"), 1)));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-vision"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 5, at(10), at(12, 30))));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-nlp"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 2, at(12), std::nullopt)));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("research"), QStringLiteral("alice"),
                                                  QStringLiteral("p1"), 1, at(1), at(9, 30))));
    }
    m_window = std::make_unique<MainWindow>(m_settings.get(), m_drafts.get());
    // The cluster dashboard opens first; these tests are about the namespace list.
    m_window->findChild<QTabWidget *>(QStringLiteral("detailsTabs"))->setCurrentWidget(m_window->quotaPage());
    m_window->usageDatabase()->setClock(&m_windowClock);
    QSignalSpy shown(m_window.get(), &MainWindow::dataShown);
    m_window->openUsageDatabase(url);
    m_window->openKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"));
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(shown.wait(20000));
}

void TestOverBudget::windowPaintsBadgeAndFitsColumns() {
    startWindow();
    if (QTest::currentTestFailed())
        return;
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    QVERIFY(view);
    const QAbstractItemModel *model = view->model();
    QTRY_VERIFY_WITH_TIMEOUT(isOver(model, QStringLiteral("team-vision")), 10000);
    QVERIFY(tip(model, QStringLiteral("team-vision")).contains(QStringLiteral("12.5 of 8.0 GPU-h today")));
    QVERIFY(!isOver(model, QStringLiteral("team-nlp")));
    QTRY_COMPARE(budgetBadges(model, QStringLiteral("team-nlp")), int(NamespaceListModel::InGraceBadge));
    QCOMPARE(budgetBadges(model, QStringLiteral("research")), int(NamespaceListModel::NearBudgetBadge));
    const QString graceEnd = QDateTime::fromSecsSinceEpoch(at(15, 45)).toString(QStringLiteral("HH:mm"));
    QVERIFY2(tip(model, QStringLiteral("team-nlp"))
                 .contains(QStringLiteral("6.0 of 5.5 GPU-h today — running jobs may continue until ") +
                           graceEnd + QStringLiteral(" (grace 1 h)")),
             qPrintable(tip(model, QStringLiteral("team-nlp"))));
    QVERIFY2(tip(model, QStringLiteral("team-nlp"))
                 .contains(QStringLiteral("over their own GPU-hour budget: alice")),
             qPrintable(tip(model, QStringLiteral("team-nlp"))));
    QVERIFY(!tip(model, QStringLiteral("team-vision")).contains(QStringLiteral("alice"))); // ran, not running

    // On screen: the red badge in team-vision's status cell, the orange grace badge in
    // team-nlp's, and neither colour where it does not belong.
    auto status = [&](const QString &ns) { return statusOf(model, ns); };
    const QColor red = UsageBarDelegate::badgeColor(NamespaceListModel::OverBudgetBadge);
    const QColor orange = UsageBarDelegate::badgeColor(NamespaceListModel::InGraceBadge);
    shot(QStringLiteral("overbudget-1400"));
    QVERIFY(pixelsOf(view, status(QStringLiteral("team-vision")), red) > 50);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("team-nlp")), red), 0);
    QVERIFY(pixelsOf(view, status(QStringLiteral("team-nlp")), orange) > 50);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("team-vision")), orange), 0);
    QCOMPARE(pixelsOf(view, status(QStringLiteral("research")), orange), 0);

    // 1400 px wide window: every column fits, the name column takes the slack.
    QTRY_VERIFY(!view->horizontalScrollBar()->isVisible());
    QHeaderView *header = view->header();
    int total = 0;
    for (int c = 0; c < header->count(); ++c)
        total += header->sectionSize(c);
    QVERIFY2(total <= view->viewport()->width(),
             qPrintable(QStringLiteral("%1 > %2").arg(total).arg(view->viewport()->width())));
    for (int c :
         {NamespaceListModel::GpuColumn, NamespaceListModel::CpuColumn, NamespaceListModel::MemoryColumn})
        QVERIFY2(header->sectionSize(c) >= view->fontMetrics().horizontalAdvance(QStringLiteral("888 / 888")),
                 qPrintable(QString::number(header->sectionSize(c))));
}

void TestOverBudget::windowFitsAt1200AndElidesLongNames() {
    QVERIFY(m_window);
    const QString longName = QStringLiteral("team-computer-vision-foundation-models-pretraining-2026");
    QCOMPARE(kubectl(m_cluster->kubeconfigPath(),
                     {QStringLiteral("create"), QStringLiteral("namespace"), longName})
                 .left(5),
             QStringLiteral("names"));
    // Enough namespaces for a vertical scroll bar, in one kubectl call.
    QFile many(m_dir.filePath(QStringLiteral("many.yaml")));
    QVERIFY(many.open(QIODevice::WriteOnly));
    for (int i = 0; i < 30; ++i)
        many.write(QStringLiteral("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: batch-%1\n")
                       .arg(i, 2, 10, QLatin1Char('0'))
                       .toUtf8());
    many.close();
    QVERIFY(!kubectl(m_cluster->kubeconfigPath(),
                     {QStringLiteral("create"), QStringLiteral("-f"), many.fileName()})
                 .startsWith(QStringLiteral("ERROR")));
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    QTRY_VERIFY_WITH_TIMEOUT(rowWithText(view->model(), NamespaceListModel::NameColumn, longName) >= 0,
                             10000);
    QTRY_VERIFY_WITH_TIMEOUT(
        rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("batch-29")) >= 0, 10000);

    // With a vertical scroll bar, which takes width from the columns.
    for (QSize size : {QSize(1200, 800), QSize(1600, 1000), QSize(1400, 900)}) {
        m_window->resize(size);
        QTRY_COMPARE(m_window->size(), size);
        QTest::qWait(50);
        QVERIFY2(!view->horizontalScrollBar()->isVisible(), qPrintable(QString::number(size.width())));
        shot(QStringLiteral("list-%1x%2").arg(size.width()).arg(size.height()));
    }
    QVERIFY(view->verticalScrollBar()->isVisible());

    // The long name is elided in its cell and its tooltip gives it whole.
    const QModelIndex nameIdx = view->model()->index(
        rowWithText(view->model(), NamespaceListModel::NameColumn, longName), NamespaceListModel::NameColumn);
    view->scrollTo(nameIdx);
    const QRect cell = view->visualRect(nameIdx);
    QVERIFY(view->fontMetrics().horizontalAdvance(longName) > cell.width());
    QHelpEvent help(QEvent::ToolTip, cell.center(), view->viewport()->mapToGlobal(cell.center()));
    QApplication::sendEvent(view->viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), longName);
    QToolTip::hideText();

    // A short name that fits gets no tooltip of its own.
    const QModelIndex shortIdx = view->model()->index(
        rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("research")),
        NamespaceListModel::NameColumn);
    view->scrollTo(shortIdx);
    const QRect shortCell = view->visualRect(shortIdx);
    QHelpEvent help2(QEvent::ToolTip, shortCell.center(), view->viewport()->mapToGlobal(shortCell.center()));
    QApplication::sendEvent(view->viewport(), &help2);
    QTest::qWait(50);
    QVERIFY(!QToolTip::isVisible() || QToolTip::text() != QStringLiteral("research"));
}

void TestOverBudget::emptyFilterResultSaysSo() {
    QVERIFY(m_window);
    auto *filter = m_window->findChild<QLineEdit *>(QStringLiteral("namespaceFilter"));
    auto *empty = m_window->findChild<QLabel *>(QStringLiteral("namespaceEmptyLabel"));
    QVERIFY(filter && empty);
    QVERIFY(!empty->isVisible());
    QTest::keyClicks(filter, QStringLiteral("no-such-team"));
    QTRY_VERIFY(empty->isVisible());
    QVERIFY2(empty->text().contains(QStringLiteral("no-such-team")), qPrintable(empty->text()));
    shot(QStringLiteral("empty-filter"));
    filter->clear();
    QTRY_VERIFY(!empty->isVisible());
}

void TestOverBudget::contextMenuOffersTemplateForNamespaceWithoutQuota() {
    QVERIFY(m_window);
    auto *view = m_window->findChild<QTreeView *>(QStringLiteral("namespaceView"));
    const int r = rowWithText(view->model(), NamespaceListModel::NameColumn, QStringLiteral("default"));
    QVERIFY(r >= 0);
    const QModelIndex idx = view->model()->index(r, NamespaceListModel::NameColumn);
    view->scrollTo(idx);
    const QPoint pos = view->visualRect(idx).center();
    // The menu runs its own event loop: pick the action once it is up.
    QString offered;
    QTimer::singleShot(0, this, [&offered] {
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        if (!menu)
            return;
        if (auto *a = menu->findChild<QAction *>(QStringLiteral("namespaceTemplateAction"))) {
            offered = a->text();
            a->trigger();
        }
        menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &event);
    QCOMPARE(offered, QStringLiteral("Create quota from template..."));
    QCOMPARE(m_window->namespacePanel()->currentNamespace(), QStringLiteral("default"));
    TemplateDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = visibleDialog<TemplateDialog>()) != nullptr);
    QCOMPARE(dialog->checkedTargets(), QStringList{QStringLiteral("default")});
    dialog->reject();
}

// The Preferences' General tab reaches the pages: namespaces over their budget show as
// the alert display says (banner, status bar, nowhere); the zone moves the charts'
// buckets and the chargeback month; the rate and currency are the chargeback's.
void TestOverBudget::preferencesReachThePages() {
    startWindow();
    if (QTest::currentTestFailed())
        return;
    auto *banner = m_window->findChild<MessageBanner *>(QStringLiteral("budgetAlertBanner"));
    auto *label = m_window->statusBar()->findChild<QLabel *>(QStringLiteral("budgetAlertLabel"));
    QVERIFY(banner && label);
    // The default: the banner, naming the namespace over its budget.
    QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), 10000);
    QVERIFY2(banner->text().contains(QStringLiteral("team-vision")), qPrintable(banner->text()));
    QVERIFY(!label->isVisible());

    PreferencesDialog *prefs = m_window->openPreferences();
    const auto choose = [prefs](const char *name, const QString &data) {
        auto *box = prefs->findChild<QComboBox *>(QLatin1String(name));
        QVERIFY(box);
        const int i = box->findData(data);
        QVERIFY2(i >= 0, qPrintable(data));
        box->setCurrentIndex(i);
    };
    const auto apply = [prefs] {
        prefs->findChild<QDialogButtonBox *>(QStringLiteral("preferencesButtons"))
            ->button(QDialogButtonBox::Apply)
            ->click();
    };
    choose("alertDisplayCombo", QStringLiteral("status"));
    choose("timeZoneCombo", QStringLiteral("Asia/Tokyo"));
    prefs->findChild<QDoubleSpinBox *>(QStringLiteral("chargebackRate"))->setValue(3.25);
    prefs->findChild<QComboBox *>(QStringLiteral("currencyCombo"))->setCurrentText(QStringLiteral("EUR"));
    apply();
    QVERIFY(!banner->isVisible());
    QVERIFY(label->isVisible());
    QVERIFY2(label->text().contains(QStringLiteral("team-vision")), qPrintable(label->text()));

    auto *dashboard = m_window->findChild<ClusterUsagePage *>();
    QCOMPARE(dashboard->rangeBar()->zone(), QStringLiteral("Asia/Tokyo"));
    auto *chargeback = m_window->findChild<ChargebackPage *>(QStringLiteral("chargebackPage"));
    QCOMPARE(chargeback->findChild<QComboBox *>(QStringLiteral("chargebackZone"))->currentText(),
             QStringLiteral("Asia/Tokyo"));
    QCOMPARE(chargeback->findChild<QDoubleSpinBox *>(QStringLiteral("chargebackRate"))->value(), 3.25);
    QTRY_VERIFY_WITH_TIMEOUT(chargeback->model()->hasReport() && !chargeback->isLoading(), 10000);
    QCOMPARE(chargeback->model()->report().rates.currency, QStringLiteral("EUR"));
    QCOMPARE(chargeback->model()->report().rates.defaultMicros, qint64(3250000));
    QCOMPARE(QString::fromUtf8(chargeback->model()->report().month.tz.id()), QStringLiteral("Asia/Tokyo"));

    choose("alertDisplayCombo", QStringLiteral("off"));
    apply();
    QVERIFY(!banner->isVisible());
    QVERIFY(!label->isVisible());
    prefs->reject();
}

QTEST_MAIN(TestOverBudget)
#include "tst_overbudget.moc"
