// Reconcile and the audit trail around boosts, end to end (the built `gpuquota`, the
// test cluster, kubectl, both usage databases): a recurring boost catches up after an
// outage in one run, an extend rewrites the quota's annotation, revoke and extend are
// recorded under the cluster's name for us, a cluster asked for and unusable stops
// `reconcile`, and every write we make publishes the audit log's head on the object.
#include "tests/services/boostfixture.h"

using namespace gq;
using namespace gq::test;

namespace {
const QString kHeadKey = QStringLiteral("gpuquota.io/audit-head");

QStringList nightly(const char *until) {
    return {QStringLiteral("--add"),   QStringLiteral("8"),        QStringLiteral("--recur"),
            QStringLiteral("nightly"), QStringLiteral("--window"), QStringLiteral("20:00-08:00"),
            QStringLiteral("--tz"),    QStringLiteral("UTC"),      QStringLiteral("--recur-until"),
            QString::fromLatin1(until)};
}
} // namespace

class TestBoostReconcile : public QObject, private BoostFixture {
    Q_OBJECT

public:
    TestBoostReconcile()
        : BoostFixture("gq_boostrec") {}

private:
    QString lines(const ToolRun &r) { return QString::fromUtf8(r.out).trimmed(); }
    // The environment of a run that has no kubeconfig at all.
    QProcessEnvironment noKubeconfig() const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("KUBECONFIG"));
        env.insert(QStringLiteral("HOME"), m_cluster->temporaryDir() + QStringLiteral("/no-home"));
        return env;
    }
    // Who the test cluster says we are.
    QString clusterUser() {
        const ToolRun r = gq({QStringLiteral("whoami"), QStringLiteral("-o"), QStringLiteral("json")});
        return QJsonDocument::fromJson(r.out)[u"status"][u"userInfo"][u"username"].toString();
    }
    QJsonObject auditEntry(const QString &action) {
        for (const QJsonValue &v : auditEntries())
            if (v.toObject().value(QLatin1String("action")).toString() == action)
                return v.toObject();
        return {};
    }
    // "COUNT:HASH" of the log's first `count` entries.
    QString headAt(int count) {
        const QJsonArray entries = auditEntries();
        if (count < 1 || count > entries.size())
            return QStringLiteral("(the log has %1 entries)").arg(entries.size());
        return QStringLiteral("%1:%2").arg(count).arg(
            entries.at(count - 1).toObject().value(QLatin1String("hash")).toString());
    }
    ToolRun verifyHead(const QString &head) {
        return gq({QStringLiteral("audit"), QStringLiteral("verify"), QStringLiteral("--db"), m_db,
                   QStringLiteral("--head"), head});
    }

