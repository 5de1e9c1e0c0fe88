// The self-service endpoints (services/controller/selfservice.h) on a real HttpServer, against the
// real test cluster (TokenReview, SubjectAccessReview with users added by /_gq/users)
// and the usage database of the build (SQLite, or PostgreSQL from GQ_TEST_PG_URL):
// /quota/status equals `gpuquota budget status` and `gpuquota usage` for several users
// across Berlin's autumn DST day (manual clock); 401/403; the page in headless Chromium
// in English and Chinese; /metrics through promtool and our own exposition parser.
#include "core/usage/boosts.h"
#include "tests/chromiumpage.h"
#include "core/metrics/exposition.h"
#include "core/httpd/httpserver.h"
#include "core/net/httptransport.h"
#include "tests/kube/kubetestutil.h"
#include "core/kube/kubeclient.h"
#include "services/controller/metricsregistry.h"
#include "services/controller/selfservice.h"
#include "tests/testclusterprocess.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTranslator>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

qint64 at(const char *rfc3339) {
    return parseInstant(QString::fromLatin1(rfc3339)).value();
}

QString gpuquota() {
    QString dir = qEnvironmentVariable("GQ_BIN_DIR");
    if (dir.isEmpty())
        dir = QStringLiteral(GQ_BINARY_DIR "/bin");
    return QDir(dir).filePath(QStringLiteral("gpuquota"));
}

struct Reply {
    int status = 0;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray header(const QByteArray &name) const {
        for (const auto &[k, v] : headers)
            if (k == name)
                return v;
        return {};
    }
};

} // namespace

class TestSelfService : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_selfservice"};
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::unique_ptr<SelfService> m_service;
    std::unique_ptr<httpd::HttpServer> m_server;
    std::shared_ptr<MetricsRegistry> m_metrics;
    ManualClock m_clock{at("2026-10-25T15:00:00+01:00")};
    HttpTransport m_http;
    QString m_db;
    QString m_base;

    Reply get(const QString &pathAndQuery, const QByteArray &token, const QByteArray &language = {}) {
        HttpRequest req;
        req.url = m_base + pathAndQuery;
        if (!token.isEmpty())
            req.headers.append(
                qMakePair(QByteArray("Authorization"), QByteArray(QByteArray("Bearer ") + token)));
        if (!language.isEmpty())
            req.headers.append(qMakePair(QByteArray("Accept-Language"), language));
        const HttpResponse r = m_http.send(req).result();
        return {r.httpStatus, r.body, r.headers};
    }
    QJsonObject statusOf(const QString &query, const QByteArray &token = "tok-carol") {
        const Reply r = get(QStringLiteral("/quota/status?") + query, token);
        if (r.status != 200)
            qWarning() << r.status << r.body;
        return QJsonDocument::fromJson(r.body).object();
    }
    QJsonObject cli(const QStringList &args) {
        const ToolRun r = runTool(gpuquota(), args);
        if (r.exitCode != 0)
            qWarning() << args << r.err;
        return QJsonDocument::fromJson(r.out).object();
    }
    void addUser(const char *name, const char *token, const QJsonArray &rules) {
        const auto r = m_cluster->hook("POST", QStringLiteral("/_gq/users"),
                                       QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                                                   {QStringLiteral("token"), QLatin1String(token)},
                                                   {QStringLiteral("rules"), rules}});
        QVERIFY2(r.ok(), qPrintable(r.error + QString::number(r.status)));
    }
    static QJsonObject rule(const char *ns, const char *verb) {
        return QJsonObject{{QStringLiteral("namespaces"), QJsonArray{QLatin1String(ns)}},
                           {QStringLiteral("verbs"), QJsonArray{QLatin1String(verb)}},
                           {QStringLiteral("resources"), QJsonArray{QStringLiteral("resourcequotas")}}};
    }

    void seed(UsageStore &store) {
        const auto budget = [&store](BudgetScope scope, const char *subject, Period period, double limit,
                                     qint64 grace) {
            Budget b;
            b.scope = scope;
            b.subject = QLatin1String(subject);
            b.period = period;
            b.limitGpuHours = limit;
            b.graceSeconds = grace;
            b.tz = QStringLiteral("Europe/Berlin");
            QVERIFY(store.setBudget(b));
        };
        budget(BudgetScope::User, "alice", Period::Day, 8, 1800);
        budget(BudgetScope::User, "bob", Period::Day, 4, 0);
        budget(BudgetScope::User, "bob", Period::Week, 20, 0);
        budget(BudgetScope::Namespace, "team-a", Period::Week, 100, 3600);
        int n = 0;
        const auto iv = [&store, &n](const char *ns, const char *user, int gpus, const char *start,
                                     const char *end, const char *resource = "nvidia.com/gpu") {
            UsageInterval i;
            i.cluster = QStringLiteral("test");
            i.ns = QLatin1String(ns);
            i.user = QLatin1String(user);
            i.podUid = QStringLiteral("uid-%1").arg(++n);
            i.podName = QStringLiteral("job-%1").arg(n);
            i.resource = QLatin1String(resource);
            i.gpus = gpus;
            i.start = at(start);
            if (end)
                i.end = at(end);
            i.source = QStringLiteral("test");
            QVERIFY(store.upsertInterval(i));
        };
        // Across the DST switch (03:00 CEST -> 02:00 CET): 01:30+02:00 to 04:00+01:00 is 3.5 h.
        iv("team-a", "alice", 2, "2026-10-25T01:30:00+02:00", "2026-10-25T04:00:00+01:00");
        iv("team-a", "alice", 1, "2026-10-25T13:00:00+01:00", nullptr); // running
        iv("team-a", "bob", 1, "2026-10-24T22:00:00+02:00", "2026-10-25T02:30:00+01:00");
        iv("team-b", "bob", 4, "2026-10-25T09:00:00+01:00", "2026-10-25T10:00:00+01:00");
        iv("team-b", "bob", 7, "2026-10-25T11:00:00+01:00", "2026-10-25T12:00:00+01:00",
           "nvidia.com/mig-1g.10gb");
        for (int day = 1; day <= 20; ++day)
            iv("team-a", "alice", day % 3 + 1,
               qPrintable(QStringLiteral("2026-10-%1T10:00:00+02:00").arg(day, 2, 10, QLatin1Char('0'))),
               qPrintable(QStringLiteral("2026-10-%1T1%2:00:00+02:00")
                              .arg(day, 2, 10, QLatin1Char('0'))
                              .arg(day % 5 + 1)));
        Boost boost;
        boost.target = BoostTarget::budget(BudgetScope::User, QStringLiteral("alice"));
        boost.delta = QStringLiteral("2");
        boost.start = at("2026-10-25T12:00:00+01:00");
        boost.expiry = at("2026-10-25T20:00:00+01:00");
        boost.note = QStringLiteral("paper deadline");
        boost.actor = QStringLiteral("admin");
        boost.state = Boost::State::Active;
        boost.createdAt = boost.start;
        QVERIFY(store.addBoost(boost));
    }

