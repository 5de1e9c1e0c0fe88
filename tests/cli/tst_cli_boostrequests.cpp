// Boost requests end to end: `gpuquota boost request` with a user's token through the
// controller's POST /quota/boost-requests (a real SelfService on an HttpServer, the real
// test cluster's TokenReview and SubjectAccessReview), then the admin's `boost requests
// [--pending]`, `boost approve` (optionally changing hours and end) and `boost deny` of the
// built binary on the suite's database (SQLite and PostgreSQL). Nobody decides their own
// request; RBAC (`create boostrequests.gpuquota.io`, or a configured group) decides who
// may ask; an approval raises the budget exactly as `boost grant --budget` does.
#include "core/usage/boostrequests.h"
#include "tests/clirun.h"
#include "core/httpd/httpserver.h"
#include "core/net/httptransport.h"
#include "core/kube/kubeclient.h"
#include "services/controller/selfservice.h"
#include "tests/testclusterprocess.h"
#include "core/usage/timewindow.h"
#include "tests/usage/usagebackend.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace gq;
using namespace gq::test;

class TestCliBoostRequests : public QObject {
    Q_OBJECT

private:
    UsageTestBackend m_backend{"gq_breq"};
    std::unique_ptr<TestClusterProcess> m_cluster;
    std::unique_ptr<SelfService> m_service;
    std::unique_ptr<httpd::HttpServer> m_server;
    QTemporaryDir m_dir;
    QString m_db;
    QString m_base;
    QString m_bin;

    CliRun gq(const QStringList &args) const { return runCli(m_bin, args); }
    QString tokenFile(const char *token) {
        const QString path = m_dir.filePath(QLatin1String(token));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(token);
        return path;
    }
    // `boost request` as the owner of `token`; the new request's id, or 0.
    qint64 request(const char *token, const QStringList &extra, CliRun *run = nullptr) {
        CliRun r = gq(QStringList{QStringLiteral("boost"), QStringLiteral("request"),
                                  QStringLiteral("--server"), m_base, QStringLiteral("--token-file"),
                                  tokenFile(token), QStringLiteral("-o"), QStringLiteral("json")} +
                      extra);
        if (run)
            *run = r;
        return QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("id")).toInteger();
    }
    QJsonArray listed(const QStringList &extra = {}) {
        const CliRun r =
            gq(QStringList{QStringLiteral("boost"), QStringLiteral("requests"), QStringLiteral("--db"), m_db,
                           QStringLiteral("-o"), QStringLiteral("json")} +
               extra);
        if (r.code != 0)
            qWarning() << r.err;
        return QJsonDocument::fromJson(r.out.toUtf8()).object().value(QLatin1String("requests")).toArray();
    }
    double limitOf(const char *user) {
        const CliRun r =
            gq({QStringLiteral("budget"), QStringLiteral("status"), QStringLiteral("--db"), m_db,
                QStringLiteral("--user"), QLatin1String(user), QStringLiteral("-o"), QStringLiteral("json")});
        return QJsonDocument::fromJson(r.out.toUtf8())
            .object()
            .value(QLatin1String("budgets"))
            .toArray()
            .first()
            .toObject()
            .value(QLatin1String("limit"))
            .toDouble();
    }
    struct Reply {
        int status = 0;
        QByteArray body;
        QByteArray location;
    };
    Reply send(HttpMethod method, const QString &pathAndQuery, const QByteArray &token,
               const QByteArray &body = {}, const QList<QPair<QByteArray, QByteArray>> &headers = {}) {
        HttpRequest req;
        req.method = method;
        req.url = m_base + pathAndQuery;
        req.body = body;
        if (!body.isEmpty())
            req.contentType = "application/x-www-form-urlencoded";
        req.headers = headers;
        req.headers.append(qMakePair(QByteArray("Authorization"), QByteArray(QByteArray("Bearer ") + token)));
        const HttpResponse r = HttpTransport().send(req).result();
        Reply out{r.httpStatus, r.body, {}};
        for (const auto &[k, v] : r.headers)
            if (k.toLower() == "location")
                out.location = v;
        return out;
    }
    void addUser(const char *name, const char *token, const QJsonArray &groups, const QJsonArray &rules) {
        const auto r = m_cluster->hook("POST", QStringLiteral("/_gq/users"),
                                       QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                                                   {QStringLiteral("token"), QLatin1String(token)},
                                                   {QStringLiteral("groups"), groups},
                                                   {QStringLiteral("rules"), rules}});
        QVERIFY2(r.ok(), qPrintable(r.error + QString::number(r.status)));
    }

