// One write-and-audit path (core/usage/changeaudit.h): the same change of a quota, made
// once the console's way (a QuotaWriter with an edited text, confirmed with a note, its
// entry through ConsoleAuditSink into the UsageService the window has open) and once with
// `gpuquota apply -f FILE --db URL --note TEXT`, against the real test cluster, gives the
// same audit entries apart from actor and time: action, target, before, after, note.
// The machine writes take the same path: a boost's step (BoostReconciler) and the
// controller's clamp (BudgetEnforcer) hand their entries to the injected sink, and with
// the default sink the same entries land in the store's audit log. So do the changes
// people make to boosts (BoostLedger's grant, revoke and extend), and a grant from the
// console (BoostService) and from `gpuquota boost grant` gives the same entry.
#include "core/boosts/boostplanner.h"
#include "core/usage/auditlog.h"
#include "core/usage/boostledger.h"
#include "services/boosts/boostreconciler.h"
#include "services/controller/budgetenforcer.h"
#include "services/audit/consoleauditsink.h"
#include "services/quotas/quotawriter.h"
#include "services/usage/usageservice.h"
#include "core/usage/usagestore.h"
#include "services/boosts/boostservice.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace gq;
using namespace gq::test;

namespace {

QString quotaYaml(const QString &ns, const QString &gpus) {
    return QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\n  namespace: %1\n"
                          "spec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n")
        .arg(ns, gpus);
}

// The entries of an audit log, oldest first, without what may differ between tools
// (who and when, and so the chain hashes).
QList<QJsonObject> entriesOf(const QString &bin, const QString &db) {
    QProcess p;
    p.start(bin, {QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), db,
                  QStringLiteral("-o"), QStringLiteral("json")});
    p.waitForFinished(60000);
    QList<QJsonObject> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(p.readAllStandardOutput())
                                   .object()
                                   .value(QLatin1String("entries"))
                                   .toArray())
        out << v.toObject();
    std::sort(out.begin(), out.end(), [](const QJsonObject &a, const QJsonObject &b) {
        return a.value(QLatin1String("seq")).toInteger() < b.value(QLatin1String("seq")).toInteger();
    });
    for (QJsonObject &e : out)
        for (const char *key : {"actor", "at", "prev_hash", "hash", "mac"})
            e.remove(QLatin1String(key));
    return out;
}

// A sink that keeps what it is given (the entries a tool decided), and the actor it
// would name.
class RecordingSink final : public ChangeAuditSink {
public:
    Result<void> append(const ChangeAuditEntry &entry) override {
        entries << entry;
        return {};
    }
    QList<ChangeAuditEntry> entries;
};

// 2026-12-01 12:00:00 UTC and the start of that day.
constexpr qint64 kNoon = 1796126400;
constexpr qint64 kDayStart = kNoon - 12 * 3600;

QList<AuditEntry> logOf(UsageStore &store, const QString &action) {
    AuditLog::Filter filter;
    filter.action = action;
    auto all = AuditLog(store).list(filter);
    return all ? *all : QList<AuditEntry>{};
}

void compareEntry(const ChangeAuditEntry &sent, const AuditEntry &stored) {
    QCOMPARE(stored.action, sent.action);
    QCOMPARE(stored.target, sent.target);
    QCOMPARE(stored.before, sent.before);
    QCOMPARE(stored.after, sent.after);
    QCOMPARE(stored.note, sent.note);
}

} // namespace

class TestChangeAudit : public QObject {
    Q_OBJECT

    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_admin;
    QTemporaryDir m_dir;
    QString m_bin;

