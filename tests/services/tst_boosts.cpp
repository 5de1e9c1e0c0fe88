// Boosts end to end: the built `gpuquota` (boost grant|list|revoke|extend, reconcile,
// audit) against the real test cluster, the real kubectl and the usage database of the
// build (SQLite, or PostgreSQL from GQ_TEST_PG_URL). Times are pinned with --now.
#include "tests/services/boostfixture.h"

#include <QSysInfo>

#include <csignal>

using namespace gq;
using namespace gq::test;

namespace {
const QString kGpu = kBoostGpu;
} // namespace

class TestBoosts : public QObject, private BoostFixture {
    Q_OBJECT

public:
    TestBoosts()
        : BoostFixture("gq_boosts") {}

private Q_SLOTS:
    void initTestCase() { startFixture(); }
    void cleanupTestCase() { stopFixture(); }
    void init() { freshDatabase(); }
    void cleanup() { dropDatabases(); }

    // The story: +4 on 12, kubectl raises it to 20 meanwhile, expiry gives 16.
    void expiryTakesBackOnlyTheDelta() {
        const QString ns = makeNamespace(12);
        const qint64 id = grant(
            ns,
            {QStringLiteral("--add"), QStringLiteral("+4"), QStringLiteral("--for"), QStringLiteral("2h")},
            at("2026-06-01T10:00:00Z"));
        QVERIFY(id > 0);
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(annotation(ns).size(), 1);
        QCOMPARE(annotation(ns).at(0).toObject().value(QLatin1String("id")).toInteger(), id);
        QCOMPARE(annotation(ns).at(0).toObject().value(QLatin1String("expires")).toString(),
                 QStringLiteral("2026-06-01T12:00:00Z"));
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("active"));
        kubectlSetGpus(ns, QStringLiteral("20"));

        ToolRun early = reconcile(at("2026-06-01T11:59:59Z"));
        QCOMPARE(early.exitCode, 0);
        QCOMPARE(early.out, QByteArray());
        ToolRun r = reconcile(at("2026-06-01T12:00:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QString::fromUtf8(r.out).trimmed(),
                 QStringLiteral("boost %1 %2/gpu-quota requests.nvidia.com/gpu: active -> expired (20 -> 16)")
                     .arg(id)
                     .arg(ns));
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(annotation(ns).size(), 0);
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("expired"));
        // Running it again changes nothing.
        r = reconcile(at("2026-06-01T13:00:00Z"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(auditActions(), (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                                              QStringLiteral("boost.expire")}));
    }