private slots:
    void initTestCase() {
        GQ_PREPARE_USAGE_BACKEND(m_backend);
        QVERIFY(m_dir.isValid());
        m_bin = gpuquotaBinary();
        QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
        m_cluster = std::make_unique<TestClusterProcess>();
        QVERIFY2(m_cluster->start(), qPrintable(m_cluster->errorString()));
        const QJsonArray mayRequest{
            QJsonObject{{QStringLiteral("namespaces"), QJsonArray{QStringLiteral("*")}},
                        {QStringLiteral("verbs"), QJsonArray{QStringLiteral("create")}},
                        {QStringLiteral("resources"), QJsonArray{QStringLiteral("boostrequests")}}}};
        addUser("alice", "tok-alice", {}, mayRequest);
        addUser("bob", "tok-bob", {}, {});
        addUser("dave", "tok-dave", QJsonArray{QStringLiteral("gpu-requesters")}, {});
        m_db = m_backend.freshUrl();
        {
            auto store = UsageStore::open(m_db);
            QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
            for (const char *u : {"alice", "bob", "dave"})
                QVERIFY((*store)->setBudget(
                    budget(BudgetScope::User, QLatin1String(u), 8, 0, QStringLiteral("UTC"))));
        }
        auto kube = KubeClient::fromKubeconfig(m_cluster->kubeconfigPath(), QStringLiteral("admin"));
        QVERIFY2(kube, qPrintable(kube ? QString() : kube.error().toString()));
        SelfServiceOptions o;
        const QString url = m_db;
        o.openStore = [url] { return UsageStore::open(url); };
        o.kube = *kube;
        o.boostRequestGroups = QStringList{QStringLiteral("gpu-requesters")};
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

    void requestThenApprove() {
        const double before = limitOf("alice");
        QCOMPARE(before, 8.0);
        CliRun run;
        const qint64 id =
            request("tok-alice",
                    {QStringLiteral("--add-hours"), QStringLiteral("4"), QStringLiteral("--for"),
                     QStringLiteral("6h"), QStringLiteral("--note"), QStringLiteral("paper deadline")},
                    &run);
        QVERIFY2(id > 0, qPrintable(run.err + run.out));
        const QJsonArray pending = listed({QStringLiteral("--pending")});
        QCOMPARE(pending.size(), 1);
        const QJsonObject r = pending.first().toObject();
        QCOMPARE(r.value(QLatin1String("requester")).toString(), QStringLiteral("alice"));
        QCOMPARE(r.value(QLatin1String("budget")).toString(), QStringLiteral("user:alice"));
        QCOMPARE(r.value(QLatin1String("hours")).toDouble(), 4.0);
        QCOMPARE(r.value(QLatin1String("usage")).toString(), QStringLiteral("0.0 of 8.0 GPU-h (day)"));
        // Nobody approves their own request; the limit stays.
        CliRun self = gq({QStringLiteral("boost"), QStringLiteral("approve"), QString::number(id),
                          QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("alice"),
                          QStringLiteral("--note"), QStringLiteral("I approve myself")});
        QCOMPARE(self.code, 1);
        QVERIFY2(self.err.contains(QStringLiteral("may not decide their own request")), qPrintable(self.err));
        QCOMPARE(limitOf("alice"), 8.0);
        // The admin approves with 3 instead of 4 hours.
        CliRun ok = gq({QStringLiteral("boost"), QStringLiteral("approve"), QString::number(id),
                        QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("admin"),
                        QStringLiteral("--add-hours"), QStringLiteral("3"), QStringLiteral("--note"),
                        QStringLiteral("three is enough")});
        QVERIFY2(ok.code == 0, qPrintable(ok.err));
        QCOMPARE(limitOf("alice"), 11.0);
        const QJsonObject decided = listed().first().toObject();
        QCOMPARE(decided.value(QLatin1String("state")).toString(), QStringLiteral("approved"));
        QCOMPARE(decided.value(QLatin1String("decided_by")).toString(), QStringLiteral("admin"));
        QCOMPARE(decided.value(QLatin1String("hours")).toDouble(), 3.0);
        QVERIFY(decided.value(QLatin1String("boost_id")).toInteger() > 0);
        // The boost is one of `boost list`, granted by the admin with their note.
        CliRun boosts = gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                            QStringLiteral("-o"), QStringLiteral("json")});
        const QJsonObject boost = QJsonDocument::fromJson(boosts.out.toUtf8())
                                      .object()
                                      .value(QLatin1String("boosts"))
                                      .toArray()
                                      .first()
                                      .toObject();
        QCOMPARE(boost.value(QLatin1String("id")).toInteger(),
                 decided.value(QLatin1String("boost_id")).toInteger());
        QCOMPARE(boost.value(QLatin1String("actor")).toString(), QStringLiteral("admin"));
        QCOMPARE(boost.value(QLatin1String("state")).toString(), QStringLiteral("active"));
        QCOMPARE(boost.value(QLatin1String("note")).toString(), QStringLiteral("three is enough"));
        // A second decision is refused.
        CliRun again = gq({QStringLiteral("boost"), QStringLiteral("deny"), QString::number(id),
                           QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("admin"),
                           QStringLiteral("--note"), QStringLiteral("changed my mind")});
        QCOMPARE(again.code, 2);
        QVERIFY2(again.err.contains(QStringLiteral("already approved")), qPrintable(again.err));
        // The requester sees the decision with their own token.
        CliRun mine = gq({QStringLiteral("boost"), QStringLiteral("requests"), QStringLiteral("--server"),
                          m_base, QStringLiteral("--token-file"), tokenFile("tok-alice")});
        QVERIFY2(mine.code == 0, qPrintable(mine.err));
        QVERIFY2(mine.out.contains(QStringLiteral("approved")) &&
                     mine.out.contains(QStringLiteral("three is enough")),
                 qPrintable(mine.out));
    }

    void denyWithReason() {
        const qint64 id = request("tok-dave", {QStringLiteral("--add-hours"), QStringLiteral("100"),
                                               QStringLiteral("--for"), QStringLiteral("2d"),
                                               QStringLiteral("--note"), QStringLiteral("a very big sweep")});
        QVERIFY2(id > 0, "dave is in the configured group");
        CliRun no = gq({QStringLiteral("boost"), QStringLiteral("deny"), QString::number(id),
                        QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("admin"),
                        QStringLiteral("--note"), QStringLiteral("too much for one week")});
        QVERIFY2(no.code == 0, qPrintable(no.err));
        QCOMPARE(limitOf("dave"), 8.0);
        CliRun table =
            gq({QStringLiteral("boost"), QStringLiteral("requests"), QStringLiteral("--db"), m_db});
        QVERIFY2(table.out.contains(QStringLiteral("denied")) &&
                     table.out.contains(QStringLiteral("admin: too much for one week")),
                 qPrintable(table.out));
        QVERIFY(listed({QStringLiteral("--pending")}).isEmpty());
    }

    // The page: the requester's requests with the admin's decision, and the form that
    // asks (same origin only, 303 back to the page); in headless Chromium in both languages.
    void pageFormAndDecision_data() {
        QTest::addColumn<QByteArray>("language");
        QTest::addColumn<QStringList>("texts");
        QTest::newRow("en") << QByteArray("en")
                            << QStringList{
                                   QStringLiteral("Ask for more GPU-hours"), QStringLiteral("approved"),
                                   QStringLiteral("admin: three is enough"), QStringLiteral("Send request")};
        QTest::newRow("zh_CN") << QByteArray("zh-CN")
                               << QStringList{QStringLiteral("申请更多 GPU 时长"), QStringLiteral("已批准"),
                                              QStringLiteral("admin：three is enough"),
                                              QStringLiteral("提交申请")};
    }
    void pageFormAndDecision() {
        QFETCH(QByteArray, language);
        QFETCH(QStringList, texts);
        const Reply page = send(HttpMethod::Get, QStringLiteral("/quota"), "tok-alice", {},
                                {qMakePair(QByteArray("Accept-Language"), language)});
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("action=\"/quota/boost-requests/form\""));
        const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        if (chromium.isEmpty())
            QFAIL("chromium is not installed (scripts/install-deps.sh installs it)");
        QTemporaryDir dir;
        const QString html = dir.filePath(QStringLiteral("quota.html"));
        QFile f(html);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(page.body);
        f.close();
        const QStringList common{
            QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
            QStringLiteral("--user-data-dir=") + dir.filePath(QStringLiteral("profile"))};
        const CliRun dom =
            runCli(chromium,
                   common + QStringList{QStringLiteral("--dump-dom"), QUrl::fromLocalFile(html).toString()},
                   {}, 120000);
        QCOMPARE(dom.code, 0);
        for (const QString &t : texts)
            QVERIFY2(dom.out.contains(t), qPrintable(t));
        QVERIFY(dom.out.contains(QStringLiteral("<textarea name=\"note\"")));
        const QString shot = QStringLiteral("selfservice-request-%1.png").arg(QString::fromLatin1(language));
        const CliRun s = runCli(chromium,
                                common + QStringList{QStringLiteral("--screenshot=") + dir.filePath(shot),
                                                     QStringLiteral("--window-size=800,1400"),
                                                     QUrl::fromLocalFile(html).toString()},
                                {}, 120000);
        QCOMPARE(s.code, 0);
        QVERIFY(!QImage(dir.filePath(shot)).isNull());
        if (const QString out = qEnvironmentVariable("GQ_SCREENSHOT_DIR"); !out.isEmpty()) {
            QFile::remove(QDir(out).filePath(shot));
            QVERIFY(QFile::copy(dir.filePath(shot), QDir(out).filePath(shot)));
        }
    }

    void formPostsSameOriginOnly() {
        const QByteArray form = "hours=1.5&for=6h&note=final+ablation+runs";
        const QByteArray host = QUrl(m_base).authority().toUtf8();
        const Reply foreign =
            send(HttpMethod::Post, QStringLiteral("/quota/boost-requests/form"), "tok-alice", form,
                 {qMakePair(QByteArray("Sec-Fetch-Site"), QByteArray("cross-site")),
                  qMakePair(QByteArray("Origin"), QByteArray("https://evil.example"))});
        QCOMPARE(foreign.status, 403);
        const Reply sent =
            send(HttpMethod::Post, QStringLiteral("/quota/boost-requests/form"), "tok-alice", form,
                 {qMakePair(QByteArray("Origin"), QByteArray(QByteArray("http://") + host))});
        QCOMPARE(sent.status, 303);
        QVERIFY2(sent.location.startsWith("/quota?requested="), sent.location.constData());
        const qint64 id = sent.location.mid(sent.location.indexOf('=') + 1).toLongLong();
        const QJsonObject r = listed({QStringLiteral("--pending")}).first().toObject();
        QCOMPARE(r.value(QLatin1String("id")).toInteger(), id);
        QCOMPARE(r.value(QLatin1String("hours")).toDouble(), 1.5);
        QCOMPARE(r.value(QLatin1String("note")).toString(), QStringLiteral("final ablation runs"));
        // A bad note comes back to the page as the reason.
        const Reply bad = send(HttpMethod::Post, QStringLiteral("/quota/boost-requests/form"), "tok-alice",
                               "hours=1&for=2h&note=short",
                               {qMakePair(QByteArray("Sec-Fetch-Site"), QByteArray("same-origin"))});
        QCOMPARE(bad.status, 303);
        QVERIFY2(bad.location.contains("request_error="), bad.location.constData());
        const Reply page = send(HttpMethod::Get, QString::fromUtf8(bad.location), "tok-alice");
        QVERIFY2(page.body.contains("The request was not sent: note:"),
                 QByteArray(bad.location + "\n" + QByteArray::number(page.status) + page.body.right(1500))
                     .constData());
        QVERIFY(gq({QStringLiteral("boost"), QStringLiteral("deny"), QString::number(id),
                    QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("admin"),
                    QStringLiteral("--note"), QStringLiteral("not this week, sorry")})
                    .code == 0);
    }

    void onlyAllowedUsersAsk() {
        CliRun run;
        QCOMPARE(request("tok-bob",
                         {QStringLiteral("--add-hours"), QStringLiteral("1"), QStringLiteral("--for"),
                          QStringLiteral("1h"), QStringLiteral("--note"), QStringLiteral("please please")},
                         &run),
                 qint64(0));
        QCOMPARE(run.code, 1);
        QVERIFY2(run.err.contains(QStringLiteral("403")) && run.err.contains(QStringLiteral("boostrequests")),
                 qPrintable(run.err));
        // Someone else's budget needs the right to see it.
        QCOMPARE(request("tok-alice",
                         {QStringLiteral("--budget"), QStringLiteral("user:bob"),
                          QStringLiteral("--add-hours"), QStringLiteral("1"), QStringLiteral("--for"),
                          QStringLiteral("1h"), QStringLiteral("--note"), QStringLiteral("for my colleague")},
                         &run),
                 qint64(0));
        QVERIFY2(run.err.contains(QStringLiteral("403")), qPrintable(run.err));
        // The note rule of grants, checked before anything is sent.
        QCOMPARE(request("tok-alice",
                         {QStringLiteral("--add-hours"), QStringLiteral("1"), QStringLiteral("--for"),
                          QStringLiteral("1h"), QStringLiteral("--note"), QStringLiteral("x")},
                         &run),
                 qint64(0));
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(QStringLiteral("--note")), qPrintable(run.err));
        QCOMPARE(request("nobody-token",
                         {QStringLiteral("--add-hours"), QStringLiteral("1"), QStringLiteral("--for"),
                          QStringLiteral("1h"), QStringLiteral("--note"), QStringLiteral("who am I really")},
                         &run),
                 qint64(0));
        QVERIFY2(run.err.contains(QStringLiteral("401")), qPrintable(run.err));
    }

    void withdrawAndExpire() {
        const qint64 a = request("tok-alice", {QStringLiteral("--add-hours"), QStringLiteral("2"),
                                               QStringLiteral("--for"), QStringLiteral("1h"),
                                               QStringLiteral("--note"), QStringLiteral("short eval run")});
        const qint64 b = request("tok-alice", {QStringLiteral("--add-hours"), QStringLiteral("2"),
                                               QStringLiteral("--for"), QStringLiteral("1h"),
                                               QStringLiteral("--note"), QStringLiteral("another eval run")});
        QVERIFY(a > 0 && b > 0);
        // Only the requester withdraws.
        CliRun other =
            gq({QStringLiteral("boost"), QStringLiteral("withdraw"), QString::number(a),
                QStringLiteral("--server"), m_base, QStringLiteral("--token-file"), tokenFile("tok-dave"),
                QStringLiteral("--note"), QStringLiteral("not yours to withdraw")});
        QVERIFY2(other.code == 1 && other.err.contains(QStringLiteral("403")), qPrintable(other.err));
        CliRun mine =
            gq({QStringLiteral("boost"), QStringLiteral("withdraw"), QString::number(a),
                QStringLiteral("--server"), m_base, QStringLiteral("--token-file"), tokenFile("tok-alice"),
                QStringLiteral("--note"), QStringLiteral("done without it")});
        QVERIFY2(mine.code == 0, qPrintable(mine.err));
        // Pending first; two hours later the other one has expired by itself.
        QCOMPARE(listed().first().toObject().value(QLatin1String("id")).toInteger(), b);
        const QString later = formatInstantUtc(QDateTime::currentSecsSinceEpoch() + 7200);
        const QJsonArray after = listed({QStringLiteral("--now"), later});
        QStringList states;
        for (const QJsonValue &v : after)
            if (v.toObject().value(QLatin1String("id")).toInteger() == a ||
                v.toObject().value(QLatin1String("id")).toInteger() == b)
                states << v.toObject().value(QLatin1String("state")).toString();
        QCOMPARE(states, (QStringList{QStringLiteral("expired"), QStringLiteral("withdrawn")}));
        CliRun late = gq({QStringLiteral("boost"), QStringLiteral("approve"), QString::number(b),
                          QStringLiteral("--db"), m_db, QStringLiteral("--actor"), QStringLiteral("admin"),
                          QStringLiteral("--note"), QStringLiteral("too late now")});
        QCOMPARE(late.code, 2);
    }

    void auditedInOneChain() {
        CliRun audit = gq({QStringLiteral("audit"), QStringLiteral("list"), QStringLiteral("--db"), m_db,
                           QStringLiteral("-o"), QStringLiteral("json")});
        QVERIFY2(audit.code == 0, qPrintable(audit.err));
        for (const char *action : {"boost.request", "boost.request.approve", "boost.request.deny",
                                   "boost.request.withdraw", "boost.request.expire", "boost.grant"})
            QVERIFY2(audit.out.contains(QStringLiteral("\"%1\"").arg(QLatin1String(action))), action);
        CliRun verify = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_db});
        QVERIFY2(verify.code == 0, qPrintable(verify.err + verify.out));
    }
};

QTEST_GUILESS_MAIN(TestCliBoostRequests)
#include "tst_cli_boostrequests.moc"
