// The Budgets tab grouped by Kueue queue (issue #27): "Group by" ClusterQueue / LocalQueue
// puts each budget under the queue it is charged to, below a subtotal row of used / limit
// GPU-hours. Against the real test cluster (demo scenario: its LocalQueues, read by
// NamespaceQueueFeed as the window reads them) and a real usage database (SQLite, and
// PostgreSQL in the _postgres run) holding the queue suites' ledger (queueledger.h).
// Namespace budgets go to their namespace's queue; gina runs now in team-nlp and
// team-speech, so her budget goes to both queues jointly; nobody, who ran nowhere this
// period, goes to "(no queue)" with scratch (no LocalQueue). Every subtotal is the sum of
// its budgets as the database answers them. In English and Chinese (the real catalogue);
// GQ_SCREENSHOT_DIR saves budgets-by-queue{,-zh_CN}.png.
#include "core/usage/usagestore.h"
#include "models/budgets/budgetlistmodel.h"
#include "services/budgets/budgetservice.h"
#include "services/queues/namespacequeues.h"
#include "tests/gui/guitestutil.h"
#include "tests/gui/pagefixture.h"
#include "tests/gui/queueledger.h"
#include "tests/usage/usagebackend.h"
#include "tests/usagetestdata.h"
#include "widgets/budgets/budgetspage.h"

#include <QComboBox>
#include <QDir>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTranslator>

using namespace gq;
using namespace gq::test;

namespace {
using Groups = QMap<QString, QString>; // queue -> its budgets' subjects, sorted, by " "

const Groups kByClusterQueue{{QStringLiteral("(no queue)"), QStringLiteral("nobody scratch")},
                             {QStringLiteral("cq-nlp"), QStringLiteral("team-nlp")},
                             {QStringLiteral("cq-nlp+cq-serving"), QStringLiteral("gina")},
                             {QStringLiteral("cq-research"), QStringLiteral("research")},
                             {QStringLiteral("cq-serving"), QStringLiteral("team-recsys team-speech")},
                             {QStringLiteral("cq-vision"), QStringLiteral("team-vision")}};
const Groups kByLocalQueue{{QStringLiteral("(no queue)"), QStringLiteral("nobody scratch")},
                           {QStringLiteral("research/research"), QStringLiteral("research")},
                           {QStringLiteral("team-nlp/nlp"), QStringLiteral("team-nlp")},
                           {QStringLiteral("team-nlp/nlp+team-speech/speech"), QStringLiteral("gina")},
                           {QStringLiteral("team-recsys/recsys"), QStringLiteral("team-recsys")},
                           {QStringLiteral("team-speech/speech"), QStringLiteral("team-speech")},
                           {QStringLiteral("team-vision/vision"), QStringLiteral("team-vision")}};
constexpr int kBudgets = 8;
} // namespace

class TestBudgetsByQueue : public QObject {
    Q_OBJECT

    PageFixture m_fx;
    UsageTestBackend m_backend{"gq_budgetsq"};
    QString m_url;
    kueue::QueueAttribution m_queues;

    // The page's groups as queue -> subjects; each subtotal checked against the database.
    Groups groupsOf(const BudgetListModel &model, QString *mismatch) {
        auto store = UsageStore::open(m_url);
        if (!store) {
            *mismatch = store.error().toString();
            return {};
        }
        Groups out;
        for (const BudgetGroup &g : model.groups()) {
            QStringList subjects;
            double used = 0, limit = 0;
            for (int row = 0; row < model.rowCount(); ++row) {
                const BudgetRow *r = model.budgetAt(row);
                if (!r || model.groupAt(row) != &g)
                    continue;
                subjects << r->budget.subject;
                auto status = (*store)->budgetStatus(r->budget.scope, r->budget.subject, model.now());
                if (!status) {
                    *mismatch = status.error().toString();
                    return {};
                }
                for (const Decision &d : *status)
                    if (d.budget.period == r->budget.period) {
                        used += d.used;
                        limit += d.limit;
                    }
            }
            if (std::abs(used - g.used) > 1e-6 || std::abs(limit - g.limit) > 1e-6)
                *mismatch += QStringLiteral("%1: page %2 of %3, database %4 of %5; ")
                                 .arg(g.key)
                                 .arg(g.used)
                                 .arg(g.limit)
                                 .arg(used)
                                 .arg(limit);
            subjects.sort();
            out.insert(g.key, subjects.join(QLatin1Char(' ')));
        }
        return out;
    }