private slots:
    void initTestCase() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        addUser("alice", "tok-alice", QJsonArray{rule("team-a", "get")});
        addUser("bob", "tok-bob", QJsonArray{});
        addUser("carol", "tok-carol", QJsonArray{rule("*", "list")});
        // Names as real authenticators give them: the identity mapping makes them subjects.
        addUser("alice@example.com", "tok-alice-mail", QJsonArray{});
        addUser("system:serviceaccount:team-a:notebook", "tok-sa", QJsonArray{});
        addUser("Dr Who", "tok-who", QJsonArray{});
        m_db = m_backend.freshUrl();
        {
            UsageStore::Options options;
            options.rollupZone = QStringLiteral("Europe/Berlin");
            auto store = UsageStore::open(m_db, options);
            QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
            seed(**store);
        }
        auto kube = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY2(kube, qPrintable(kube ? QString() : kube.error().toString()));
        SelfServiceOptions o;
        const QString url = m_db;
        o.openStore = [url] { return UsageStore::open(url); };
        o.kube = *kube;
        o.clock = &m_clock;
        m_metrics = std::make_shared<MetricsRegistry>();
        registerControllerMetrics(*m_metrics);
        o.metrics = m_metrics;
        o.perUserMetrics = true;
        o.metricsRefreshSeconds = 0;
        auto zh = std::make_shared<QTranslator>();
        QVERIFY(zh->load(QStringLiteral(":/i18n/gpuquota_zh_CN.qm")));
        o.translators.insert(QStringLiteral("zh_CN"), zh);
        m_service = std::make_unique<SelfService>(std::move(o));
        m_server = std::make_unique<httpd::HttpServer>();
        m_service->mount(*m_server);
        auto port = m_server->start(httpd::ListenAddress{QStringLiteral("127.0.0.1"), 0});
        QVERIFY2(port, qPrintable(port ? QString() : port.error().toString()));
        m_base = QStringLiteral("http://127.0.0.1:%1").arg(*port);
    }
    void cleanupTestCase() {
        m_server.reset();
        m_service.reset();
        const QString err = m_backend.dropSchemas();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    void statusEqualsCli_data() {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QString>("now");
        for (const char *now : {"2026-10-25T15:00:00+01:00", "2026-10-25T02:30:00+01:00",
                                "2026-10-25T02:30:00+02:00", "2026-10-26T00:30:00+01:00"}) {
            for (const char *user : {"alice", "bob", "dave"})
                QTest::addRow("user %s at %s", user, now) << "user" << user << now;
            QTest::addRow("namespace team-a at %s", now) << "namespace"
                                                         << "team-a" << now;
            QTest::addRow("namespace team-b at %s", now) << "namespace"
                                                         << "team-b" << now;
        }
    }
    void statusEqualsCli() {
        QFETCH(QString, scope);
        QFETCH(QString, subject);
        QFETCH(QString, now);
        m_clock.set(parseInstant(now).value());
        const QJsonObject doc = statusOf(scope + QLatin1Char('=') + subject);
        QCOMPARE(doc.value(QLatin1String("subject")).toString(), subject);
        const QString flag = QStringLiteral("--") + scope;
        const QJsonObject budget =
            cli({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_db, flag,
                 subject, QStringLiteral("--now"), now, QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(doc.value(QLatin1String("budgets")).toArray(),
                 budget.value(QLatin1String("budgets")).toArray());
        QCOMPARE(doc.value(QLatin1String("now")), budget.value(QLatin1String("now")));
        // The summary is the budget with the least left.
        const QJsonArray budgets = doc.value(QLatin1String("budgets")).toArray();
        if (budgets.isEmpty()) {
            QCOMPARE(doc.value(QLatin1String("state")).toString(), QStringLiteral("none"));
        } else {
            double least = 1e300;
            QJsonObject primary;
            for (const QJsonValue &b : budgets)
                if (b.toObject().value(QLatin1String("remaining")).toDouble() < least) {
                    least = b.toObject().value(QLatin1String("remaining")).toDouble();
                    primary = b.toObject();
                }
            for (const char *key : {"used", "limit", "remaining", "period_start", "period_end", "state",
                                    "grace_end", "forecast", "forecast_exhaustion"})
                QCOMPARE(doc.value(QLatin1String(key)), primary.value(QLatin1String(key)));
        }
        // The history is `gpuquota usage --period day` for the same days, zone and instant.
        const QJsonObject history = doc.value(QLatin1String("history")).toObject();
        const QJsonObject usage =
            cli({QStringLiteral("usage"), QStringLiteral("--db"), m_db, QStringLiteral("--by"), scope,
                 QStringLiteral("--period"), QStringLiteral("day"), QStringLiteral("--from"),
                 history.value(QLatin1String("from")).toString(), QStringLiteral("--to"),
                 history.value(QLatin1String("to")).toString(), QStringLiteral("--tz"),
                 history.value(QLatin1String("tz")).toString(), QStringLiteral("--now"), now,
                 QStringLiteral("-o"), QStringLiteral("json")});
        QHash<QString, double> expected;
        for (const QJsonValue &row : usage.value(QLatin1String("rows")).toArray())
            if (row.toObject().value(QLatin1String("subject")).toString() == subject)
                expected.insert(row.toObject().value(QLatin1String("bucket_start")).toString(),
                                row.toObject().value(QLatin1String("gpu_hours")).toDouble());
        const QJsonArray days = history.value(QLatin1String("days")).toArray();
        QCOMPARE(days.size(), 30);
        int matched = 0;
        for (const QJsonValue &v : days) {
            const QJsonObject day = v.toObject();
            const QString start = day.value(QLatin1String("start")).toString();
            QCOMPARE(day.value(QLatin1String("gpu_hours")).toDouble(), expected.value(start, 0.0));
            matched += expected.contains(start);
        }
        QCOMPARE(matched, int(expected.size()));
        if (subject == QLatin1String("alice") && now == QLatin1String("2026-10-25T15:00:00+01:00")) {
            // The DST day has 25 hours and alice's 7 GPU-h from it (2 x 3.5) plus 2 h running.
            QCOMPARE(days.last().toObject().value(QLatin1String("date")).toString(),
                     QStringLiteral("2026-10-25"));
            QCOMPARE(days.last().toObject().value(QLatin1String("gpu_hours")).toDouble(), 9.0);
            QCOMPARE(doc.value(QLatin1String("limit")).toDouble(), 10.0); // 8 + the 2 h boost
            QCOMPARE(doc.value(QLatin1String("active_boosts")).toArray().size(), 1);
        }
    }

    void whoMaySeeWhat_data() {
        QTest::addColumn<QByteArray>("token");
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("subject");
        QTest::newRow("no token") << QByteArray() << "user=alice" << 401 << "";
        QTest::newRow("unknown token") << QByteArray("tok-nobody") << "user=alice" << 401 << "";
        QTest::newRow("own user") << QByteArray("tok-alice") << "user=alice" << 200 << "alice";
        QTest::newRow("own user by default") << QByteArray("tok-bob") << "" << 200 << "bob";
        QTest::newRow("someone else") << QByteArray("tok-alice") << "user=bob" << 403 << "";
        QTest::newRow("bob on alice") << QByteArray("tok-bob") << "user=alice" << 403 << "";
        QTest::newRow("namespace with get")
            << QByteArray("tok-alice") << "namespace=team-a" << 200 << "team-a";
        QTest::newRow("namespace without") << QByteArray("tok-alice") << "namespace=team-b" << 403 << "";
        QTest::newRow("bob no namespace") << QByteArray("tok-bob") << "namespace=team-a" << 403 << "";
        QTest::newRow("list sees users") << QByteArray("tok-carol") << "user=bob" << 200 << "bob";
        QTest::newRow("list sees namespaces")
            << QByteArray("tok-carol") << "namespace=team-b" << 200 << "team-b";
        QTest::newRow("both") << QByteArray("tok-carol") << "user=bob&namespace=team-a" << 400 << "";
        QTest::newRow("empty user") << QByteArray("tok-carol") << "user=" << 400 << "";
        QTest::newRow("e-mail: own user by default") << QByteArray("tok-alice-mail") << "" << 200 << "alice";
        QTest::newRow("e-mail: own user") << QByteArray("tok-alice-mail") << "user=alice" << 200 << "alice";
        QTest::newRow("e-mail: someone else") << QByteArray("tok-alice-mail") << "user=bob" << 403 << "";
        QTest::newRow("e-mail: the raw name means the own user")
            << QByteArray("tok-alice-mail") << "user=alice@example.com" << 200 << "alice";
        QTest::newRow("service account: own namespace by default")
            << QByteArray("tok-sa") << "" << 200 << "team-a";
        QTest::newRow("service account: own namespace")
            << QByteArray("tok-sa") << "namespace=team-a" << 200 << "team-a";
        QTest::newRow("service account: other namespace")
            << QByteArray("tok-sa") << "namespace=team-b" << 403 << "";
        QTest::newRow("service account: a user") << QByteArray("tok-sa") << "user=alice" << 403 << "";
        QTest::newRow("unmappable name: no own status") << QByteArray("tok-who") << "" << 404 << "";
    }
    void whoMaySeeWhat() {
        QFETCH(QByteArray, token);
        QFETCH(QString, query);
        QFETCH(int, status);
        QFETCH(QString, subject);
        for (const char *path : {"/quota/status?", "/quota?"}) {
            const Reply r = get(QLatin1String(path) + query, token);
            QCOMPARE(r.status, status);
            if (status == 401)
                QVERIFY(r.header("www-authenticate").startsWith("Bearer"));
            if (status == 200 && QByteArrayView(path) == "/quota/status?")
                QCOMPARE(QJsonDocument::fromJson(r.body).object().value(QLatin1String("subject")).toString(),
                         subject);
        }
    }

    // What the caller's name maps to is in the answer: the JSON's identity block and a
    // line on the page, in English and Chinese.
    void identityIsShown() {
        m_clock.set(at("2026-10-25T15:00:00+01:00"));
        const QJsonObject alice = statusOf(QString(), "tok-alice-mail");
        QCOMPARE(alice.value(QLatin1String("scope")).toString(), QStringLiteral("user"));
        QCOMPARE(alice.value(QLatin1String("subject")).toString(), QStringLiteral("alice"));
        QCOMPARE(alice.value(QLatin1String("budgets")).toArray(),
                 statusOf(QStringLiteral("user=alice")).value(QLatin1String("budgets")).toArray());
        QCOMPARE(alice.value(QLatin1String("identity")).toObject(),
                 (QJsonObject{{QStringLiteral("username"), QStringLiteral("alice@example.com")},
                              {QStringLiteral("scope"), QStringLiteral("user")},
                              {QStringLiteral("subject"), QStringLiteral("alice")},
                              {QStringLiteral("rule"), QStringLiteral("email")},
                              {QStringLiteral("explanation"),
                               QStringLiteral("alice@example.com \u2192 alice (e-mail local part)")}}));
        const QJsonObject sa = statusOf(QString(), "tok-sa");
        QCOMPARE(sa.value(QLatin1String("scope")).toString(), QStringLiteral("namespace"));
        QCOMPARE(sa.value(QLatin1String("subject")).toString(), QStringLiteral("team-a"));
        QCOMPARE(sa.value(QLatin1String("limit")).toDouble(), 100.0); // team-a's weekly budget
        const QJsonObject saIdentity = sa.value(QLatin1String("identity")).toObject();
        QCOMPARE(saIdentity.value(QLatin1String("scope")).toString(), QStringLiteral("namespace"));
        QCOMPARE(saIdentity.value(QLatin1String("rule")).toString(), QStringLiteral("service-account"));
        // Someone else's status still names the caller.
        QCOMPARE(statusOf(QStringLiteral("user=bob"))
                     .value(QLatin1String("identity"))
                     .toObject()
                     .value(QLatin1String("subject"))
                     .toString(),
                 QStringLiteral("carol"));
        const Reply who = get(QStringLiteral("/quota/status"), "tok-who");
        QCOMPARE(who.status, 404);
        const QJsonObject whoDoc = QJsonDocument::fromJson(who.body).object();
        QVERIFY2(whoDoc.value(QLatin1String("error")).toString().contains(QLatin1String("contains ' '")),
                 who.body.constData());
        QCOMPARE(
            whoDoc.value(QLatin1String("identity")).toObject().value(QLatin1String("username")).toString(),
            QStringLiteral("Dr Who"));

        const Reply page = get(QStringLiteral("/quota"), "tok-alice-mail", "en");
        QCOMPARE(page.status, 200);
        QVERIFY2(QString::fromUtf8(page.body).contains(
                     QStringLiteral("Signed in as alice@example.com: budget user alice (e-mail local part)")),
                 page.body.constData());
        const Reply zh = get(QStringLiteral("/quota"), "tok-sa", "zh-CN");
        QCOMPARE(zh.status, 200);
        QVERIFY2(QString::fromUtf8(zh.body).contains(
                     QStringLiteral("system:serviceaccount:team-a:notebook \u767b\u5f55")),
                 zh.body.constData());
    }

    // The fit advisor's form on /quota: the same numbers and budget decision as
    // `gpuquota advise` for the same inputs, everything escaped, bad input named.
    void fitAdvisorForm() {
        m_clock.set(at("2026-10-25T15:00:00+01:00"));
        const QString inputs = QStringLiteral(
            "model=llama-2-7b&gpus=1&gpu_memory=80G&gradient_checkpointing=1&flash_attn=1&hours=4");
        const Reply page = get(QStringLiteral("/quota?user=alice&") + inputs, "tok-alice", "en");
        QCOMPARE(page.status, 200);
        const QString body = QString::fromUtf8(page.body);
        const QJsonObject cli =
            this->cli(QStringList{QStringLiteral("advise"), QStringLiteral("--db"), m_db,
                                  QStringLiteral("--user"), QStringLiteral("alice"), QStringLiteral("--now"),
                                  QStringLiteral("2026-10-25T15:00:00+01:00")} +
                      QStringLiteral("--model llama-2-7b --gpus 1 --gpu-memory 80G "
                                     "--gradient-checkpointing --flash-attn --hours 4 -o json")
                          .split(QLatin1Char(' ')));
        QVERIFY(!cli.isEmpty());
        for (const QJsonValue &alt : cli.value(QLatin1String("alternatives")).toArray()) {
            const QString why = alt.toObject().value(QLatin1String("why")).toString();
            QVERIFY2(body.contains(why.toHtmlEscaped()), qPrintable(why));
        }
        const QString decision =
            cli.value(QLatin1String("budget")).toObject().value(QLatin1String("decision")).toString();
        QVERIFY(decision.startsWith(QLatin1String("Allowed: ")) ||
                decision.startsWith(QLatin1String("Denied: ")));
        QVERIFY2(
            body.contains(QStringLiteral("<p id=\"advisor-budget\">%1</p>").arg(decision.toHtmlEscaped())),
            qPrintable(decision));
        const QString swift = cli.value(QLatin1String("swift_args")).toVariant().toStringList().join(u' ');
        QVERIFY2(body.contains(QStringLiteral("swift sft ") + swift.toHtmlEscaped()), qPrintable(swift));
        // The form keeps the subject and the inputs.
        QVERIFY(body.contains(QLatin1String("<input type=\"hidden\" name=\"user\" value=\"alice\">")));
        QVERIFY(body.contains(QLatin1String("name=\"model\" value=\"llama-2-7b\"")));

        // Markup in a parameter comes back as text.
        const Reply evil =
            get(QStringLiteral("/quota?user=alice&model=%3Cscript%3Ealert(1)%3C/script%3E"), "tok-alice");
        QCOMPARE(evil.status, 200);
        const QString evilBody = QString::fromUtf8(evil.body);
        QVERIFY(!evilBody.contains(QLatin1String("<script>")));
        QVERIFY2(evilBody.contains(QLatin1String("&lt;script&gt;alert(1)&lt;/script&gt;")),
                 evil.body.constData());
        QVERIFY(evilBody.contains(QLatin1String("<p id=\"advisor-error\">model: unknown model")));
        const Reply badMemory =
            get(QStringLiteral("/quota?user=alice&params=7B&gpu_memory=80GB"), "tok-alice");
        QVERIFY(QString::fromUtf8(badMemory.body)
                    .contains(QLatin1String("<p id=\"advisor-error\">gpu_memory: ")));
        // A namespace without GPU nodes in the cluster (and no quota): the GPU memory must be given.
        const Reply ns = get(QStringLiteral("/quota?namespace=team-a&model=llama-2-7b"), "tok-alice");
        QCOMPARE(ns.status, 200);
        QVERIFY2(QString::fromUtf8(ns.body).contains(QLatin1String("<p id=\"advisor-error\">gpu_memory")),
                 ns.body.constData());
        // Without model or params only the form is shown.
        const Reply plain = get(QStringLiteral("/quota?user=alice"), "tok-alice");
        QVERIFY(QString::fromUtf8(plain.body).contains(QLatin1String("id=\"advisor\"")));
        QVERIFY(!QString::fromUtf8(plain.body).contains(QLatin1String("advisor-recommendation")));
    }

    void cliAsksTheServer() {
        m_clock.set(at("2026-10-25T15:00:00+01:00"));
        QTemporaryDir dir;
        const QString tokenFile = dir.filePath(QStringLiteral("token"));
        QFile f(tokenFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("tok-alice\n");
        f.close();
        const QStringList base{QStringLiteral("status"), QStringLiteral("--server"), m_base,
                               QStringLiteral("--token-file"), tokenFile};
        const ToolRun json =
            runTool(gpuquota(), base + QStringList{QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(json.out).object(),
                 statusOf(QStringLiteral("user=alice"), "tok-alice"));
        const ToolRun table = runTool(gpuquota(), base);
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.startsWith("\xF0\x9F\x9F\xA8 1 GPU-h left of 10 today\n"), table.out.constData());
        QCOMPARE(table.out.count("GPU-h  "), 7);
        const ToolRun denied =
            runTool(gpuquota(), base + QStringList{QStringLiteral("--user"), QStringLiteral("bob")});
        QCOMPARE(denied.exitCode, 1);
        QVERIFY2(denied.err.contains("403"), denied.err.constData());
        const ToolRun bad =
            runTool(gpuquota(), {QStringLiteral("status"), QStringLiteral("--server"), m_base});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("--token-file"));
    }

    void pageInChromium_data() {
        QTest::addColumn<QByteArray>("language");
        QTest::addColumn<QStringList>("texts");
        QTest::addColumn<QString>("shot");
        QTest::newRow("en") << QByteArray("en-GB,en;q=0.9")
                            << QStringList{QStringLiteral("1 GPU-h left of 10 today"),
                                           QStringLiteral("Last 30 days"), QStringLiteral("paper deadline"),
                                           QStringLiteral("What happens at the limit")}
                            << QStringLiteral("selfservice.png");
        QTest::newRow("zh_CN") << QByteArray("zh-CN,zh;q=0.9,en;q=0.5")
                               << QStringList{QStringLiteral("最近 30 天"), QStringLiteral("今日剩余"),
                                              QStringLiteral("paper deadline")}
                               << QStringLiteral("selfservice-zh_CN.png");
    }
    void pageInChromium() {
        QFETCH(QByteArray, language);
        QFETCH(QStringList, texts);
        QFETCH(QString, shot);
        m_clock.set(at("2026-10-25T15:00:00+01:00"));
        const Reply r = get(QStringLiteral("/quota?user=alice"), "tok-alice", language);
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/html"));
        QVERIFY(!r.body.contains("<script"));
        QVERIFY(!r.body.contains("http://") && !r.body.contains("https://")); // no external asset
        const ChromiumPage page = openInChromium(r.body, shot, QSize(800, 1000));
        QVERIFY2(page.error.isEmpty(), qPrintable(page.error));
        for (const QString &t : texts)
            QVERIFY2(page.dom.contains(t), qPrintable(t));
        QVERIFY(page.dom.contains(QStringLiteral("<svg")));
        QCOMPARE(page.image.size(), QSize(800, 1000));
        // Not blank: the battery's colour (alice is near her limit: amber), the card's white
        // and the page's grey are all there.
        const int battery = pixelsOf(page.image, QColor(0xf9, 0xa8, 0x25));
        QVERIFY2(battery > 200, qPrintable(QString::number(battery)));
        QVERIFY(pixelsOf(page.image, Qt::white) > 10000);
        QVERIFY(pixelsOf(page.image, QColor(0xf4, 0xf6, 0xf8)) > 1000);
    }

    void metricsPassPromtool() {
        m_clock.set(at("2026-10-25T15:00:00+01:00"));
        m_metrics->add(QLatin1String(metricnames::kAlertsSent),
                       {{QStringLiteral("channel"), QStringLiteral("email")}});
        m_metrics->set(QLatin1String(metricnames::kSpoolDepth), {}, 3);
        QCOMPARE(get(QStringLiteral("/quota/status?user=bob"), "tok-alice").status, 403); // counted
        const Reply r = get(QStringLiteral("/metrics"), {});
        QCOMPARE(r.status, 200);
        QVERIFY(r.header("content-type").startsWith("text/plain; version=0.0.4"));
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        if (promtool.isEmpty())
            QFAIL("promtool is not installed (Debian's prometheus package)");
        QProcess p;
        p.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
        QVERIFY(p.waitForStarted());
        p.write(r.body);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY2(p.readAllStandardOutput().trimmed().isEmpty(), "promtool has lint remarks");

        const metrics::Exposition e = metrics::parseExposition(r.body);
        QCOMPARE(e.issueCount, 0);
        QHash<QString, double> byName;
        for (const metrics::Sample &s : e.samples)
            byName.insert(metrics::seriesText(s), s.value);
        // Equal to budget status at the same instant.
        const QJsonObject team = statusOf(QStringLiteral("namespace=team-a"));
        QCOMPARE(byName.value(QStringLiteral(
                     "gpuquota_namespace_budget_used_gpu_seconds{namespace=\"team-a\",period=\"week\"}")),
                 team.value(QLatin1String("used")).toDouble() * 3600);
        const QJsonObject alice = statusOf(QStringLiteral("user=alice"));
        QCOMPARE(byName.value(QStringLiteral(
                     "gpuquota_user_budget_remaining_gpu_seconds{period=\"day\",user=\"alice\"}")),
                 alice.value(QLatin1String("remaining")).toDouble() * 3600);
        QCOMPARE(byName.value(QStringLiteral("gpuquota_boosts_active{kind=\"budget\"}")), 1.0);
        QCOMPARE(byName.value(QStringLiteral("gpuquota_alerts_sent_total{channel=\"email\"}")), 1.0);
        QCOMPARE(byName.value(QStringLiteral("gpuquota_spool_intervals")), 3.0);
        QVERIFY(e.type.value(QStringLiteral("gpuquota_alerts_failed_total")) == QLatin1String("counter"));
        QVERIFY(byName.value(QStringLiteral("gpuquota_selfservice_requests_total{code=\"403\"}")) >= 1);
    }
};

QTEST_GUILESS_MAIN(TestSelfService)
#include "tst_selfservice.moc"