private Q_SLOTS:
    void initTestCase() { startFixture(); }
    void cleanupTestCase() { stopFixture(); }
    void init() { freshDatabase(); }
    void cleanup() { dropDatabases(); }

    // Applied on the night of 1 June, then nine nights with no reconcile (the CronJob
    // was broken): one run inside the night of 11 June takes the old night back and
    // applies tonight's, with one audit entry for the missed windows, not nine.
    void activeNightlyCatchesUpAfterAnOutage() {
        const QString ns = makeNamespace(8);
        const qint64 id = grant(ns, nightly("2026-06-30T00:00:00Z"), at("2026-06-01T12:00:00Z"));
        QVERIFY(id > 0);
        ToolRun r = reconcile(at("2026-06-01T20:00:00Z"));
        QVERIFY2(r.out.contains("scheduled -> active (8 -> 16)"), r.out.constData());

        r = reconcile(at("2026-06-11T23:00:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString target =
            QStringLiteral("boost %1 %2/gpu-quota requests.nvidia.com/gpu").arg(id).arg(ns);
        QCOMPARE(lines(r), target +
                               QStringLiteral(": active -> scheduled (16 -> 8); 9 windows missed while no "
                                              "reconcile ran\n") +
                               target + QStringLiteral(": scheduled -> active (8 -> 16)"));
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        const QJsonObject b = boost(id);
        QCOMPARE(b.value(QLatin1String("state")).toString(), QStringLiteral("active"));
        QCOMPARE(b.value(QLatin1String("start")).toString(), QStringLiteral("2026-06-11T20:00:00Z"));
        QCOMPARE(b.value(QLatin1String("until")).toString(), QStringLiteral("2026-06-12T08:00:00Z"));
        QCOMPARE(annotation(ns).at(0).toObject().value(QLatin1String("expires")).toString(),
                 QStringLiteral("2026-06-12T08:00:00Z"));
        QCOMPARE(auditActions(),
                 (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                              QStringLiteral("boost.expire"), QStringLiteral("boost.apply")}));
        QVERIFY2(
            auditEntry(QStringLiteral("boost.expire"))
                .value(QLatin1String("note"))
                .toString()
                .contains(QStringLiteral("9 windows missed")),
            qPrintable(auditEntry(QStringLiteral("boost.expire")).value(QLatin1String("note")).toString()));
        // A second run changes nothing; the night ends on time.
        QCOMPARE(reconcile(at("2026-06-11T23:30:00Z")).out, QByteArray());
        r = reconcile(at("2026-06-12T08:00:00Z"));
        QCOMPARE(lines(r), target + QStringLiteral(": active -> scheduled (16 -> 8)"));
        QCOMPARE(gpus(ns), QStringLiteral("8"));
    }

    // Granted, never reconciled for nine nights: a run in the day schedules tonight's
    // window (the quota untouched), a run in a night applies it at once.
    void scheduledNightlyCatchesUp_data() {
        QTest::addColumn<QString>("now");
        QTest::addColumn<bool>("inWindow");
        QTest::newRow("in the day") << at("2026-06-10T12:00:00Z") << false;
        QTest::newRow("in the night") << at("2026-06-10T22:00:00Z") << true;
    }
    void scheduledNightlyCatchesUp() {
        QFETCH(QString, now);
        QFETCH(bool, inWindow);
        const QString ns = makeNamespace(8);
        const qint64 id = grant(ns, nightly("2026-06-30T00:00:00Z"), at("2026-06-01T12:00:00Z"));
        QVERIFY(id > 0);
        const ToolRun r = reconcile(now);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString target =
            QStringLiteral("boost %1 %2/gpu-quota requests.nvidia.com/gpu").arg(id).arg(ns);
        QString expected =
            target + QStringLiteral(": scheduled -> scheduled; 9 windows missed while no reconcile ran");
        if (inWindow)
            expected += QLatin1Char('\n') + target + QStringLiteral(": scheduled -> active (8 -> 16)");
        QCOMPARE(lines(r), expected);
        QCOMPARE(gpus(ns), inWindow ? QStringLiteral("16") : QStringLiteral("8"));
        const QJsonObject b = boost(id);
        QCOMPARE(b.value(QLatin1String("state")).toString(),
                 inWindow ? QStringLiteral("active") : QStringLiteral("scheduled"));
        QCOMPARE(b.value(QLatin1String("start")).toString(), QStringLiteral("2026-06-10T20:00:00Z"));
        QCOMPARE(auditActions().count(QStringLiteral("boost.expire")), 1);
        QCOMPARE(auditActions().count(QStringLiteral("boost.apply")), inWindow ? 1 : 0);
    }

    // The annotation lists the boost with its current end: extended by the CLI with the
    // cluster at hand, and, extended without one, fixed by the next reconcile.
    void extendRewritesTheAnnotation() {
        const QString ns = makeNamespace(12);
        const qint64 id = grant(
            ns, {QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"), QStringLiteral("2h")},
            at("2026-06-01T10:00:00Z"));
        QVERIFY(id > 0);
        auto expires = [&] {
            return annotation(ns).at(0).toObject().value(QLatin1String("expires")).toString();
        };
        QCOMPARE(expires(), QStringLiteral("2026-06-01T12:00:00Z"));
        const QStringList extend{QStringLiteral("boost"),
                                 QStringLiteral("extend"),
                                 QString::number(id),
                                 QStringLiteral("--db"),
                                 m_db,
                                 QStringLiteral("--for"),
                                 QStringLiteral("1h"),
                                 QStringLiteral("--note"),
                                 QStringLiteral("the rerun takes longer"),
                                 QStringLiteral("--now"),
                                 at("2026-06-01T11:00:00Z")};
        ToolRun r = gq(extend);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(
            r.err.contains("active -> active (until 2026-06-01T12:00:00Z -> until 2026-06-01T13:00:00Z)"),
            r.err.constData());
        QCOMPARE(expires(), QStringLiteral("2026-06-01T13:00:00Z"));
        QCOMPARE(gpus(ns), QStringLiteral("16"));
        QCOMPARE(reconcile(at("2026-06-01T11:30:00Z")).out, QByteArray()); // nothing left to do

        // No kubeconfig at hand: recorded, the annotation is behind until a reconcile.
        r = runTool(binary(), extend, 60000, noKubeconfig());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("the next `gpuquota reconcile` updates the quota"), r.err.constData());
        QCOMPARE(boost(id).value(QLatin1String("until")).toString(), QStringLiteral("2026-06-01T14:00:00Z"));
        QCOMPARE(expires(), QStringLiteral("2026-06-01T13:00:00Z"));
        r = reconcile(at("2026-06-01T11:31:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("(until 2026-06-01T13:00:00Z -> until 2026-06-01T14:00:00Z)"),
                 r.out.constData());
        QCOMPARE(expires(), QStringLiteral("2026-06-01T14:00:00Z"));
        QCOMPARE(reconcile(at("2026-06-01T11:32:00Z")).out, QByteArray());
        r = reconcile(at("2026-06-01T14:00:00Z"));
        QVERIFY2(r.out.contains("active -> expired (16 -> 12)"), r.out.constData());
        QCOMPARE(annotation(ns).size(), 0);
    }

    // Revoke and extend name who the cluster says we are, as grant and the cluster
    // step after them do, and the revoke entry says what changed.
    void revokeAndExtendNameTheClusterUser() {
        const QString user = clusterUser();
        QVERIFY(!user.isEmpty());
        const QString ns = makeNamespace(12);
        const qint64 id = grant(
            ns, {QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"), QStringLiteral("2h")},
            at("2026-06-01T10:00:00Z"));
        QVERIFY(id > 0);
        ToolRun r = gq({QStringLiteral("boost"), QStringLiteral("extend"), QString::number(id),
                        QStringLiteral("--db"), m_db, QStringLiteral("--until"), at("2026-06-01T15:00:00Z"),
                        QStringLiteral("--note"), QStringLiteral("the rerun takes longer"),
                        QStringLiteral("--now"), at("2026-06-01T10:30:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = gq({QStringLiteral("boost"), QStringLiteral("revoke"), QString::number(id),
                QStringLiteral("--db"), m_db, QStringLiteral("--note"),
                QStringLiteral("deadline moved to next month"), QStringLiteral("--now"),
                at("2026-06-01T11:00:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(gpus(ns), QStringLiteral("12"));
        QCOMPARE(auditActions(), (QStringList{QStringLiteral("boost.grant"), QStringLiteral("boost.apply"),
                                              QStringLiteral("boost.extend"), QStringLiteral("boost.revoke"),
                                              QStringLiteral("boost.revert")}));
        for (const QJsonValue &v : auditEntries())
            QVERIFY2(v.toObject().value(QLatin1String("actor")).toString() == user,
                     qPrintable(QString::fromUtf8(QJsonDocument(v.toObject()).toJson())));
        const QJsonObject extendEntry = auditEntry(QStringLiteral("boost.extend"));
        QCOMPARE(extendEntry.value(QLatin1String("before")).toString(),
                 QStringLiteral("boost %1: active until 2026-06-01T12:00:00Z").arg(id));
        QCOMPARE(extendEntry.value(QLatin1String("after")).toString(),
                 QStringLiteral("boost %1: active until 2026-06-01T15:00:00Z").arg(id));
        const QJsonObject revoke = auditEntry(QStringLiteral("boost.revoke"));
        QCOMPARE(revoke.value(QLatin1String("before")).toString(),
                 QStringLiteral("boost %1: active until 2026-06-01T15:00:00Z").arg(id));
        QVERIFY2(revoke.value(QLatin1String("after"))
                     .toString()
                     .startsWith(QStringLiteral("boost %1: revoked at 2026-06-01T11:00:00Z").arg(id)),
                 qPrintable(revoke.value(QLatin1String("after")).toString()));
        // --actor still wins.
        const qint64 other =
            grant(ns,
                  {QStringLiteral("--add"), QStringLiteral("1"), QStringLiteral("--for"),
                   QStringLiteral("2h"), QStringLiteral("--actor"), QStringLiteral("ops-bot")},
                  at("2026-06-01T12:00:00Z"));
        QVERIFY(other > 0);
        r = gq({QStringLiteral("boost"), QStringLiteral("revoke"), QString::number(other),
                QStringLiteral("--db"), m_db, QStringLiteral("--note"),
                QStringLiteral("not needed after all"), QStringLiteral("--actor"), QStringLiteral("ops-bot"),
                QStringLiteral("--now"), at("2026-06-01T12:30:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(auditEntry(QStringLiteral("boost.grant")).value(QLatin1String("actor")).toString(), user);
        const QJsonArray all = auditEntries();
        QCOMPARE(all.at(all.size() - 2).toObject().value(QLatin1String("action")).toString(),
                 QStringLiteral("boost.revoke"));
        QCOMPARE(all.at(all.size() - 2).toObject().value(QLatin1String("actor")).toString(),
                 QStringLiteral("ops-bot"));
        QCOMPARE(all.last().toObject().value(QLatin1String("actor")).toString(), QStringLiteral("ops-bot"));
    }

    // A cluster asked for explicitly that cannot be used stops `reconcile` before it
    // does anything: exit 2 naming --context for a context the file does not have, 1
    // for a kubeconfig that cannot be read or a server that cannot be reached.
    void reconcileRefusesAnUnusableCluster_data() {
        QTest::addColumn<QString>("which");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown context") << QStringLiteral("context") << 2 << QStringLiteral("--context");
        QTest::newRow("missing kubeconfig")
            << QStringLiteral("file") << 1 << QStringLiteral("no-such-kubeconfig");
        QTest::newRow("unreachable server")
            << QStringLiteral("server") << 1 << QStringLiteral("cannot reach");
    }
    void reconcileRefusesAnUnusableCluster() {
        QFETCH(QString, which);
        QFETCH(int, code);
        QFETCH(QString, says);
        // Something due, so "did nothing" is measured against work it could have done.
        ToolRun r = gq({QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                        QStringLiteral("--budget"), QStringLiteral("user:alice"),
                        QStringLiteral("--add-hours"), QStringLiteral("5"), QStringLiteral("--start"),
                        at("2026-06-01T11:00:00Z"), QStringLiteral("--for"), QStringLiteral("1h"),
                        QStringLiteral("--note"), QStringLiteral("extra hours for the rerun"),
                        QStringLiteral("--now"), at("2026-06-01T10:00:00Z")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const qint64 id = QString::fromUtf8(r.out).trimmed().toLongLong();
        QStringList cluster;
        if (which == QLatin1String("context")) {
            cluster = {QStringLiteral("--kubeconfig"), m_cluster->kubeconfigPath(),
                       QStringLiteral("--context"), QStringLiteral("nope")};
        } else if (which == QLatin1String("file")) {
            cluster = {QStringLiteral("--kubeconfig"),
                       m_cluster->temporaryDir() + QStringLiteral("/no-such-kubeconfig")};
        } else {
            const QString kc =
                writeFile(m_cluster->temporaryDir() + QStringLiteral("/closed.kubeconfig"),
                          "apiVersion: v1\nkind: Config\ncurrent-context: closed\n"
                          "clusters:\n- name: closed\n  cluster:\n    server: https://127.0.0.1:1\n"
                          "    insecure-skip-tls-verify: true\n"
                          "contexts:\n- name: closed\n  context:\n    cluster: closed\n    user: u\n"
                          "users:\n- name: u\n  user:\n    token: t0ken\n");
            cluster = {QStringLiteral("--kubeconfig"), kc};
        }
        r = runTool(binary(), cluster + QStringList{QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                                                    QStringLiteral("--now"), at("2026-06-01T11:30:00Z")});
        QCOMPARE(r.exitCode, code);
        QVERIFY2(QString::fromUtf8(r.err).contains(says), r.err.constData());
        QVERIFY2(r.err.contains("nothing was reconciled"), r.err.constData());
        QCOMPARE(r.out, QByteArray());
        QCOMPARE(boost(id).value(QLatin1String("state")).toString(), QStringLiteral("scheduled"));
    }

    // No cluster asked for and none configured: budget boosts are reconciled, a due
    // quota boost waits (not failed, no audit entry) and the run says so with exit 1.
    void reconcileWithoutAnyCluster() {
        const QString ns = makeNamespace(12);
        const qint64 quota = grantElevenToNoon(ns);
        QVERIFY(quota > 0);
        const QStringList reconcileArgs{QStringLiteral("reconcile"), QStringLiteral("--db"), m_db,
                                        QStringLiteral("--now"), at("2026-06-01T11:30:00Z")};
        ToolRun r = runTool(binary(),
                            {QStringLiteral("boost"), QStringLiteral("grant"), QStringLiteral("--db"), m_db,
                             QStringLiteral("--budget"), QStringLiteral("user:alice"),
                             QStringLiteral("--add-hours"), QStringLiteral("5"), QStringLiteral("--start"),
                             at("2026-06-01T11:00:00Z"), QStringLiteral("--for"), QStringLiteral("1h"),
                             QStringLiteral("--note"), QStringLiteral("extra hours for the rerun"),
                             QStringLiteral("--now"), at("2026-06-01T10:00:00Z")},
                            60000, noKubeconfig());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const qint64 budget = QString::fromUtf8(r.out).trimmed().toLongLong();
        const QStringList before = auditActions();
        r = runTool(binary(), reconcileArgs, 60000, noKubeconfig());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("warning: no cluster"), r.err.constData());
        QVERIFY2(r.err.contains("1 quota boost is due and left for a run with a cluster"), r.err.constData());
        QCOMPARE(lines(r), QStringLiteral("boost %1 budget user alice: scheduled -> active").arg(budget));
        QCOMPARE(boost(quota).value(QLatin1String("state")).toString(), QStringLiteral("scheduled"));
        QCOMPARE(auditActions(), before + QStringList{QStringLiteral("boost.apply")});
        // With the cluster the quota boost follows.
        r = reconcile(at("2026-06-01T11:31:00Z"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("scheduled -> active (12 -> 16)"), r.out.constData());
    }

    // Every write we make carries the audit log's head in the same request: a boost's
    // apply and expiry, and `gpuquota apply`; `audit verify --head` checks what
    // kubectl shows, and a truncated log no longer matches it.
    void auditHeadIsPublishedWithEachWrite() {
        const QString ns = makeNamespace(12);
        const qint64 id = grant(
            ns, {QStringLiteral("--add"), QStringLiteral("4"), QStringLiteral("--for"), QStringLiteral("1h")},
            at("2026-06-01T10:00:00Z"));
        QVERIFY(id > 0);
        // Written by the apply, after the grant was recorded: the log then had one entry.
        QCOMPARE(quotaAnnotation(ns, kHeadKey), headAt(1));
        ToolRun v = verifyHead(quotaAnnotation(ns, kHeadKey));
        QVERIFY2(v.exitCode == 0, v.out.constData());
        QVERIFY2(reconcile(at("2026-06-01T11:00:00Z")).exitCode == 0, "reconcile");
        QCOMPARE(quotaAnnotation(ns, kHeadKey), headAt(2)); // grant and apply

        // `gpuquota apply` with the audit log: the head rides along, and an unchanged
        // re-apply is still unchanged (the annotation is ours, not the file's).
        const QString file = writeFile(m_cluster->temporaryDir() + QStringLiteral("/%1-apply.yaml").arg(ns),
                                       QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n"
                                                      "  name: gpu-quota\n  namespace: %1\nspec:\n  hard:\n"
                                                      "    requests.nvidia.com/gpu: \"20\"\n"
                                                      "    requests.cpu: \"64\"\n")
                                           .arg(ns)
                                           .toUtf8());
        const QStringList apply{QStringLiteral("apply"),
                                QStringLiteral("-f"),
                                file,
                                QStringLiteral("--db"),
                                m_db,
                                QStringLiteral("--note"),
                                QStringLiteral("more GPUs for the demo")};
        ToolRun r = gq(apply);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(gpus(ns), QStringLiteral("20"));
        QCOMPARE(quotaAnnotation(ns, kHeadKey), headAt(3));
        QCOMPARE(auditActions().size(), 4); // ... and the apply's own entry
        r = gq(apply);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("unchanged"), r.out.constData());
        QCOMPARE(auditActions().size(), 4);

        // A log cut back behind what the cluster shows no longer verifies against it.
        const QString published = quotaAnnotation(ns, kHeadKey);
        {
            auto store = UsageStore::open(m_db);
            QVERIFY(store);
            QSqlQuery q((*store)->database());
            if (usePostgres())
                QVERIFY(q.exec(QStringLiteral("ALTER TABLE audit_log DISABLE TRIGGER USER")));
            else
                QVERIFY(q.exec(QStringLiteral("DROP TRIGGER audit_log_no_delete")));
            QVERIFY(q.exec(QStringLiteral("DELETE FROM audit_log WHERE seq >= 3")));
        }
        v = verifyHead(published);
        QCOMPARE(v.exitCode, 1);
        QVERIFY2(v.out.contains("first missing entry: 3"), v.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestBoostReconcile)
#include "tst_boostreconcile.moc"