    // --set is a delta against the value at grant time, recorded as both.
    void grantBySetRecordsBoth() {
        const QString ns = makeNamespace(12);
        const qint64 id = grant(ns,
                                {QStringLiteral("--set"), QStringLiteral("20"), QStringLiteral("--until"),
                                 QStringLiteral("2026-06-02T00:00:00Z")},
                                at("2026-06-01T10:00:00Z"));
        QVERIFY(id > 0);
        const QJsonObject b = boost(id);
        QCOMPARE(b.value(QLatin1String("delta")).toString(), QStringLiteral("8"));
        QCOMPARE(b.value(QLatin1String("set")).toString(), QStringLiteral("20"));
        QCOMPARE(b.value(QLatin1String("base")).toString(), QStringLiteral("12"));
        QCOMPARE(gpus(ns), QStringLiteral("20"));
        // Revoked early: taken back at once, ends as revoked.
        const ToolRun r = gq({QStringLiteral("boost"), QStringLiteral("revoke"), QString::number(id),
                              QStringLiteral("--db"), m_db, QStringLiteral("--note"),
                              QStringLiteral("deadline moved to next month"), QStringLiteral("--now"),
                              at("2026-06-01T11:00:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(gpus(ns), QStringLiteral("12"));
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("revoked"));
        QCOMPARE(auditActions(),
                 (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                              QStringLiteral("boost.revoke"), QStringLiteral("boost.revert")}));
    }

    // Issue 31 item 16: a boost revoked before it started ends at its revocation in
    // `boost list` (table and JSON), not at the end it was granted with.
    void revokedBoostListsItsRevocationAsItsEnd() {
        const QString ns = makeNamespace(12);
        const qint64 id = grantElevenToNoon(ns);
        QVERIFY(id > 0);
        const ToolRun r =
            gq({QStringLiteral("boost"), QStringLiteral("revoke"), QString::number(id),
                QStringLiteral("--db"), m_db, QStringLiteral("--note"),
                QStringLiteral("not needed after all"), QStringLiteral("--now"), at("2026-06-01T10:30:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject b = boost(id);
        QCOMPARE(b.value(QLatin1String("state")).toString(), QStringLiteral("revoked"));
        QCOMPARE(b.value(QLatin1String("until")).toString(), QStringLiteral("2026-06-01T10:30:00Z"));
        const ToolRun table =
            gq({QStringLiteral("boost"), QStringLiteral("list"), QStringLiteral("--db"), m_db});
        QVERIFY2(table.out.contains("2026-06-01T10:30:00Z"), table.out.constData());
        QVERIFY2(!table.out.contains("2026-06-01T12:00:00Z"), table.out.constData());
    }

    void overlappingBoostsExpireInEitherOrder_data() {
        QTest::addColumn<QString>("firstFor");
        QTest::addColumn<QString>("secondFor");
        QTest::newRow("first ends first") << QStringLiteral("1h") << QStringLiteral("2h");
        QTest::newRow("second ends first") << QStringLiteral("2h") << QStringLiteral("1h");
    }
    void overlappingBoostsExpireInEitherOrder() {
        QFETCH(QString, firstFor);
        QFETCH(QString, secondFor);
        const QString ns = makeNamespace(10);
        const QString t0 = at("2026-06-01T10:00:00Z");
        const qint64 a =
            grant(ns, {QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"), firstFor}, t0);
        const qint64 b =
            grant(ns, {QStringLiteral("--add"), QStringLiteral("2"), QStringLiteral("--for"), secondFor}, t0);
        QVERIFY(a > 0 && b > 0);
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(annotation(ns).size(), 2);
        const bool aFirst = firstFor == QLatin1String("1h");
        ToolRun r = reconcile(at("2026-06-01T11:00:00Z"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QString::fromUtf8(r.out).startsWith(QStringLiteral("boost %1 ").arg(aFirst ? a : b)),
                 r.out.constData());
        QCOMPARE(gpus(ns), aFirst ? QStringLiteral("12") : QStringLiteral("14"));
        QCOMPARE(annotation(ns).size(), 1);
        QCOMPARE(annotation(ns).at(0).toObject().value(QLatin1String("id")).toInteger(), aFirst ? b : a);
        r = reconcile(at("2026-06-01T12:00:00Z"));
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(gpus(ns), QStringLiteral("10"));
        QCOMPARE(annotation(ns).size(), 0);
    }

    // Nights 20:00-08:00 Europe/Berlin from Friday 27 March 2026; summer time starts on
    // the Sunday at 02:00, so the second night ends at 06:00Z, not 07:00Z.
    void recurringNightsAcrossDst() {
        const QString ns = makeNamespace(8);
        const qint64 id =
            grant(ns,
                  {QStringLiteral("--add"), QStringLiteral("8"), QStringLiteral("--recur"),
                   QStringLiteral("nightly"), QStringLiteral("--window"), QStringLiteral("20:00-08:00"),
                   QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--recur-until"),
                   at("2026-03-30T12:00:00Z")},
                  at("2026-03-27T12:00:00Z"));
        QVERIFY(id > 0);
        QCOMPARE(gpus(ns), QStringLiteral("8")); // scheduled: the cluster is untouched
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("scheduled"));
        struct Night {
            const char *start, *end;
        };
        const Night nights[] = {{"2026-03-27T19:00:00Z", "2026-03-28T07:00:00Z"},
                                {"2026-03-28T19:00:00Z", "2026-03-29T06:00:00Z"},
                                {"2026-03-29T18:00:00Z", "2026-03-30T06:00:00Z"}};
        for (const Night &n : nights) {
            const QJsonObject b = boost(id);
            QCOMPARE(b.value(QLatin1String("start")).toString(), QString::fromLatin1(n.start));
            QCOMPARE(b.value(QLatin1String("until")).toString(), QString::fromLatin1(n.end));
            const qint64 s =
                QDateTime::fromString(QString::fromLatin1(n.start), Qt::ISODate).toSecsSinceEpoch();
            const qint64 e =
                QDateTime::fromString(QString::fromLatin1(n.end), Qt::ISODate).toSecsSinceEpoch();
            const auto iso = [](qint64 t) {
                return QDateTime::fromSecsSinceEpoch(t, Qt::UTC).toString(Qt::ISODate);
            };
            QCOMPARE(reconcile(iso(s - 60)).out, QByteArray()); // not yet
            ToolRun r = reconcile(iso(s));
            QVERIFY2(r.out.contains("scheduled -> active (8 -> 16)"), r.out.constData());
            QCOMPARE(gpus(ns), QStringLiteral("16"));
            QCOMPARE(reconcile(iso(e - 1)).out, QByteArray());
            QCOMPARE(gpus(ns), QStringLiteral("16"));
            r = reconcile(iso(e));
            QVERIFY2(r.out.contains("active -> "), r.out.constData());
            QCOMPARE(gpus(ns), QStringLiteral("8"));
        }
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("expired"));
        QCOMPARE(auditActions().count(QStringLiteral("boost.apply")), 3);
        QCOMPARE(auditActions().count(QStringLiteral("boost.expire")), 3);
    }

    // SIGKILL after the claim is recorded and before the quota is patched (the quota
    // read is held back by the test cluster): the next reconcile completes it once.
    void crashBetweenRecordAndPatch() {
        const QString ns = makeNamespace(12);
        const qint64 id = grantElevenToNoon(ns);
        QVERIFY(id > 0);
        QVERIFY(m_cluster->setFaults(quotaFaults(ns, QStringLiteral("latencyMs"), 4000)));
        QProcess p;
        p.start(binary(), withCluster({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                                       QStringLiteral("--now"), at("2026-06-01T11:30:00Z")}));
        QVERIFY(p.waitForStarted());
        QTRY_COMPARE_WITH_TIMEOUT(stateInDb(id), QStringLiteral("applying"), 20000);
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished());
        QCOMPARE(gpus(ns), QStringLiteral("12"));
        QVERIFY(m_cluster->clearFaults());
        QCOMPARE(stateInDb(id), QStringLiteral("applying"));
        ToolRun r = reconcile(at("2026-06-01T11:31:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("applying -> active"), r.out.constData());
        r = reconcile(at("2026-06-01T11:32:00Z"));
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(auditActions().count(QStringLiteral("boost.apply")), 1);
        r = reconcile(at("2026-06-01T12:00:00Z"));
        QCOMPARE(gpus(ns), QStringLiteral("12"));
    }

    // The other crash: the patch reached the server, the process died before recording
    // it. The annotation on the quota proves the boost is applied: completed, not re-applied.
    void crashBetweenPatchAndRecord() {
        const QString ns = makeNamespace(12);
        const qint64 id = grantElevenToNoon(ns);
        QVERIFY(id > 0);
        {
            // What the dead run left: its claim, and the patched quota.
            auto store = UsageStore::open(m_db);
            QVERIFY(store);
            QSqlQuery q((*store)->database());
            QVERIFY(
                q.exec(QStringLiteral("UPDATE boosts SET state = 'applying', claim_owner = '%1:%2:deadbeef', "
                                      "claim_until_s = %3 WHERE id = %4")
                           .arg(QSysInfo::machineHostName())
                           .arg(4194304 + 1) // above pid_max: no such process
                           .arg(QDateTime::currentSecsSinceEpoch() + 3600)
                           .arg(id)));
        }
        kubectlSetGpus(ns, QStringLiteral("16"));
        const ToolRun k =
            kubectl({QStringLiteral("annotate"), QStringLiteral("resourcequota"), QStringLiteral("gpu-quota"),
                     QStringLiteral("-n"), ns,
                     QStringLiteral("gpuquota.io/boosts=[{\"id\":%1,\"resource\":\"requests.nvidia.com/"
                                    "gpu\",\"delta\":\"4\",\"expires\":\"2026-06-01T12:00:00Z\"}]")
                         .arg(id)});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        ToolRun r = reconcile(at("2026-06-01T11:05:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("applying -> active (12 -> 16)"), r.out.constData());
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        r = reconcile(at("2026-06-01T12:00:00Z"));
        QCOMPARE(gpus(ns), QStringLiteral("12"));
        QCOMPARE(auditActions().count(QStringLiteral("boost.apply")), 1);
    }

    // Two reconciles started together over the same due boosts: each applied once.
    void twoReconcilesAtOnce() {
        const QString ns = makeNamespace(10);
        QList<qint64> ids;
        for (int i = 0; i < 4; ++i)
            ids << grantElevenToNoon(ns, QStringLiteral("1"));
        QVERIFY(!ids.contains(0));
        QVERIFY(m_cluster->setFaults(QJsonObject{{QStringLiteral("latencyMs"), 150}}));
        QProcess p1, p2;
        const QStringList args = withCluster({QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                                              QStringLiteral("--now"), at("2026-06-01T11:10:00Z")});
        p1.start(binary(), args);
        p2.start(binary(), args);
        QVERIFY(p1.waitForFinished(60000) && p2.waitForFinished(60000));
        QVERIFY(m_cluster->clearFaults());
        const QString lines = QString::fromUtf8(p1.readAllStandardOutput() + p2.readAllStandardOutput());
        QCOMPARE(p1.exitCode(), 0);
        QCOMPARE(p2.exitCode(), 0);
        for (qint64 id : ids)
            QVERIFY2(lines.count(QStringLiteral("boost %1 ").arg(id)) == 1, qPrintable(lines));
        QCOMPARE(gpus(ns), QStringLiteral("14"));
        QCOMPARE(annotation(ns).size(), 4);
        QCOMPARE(auditActions().count(QStringLiteral("boost.apply")), 4);
    }

    // The server fails: the boost is failed with the reason and a retry time (30 s,
    // then doubling); reconcile exits 1 then, and the retry after the wait applies it.
    void failureIsRetriedWithBackoff() {
        const QString ns = makeNamespace(12);
        const qint64 id = grantElevenToNoon(ns);
        QVERIFY(id > 0);
        QVERIFY(m_cluster->setFaults(quotaFaults(ns, QStringLiteral("errorRate"), 1.0)));
        ToolRun r = reconcile(at("2026-06-01T11:00:00Z"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("scheduled -> failed") && r.out.contains("retry at 2026-06-01T11:00:30Z"),
                 r.out.constData());
        QJsonObject b = boost(id);
        QCOMPARE(b.value(QLatin1String("state")).toString(), QStringLiteral("failed"));
        QVERIFY(!b.value(QLatin1String("reason")).toString().isEmpty());
        QCOMPARE(b.value(QLatin1String("nextRetry")).toString(), QStringLiteral("2026-06-01T11:00:30Z"));
        r = reconcile(at("2026-06-01T11:00:30Z"));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains("failed -> failed") && r.out.contains("retry at 2026-06-01T11:01:30Z"),
                 r.out.constData());
        QCOMPARE(reconcile(at("2026-06-01T11:01:00Z")).out, QByteArray()); // not due yet
        QVERIFY(m_cluster->clearFaults());
        r = reconcile(at("2026-06-01T11:01:30Z"));
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QVERIFY2(r.out.contains("failed -> active (12 -> 16)"), r.out.constData());
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(auditActions().count(QStringLiteral("boost.fail")), 2);
    }

    // A budget boost needs no cluster: extra GPU-hours while it lasts, extended, expired.
    void budgetBoostLifecycle() {
        ToolRun r =
            gq({QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                QStringLiteral("--budget"), QStringLiteral("user:alice"), QStringLiteral("--add-hours"),
                QStringLiteral("5"), QStringLiteral("--for"), QStringLiteral("1h"), QStringLiteral("--note"),
                QStringLiteral("extra hours for the rerun"), QStringLiteral("--now"),
                at("2026-06-01T10:00:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const qint64 id = QString::fromUtf8(r.out).trimmed().toLongLong();
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("active"));
        r = gq({QStringLiteral("boost"), QStringLiteral("extend"), QString::number(id),
                QStringLiteral("--db"), m_db, QStringLiteral("--for"), QStringLiteral("1h"),
                QStringLiteral("--note"), QStringLiteral("rerun takes longer"), QStringLiteral("--now"),
                at("2026-06-01T10:30:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(boost(id).value(QLatin1String("until")).toString(), QStringLiteral("2026-06-01T12:00:00Z"));
        QCOMPARE(reconcile(at("2026-06-01T11:30:00Z")).out, QByteArray());
        r = reconcile(at("2026-06-01T12:00:00Z"));
        QVERIFY2(r.out.contains("budget user alice: active -> expired"), r.out.constData());
        QCOMPARE(auditActions(),
                 (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                              QStringLiteral("boost.extend"), QStringLiteral("boost.expire")}));
    }

    // Boost events are in the hash chain: an edited row and a deleted one both show.
    void tamperedBoostAuditIsDetected_data() {
        QTest::addColumn<bool>("deleteRow");
        QTest::newRow("modified") << false;
        QTest::newRow("deleted") << true;
    }
    void tamperedBoostAuditIsDetected() {
        QFETCH(bool, deleteRow);
        const QString ns = makeNamespace(12);
        QVERIFY(grant(ns,
                      {QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"),
                       QStringLiteral("1h")},
                      at("2026-06-01T10:00:00Z")) > 0);
        QCOMPARE(reconcile(at("2026-06-01T11:00:00Z")).exitCode, 0);
        ToolRun v = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_db});
        QVERIFY2(v.exitCode == 0, v.out.constData());
        {
            auto store = UsageStore::open(m_db);
            QVERIFY(store);
            QVERIFY(test::unguardAuditLog((*store)->database()));
            QSqlQuery q((*store)->database());
            QVERIFY(q.exec(deleteRow
                               ? QStringLiteral("DELETE FROM audit_log WHERE seq = 2")
                               : QStringLiteral("UPDATE audit_log SET after_text = '99' WHERE seq = 2")));
        }
        v = gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_db});
        QCOMPARE(v.exitCode, 1);
        QVERIFY2(v.out.contains(deleteRow ? "first missing entry: 2" : "first broken entry: 2"),
                 v.out.constData());
    }

    void badInputExitsTwoAndRecordsNothing_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("flag");
        const QStringList ok{QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"),
                             QStringLiteral("2h")};
        const QString note = QStringLiteral("--note");
        const QString good = QStringLiteral("paper deadline on Friday");
        auto grant = [](const QStringList &rest) {
            return QStringList{QStringLiteral("boost"), QStringLiteral("grant"),
                               QStringLiteral("--namespace"), QStringLiteral("NS")} +
                   rest;
        };
        const QString gpu = kGpu;
        QTest::newRow("no note") << grant(QStringList{QStringLiteral("--resource"), gpu} + ok)
                                 << QStringLiteral("--note");
        QTest::newRow("short note")
            << grant(QStringList{QStringLiteral("--resource"), gpu, note, QStringLiteral("too short")} + ok)
            << QStringLiteral("--note");
        QTest::newRow("blank note") << grant(QStringList{QStringLiteral("--resource"), gpu, note,
                                                         QStringLiteral("            ")} +
                                             ok)
                                    << QStringLiteral("--note");
        QTest::newRow("resource not in quota")
            << grant(QStringList{QStringLiteral("--resource"),
                                 QStringLiteral("requests.nvidia.com/mig-1g.10gb"), note, good} +
                     ok)
            << QStringLiteral("--resource");
        QTest::newRow("unknown quota")
            << grant(QStringList{QStringLiteral("--resource"), gpu, QStringLiteral("--quota"),
                                 QStringLiteral("nope"), note, good} +
                     ok)
            << QStringLiteral("--quota");
        QTest::newRow("several quotas") << QStringList{QStringLiteral("boost"),
                                                       QStringLiteral("grant"),
                                                       QStringLiteral("--namespace"),
                                                       QStringLiteral("NS2"),
                                                       QStringLiteral("--resource"),
                                                       gpu,
                                                       note,
                                                       good} +
                                               ok
                                        << QStringLiteral("--quota");
        QTest::newRow("negative result")
            << grant({QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--add"),
                      QStringLiteral("-20"), QStringLiteral("--for"), QStringLiteral("1h")})
            << QStringLiteral("--add");
        QTest::newRow("negative set")
            << grant({QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--set"),
                      QStringLiteral("-1"), QStringLiteral("--for"), QStringLiteral("1h")})
            << QStringLiteral("--set");
        QTest::newRow("not a quantity")
            << grant({QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--add"),
                      QStringLiteral("four"), QStringLiteral("--for"), QStringLiteral("1h")})
            << QStringLiteral("--add");
        QTest::newRow("add and set") << grant({QStringLiteral("--resource"), gpu, note, good,
                                               QStringLiteral("--add"), QStringLiteral("4"),
                                               QStringLiteral("--set"), QStringLiteral("16"),
                                               QStringLiteral("--for"), QStringLiteral("1h")})
                                     << QStringLiteral("--add");
        QTest::newRow("end before start")
            << grant({QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--add"),
                      QStringLiteral("4"), QStringLiteral("--start"), QStringLiteral("2026-06-01T14:00:00Z"),
                      QStringLiteral("--until"), QStringLiteral("2026-06-01T12:00:00Z")})
            << QStringLiteral("--until");
        QTest::newRow("no duration") << grant({QStringLiteral("--resource"), gpu, note, good,
                                               QStringLiteral("--add"), QStringLiteral("4")})
                                     << QStringLiteral("--for");
        QTest::newRow("bad duration")
            << grant({QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--add"),
                      QStringLiteral("4"), QStringLiteral("--for"), QStringLiteral("soon")})
            << QStringLiteral("--for");
        QTest::newRow("for and until")
            << grant(QStringList{QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--until"),
                                 QStringLiteral("2026-06-02T00:00:00Z")} +
                     ok)
            << QStringLiteral("--for");
        // A nightly boost: `recur`, `window` and `tz` (empty: no --tz) as given.
        auto recurring = [&](const QString &recur, const QString &window, const QString &tz,
                             const QString &recurUntil) {
            QStringList args{QStringLiteral("--resource"), gpu, note, good, QStringLiteral("--add"),
                             QStringLiteral("4")};
            args << QStringLiteral("--recur") << recur << QStringLiteral("--window") << window;
            if (!tz.isEmpty())
                args << QStringLiteral("--tz") << tz;
            return grant(args + QStringList{QStringLiteral("--recur-until"), recurUntil});
        };
        const QString nightly = QStringLiteral("nightly");
        const QString hours = QStringLiteral("20:00-08:00");
        const QString utc = QStringLiteral("UTC");
        const QString july = QStringLiteral("2026-07-01T00:00:00Z");
        QTest::newRow("bad window") << recurring(nightly, QStringLiteral("8pm-8am"), utc, july)
                                    << QStringLiteral("--window");
        QTest::newRow("bad recur") << recurring(QStringLiteral("hourly"), hours, utc, july)
                                   << QStringLiteral("--recur");
        QTest::newRow("bad zone") << recurring(nightly, hours, QStringLiteral("Mars/Olympus"), july)
                                  << QStringLiteral("--tz");
        QTest::newRow("recur until before start")
            << recurring(nightly, hours, utc, QStringLiteral("2026-05-01T00:00:00Z"))
            << QStringLiteral("--recur-until");
        // No silent UTC: a window of local hours needs its zone.
        QTest::newRow("recur without tz")
            << recurring(nightly, hours, QString(), july) << QStringLiteral("--tz");
        QTest::newRow("negative hours") << QStringList{QStringLiteral("boost"),
                                                       QStringLiteral("grant"),
                                                       QStringLiteral("--budget"),
                                                       QStringLiteral("user:alice"),
                                                       QStringLiteral("--add-hours"),
                                                       QStringLiteral("-3"),
                                                       QStringLiteral("--for"),
                                                       QStringLiteral("1h"),
                                                       note,
                                                       good}
                                        << QStringLiteral("--add-hours");
        QTest::newRow("bad budget") << QStringList{QStringLiteral("boost"),
                                                   QStringLiteral("grant"),
                                                   QStringLiteral("--budget"),
                                                   QStringLiteral("alice"),
                                                   QStringLiteral("--add-hours"),
                                                   QStringLiteral("3"),
                                                   QStringLiteral("--for"),
                                                   QStringLiteral("1h"),
                                                   note,
                                                   good}
                                    << QStringLiteral("--budget");
        QTest::newRow("revoke unknown id") << QStringList{QStringLiteral("boost"), QStringLiteral("revoke"),
                                                          QStringLiteral("999"), note, good}
                                           << QStringLiteral("ID");
        QTest::newRow("revoke short note") << QStringList{QStringLiteral("boost"), QStringLiteral("revoke"),
                                                          QStringLiteral("1"), note, QStringLiteral("oops")}
                                           << QStringLiteral("--note");
        QTest::newRow("extend unknown id") << QStringList{QStringLiteral("boost"),
                                                          QStringLiteral("extend"),
                                                          QStringLiteral("999"),
                                                          QStringLiteral("--for"),
                                                          QStringLiteral("1h"),
                                                          note,
                                                          good}
                                           << QStringLiteral("ID");
        QTest::newRow("extend no note")
            << QStringList{QStringLiteral("boost"), QStringLiteral("extend"), QStringLiteral("1"),
                           QStringLiteral("--for"), QStringLiteral("1h")}
            << QStringLiteral("--note");
        QTest::newRow("list bad state") << QStringList{QStringLiteral("boost"), QStringLiteral("list"),
                                                       QStringLiteral("--state"), QStringLiteral("sleeping")}
                                        << QStringLiteral("--state");
        QTest::newRow("reconcile bad now")
            << QStringList{QStringLiteral("reconcile"), QStringLiteral("--now"), QStringLiteral("tomorrow")}
            << QStringLiteral("--now");
    }
    void badInputExitsTwoAndRecordsNothing() {
        QFETCH(QStringList, args);
        QFETCH(QString, flag);
        const QString ns = makeNamespace(12);
        const QString ns2 = makeNamespace(12, QStringLiteral("second"));
        args.replaceInStrings(QRegularExpression(QStringLiteral("^NS$")), ns);
        args.replaceInStrings(QRegularExpression(QStringLiteral("^NS2$")), ns2);
        args << QStringLiteral("--db") << m_db;
        if (!args.contains(QStringLiteral("--now")) && args.at(0) == QLatin1String("boost"))
            args << QStringLiteral("--now") << at("2026-06-01T10:00:00Z");
        // One real boost first, so "nothing recorded" is measured against something.
        const qint64 id = grant(
            ns, {QStringLiteral("--add"), QStringLiteral("1"), QStringLiteral("--for"), QStringLiteral("1h")},
            at("2026-06-01T10:00:00Z"));
        QCOMPARE(id, 1);
        const QStringList auditBefore = auditActions();
        const ToolRun r = gq(args);
        QVERIFY2(r.exitCode == 2,
                 qPrintable(QStringLiteral("exit %1: %2").arg(r.exitCode).arg(QString::fromUtf8(r.err))));
        QVERIFY2(QString::fromUtf8(r.err).contains(flag), r.err.constData());
        QCOMPARE(boostCount(), 1);
        QCOMPARE(auditActions(), auditBefore);
        QCOMPARE(gpus(ns), QStringLiteral("13"));
        QCOMPARE(gpus(ns2), QStringLiteral("12"));
    }
};

QTEST_GUILESS_MAIN(TestBoosts)
#include "tst_boosts.moc"