    // The console's way: the page's base and edited text, the note given at the
    // confirmation, the entry through the console's sink.
    void consoleApply(ConsoleAuditSink &sink, UsageService &db, const QString &ns, const QString &gpus,
                      const QString &note) {
        QJsonObject base;
        if (auto current = await(m_admin->get(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"))))
            base = *current;
        QuotaWriter writer(m_admin);
        writer.setAuditSink(std::shared_ptr<ChangeAuditSink>(&sink, [](ChangeAuditSink *) {}));
        QuotaWriter::Request request;
        request.ns = ns;
        request.base = base;
        request.mineYaml = quotaYaml(ns, gpus);
        QSignalSpy appended(&db, &UsageService::auditAppended);
        writer.start(request);
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QuotaWriter::State::AwaitingConfirmation, 30000);
        writer.setAuditNote(note);
        QVERIFY(writer.confirm());
        QTRY_COMPARE_WITH_TIMEOUT(writer.state(), QuotaWriter::State::Applied, 30000);
        QVERIFY(!writer.auditError());
        QTRY_COMPARE_WITH_TIMEOUT(appended.size(), 1, 30000);
    }

    void cliApply(const QString &db, const QString &ns, const QString &gpus, const QString &note) {
        const QString file = m_dir.filePath(QStringLiteral("quota-%1.yaml").arg(gpus));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(quotaYaml(ns, gpus).toUtf8());
        f.close();
        QProcess p;
        p.start(m_bin,
                {QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath(), QStringLiteral("--context"),
                 QStringLiteral("admin"), QStringLiteral("apply"), QStringLiteral("-f"), file,
                 QStringLiteral("--db"), db, QStringLiteral("--note"), note});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

private slots:
    void initTestCase() {
        m_bin = QStringLiteral(GQ_BINARY_DIR "/bin/gpuquota");
        QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
        QVERIFY(m_dir.isValid());
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        auto admin = adminClient(*m_cluster);
        QVERIFY2(admin, qPrintable(admin ? QString() : admin.error().toString()));
        m_admin = *admin;
        QVERIFY(await(
            m_admin->create(KubeResource::namespaces(), {}, namespaceObject(QStringLiteral("team-x")))));
    }

    void sameChangeSameEntries() {
        const QString ns = QStringLiteral("team-x");
        // The console: create with 4 GPUs, then raise to 6.
        const QString consoleDb = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("console.db"));
        {
            UsageService db;
            QSignalSpy opened(&db, &UsageService::opened);
            db.open(consoleDb);
            QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 30000);
            ConsoleAuditSink sink(&db, [] { return QStringLiteral("console-user"); });
            consoleApply(sink, db, ns, QStringLiteral("4"), QStringLiteral("pilot"));
            consoleApply(sink, db, ns, QStringLiteral("6"), QStringLiteral("more"));
        }
        QVERIFY(await(m_admin->remove(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"))));
        // The CLI: the same two changes.
        const QString cliDb = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("cli.db"));
        cliApply(cliDb, ns, QStringLiteral("4"), QStringLiteral("pilot"));
        cliApply(cliDb, ns, QStringLiteral("6"), QStringLiteral("more"));

        const QList<QJsonObject> console = entriesOf(m_bin, consoleDb);
        const QList<QJsonObject> cli = entriesOf(m_bin, cliDb);
        QCOMPARE(console.size(), 2);
        QCOMPARE(cli.size(), 2);
        for (int i = 0; i < 2; ++i)
            QVERIFY2(console.at(i) == cli.at(i),
                     qPrintable(QString::fromUtf8(QJsonDocument(console.at(i)).toJson()) +
                                QStringLiteral(" vs ") +
                                QString::fromUtf8(QJsonDocument(cli.at(i)).toJson())));
        QCOMPARE(cli.at(0).value(QLatin1String("action")).toString(), QStringLiteral("quota.apply"));
        QCOMPARE(cli.at(0).value(QLatin1String("target")).toString(),
                 QStringLiteral("team-x/ResourceQuota/gpus"));
        QVERIFY(cli.at(0).value(QLatin1String("before")).toString().isEmpty()); // created
        QVERIFY(cli.at(1).value(QLatin1String("before")).toString().contains(QLatin1Char('4')));
        QVERIFY(cli.at(1).value(QLatin1String("after")).toString().contains(QLatin1Char('6')));
        QCOMPARE(cli.at(1).value(QLatin1String("note")).toString(), QStringLiteral("more"));
    }

    // A namespace `ns` with the quota `quota` of `gpus` GPUs, created by the admin.
    void makeQuota(const QString &ns, const QString &quota, int gpus) {
        QVERIFY(await(m_admin->create(KubeResource::namespaces(), {}, namespaceObject(ns))));
        QJsonObject q{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("ResourceQuota")},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("name"), quota}, {QStringLiteral("namespace"), ns}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("hard"),
                          QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QString::number(gpus)}}}}}};
        QVERIFY(await(m_admin->create(KubeResource::resourceQuotas(), ns, q)));
    }
    std::unique_ptr<UsageStore> openStore(const QString &file) {
        auto s = UsageStore::open(QStringLiteral("sqlite://") + m_dir.filePath(file));
        if (!s)
            qWarning("%s", qPrintable(s.error().toString()));
        return s ? std::move(*s) : nullptr;
    }

    // A boost's apply: one boost.apply entry through the injected sink and none in the
    // log; the same step with the default sink writes that entry into the log.
    void boostStepThroughTheSink() {
        for (const bool injected : {true, false}) {
            const QString ns = injected ? QStringLiteral("boost-sink") : QStringLiteral("boost-log");
            makeQuota(ns, QStringLiteral("gpus"), 4);
            auto store = openStore(ns + QStringLiteral(".db"));
            QVERIFY(store);
            Boost b;
            b.target = BoostTarget::quotaEntry(ns, QStringLiteral("gpus"),
                                               QStringLiteral("requests.nvidia.com/gpu"));
            b.delta = QStringLiteral("4");
            b.start = kNoon - 60;
            b.expiry = kNoon + 3600;
            b.note = QStringLiteral("paper deadline on Friday");
            b.actor = QStringLiteral("alice");
            const ManualClock grantedAt(kNoon - 3600);
            auto granted = BoostLedger(*store, grantedAt).grant(b);
            QVERIFY2(granted, qPrintable(granted ? QString() : granted.error().toString()));

            BoostReconciler::Options options;
            options.actor = QStringLiteral("reconcile-test");
            BoostReconciler reconciler(*store, m_admin, options);
            auto sink = std::make_shared<RecordingSink>();
            if (injected)
                reconciler.setAuditSink(sink);
            const ReconcileReport report = reconciler.runNow(kNoon);
            QVERIFY2(!report.error, qPrintable(report.error ? report.error->toString() : QString()));
            const QString target = ns + QStringLiteral("/ResourceQuota/gpus/requests.nvidia.com/gpu");
            const QList<AuditEntry> logged = logOf(*store, QStringLiteral("boost.apply"));
            if (injected) {
                QCOMPARE(sink->entries.size(), 1);
                const ChangeAuditEntry &e = sink->entries.first();
                QCOMPARE(e.action, QStringLiteral("boost.apply"));
                QCOMPARE(e.target, target);
                QCOMPARE(e.before, QStringLiteral("4"));
                QCOMPARE(e.after, QStringLiteral("8"));
                QVERIFY2(e.note.startsWith(
                             QStringLiteral("boost %1 (4): paper deadline on Friday").arg(granted->id)),
                         qPrintable(e.note));
                QVERIFY(logged.isEmpty());
                m_boostEntry = e;
            } else {
                QCOMPARE(logged.size(), 1);
                QCOMPARE(logged.first().actor, QStringLiteral("reconcile-test"));
                ChangeAuditEntry expected = m_boostEntry;
                expected.target = target;
                // Both stores are fresh: the boost is number 1 in each, so the note is the same.
                compareEntry(expected, logged.first());
            }
        }
    }

    // A boost's grant, extend and revoke: their three entries through the injected sink
    // and none in the log; with the default sink the same entries in the log, each under
    // the actor of its change.
    void boostChangesThroughTheSink() {
        QList<ChangeAuditEntry> sent;
        for (const bool injected : {true, false}) {
            auto store =
                openStore(injected ? QStringLiteral("ledger-sink.db") : QStringLiteral("ledger-log.db"));
            QVERIFY(store);
            const ManualClock clock(kNoon - 3600);
            BoostLedger ledger(*store, clock);
            auto sink = std::make_shared<RecordingSink>();
            if (injected)
                ledger.setAuditSink(sink);
            Boost b;
            b.target = BoostTarget::budget(BudgetScope::User, QStringLiteral("alice"));
            b.delta = QStringLiteral("5");
            b.start = kNoon;
            b.expiry = kNoon + 3600;
            b.note = QStringLiteral("paper deadline on Friday");
            b.actor = QStringLiteral("alice");
            auto granted = ledger.grant(b);
            QVERIFY2(granted, qPrintable(granted ? QString() : granted.error().toString()));
            QVERIFY(ledger.extend(granted->id, kNoon + 7200, QStringLiteral("the reviewers want more"),
                                  QStringLiteral("bob")));
            QVERIFY(ledger.revoke(granted->id, QStringLiteral("the paper was withdrawn"),
                                  QStringLiteral("carol")));
            const QStringList actions{QStringLiteral("boost.grant"), QStringLiteral("boost.extend"),
                                      QStringLiteral("boost.revoke")};
            if (injected) {
                QCOMPARE(sink->entries.size(), 3);
                for (int i = 0; i < 3; ++i) {
                    QCOMPARE(sink->entries.at(i).action, actions.at(i));
                    QCOMPARE(sink->entries.at(i).target, QStringLiteral("budget/user/alice"));
                    QVERIFY(logOf(*store, actions.at(i)).isEmpty());
                }
                QVERIFY(sink->entries.at(0).before.isEmpty());
                QCOMPARE(sink->entries.at(0).after, BoostLedger::summary(*granted));
                QCOMPARE(sink->entries.at(0).note, b.note);
                QCOMPARE(
                    sink->entries.at(1).before,
                    QStringLiteral("boost %1: scheduled from 2026-12-01T12:00:00Z until 2026-12-01T13:00:00Z")
                        .arg(granted->id));
                QCOMPARE(sink->entries.at(2).note, QStringLiteral("the paper was withdrawn"));
                sent = sink->entries;
            } else {
                const QStringList actors{QStringLiteral("alice"), QStringLiteral("bob"),
                                         QStringLiteral("carol")};
                for (int i = 0; i < 3; ++i) {
                    const QList<AuditEntry> logged = logOf(*store, actions.at(i));
                    QCOMPARE(logged.size(), 1);
                    QCOMPARE(logged.first().actor, actors.at(i));
                    compareEntry(sent.at(i), logged.first()); // both stores fresh: boost 1 in each
                }
            }
        }
    }

    // The same budget boost granted from the console (BoostService, on its own thread)
    // and with `gpuquota boost grant`: the same entry apart from actor and time.
    void boostGrantSameFromConsoleAndCli() {
        const QString consoleDb =
            QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("grant-console.db"));
        const QString cliDb = QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("grant-cli.db"));
        const QString note = QStringLiteral("paper deadline on Friday");
        {
            const ManualClock clock(kNoon - 3600);
            BoostService service;
            service.setClock(&clock);
            QSignalSpy opened(&service, &BoostService::opened);
            service.open(consoleDb);
            QVERIFY(opened.wait(10000));
            BudgetGrantRequest req;
            req.scope = BudgetScope::User;
            req.subject = QStringLiteral("alice");
            req.hours = 5;
            req.when.start = kNoon;
            req.when.end = kNoon + 7200;
            req.note = note;
            req.actor = QStringLiteral("console-admin");
            auto planned = planBudgetBoost(req, kNoon - 3600);
            QVERIFY2(planned, qPrintable(planned ? QString() : planned.error().toString()));
            QSignalSpy changed(&service, &BoostService::changed);
            service.grant(*planned, nullptr); // starts later: nothing goes to the cluster
            QVERIFY(changed.wait(10000));
        }
        QProcess p;
        p.start(m_bin,
                {QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--budget"),
                 QStringLiteral("user:alice"), QStringLiteral("--add-hours"), QStringLiteral("5"),
                 QStringLiteral("--start"), QStringLiteral("2026-12-01T12:00:00Z"), QStringLiteral("--until"),
                 QStringLiteral("2026-12-01T14:00:00Z"), QStringLiteral("--note"), note,
                 QStringLiteral("--actor"), QStringLiteral("cli-admin"), QStringLiteral("--now"),
                 QStringLiteral("2026-12-01T11:00:00Z"), QStringLiteral("--db"), cliDb});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QList<QJsonObject> console = entriesOf(m_bin, consoleDb);
        const QList<QJsonObject> cli = entriesOf(m_bin, cliDb);
        QCOMPARE(console.size(), 1);
        QCOMPARE(console.first().value(QLatin1String("action")).toString(), QStringLiteral("boost.grant"));
        QCOMPARE(console, cli);
    }

    // The controller's clamp of a namespace over its budget: one quota.clamp entry
    // through the injected sink and none in the log; with the default sink, in the log.
    void clampThroughTheSink() {
        for (const bool injected : {true, false}) {
            const QString ns = injected ? QStringLiteral("clamp-sink") : QStringLiteral("clamp-log");
            makeQuota(ns, QStringLiteral("gpu-quota"), 8);
            auto store = openStore(ns + QStringLiteral(".db"));
            QVERIFY(store);
            Budget budget;
            budget.scope = BudgetScope::Namespace;
            budget.subject = ns;
            budget.period = Period::Day;
            budget.limitGpuHours = 1;
            QVERIFY(store->setBudget(budget));
            UsageInterval iv;
            iv.cluster = QStringLiteral("test");
            iv.ns = ns;
            iv.user = QStringLiteral("alice");
            iv.podUid = QStringLiteral("uid-") + ns;
            iv.podName = QStringLiteral("done");
            iv.gpus = 4;
            iv.start = kDayStart + 3600;
            iv.end = iv.start + 2 * 3600; // 8 GPU-hours
            iv.source = QStringLiteral("test");
            QVERIFY(store->upsertInterval(iv));

            BudgetEnforcer enforcer(*store, m_admin);
            auto sink = std::make_shared<RecordingSink>();
            if (injected)
                enforcer.setAuditSink(sink);
            const EnforceReport report = enforcer.runNow(kNoon);
            QVERIFY2(report.errors.isEmpty(), qPrintable(report.errors.join(QLatin1Char('\n'))));
            const QList<AuditEntry> logged = logOf(*store, QStringLiteral("quota.clamp"));
            if (injected) {
                QCOMPARE(sink->entries.size(), 1);
                const ChangeAuditEntry &e = sink->entries.first();
                QCOMPARE(e.action, QStringLiteral("quota.clamp"));
                QCOMPARE(e.target, ns + QStringLiteral("/ResourceQuota/gpu-quota"));
                QVERIFY2(e.before.contains(QStringLiteral("\"8\"")), qPrintable(e.before));
                QVERIFY(logged.isEmpty());
                m_clampEntry = e;
            } else {
                QCOMPARE(logged.size(), 1);
                QCOMPARE(logged.first().actor, QStringLiteral("gpuquota-controller"));
                ChangeAuditEntry expected = m_clampEntry;
                expected.target = ns + QStringLiteral("/ResourceQuota/gpu-quota");
                expected.note.replace(QStringLiteral("clamp-sink"), ns);
                compareEntry(expected, logged.first());
            }
        }
    }

private:
    ChangeAuditEntry m_boostEntry;
    ChangeAuditEntry m_clampEntry;
};

QTEST_GUILESS_MAIN(TestChangeAudit)
#include "tst_changeaudit.moc"
