// The built gpuquota-controller SIGKILLed while pods end, on SQLite and on PostgreSQL
// (#31 item 4). Open rows whose pods vanish while no controller watches must not be
// closed at the next start's time (that over-counts the whole outage): a pod still
// there is closed from its own status (finishedAt, exact), a pod gone is closed at the
// last time a controller saw it running (the recorders' seen_s heartbeat) and marked
// end_estimated. The heartbeat itself is seen moving while the controller runs.
#include "tests/controller/controllertestutil.h"
#include "tests/controller/podscript.h"
#include "core/usage/usagestore.h"

#include <QtTest>

#include <csignal>
#include <limits>
#include <map>

using namespace gq;
using namespace gq::test;

class TestControllerKill : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    PostgresTestbed m_bed;

    // The namespace's rows by pod name (empty when the database cannot be read yet).
    static std::map<QString, UsageInterval> rows(const QString &db, const QString &ns) {
        std::map<QString, UsageInterval> out;
        UsageStore::Options o;
        o.readOnly = true;
        auto store = UsageStore::open(db, o);
        if (!store)
            return out;
        auto all =
            (*store)->intervals(0, std::numeric_limits<qint32>::max(), QDateTime::currentSecsSinceEpoch());
        if (!all)
            return out;
        for (const UsageInterval &iv : *all)
            if (iv.ns == ns)
                out[iv.podName] = iv;
        return out;
    }
    static bool ready(int listen) {
        return curl({QStringLiteral("http://127.0.0.1:%1/readyz").arg(listen)})
            .startsWith(QLatin1String("200"));
    }

private Q_SLOTS:
    void initTestCase() {
        GQ_REQUIRE_TOOL("kubectl");
        GQ_REQUIRE_TOOL("curl");
        QVERIFY(m_dir.isValid());
        QVERIFY2(m_bed.start(m_dir.path(), (QDateTime::currentSecsSinceEpoch() / 86400 - 1) * 86400),
                 qPrintable(m_bed.error));
    }

    void killedWhilePodsEnd_data() {
        QTest::addColumn<QString>("db");
        QTest::addColumn<QString>("ns");
        QTest::newRow("sqlite") << QStringLiteral("sqlite://") + m_dir.filePath(QStringLiteral("kill.db"))
                                << QStringLiteral("kill-sqlite");
        QTest::newRow("postgres") << m_bed.pg->url + QStringLiteral("?schema=kill")
                                  << QStringLiteral("kill-postgres");
    }

    void killedWhilePodsEnd() {
        QFETCH(QString, db);
        QFETCH(QString, ns);
        PodScript s(*m_bed.cluster, m_dir.path(), db,
                    (QDateTime::currentSecsSinceEpoch() / 86400 - 1) * 86400);
        QCOMPARE(s.kubectl({QStringLiteral("create"), QStringLiteral("namespace"), ns}).exitCode, 0);
        const QByteArray nsName = ns.toUtf8();
        const int listen = freePort();
        const QString cfg = m_bed.controllerConfig(m_dir.path(), ns, listen, {}, db);
        ControllerProcess first;
        QVERIFY(first.start(cfg));
        QTRY_VERIFY_WITH_TIMEOUT(ready(listen), 30000);

        s.start(s.pod(nsName.constData(), "gone-1", "alice", 2, "08:00:00"));
        s.start(s.pod(nsName.constData(), "done-2", "bob", 1, "08:30:00"));
        s.start(s.pod(nsName.constData(), "runs-3", "", 1, "09:00:00"));
        QTRY_VERIFY_WITH_TIMEOUT(rows(db, ns).size() == 3 && rows(db, ns)[QStringLiteral("gone-1")].seen,
                                 20000);
        // The heartbeat moves seen_s on while the pod runs (every 30 s).
        const qint64 firstSeen = *rows(db, ns)[QStringLiteral("gone-1")].seen;
        QTRY_VERIFY_WITH_TIMEOUT(rows(db, ns)[QStringLiteral("gone-1")].seen.value_or(0) > firstSeen,
                                 UsageStore::kSeenIntervalSeconds * 1000 + 15000);

        // Killed without a word; meanwhile one pod ends and is deleted (its end is
        // gone with it), one ends and stays (its status says when), one runs on.
        first.signal(SIGKILL);
        QVERIFY(first.waitForExit(10000));
        const qint64 killedAt = QDateTime::currentSecsSinceEpoch();
        s.remove(QStringLiteral("gone-1"));
        s.finish(QStringLiteral("done-2"), s.at("10:00:00"));
        QTest::qWait(5000); // the next start is well after the kill

        const qint64 restartedAt = QDateTime::currentSecsSinceEpoch();
        ControllerProcess second;
        QVERIFY(second.start(cfg));
        QTRY_VERIFY_WITH_TIMEOUT(ready(listen), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(rows(db, ns)[QStringLiteral("gone-1")].end.has_value(), 20000);
        auto after = rows(db, ns);
        const UsageInterval gone = after[QStringLiteral("gone-1")];
        qInfo("gone-1 closed at kill %+lld s (restart at kill %+lld s)", *gone.end - killedAt,
              restartedAt - killedAt);
        QVERIFY(gone.endEstimated);
        // At the last heartbeat before the kill: not after it, and at most one heartbeat
        // interval (plus a write's delay) before.
        QVERIFY2(*gone.end <= killedAt && *gone.end >= killedAt - UsageStore::kSeenIntervalSeconds - 5,
                 qPrintable(QString::number(*gone.end - killedAt)));
        QTRY_VERIFY_WITH_TIMEOUT(rows(db, ns)[QStringLiteral("done-2")].end.has_value(), 20000);
        after = rows(db, ns);
        QCOMPARE(*after[QStringLiteral("done-2")].end, s.at("10:00:00"));
        QVERIFY(!after[QStringLiteral("done-2")].endEstimated);
        QVERIFY(after[QStringLiteral("runs-3")].isOpen());
        QCOMPARE(after[QStringLiteral("runs-3")].start, s.at("09:00:00"));
        QCOMPARE(after.size(), std::size_t(3));

        second.signal(SIGTERM);
        QVERIFY(second.waitForExit(15000));
        // The next row's controller need not see these pods (its rows are read by namespace).
        QCOMPARE(s.kubectl({QStringLiteral("delete"), QStringLiteral("pods"), QStringLiteral("--all"),
                            QStringLiteral("-n"), ns})
                     .exitCode,
                 0);
    }
};

QTEST_GUILESS_MAIN(TestControllerKill)
#include "tst_controllerkill.moc"
