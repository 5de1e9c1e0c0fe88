// QuotaWriter, the safe write protocol, against the real test cluster: every state of
// a write that goes through, a bad edit that never leaves the machine, a server that
// says no at the dry run, someone else's write between dry run and apply, and a
// cancel at the confirmation.
#include "services/quotas/quotawriter.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QtTest>

using namespace gq;
using namespace gq::test;

using State = QuotaWriter::State;

// Spins the event loop (the writer's answers come by queued calls) until the state.
#define GQ_WAIT_STATE(writer, s) QTRY_COMPARE_WITH_TIMEOUT((writer).state(), (s), 30000)

namespace {

QString gpusOf(const QJsonObject &quota) {
    return quota.value(QLatin1String("spec"))
        .toObject()
        .value(QLatin1String("hard"))
        .toObject()
        .value(QLatin1String("requests.nvidia.com/gpu"))
        .toString();
}

QString quotaYaml(const QString &ns, const QString &gpus) {
    return QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\n  namespace: %1\n"
                          "spec:\n  hard:\n    requests.nvidia.com/gpu: \"%2\"\n")
        .arg(ns, gpus);
}

QJsonObject json(const char *text) {
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

// Every state a writer passes through, in order.
struct StateLog {
    explicit StateLog(QuotaWriter &w) {
        QObject::connect(&w, &QuotaWriter::stateChanged, &w, [this](State s) { states << s; });
    }
    QList<State> states;
};

} // namespace