    // In the view's order (sorted by a column), each subtotal row stands above its budgets.
    static QString orderProblem(const QTableView *view) {
        const QAbstractItemModel *m = view->model();
        int group = -2;
        for (int row = 0; row < m->rowCount(); ++row) {
            const QModelIndex i = m->index(row, 0);
            const int g = i.data(BudgetListModel::GroupRole).toInt();
            if (i.data(BudgetListModel::GroupHeaderRole).toBool()) {
                if (g <= group)
                    return QStringLiteral("group %1 at row %2 after group %3").arg(g).arg(row).arg(group);
                group = g;
            } else if (g != group) {
                return QStringLiteral("budget of group %1 at row %2 under group %3")
                    .arg(g)
                    .arg(row)
                    .arg(group);
            }
        }
        return {};
    }

private slots:
    void initTestCase() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        const QString err = m_fx.start();
        QVERIFY2(err.isEmpty(), qPrintable(err));
        m_url = m_backend.freshUrl();
        auto store = UsageStore::open(m_url);
        QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        QVERIFY((*store)->insertBulk(queueLedgerIntervals(now / 3600 * 3600)));
        // gina holds GPUs in team-nlp and team-speech since the later of today's start and 2 h ago.
        const qint64 since = std::max(now / 86400 * 86400, now - 7200);
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-nlp"), QStringLiteral("gina"),
                                                  QStringLiteral("g1"), 2, since, {})));
        QVERIFY((*store)->upsertInterval(interval(QStringLiteral("team-speech"), QStringLiteral("gina"),
                                                  QStringLiteral("g2"), 1, since, {})));
        for (const auto &[ns, limit] : {std::pair{"team-nlp", 40},
                                        {"team-vision", 30},
                                        {"research", 20},
                                        {"scratch", 10},
                                        {"team-speech", 15},
                                        {"team-recsys", 15}})
            QVERIFY((*store)->setBudget(budget(BudgetScope::Namespace, QLatin1String(ns), limit, 0,
                                               QStringLiteral("UTC"), Period::Month)));
        QVERIFY((*store)->setBudget(budget(BudgetScope::User, QStringLiteral("gina"), 6)));
        QVERIFY((*store)->setBudget(
            budget(BudgetScope::User, QStringLiteral("nobody"), 5, 0, QStringLiteral("UTC"), Period::Week)));
        // The LocalQueues as the window reads them.
        NamespaceQueueFeed feed;
        QSignalSpy read(&feed, &NamespaceQueueFeed::read);
        feed.setConnection(m_fx.session.get());
        QVERIFY(read.wait(15000));
        m_queues = queueAttribution(feed.queues());
        QVERIFY(!m_queues.isEmpty());
    }

    void grouped_data() {
        QTest::addColumn<QString>("lang");
        QTest::newRow("en") << "en";
        QTest::newRow("zh_CN") << "zh_CN";
    }
    void grouped() {
        QFETCH(QString, lang);
        QTranslator zh;
        if (lang == QLatin1String("zh_CN")) {
            QVERIFY(zh.load(QStringLiteral(":/i18n/gpuquota_zh_CN.qm")));
            QCoreApplication::installTranslator(&zh);
        }
        BudgetService service;
        BudgetsPage page(&service);
        page.setQueues(m_queues);
        page.resize(1100, 780);
        QSignalSpy loaded(&service, &BudgetService::overviewLoaded);
        service.open(m_url);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(loaded.wait(15000));
        BudgetListModel *model = page.model();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), kBudgets, 10000);
        // Ungrouped, the rows do not read where their usage went (a user budget's
        // namespaces come from the user's intervals of the period).
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY2(model->budgetAt(row)->namespaces.isEmpty(),
                     qPrintable(model->budgetAt(row)->namespaces.join(QLatin1Char(','))));

        auto *groupBy = page.findChild<QComboBox *>(QStringLiteral("budgetsGroupBy"));
        QVERIFY(groupBy && groupBy->isEnabled());
        const qsizetype before = loaded.count();
        groupBy->setCurrentIndex(groupBy->findData(QStringLiteral("clusterqueue")));
        // Grouping reads the rows again, with their namespaces, and then groups them.
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > before, 15000);
        service.blockSignals(true); // no refresh in between: the rows stay those checked
        QString mismatch;
        QCOMPARE(groupsOf(*model, &mismatch), kByClusterQueue);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
        QCOMPARE(model->rowCount(), kBudgets + int(kByClusterQueue.size()));
        // The subtotal row's words, and its place above its budgets in both sort orders.
        for (int row = 0; row < model->rowCount(); ++row)
            if (const BudgetGroup *g = model->groupAt(row); g && !model->budgetAt(row)) {
                QCOMPARE(model->index(row, BudgetListModel::SubjectColumn).data().toString(), g->key);
                QCOMPARE(model->index(row, BudgetListModel::RemainingColumn).data().toString(),
                         QCoreApplication::translate("gq::BudgetListModel", "%1 of %2 GPU-h used")
                             .arg(BudgetListModel::gpuHoursText(g->used),
                                  BudgetListModel::gpuHoursText(g->limit)));
            }
        for (const Qt::SortOrder order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            page.view()->sortByColumn(BudgetListModel::RemainingColumn, order);
            const QString problem = orderProblem(page.view());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        // A subtotal row is no budget to edit.
        page.view()->selectRow(0);
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("editBudgetButton"))->isEnabled());
        page.view()->selectRow(1);
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("editBudgetButton"))->isEnabled());

        if (const QString dir = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !dir.isEmpty()) {
            page.view()->clearSelection();
            QTest::qWait(200);
            const QString name = lang == QLatin1String("zh_CN") ? QStringLiteral("budgets-by-queue-zh_CN.png")
                                                                : QStringLiteral("budgets-by-queue.png");
            QVERIFY(page.grab().save(QDir(dir).filePath(name)));
        }

        groupBy->setCurrentIndex(groupBy->findData(QStringLiteral("localqueue")));
        QCOMPARE(groupsOf(*model, &mismatch), kByLocalQueue);
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));

        // None: the flat list again.
        groupBy->setCurrentIndex(0);
        QCOMPARE(model->rowCount(), kBudgets);
        QVERIFY(model->groups().isEmpty());
        QCoreApplication::removeTranslator(&zh);
    }

    void cleanupTestCase() {
        const QString err = m_backend.dropSchemas();
        m_fx.stop();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }
};

QTEST_MAIN(TestBudgetsByQueue)
#include "tst_budgetsbyqueue.moc"
