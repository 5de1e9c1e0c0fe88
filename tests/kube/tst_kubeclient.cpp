// KubeClient against the real gpuquota-testcluster. ctest runs this suite once per
// fault knob (GQ_KUBE_FAULTS = none, latency, errors, throttle, drops, stall): every
// run must finish (no hang) with every update observed (no loss).
#include "core/kube/kubeclient.h"
#include "core/kube/kubespecs.h"

#include "tests/kube/kubeclienttestutil.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QSet>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestKubeClient : public FaultModeSuite {
    Q_OBJECT

private:
    std::shared_ptr<KubeClient> client(const QString &context, KubeClientOptions o = testClientOptions()) {
        auto c = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), context, o);
        if (!c)
            qFatal("cannot build client for %s: %s", qPrintable(context), qPrintable(c.error().toString()));
        return *c;
    }

    // A fresh namespace per test, so tests do not see each other's objects.
    QString makeNamespace(const QString &name) {
        CarefulWriter w(*m_admin, &m_recoveries);
        auto r = w.create(KubeResource::namespaces(), {}, namespaceObject(name));
        if (!r)
            qWarning("namespace %s: %s", qPrintable(name), qPrintable(describe(r.error())));
        return name;
    }

private Q_SLOTS:
    void initTestCase() {
        m_cluster = std::make_unique<TestClusterProcess>(demoClusterOptions(m_mode));
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        m_admin = client(QStringLiteral("admin"));
        qInfo("fault mode: %s", qPrintable(m_mode.name));
    }

    void cleanupTestCase() {
        m_admin.reset();
        if (m_mode.none())
            QCOMPARE(m_recoveries, 0); // without faults no write needed a second look
        QVERIFY(m_cluster->stop());
    }

    void whoAmIAndAccessReviews() {
        auto me = await(m_admin->whoAmI());
        GQ_VERIFY_OK(me);
        QCOMPARE(me->username, QStringLiteral("gq-admin"));
        QVERIFY(me->groups.contains(QStringLiteral("system:masters")));

        auto can = await(m_admin->canI(QStringLiteral("update"), QStringLiteral("resourcequotas"),
                                       QStringLiteral("team-nlp")));
        GQ_VERIFY_OK(can);
        QVERIFY(can->allowed);

        auto viewer = client(QStringLiteral("readonly"));
        auto who = await(viewer->whoAmI());
        QVERIFY(who);
        QCOMPARE(who->username, QStringLiteral("gq-viewer"));
        auto cannot = await(viewer->canI(QStringLiteral("update"), QStringLiteral("resourcequotas"),
                                         QStringLiteral("team-nlp")));
        QVERIFY(cannot);
        QVERIFY(!cannot->allowed);
        auto canList = await(viewer->canI(QStringLiteral("list"), QStringLiteral("resourcequotas"),
                                          QStringLiteral("team-nlp")));
        QVERIFY(canList);
        QVERIFY(canList->allowed);
    }

    void readonlyWritesAreForbidden() {
        auto viewer = client(QStringLiteral("readonly"));
        auto list = await(viewer->list(KubeResource::resourceQuotas(), QStringLiteral("team-nlp")));
        GQ_VERIFY_OK(list);
        QVERIFY(!list->items.isEmpty());
        auto created = await(viewer->create(
            KubeResource::resourceQuotas(), QStringLiteral("team-nlp"),
            quotaObject(QStringLiteral("sneaky"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        QVERIFY(!created);
        QCOMPARE(created.error().kind, Error::Kind::Forbidden);
        QCOMPARE(created.error().httpStatus, 403);
        QCOMPARE(created.error().reason, QStringLiteral("Forbidden"));
        QVERIFY2(created.error().message.contains(QLatin1String("gq-viewer")),
                 qPrintable(created.error().message));
    }

    void badTokenIsUnauthorized() {
        auto conn = KubeConfig::load(m_cluster->kubeconfigPath())->connection(QStringLiteral("admin"));
        QVERIFY(conn);
        conn->token = QStringLiteral("not-the-token");
        KubeClient c(*conn, testClientOptions());
        auto r = await(c.list(KubeResource::namespaces(), {}));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Unauthorized);
        QCOMPARE(r.error().httpStatus, 401);
    }

    void tlsIsVerifiedAgainstTheKubeconfigCa() {
        auto conn = KubeConfig::load(m_cluster->kubeconfigPath())->connection(QStringLiteral("admin"));
        QVERIFY(conn);
        QVERIFY(!conn->caPem.isEmpty());

        // Another CA: the server's certificate must be rejected, not retried.
        const auto gen = runTool(
            QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
             QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
             QStringLiteral("-nodes"), QStringLiteral("-keyout"),
             m_cluster->temporaryDir() + QStringLiteral("/o.key"), QStringLiteral("-out"),
             m_cluster->temporaryDir() + QStringLiteral("/o.crt"), QStringLiteral("-days"),
             QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=other-ca")});
        QCOMPARE(gen.exitCode, 0);
        KubeConnection wrongCa = *conn;
        wrongCa.caPem = readFile(m_cluster->temporaryDir() + QStringLiteral("/o.crt"));
        KubeClient bad(wrongCa, testClientOptions());
        auto r = await(bad.get(KubeResource::namespaces(), {}, QStringLiteral("team-nlp")));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Tls);
        QCOMPARE(bad.requestsSent(), 1);
        QVERIFY(!bad.insecureSkipTlsVerify());

        // insecure-skip-tls-verify works, and says so.
        KubeConnection insecure = *conn;
        insecure.caPem.clear();
        insecure.insecureSkipTlsVerify = true;
        KubeClient lax(insecure, testClientOptions());
        QVERIFY(lax.insecureSkipTlsVerify());
        auto ok = await(lax.get(KubeResource::namespaces(), {}, QStringLiteral("team-nlp")));
        GQ_VERIFY_OK(ok);

        // tls-server-name: the certificate is for "localhost"/127.0.0.1; asking for
        // another name must fail verification even though we connect to the same address.
        KubeConnection sni = *conn;
        sni.tlsServerName = QStringLiteral("not-the-server.example");
        KubeClient wrongName(sni, testClientOptions());
        auto nameMismatch = await(wrongName.get(KubeResource::namespaces(), {}, QStringLiteral("team-nlp")));
        QVERIFY(!nameMismatch);
        QCOMPARE(nameMismatch.error().kind, Error::Kind::Tls);
    }

    void clientCertificateAuthentication() {
        auto cert = client(QStringLiteral("admin-cert"));
        auto me = await(cert->whoAmI());
        GQ_VERIFY_OK(me);
        QVERIFY(!me->username.isEmpty());
        QVERIFY(me->groups.contains(QStringLiteral("system:masters")));
    }

    void listCollectsAllPages() {
        const QString ns = makeNamespace(QStringLiteral("kc-pages"));
        CarefulWriter w(*m_admin, &m_recoveries);
        QSet<QString> expected;
        for (int i = 0; i < 23; ++i) {
            const QString name = QStringLiteral("q-%1").arg(i, 2, 10, QLatin1Char('0'));
            auto r = w.create(KubeResource::resourceQuotas(), ns,
                              quotaObject(name, {{QStringLiteral("pods"), QString::number(i + 1)}}));
            GQ_VERIFY_OK(r);
            expected.insert(name);
        }
        ListOptions lo;
        lo.limit = 5;
        auto list = await(m_admin->list(KubeResource::resourceQuotas(), ns, lo));
        GQ_VERIFY_OK(list);
        QCOMPARE(list->pages, 5);
        QCOMPARE(list->items.size(), 23);
        QSet<QString> got;
        for (const QJsonObject &o : list->items)
            got.insert(nameOf(o));
        QCOMPARE(got, expected);
        QVERIFY(!list->resourceVersion.isEmpty());
        QCOMPARE(list->kind, QStringLiteral("ResourceQuotaList"));

        // One page at a time, by hand.
        lo.limit = 10;
        auto first = await(m_admin->listPage(KubeResource::resourceQuotas(), ns, lo));
        QVERIFY(first);
        QCOMPARE(first->items.size(), 10);
        QVERIFY(!first->continueToken.isEmpty());

        // All namespaces: the demo's quotas plus ours.
        auto all = await(m_admin->list(KubeResource::resourceQuotas(), {}, lo));
        QVERIFY(all);
        QVERIFY(all->items.size() >= 23 + 4);
        const QJsonObject v1 = all->toListJson(KubeResource::resourceQuotas());
        QCOMPARE(v1.value(QLatin1String("kind")).toString(), QStringLiteral("List"));
        QCOMPARE(v1.value(QLatin1String("items"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("kind"))
                     .toString(),
                 QStringLiteral("ResourceQuota"));
    }

    void writeLifecycle() {
        const QString ns = makeNamespace(QStringLiteral("kc-crud"));
        const auto &rq = KubeResource::resourceQuotas();
        CarefulWriter w(*m_admin, &m_recoveries);
        auto created =
            w.create(rq, ns,
                     quotaObject(QStringLiteral("gpu"),
                                 {{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("4")}}));
        GQ_VERIFY_OK(created);
        const QString rv1 = rvOf(*created);
        QVERIFY(!rv1.isEmpty());

        // Creating it again: AlreadyExists, typed.
        auto again = await(m_admin->create(
            rq, ns, quotaObject(QStringLiteral("gpu"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        if (!m_mode.lossy() || !transient(again.error())) {
            QVERIFY(!again);
            QCOMPARE(again.error().kind, Error::Kind::AlreadyExists);
            QCOMPARE(again.error().httpStatus, 409);
        }

        // Replace with the version we read.
        QJsonObject edited = *created;
        QJsonObject spec = edited.value(QLatin1String("spec")).toObject();
        spec.insert(QStringLiteral("hard"),
                    QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("6")}});
        edited.insert(QStringLiteral("spec"), spec);
        auto replaced = w.replace(rq, ns, edited);
        GQ_VERIFY_OK(replaced);
        QVERIFY(rvOf(*replaced) != rv1);
        QCOMPARE(hardOf(*replaced).value(QLatin1String("requests.nvidia.com/gpu")).toString(),
                 QStringLiteral("6"));

        // The same edit again, still based on rv1: a 409 Conflict that never overwrites.
        spec.insert(QStringLiteral("hard"),
                    QJsonObject{{QStringLiteral("requests.nvidia.com/gpu"), QStringLiteral("1")}});
        edited.insert(QStringLiteral("spec"), spec);
        auto stale = w.replace(rq, ns, edited);
        QVERIFY(!stale);
        QCOMPARE(stale.error().kind, Error::Kind::Conflict);
        QCOMPARE(stale.error().httpStatus, 409);
        QVERIFY2(stale.error().message.contains(QLatin1String("the object has been modified")),
                 qPrintable(stale.error().message));
        auto current = await(m_admin->get(rq, ns, QStringLiteral("gpu")));
        QVERIFY(current);
        QCOMPARE(hardOf(*current).value(QLatin1String("requests.nvidia.com/gpu")).toString(),
                 QStringLiteral("6"));

        // JSON merge patch.
        auto patched =
            w.mergePatch(rq, ns, QStringLiteral("gpu"),
                         {{QStringLiteral("spec"),
                           QJsonObject{{QStringLiteral("hard"),
                                        QJsonObject{{QStringLiteral("pods"), QStringLiteral("10")}}}}}});
        GQ_VERIFY_OK(patched);
        const QJsonObject hard = hardOf(*patched);
        QCOMPARE(hard.value(QLatin1String("pods")).toString(), QStringLiteral("10"));
        QCOMPARE(hard.value(QLatin1String("requests.nvidia.com/gpu")).toString(), QStringLiteral("6"));

        // dryRun=All: answered like the real thing, nothing stored.
        WriteOptions dry;
        dry.dryRun = true;
        auto dryCreate = await(m_admin->create(
            rq, ns, quotaObject(QStringLiteral("ghost"), {{QStringLiteral("pods"), QStringLiteral("2")}}),
            dry));
        if (dryCreate || !transient(dryCreate.error())) {
            GQ_VERIFY_OK(dryCreate);
            QCOMPARE(nameOf(*dryCreate), QStringLiteral("ghost"));
        }
        auto ghost = await(m_admin->get(rq, ns, QStringLiteral("ghost")));
        QVERIFY(!ghost);
        QCOMPARE(ghost.error().kind, Error::Kind::NotFound);
        QCOMPARE(ghost.error().message, QStringLiteral("resourcequotas \"ghost\" not found"));

        // Invalid objects (a negative quantity): 422 with field causes.
        auto invalid = await(m_admin->create(
            rq, ns,
            quotaObject(QStringLiteral("bad"), {{QStringLiteral("requests.cpu"), QStringLiteral("-1")}})));
        if (invalid || !transient(invalid.error())) {
            QVERIFY(!invalid);
            QCOMPARE(invalid.error().kind, Error::Kind::Invalid);
            QCOMPARE(invalid.error().httpStatus, 422);
            QVERIFY(!invalid.error().causes.isEmpty());
            QVERIFY2(invalid.error().causes.first().field.startsWith(QLatin1String("spec.hard")),
                     qPrintable(invalid.error().causes.first().field));
        }

        // Delete, then it is gone.
        auto removed = w.remove(rq, ns, QStringLiteral("gpu"));
        GQ_VERIFY_OK(removed);
        auto gone = await(m_admin->get(rq, ns, QStringLiteral("gpu")));
        QVERIFY(!gone);
        QCOMPARE(gone.error().kind, Error::Kind::NotFound);
    }

    void watchDeliversEveryChangeInOrder() {
        const QString ns = makeNamespace(QStringLiteral("kc-watch"));
        const auto &rq = KubeResource::resourceQuotas();
        auto start = await(m_admin->list(rq, ns));
        QVERIFY(start);

        QList<WatchEvent> events;
        int bookmarks = 0;
        int connects = 0;
        QObject context;
        WatchHandlers h;
        h.events = [&](const QList<WatchEvent> &batch) {
            for (const WatchEvent &e : batch) {
                if (e.type == WatchEvent::Type::Bookmark)
                    ++bookmarks;
                else
                    events.append(e);
            }
        };
        h.connected = [&](const QString &) { ++connects; };
        std::optional<Error> failure;
        h.failed = [&](const Error &e) { failure = e; };
        WatchOptions wo;
        wo.resourceVersion = start->resourceVersion;
        wo.timeoutSeconds = 2; // several streams over the test: resumes must not lose events
        auto watch = m_admin->watch(rq, ns, wo, &context, h);

        CarefulWriter w(*m_admin, &m_recoveries);
        QStringList expected;
        for (int i = 0; i < 6; ++i) {
            const QString name = QStringLiteral("w%1").arg(i);
            auto c = w.create(rq, ns, quotaObject(name, {{QStringLiteral("pods"), QStringLiteral("1")}}));
            GQ_VERIFY_OK(c);
            expected << QStringLiteral("ADDED ") + name;
            if (i % 2 == 0) {
                auto p = w.mergePatch(
                    rq, ns, name,
                    {{QStringLiteral("spec"),
                      QJsonObject{{QStringLiteral("hard"),
                                   QJsonObject{{QStringLiteral("pods"), QStringLiteral("2")}}}}}});
                QVERIFY(p);
                expected << QStringLiteral("MODIFIED ") + name;
            }
            if (i == 3) {
                QVERIFY(w.remove(rq, ns, name));
                expected << QStringLiteral("DELETED ") + name;
            }
            QTest::qWait(400); // spread the changes over several watch streams
        }
        auto seen = [&] {
            QStringList s;
            for (const WatchEvent &e : events) {
                const char *t = e.type == WatchEvent::Type::Added      ? "ADDED "
                                : e.type == WatchEvent::Type::Modified ? "MODIFIED "
                                                                       : "DELETED ";
                s << QString::fromLatin1(t) + nameOf(e.object);
            }
            return s;
        };
        if (m_mode.stall()) {
            // Stalled streams deliver nothing; the watch must keep reconnecting, not hang.
            QTRY_VERIFY_WITH_TIMEOUT(connects >= 3, 15000);
            QVERIFY(!failure);
            QVERIFY(watch->isActive());
            return;
        }
        QTRY_COMPARE_WITH_TIMEOUT(seen(), expected, 30000);
        QVERIFY(connects >= 2);                         // the stream ended at least once and was resumed
        QTRY_VERIFY_WITH_TIMEOUT(bookmarks > 0, 10000); // sent once the stream is idle
        QVERIFY(!failure);
        QCOMPARE(watch->lastResourceVersion().isEmpty(), false);
        watch->stop();
        QVERIFY(!watch->isActive());
        // Nothing arrives after stop().
        const qsizetype before = events.size();
        QVERIFY(w.create(
            rq, ns,
            quotaObject(QStringLiteral("after-stop"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        QTest::qWait(500);
        QCOMPARE(events.size(), before);
    }

    void watchFromACompactedVersionIsGone() {
        const QString ns = makeNamespace(QStringLiteral("kc-gone"));
        const auto &rq = KubeResource::resourceQuotas();
        auto start = await(m_admin->list(rq, ns));
        QVERIFY(start);
        CarefulWriter w(*m_admin, &m_recoveries);
        QVERIFY(w.create(rq, ns,
                         quotaObject(QStringLiteral("a"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
        QVERIFY(m_cluster->compact());
        std::optional<Error> failure;
        QObject context;
        WatchHandlers h;
        h.failed = [&](const Error &e) { failure = e; };
        WatchOptions wo;
        wo.resourceVersion = start->resourceVersion;
        auto watch = m_admin->watch(rq, ns, wo, &context, h);
        QTRY_VERIFY_WITH_TIMEOUT(failure.has_value(), 30000);
        QCOMPARE(failure->kind, Error::Kind::Gone);
        QCOMPARE(failure->httpStatus, 410);
        QVERIFY(failure->message.contains(QLatin1String("too old resource version")));
        QVERIFY(!watch->isActive());
    }

    // Handlers reach the context's thread through a child of the context: once the
    // context is gone nothing arrives and the watch stops; a watch that goes takes that
    // child with it.
    void watchEndsWithItsContext() {
        const QString ns = makeNamespace(QStringLiteral("kc-context"));
        const auto &rq = KubeResource::resourceQuotas();
        auto start = await(m_admin->list(rq, ns));
        QVERIFY(start);
        CarefulWriter w(*m_admin, &m_recoveries);
        QStringList seen;
        WatchHandlers h;
        h.events = [&](const QList<WatchEvent> &batch) {
            for (const WatchEvent &e : batch)
                if (e.type != WatchEvent::Type::Bookmark)
                    seen << nameOf(e.object);
        };
        WatchOptions wo;
        wo.resourceVersion = start->resourceVersion;
        auto context = std::make_unique<QObject>();
        auto watch = m_admin->watch(rq, ns, wo, context.get(), h);
        QCOMPARE(context->children().size(), 1);
        if (!m_mode.stall()) { // stalled streams deliver nothing to drop
            QVERIFY(w.create(
                rq, ns, quotaObject(QStringLiteral("a"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
            QTRY_COMPARE_WITH_TIMEOUT(seen, QStringList{QStringLiteral("a")}, 30000);
            context.reset();
            QVERIFY(w.create(
                rq, ns, quotaObject(QStringLiteral("b"), {{QStringLiteral("pods"), QStringLiteral("1")}})));
            QTRY_VERIFY_WITH_TIMEOUT(!watch->isActive(), 30000); // "b" found the context gone
            QTest::qWait(200);
            QCOMPARE(seen, QStringList{QStringLiteral("a")});
        }

        QObject kept;
        auto other = m_admin->watch(rq, ns, wo, &kept, WatchHandlers{});
        QCOMPARE(kept.children().size(), 1);
        other.reset();
        QTRY_COMPARE(kept.children().size(), 0);
    }

    void typedQuotasAndLimitRanges() {
        const QString ns = makeNamespace(QStringLiteral("kc-typed"));
        CarefulWriter w(*m_admin, &m_recoveries);
        auto q = QuotaSpec::fromYaml(
            "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpus\n  namespace: kc-typed\n"
            "  labels:\n    team: vision\nspec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n");
        GQ_VERIFY_OK(q);
        QVERIFY(w.create(KubeResource::resourceQuotas(), ns, q->toJson()));
        auto got = await(getQuota(*m_admin, ns, QStringLiteral("gpus")));
        GQ_VERIFY_OK(got);
        QCOMPARE(got->meta.labels.value(QStringLiteral("team")), QStringLiteral("vision"));
        QCOMPARE(got->hard.value(u"requests.nvidia.com/gpu")->value(), 4);
        QVERIFY(!got->meta.resourceVersion.isEmpty());
        auto all = await(listQuotas(*m_admin, ns));
        GQ_VERIFY_OK(all);
        QCOMPARE(all->size(), 1);
        auto lrs = await(listLimitRanges(*m_admin, QStringLiteral("team-nlp")));
        GQ_VERIFY_OK(lrs);
        QVERIFY(!lrs->isEmpty());
        QVERIFY(!lrs->first().limits.isEmpty());
        if (m_mode.lossy())
            return; // typed writes are plain KubeClient writes, covered above under faults

        QuotaSpec edited = *got;
        edited.hard.set(QStringLiteral("requests.nvidia.com/gpu"), Quantity::fromInt(8));
        auto replaced = await(replaceQuota(*m_admin, edited));
        GQ_VERIFY_OK(replaced);
        QCOMPARE(replaced->hard.value(u"requests.nvidia.com/gpu")->value(), 8);
        QVERIFY(replaced->meta.resourceVersion != got->meta.resourceVersion);
        auto stale = await(replaceQuota(*m_admin, edited)); // still based on the old version
        QVERIFY(!stale);
        QCOMPARE(stale.error().kind, Error::Kind::Conflict);
        WriteOptions dry;
        dry.dryRun = true;
        auto lr = LimitRangeSpec::fromYaml(
            "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: lr\n  namespace: kc-typed\n"
            "spec:\n  limits:\n  - type: Container\n    max:\n      nvidia.com/gpu: \"2\"\n");
        GQ_VERIFY_OK(lr);
        auto dryLr = await(createLimitRange(*m_admin, *lr, dry));
        GQ_VERIFY_OK(dryLr);
        QCOMPARE(dryLr->meta.name, QStringLiteral("lr"));
        QCOMPARE(await(getLimitRange(*m_admin, ns, QStringLiteral("lr"))).error().kind,
                 Error::Kind::NotFound);
    }

    void retriesFollowThePolicy() {
        if (!m_mode.none())
            QSKIP("counts exact attempts: runs without background faults only");
        const auto &ns = KubeResource::namespaces();
        // Two 500s, then success: a GET is retried.
        QVERIFY(m_cluster->setFaults({{QStringLiteral("errorCount"), 2}}));
        KubeRequest get;
        get.path = ns.path({}, QStringLiteral("team-nlp"));
        auto r = await(m_admin->send(get));
        GQ_VERIFY_OK(r);
        QCOMPARE(r->attempts, 3);

        // A 500 on a POST: not retried, the caller decides.
        QVERIFY(m_cluster->setFaults({{QStringLiteral("errorCount"), 1}}));
        auto post = await(
            m_admin->create(KubeResource::namespaces(), {}, namespaceObject(QStringLiteral("kc-once"))));
        QVERIFY(!post);
        QCOMPARE(post.error().kind, Error::Kind::Server);
        QCOMPARE(post.error().httpStatus, 500);
        QVERIFY(post.error().message.contains(QLatin1String("injected fault")));

        // A 429 proves the server did not process it: even a POST is retried, after Retry-After.
        QVERIFY(m_cluster->setFaults(
            {{QStringLiteral("throttleCount"), 1}, {QStringLiteral("retryAfterSeconds"), 1}}));
        QElapsedTimer t;
        t.start();
        auto throttled = await(
            m_admin->create(KubeResource::namespaces(), {}, namespaceObject(QStringLiteral("kc-throttled"))));
        GQ_VERIFY_OK(throttled);
        QVERIFY2(t.elapsed() >= 950, qPrintable(QString::number(t.elapsed())));

        // A connection cut mid-response: a GET is retried...
        QVERIFY(m_cluster->setFaults({{QStringLiteral("dropCount"), 1}}));
        auto dropped = await(m_admin->get(ns, {}, QStringLiteral("team-nlp")));
        GQ_VERIFY_OK(dropped);
        // ...a PUT is not (it may have been applied).
        QVERIFY(m_cluster->setFaults({{QStringLiteral("dropCount"), 1}}));
        auto put = await(m_admin->replace(ns, {}, *dropped));
        QVERIFY(!put);
        QCOMPARE(put.error().kind, Error::Kind::Network);

        // Retries give up, with the last error and the attempt count.
        QVERIFY(m_cluster->setFaults({{QStringLiteral("errorRate"), 1.0}}));
        KubeClientOptions few = testClientOptions();
        few.maxAttempts = 3;
        auto c = client(QStringLiteral("admin"), few);
        auto exhausted = await(c->get(ns, {}, QStringLiteral("team-nlp")));
        QVERIFY(!exhausted);
        QCOMPARE(exhausted.error().kind, Error::Kind::Server);
        QVERIFY(exhausted.error().message.contains(QLatin1String("after 3 attempts")));
        QCOMPARE(c->requestsSent(), 3);
        QVERIFY(m_cluster->clearFaults());
    }

    void connectionRefusedIsNetworkError() {
        KubeConnection conn =
            *KubeConfig::load(m_cluster->kubeconfigPath())->connection(QStringLiteral("admin"));
        conn.server = QStringLiteral("https://127.0.0.1:1"); // nothing listens there
        KubeClientOptions o = testClientOptions();
        o.maxAttempts = 2;
        KubeClient c(conn, o);
        auto r = await(c.create(KubeResource::namespaces(), {}, namespaceObject(QStringLiteral("x"))));
        QVERIFY(!r);
        QCOMPARE(r.error().kind, Error::Kind::Network);
        QCOMPARE(c.requestsSent(), 2); // never sent, so a write may be retried
    }

    void eventLoopKeepsRunningDuringSlowRequests() {
        QVERIFY(m_cluster->setFaults({{QStringLiteral("latencyMs"), 800}}));
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, this, [&] { ++ticks; });
        timer.start(10);
        QElapsedTimer t;
        t.start();
        auto future = m_admin->list(KubeResource::namespaces(), {});
        // The call itself returns at once: the request runs on the client's thread.
        QVERIFY2(t.elapsed() < 100, qPrintable(QString::number(t.elapsed())));
        auto r = await(future);
        const qint64 elapsed = t.elapsed();
        QVERIFY(m_cluster->setFaults(modeFaults()));
        GQ_VERIFY_OK(r);
        QVERIFY(elapsed >= 700);
        QVERIFY2(ticks >= 30,
                 qPrintable(QStringLiteral("only %1 timer ticks in %2 ms").arg(ticks).arg(elapsed)));
    }

    void destroyingTheClientCancelsPendingRequests() {
        auto c = client(QStringLiteral("admin"));
        QVERIFY(m_cluster->setFaults({{QStringLiteral("latencyMs"), 1500}}));
        auto future = c->get(KubeResource::namespaces(), {}, QStringLiteral("team-nlp"));
        QTest::qWait(100);
        QElapsedTimer t;
        t.start();
        c.reset();
        QVERIFY(future.isFinished());
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(future.result().error().kind, Error::Kind::Cancelled);
        QVERIFY(m_cluster->setFaults(modeFaults()));
    }
};

QTEST_GUILESS_MAIN(TestKubeClient)
#include "tst_kubeclient.moc"