class TestQuotaWriter : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::shared_ptr<KubeClient> m_admin;
    std::shared_ptr<KubeClient> m_other; // "someone else": a second client, its own connection

    std::shared_ptr<KubeClient> client(const QString &context) {
        auto c = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), context, testClientOptions());
        if (!c)
            qFatal("cannot build client for %s: %s", qPrintable(context), qPrintable(c.error().toString()));
        return *c;
    }

    // A fresh namespace per test, so tests do not see each other's objects.
    QString makeNamespace(const QString &name) {
        auto r = await(m_admin->create(KubeResource::namespaces(), {}, namespaceObject(name)));
        if (!r)
            qWarning("namespace %s: %s", qPrintable(name), qPrintable(describe(r.error())));
        return name;
    }

    Result<QJsonObject> createQuota(const QString &ns, const QJsonObject &hard) {
        return await(
            m_admin->create(KubeResource::resourceQuotas(), ns, quotaObject(QStringLiteral("gpus"), hard)));
    }

    Result<QJsonObject> getQuota(const QString &ns) {
        return await(m_admin->get(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus")));
    }

private Q_SLOTS:
    void initTestCase() {
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_admin = client(QStringLiteral("admin"));
        m_other = client(QStringLiteral("admin"));
    }

    void cleanupTestCase() {
        m_admin.reset();
        m_other.reset();
        QVERIFY(m_cluster->stop());
    }

    void happyPathGoesThroughEveryState() {
        const QString ns = makeNamespace(QStringLiteral("qw-happy"));
        auto base = createQuota(ns, {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}});
        GQ_VERIFY_OK(base);

        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QSignalSpy previews(&writer, &QuotaWriter::awaitingConfirmation);
        QSignalSpy applied(&writer, &QuotaWriter::applied);
        QuotaWriter::Request req;
        req.ns = ns;
        req.base = *base;
        req.mineYaml = quotaYaml(ns, QStringLiteral("8"));
        writer.start(req);
        QVERIFY(writer.isRunning());
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);

        QCOMPARE(previews.size(), 1);
        QCOMPARE(writer.preview().operation, QuotaWriter::Operation::Replace);
        QCOMPARE(writer.preview().diffText.trimmed(),
                 QStringLiteral("~ spec.hard[requests.nvidia.com/gpu]: 4 -> 8"));
        QCOMPARE(gpusOf(writer.preview().dryRunResult), QStringLiteral("8"));
        auto during = getQuota(ns);
        GQ_VERIFY_OK(during);
        QCOMPARE(gpusOf(*during), QStringLiteral("4")); // the dry run stored nothing
        QCOMPARE(rvOf(*during), rvOf(*base));

        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        QCOMPARE(log.states, (QList<State>{State::Validated, State::DryRunning, State::AwaitingConfirmation,
                                           State::Applying, State::Applied}));
        QCOMPARE(applied.size(), 1);
        QCOMPARE(applied.first().at(1).value<QuotaWriter::Operation>(), QuotaWriter::Operation::Replace);
        QCOMPARE(gpusOf(writer.result()), QStringLiteral("8"));
        QVERIFY(rvOf(writer.result()) != rvOf(*base));
        auto after = getQuota(ns);
        GQ_VERIFY_OK(after);
        QCOMPARE(gpusOf(*after), QStringLiteral("8"));
        QVERIFY(!writer.isRunning());
        QVERIFY(!writer.confirm()); // nothing left to confirm
    }

    void createWithoutBasePosts() {
        const QString ns = makeNamespace(QStringLiteral("qw-create"));
        QuotaWriter writer(m_admin);
        QuotaWriter::Request req;
        req.ns = ns;
        req.mine = quotaObject(QStringLiteral("gpus"),
                               {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("2")}});
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        QCOMPARE(writer.operation(), QuotaWriter::Operation::Create);
        QCOMPARE(writer.preview().diffText.trimmed(),
                 QStringLiteral("+ metadata.name: gpus\n+ spec.hard[requests.nvidia.com/gpu]: 2"));
        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        auto stored = getQuota(ns);
        GQ_VERIFY_OK(stored);
        QCOMPARE(gpusOf(*stored), QStringLiteral("2"));
    }

    void localValidationFailureNeverReachesTheServer() {
        const QString ns = makeNamespace(QStringLiteral("qw-local"));
        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QSignalSpy failed(&writer, &QuotaWriter::failed);
        const int sentBefore = m_admin->requestsSent();
        QuotaWriter::Request req;
        req.ns = ns;
        req.mineYaml = QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\nspec:\n"
                                      "  hard:\n    requests.cpu: 2 cores\n");
        writer.start(req);
        // Decided before start() returns, and nothing was sent.
        QCOMPARE(writer.state(), State::Failed);
        QCOMPARE(failed.size(), 1);
        QCOMPARE(log.states, QList<State>{State::Failed});
        QCOMPARE(writer.error().line, 7);
        QVERIFY2(writer.error().field.contains(QLatin1String("requests.cpu")),
                 qPrintable(writer.error().field));

        // The same for a file's object, and for an edit that renames its base or
        // points at another namespace.
        req.mineYaml.clear();
        req.mine = quotaObject(QStringLiteral("gpus"),
                               {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("1.5")}});
        writer.start(req);
        QCOMPARE(writer.state(), State::Failed);
        req.mine = quotaObject(QStringLiteral("renamed"), {{QStringLiteral("pods"), QStringLiteral("1")}});
        req.base = quotaObject(QStringLiteral("gpus"), {{QStringLiteral("pods"), QStringLiteral("1")}});
        writer.start(req);
        QCOMPARE(writer.state(), State::Failed);
        QCOMPARE(writer.error().field, QStringLiteral("metadata.name"));
        req.base = {};
        req.mineYaml = quotaYaml(QStringLiteral("elsewhere"), QStringLiteral("1"));
        writer.start(req);
        QCOMPARE(writer.state(), State::Failed);
        QCOMPARE(writer.error().field, QStringLiteral("metadata.namespace"));

        QTest::qWait(200);
        QCOMPARE(m_admin->requestsSent(), sentBefore);
        QCOMPARE(getQuota(ns).has_value(), false);
    }

    // A machine write (clamp, boost: apiRulesOnly) is checked by the API server's rules
    // only: a quota that also lists nvidia.com/gpu and limits.nvidia.com/gpu (accepted by
    // the server, never counted) is written; an editor's write of it is refused locally.
    void machineWritesKeepOnlyTheApiServersRules() {
        const QString ns = makeNamespace(QStringLiteral("qw-machine"));
        const QJsonObject hard = {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("0")},
                                  {QStringLiteral("nvidia.com/gpu"), QStringLiteral("4")},
                                  {QStringLiteral("limits.nvidia.com/gpu"), QStringLiteral("4")}};
        QuotaWriter::Request req;
        req.ns = ns;
        req.mine = quotaObject(QStringLiteral("gpus"), hard);
        QuotaWriter editor(m_admin);
        editor.start(req);
        QCOMPARE(editor.state(), State::Failed);
        QVERIFY2(editor.error().field.contains(QLatin1String("nvidia.com/gpu")),
                 qPrintable(editor.error().field));
        req.apiRulesOnly = true;
        QuotaWriter machine(m_admin);
        machine.start(req);
        GQ_WAIT_STATE(machine, State::AwaitingConfirmation);
        QVERIFY(machine.confirm());
        GQ_WAIT_STATE(machine, State::Applied);
        auto stored = getQuota(ns);
        GQ_VERIFY_OK(stored);
        QCOMPARE(gpusOf(*stored), QStringLiteral("0"));
    }

    // The test cluster, like the API server, refuses to change a quota's scopes on
    // update; local validation cannot know that (it has no old object).
    void serverDryRunRejection() {
        const QString ns = makeNamespace(QStringLiteral("qw-server"));
        QJsonObject quota =
            quotaObject(QStringLiteral("gpus"), {{QStringLiteral("pods"), QStringLiteral("10")}});
        QJsonObject spec = quota.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("scopes"), QJsonArray{QStringLiteral("NotTerminating")});
        quota.insert(QStringLiteral("spec"), spec);
        auto base = await(m_admin->create(KubeResource::resourceQuotas(), ns, quota));
        GQ_VERIFY_OK(base);

        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QuotaWriter::Request req;
        req.ns = ns;
        req.base = *base;
        req.mineYaml = QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\n"
                                      "  namespace: qw-server\nspec:\n  hard:\n    pods: \"10\"\n"
                                      "  scopes:\n  - Terminating\n");
        writer.start(req);
        QVERIFY(writer.isRunning()); // passed locally
        GQ_WAIT_STATE(writer, State::Failed);
        QCOMPARE(log.states, (QList<State>{State::Validated, State::DryRunning, State::Failed}));
        QCOMPARE(writer.error().kind, Error::Kind::Invalid);
        QCOMPARE(writer.error().httpStatus, 422);
        QVERIFY2(writer.error().message.contains(QLatin1String("immutable")),
                 qPrintable(writer.error().message));
        auto now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(rvOf(*now), rvOf(*base));
    }

    void concurrentChangeEndsInConflict() {
        const QString ns = makeNamespace(QStringLiteral("qw-conflict"));
        auto base = createQuota(ns, {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}});
        GQ_VERIFY_OK(base);

        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QSignalSpy conflicted(&writer, &QuotaWriter::conflicted);
        QuotaWriter::Request req;
        req.ns = ns;
        req.base = *base;
        req.mineYaml = quotaYaml(ns, QStringLiteral("8"));
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);

        // Someone else writes while the confirmation is open.
        auto theirs = await(m_other->mergePatch(
            KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"),
            QJsonObject{
                {QStringLiteral("spec"),
                 QJsonObject{{QStringLiteral("hard"), QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"),
                                                                   QStringLiteral("2")}}}}}}));
        GQ_VERIFY_OK(theirs);

        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Conflict);
        QCOMPARE(log.states, (QList<State>{State::Validated, State::DryRunning, State::AwaitingConfirmation,
                                           State::Applying, State::FetchingTheirs, State::Conflict}));
        QCOMPARE(conflicted.size(), 1);
        const QuotaWriter::ConflictView &c = writer.conflict();
        QCOMPARE(c.error.kind, Error::Kind::Conflict);
        QCOMPARE(c.base, *base);
        QCOMPARE(gpusOf(c.mine), QStringLiteral("8"));
        QCOMPARE(rvOf(c.mine), rvOf(*base)); // mine was based on base
        QCOMPARE(gpusOf(c.theirs), QStringLiteral("2"));
        QCOMPARE(rvOf(c.theirs), rvOf(*theirs));
        auto now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(gpusOf(*now), QStringLiteral("2")); // theirs survived
    }

    // A busy namespace: a pod starts while the confirmation is open, so quota admission
    // rewrites the quota's status (and its resourceVersion) but nobody touched its spec.
    // The write re-bases on the new version and applies: no conflict to resolve.
    void statusOnlyChangeIsReBasedNotAConflict() {
        const QString ns = makeNamespace(QStringLiteral("qw-busy"));
        auto base = createQuota(ns, {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}});
        GQ_VERIFY_OK(base);
        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QuotaWriter::Request req;
        req.ns = ns;
        req.base = *base;
        req.mineYaml = quotaYaml(ns, QStringLiteral("8"));
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        const QJsonObject pod{
            {QStringLiteral("apiVersion"), QStringLiteral("v1")},
            {QStringLiteral("kind"), QStringLiteral("Pod")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("busy")}}},
            {QStringLiteral("spec"),
             QJsonObject{{QStringLiteral("containers"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("c")},
                                                 {QStringLiteral("image"), QStringLiteral("cuda")},
                                                 {QStringLiteral("resources"),
                                                  QJsonObject{{QStringLiteral("limits"),
                                                               QJsonObject{{QStringLiteral("nvidia.com/gpu"),
                                                                            QStringLiteral("1")}}}}}}}}}}};
        GQ_VERIFY_OK(await(m_other->create(KubeResource::pods(), ns, pod)));
        auto busy = getQuota(ns);
        GQ_VERIFY_OK(busy);
        QVERIFY2(rvOf(*busy) != rvOf(*base), "the pod should have changed the quota's status");
        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        QVERIFY(log.states.contains(State::FetchingTheirs)); // it did meet the 409
        QVERIFY(!log.states.contains(State::Conflict));
        auto now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(gpusOf(*now), QStringLiteral("8"));
    }

    void cancelAtConfirmationWritesNothing() {
        const QString ns = makeNamespace(QStringLiteral("qw-cancel"));
        QuotaWriter writer(m_admin);
        StateLog log(writer);
        QSignalSpy cancelled(&writer, &QuotaWriter::cancelled);
        QuotaWriter::Request req;
        req.ns = ns;
        req.mineYaml = quotaYaml(ns, QStringLiteral("3"));
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        const int sent = m_admin->requestsSent();
        QVERIFY(writer.cancel());
        QCOMPARE(writer.state(), State::Cancelled);
        QCOMPARE(cancelled.size(), 1);
        QVERIFY(!writer.confirm());
        QVERIFY(!writer.cancel());
        QTest::qWait(200);
        QCOMPARE(m_admin->requestsSent(), sent);
        QCOMPARE(log.states.last(), State::Cancelled);
        auto r = getQuota(ns);
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::NotFound);
    }

    // kubectl apply's create-or-update (gpuquota apply): an existing object becomes the
    // base; the same content is Unchanged without a write, a different one a Replace.
    void adoptExistingUpdatesOrLeavesAlone() {
        const QString ns = makeNamespace(QStringLiteral("qw-adopt"));
        const QJsonObject hard{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}};
        auto existing = createQuota(ns, hard);
        GQ_VERIFY_OK(existing);

        QuotaWriter writer(m_admin);
        QuotaWriter::Request req;
        req.ns = ns;
        req.mine = quotaObject(QStringLiteral("gpus"), hard);
        req.adoptExisting = true;
        writer.start(req);
        GQ_WAIT_STATE(writer, State::Applied);
        QCOMPARE(writer.operation(), QuotaWriter::Operation::Unchanged);
        QCOMPARE(rvOf(writer.result()), rvOf(*existing));

        req.mine = quotaObject(QStringLiteral("gpus"),
                               {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("6")}});
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        QCOMPARE(writer.operation(), QuotaWriter::Operation::Replace);
        QCOMPARE(writer.preview().diffText.trimmed(),
                 QStringLiteral("~ spec.hard[requests.nvidia.com/gpu]: 4 -> 6"));
        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        auto now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(gpusOf(*now), QStringLiteral("6"));
    }

    // The three-way decision of kubectl apply (gpuquota apply) per field of spec.hard:
    // base is what was applied last, live what the server holds, mine the file.
    void threeWayDecision_data() {
        QTest::addColumn<QJsonObject>("base"); // empty: the live object has no record
        QTest::addColumn<QJsonObject>("live");
        QTest::addColumn<QJsonObject>("mine");
        QTest::addColumn<bool>("force");
        QTest::addColumn<QJsonObject>("merged");
        QTest::addColumn<QStringList>("refused");

        const QString gpu = QStringLiteral("spec.hard[requests.nvidia.com/gpu]");
        QTest::newRow("only the file changed")
            << json(R"({"requests.nvidia.com/gpu":"24"})") << json(R"({"requests.nvidia.com/gpu":"24"})")
            << json(R"({"requests.nvidia.com/gpu":"28"})") << false
            << json(R"({"requests.nvidia.com/gpu":"28"})") << QStringList();
        QTest::newRow("only the server changed a field the file kept")
            << json(R"({"requests.nvidia.com/gpu":"24","pods":"10"})")
            << json(R"({"requests.nvidia.com/gpu":"24","pods":"12"})")
            << json(R"({"requests.nvidia.com/gpu":"28","pods":"10"})") << false
            << json(R"({"requests.nvidia.com/gpu":"28","pods":"12"})") << QStringList();
        QTest::newRow("both changed, differently")
            << json(R"({"requests.nvidia.com/gpu":"24"})") << json(R"({"requests.nvidia.com/gpu":"20"})")
            << json(R"({"requests.nvidia.com/gpu":"28"})") << false
            << json(R"({"requests.nvidia.com/gpu":"20"})") << QStringList{gpu};
        QTest::newRow("both changed, differently, forced")
            << json(R"({"requests.nvidia.com/gpu":"24"})") << json(R"({"requests.nvidia.com/gpu":"20"})")
            << json(R"({"requests.nvidia.com/gpu":28})") << true << json(R"({"requests.nvidia.com/gpu":28})")
            << QStringList();
        QTest::newRow("both changed alike")
            << json(R"({"requests.nvidia.com/gpu":"24"})") << json(R"({"requests.nvidia.com/gpu":"28"})")
            << json(R"({"requests.nvidia.com/gpu":28})") << false
            << json(R"({"requests.nvidia.com/gpu":"28"})") << QStringList();
        QTest::newRow("quantities compare by value")
            << json(R"({"requests.cpu":"1"})") << json(R"({"requests.cpu":"1000m"})")
            << json(R"({"requests.cpu":1})") << false << json(R"({"requests.cpu":"1000m"})") << QStringList();
        QTest::newRow("the file drops a field")
            << json(R"({"requests.nvidia.com/gpu":"4","pods":"10"})")
            << json(R"({"requests.nvidia.com/gpu":"4","pods":"10"})")
            << json(R"({"requests.nvidia.com/gpu":"4"})") << false
            << json(R"({"requests.nvidia.com/gpu":"4"})") << QStringList();
        QTest::newRow("the file drops a field the server changed")
            << json(R"({"requests.nvidia.com/gpu":"4","pods":"10"})")
            << json(R"({"requests.nvidia.com/gpu":"4","pods":"12"})")
            << json(R"({"requests.nvidia.com/gpu":"4"})") << false
            << json(R"({"requests.nvidia.com/gpu":"4","pods":"12"})")
            << QStringList{QStringLiteral("spec.hard[pods]")};
        QTest::newRow("the server adds a field")
            << json(R"({"requests.nvidia.com/gpu":"4"})")
            << json(R"({"requests.nvidia.com/gpu":"4","requests.cpu":"8"})")
            << json(R"({"requests.nvidia.com/gpu":"6"})") << false
            << json(R"({"requests.nvidia.com/gpu":"6","requests.cpu":"8"})") << QStringList();
        QTest::newRow("no record: the file wins, nothing is removed")
            << QJsonObject() << json(R"({"requests.nvidia.com/gpu":"20","pods":"10"})")
            << json(R"({"requests.nvidia.com/gpu":"28"})") << false
            << json(R"({"requests.nvidia.com/gpu":"28","pods":"10"})") << QStringList();
    }

    void threeWayDecision() {
        QFETCH(QJsonObject, base);
        QFETCH(QJsonObject, live);
        QFETCH(QJsonObject, mine);
        QFETCH(bool, force);
        QFETCH(QJsonObject, merged);
        QFETCH(QStringList, refused);
        const QString name = QStringLiteral("gpus");
        QJsonObject server = quotaObject(name, live);
        server.insert(QStringLiteral("status"), QJsonObject{{QStringLiteral("hard"), live}});
        const auto r = lastapplied::merge(
            base.isEmpty() ? std::nullopt : std::optional<QJsonObject>(quotaObject(name, base)), server,
            quotaObject(name, mine), force);
        QCOMPARE(hardOf(r.merged), merged);
        QStringList paths;
        for (const lastapplied::FieldConflict &c : r.conflicts)
            paths << c.path;
        QCOMPARE(paths, refused);
        // Forced, the refused field is written and reported as overwritten.
        QCOMPARE(r.forced.size(), force ? 1 : 0);
        QCOMPARE(r.merged.value(QLatin1String("status")), server.value(QLatin1String("status")));
    }

    // Limit ranges: items of the limits list merge field by field and a refused field is
    // named down to its item; what the server defaulted inside an item is not kept.
    void threeWayLimitRanges() {
        const QJsonObject base = json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"nvidia.com/gpu":"4","cpu":"8"}}]}})");
        const QJsonObject live = json(R"({"metadata":{"name":"lr","resourceVersion":"7"},"spec":{"limits":[
            {"type":"Container","max":{"nvidia.com/gpu":"6","cpu":"8"},
             "default":{"nvidia.com/gpu":"6","cpu":"8"}}]}})");
        auto r = lastapplied::merge(base, live, json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"nvidia.com/gpu":"4","cpu":"16"}}]}})"),
                                    false);
        QVERIFY(r.conflicts.isEmpty());
        QCOMPARE(r.merged.value(QLatin1String("spec")).toObject(), json(R"({"limits":[
            {"type":"Container","max":{"nvidia.com/gpu":"6","cpu":"16"}}]})"));
        QCOMPARE(rvOf(r.merged), QStringLiteral("7"));

        r = lastapplied::merge(base, live, json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"nvidia.com/gpu":"8","cpu":"8"}}]}})"),
                               false);
        QCOMPARE(r.conflicts.size(), 1);
        QCOMPARE(r.conflicts.first().path, QStringLiteral("spec.limits[0].max[nvidia.com/gpu]"));
        QCOMPARE(r.conflicts.first().base, QJsonValue(QStringLiteral("4")));
        QCOMPARE(r.conflicts.first().server, QJsonValue(QStringLiteral("6")));
        QCOMPARE(r.conflicts.first().mine, QJsonValue(QStringLiteral("8")));

        // A map the file stops setting goes, with the defaults the server put beside it.
        r = lastapplied::merge(json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"cpu":"8"},"default":{"cpu":"1"}}]}})"),
                               json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"cpu":"8"},"default":{"cpu":"1","memory":"1Gi"},
             "defaultRequest":{"cpu":"1"}}]}})"),
                               json(R"({"metadata":{"name":"lr"},"spec":{"limits":[
            {"type":"Container","max":{"cpu":"8"}}]}})"),
                               false);
        QVERIFY(r.conflicts.isEmpty());
        QCOMPARE(r.merged.value(QLatin1String("spec")).toObject(),
                 json(R"({"limits":[{"type":"Container","max":{"cpu":"8"}}]})"));
    }

    // The annotation is kubectl's, byte for byte (checked against kubectl in tst_kubecli).
    void lastAppliedAnnotationIsKubectls() {
        QJsonObject applied = quotaObject(QStringLiteral("gpus"), json(R"({"requests.nvidia.com/gpu":24})"));
        QJsonObject meta = applied.value(QLatin1String("metadata")).toObject();
        meta.insert(QStringLiteral("namespace"), QStringLiteral("team-a"));
        meta.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("note"), QStringLiteral("a<b&c")}});
        meta.insert(QStringLiteral("annotations"),
                    QJsonObject{{lastapplied::kAnnotation, QStringLiteral("{\"old\":1}\n")}});
        applied.insert(QStringLiteral("metadata"), meta);
        QCOMPARE(lastapplied::annotationFor(applied),
                 QStringLiteral(R"({"apiVersion":"v1","kind":"ResourceQuota","metadata":{"annotations":{},)"
                                R"("labels":{"note":"a\u003cb\u0026c"},"name":"gpus","namespace":"team-a"},)"
                                R"("spec":{"hard":{"requests.nvidia.com/gpu":24}}})"
                                "\n"));
    }

    // The issue's scenario through the writer: applied with 24, lowered to 20 by someone
    // else, applied again with 28: refused before anything is sent, naming the field;
    // forced, written.
    void recordLastAppliedRefusesAFieldChangedOnBothSides() {
        const QString ns = makeNamespace(QStringLiteral("qw-threeway"));
        QuotaWriter writer(m_admin);
        QuotaWriter::Request req;
        req.ns = ns;
        req.mine = quotaObject(QStringLiteral("gpus"),
                               {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("24")}});
        req.adoptExisting = true;
        req.recordLastApplied = true;
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        auto created = getQuota(ns);
        GQ_VERIFY_OK(created);
        const auto recorded = lastapplied::recordedBase(*created);
        QVERIFY(recorded);
        QCOMPARE(gpusOf(*recorded), QStringLiteral("24"));

        auto theirs =
            await(m_other->mergePatch(KubeResource::resourceQuotas(), ns, QStringLiteral("gpus"),
                                      json(R"({"spec":{"hard":{"requests.nvidia.com/gpu":"20"}}})")));
        GQ_VERIFY_OK(theirs);

        StateLog log(writer);
        req.mine = quotaObject(QStringLiteral("gpus"),
                               {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("28")}});
        writer.start(req);
        GQ_WAIT_STATE(writer, State::Conflict);
        QCOMPARE(log.states, (QList<State>{State::Validated, State::DryRunning, State::Conflict}));
        const QuotaWriter::ConflictView &c = writer.conflict();
        QCOMPARE(c.fields.size(), 1);
        QCOMPARE(c.fields.first().path, QStringLiteral("spec.hard[requests.nvidia.com/gpu]"));
        QCOMPARE(c.error.kind, Error::Kind::Conflict);
        QCOMPARE(c.error.field, QStringLiteral("spec.hard[requests.nvidia.com/gpu]"));
        QCOMPARE(c.error.message,
                 QStringLiteral("spec.hard[requests.nvidia.com/gpu]: changed on the server since "
                                "your last apply (base 24, server 20, yours 28)"));
        QCOMPARE(gpusOf(c.base), QStringLiteral("24"));
        QCOMPARE(gpusOf(c.theirs), QStringLiteral("20"));
        QCOMPARE(gpusOf(c.mine), QStringLiteral("28"));
        auto now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(rvOf(*now), rvOf(*theirs)); // nothing was written

        req.force = true;
        writer.start(req);
        GQ_WAIT_STATE(writer, State::AwaitingConfirmation);
        QCOMPARE(writer.operation(), QuotaWriter::Operation::Replace);
        QCOMPARE(writer.overwritten().size(), 1);
        QVERIFY(writer.confirm());
        GQ_WAIT_STATE(writer, State::Applied);
        now = getQuota(ns);
        GQ_VERIFY_OK(now);
        QCOMPARE(gpusOf(*now), QStringLiteral("28"));
        QCOMPARE(gpusOf(*lastapplied::recordedBase(*now)), QStringLiteral("28"));
    }
};

QTEST_GUILESS_MAIN(TestQuotaWriter)
#include "tst_quotawriter.moc"
