// Fidelity of gpuquota-testcluster (the demo's and the fast suites' cluster) to the real
// kube-apiserver: tests/realcluster/fidelity.py runs one scripted scenario (create,
// pagination, watches with a 410 and bookmarks, a stale update, dry runs, quota and
// LimitRange admission, TokenReview / SubjectAccessReview, Leases, a pod's graceful
// deletion) against both, and every fact the product reads must be the same: status
// codes, reasons, messages, the fields. A difference fails the test unless it is listed
// in kKnownDifferences with the reason it is harmless (the README repeats the list).
#include "tests/kube/kubetestutil.h"
#include "tests/realcluster/realcluster.h"
#include "tests/testclusterprocess.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace gq::test;

namespace {

struct KnownDifference {
    const char *step;
    const char *field;
    const char *why;
};

// Facts the two servers report differently on purpose. Keep this list short and keep the
// README's "What the test cluster does differently" in step with it.
constexpr KnownDifference kKnownDifferences[] = {
    {"", "", ""}, // none today
};

const char *knownDifference(const QString &step, const QString &field) {
    for (const KnownDifference &d : kKnownDifferences)
        if (step == QLatin1String(d.step) && field == QLatin1String(d.field))
            return d.why;
    return nullptr;
}

} // namespace

class TestRealClusterFidelity : public QObject {
    Q_OBJECT

    TestClusterProcess m_test;
    RealCluster m_real;
    QMap<QString, QJsonObject> m_ours;
    QMap<QString, QJsonObject> m_theirs;

    static QMap<QString, QJsonObject> run(const QString &kubeconfig, const QString &token,
                                          const QString &viewer, QString *error) {
        QMap<QString, QJsonObject> steps;
        const ToolRun r = runTool(QStringLiteral("/usr/bin/python3"),
                                  {QStringLiteral(GQ_SOURCE_DIR "/tests/realcluster/fidelity.py"), kubeconfig,
                                   QStringLiteral("fidelity"), token, viewer},
                                  300000);
        if (r.exitCode != 0)
            *error = QString::fromUtf8(r.err + r.out);
        for (const QByteArray &line : r.out.split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (!o.isEmpty())
                steps.insert(o.value(QLatin1String("step")).toString(), o);
        }
        return steps;
    }

private Q_SLOTS:
    void initTestCase() {
        QProcess probe;
        probe.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral("import kubernetes")});
        if (!(probe.waitForFinished(30000) && probe.exitCode() == 0)) {
            if (inCi())
                QFAIL("python3-kubernetes is not installed (scripts/install-deps.sh installs it)");
            QSKIP("python3-kubernetes is not installed");
        }
        QVERIFY2(m_test.start(), qPrintable(m_test.errorString()));
        GQ_START_REAL_CLUSTER(m_real);
        QString error;
        m_ours = run(m_test.kubeconfigPath(), m_test.adminToken(), QStringLiteral("gq-viewer"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(QStringLiteral("against the test cluster: ") + error));
        m_theirs = run(m_real.kubeconfigPath(), QStringLiteral("t-alice"),
                       QStringLiteral("viewer@example.com"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(QStringLiteral("against the real API server: ") + error));
        QVERIFY2(m_theirs.size() >= 20, qPrintable(QStringList(m_theirs.keys()).join(u',')));
    }

    void sameFacts_data() {
        QTest::addColumn<QString>("step");
        for (const QString &step : m_theirs.keys())
            QTest::newRow(qPrintable(step)) << step;
    }
    void sameFacts() {
        QFETCH(QString, step);
        QVERIFY2(m_ours.contains(step),
                 qPrintable(QStringLiteral("the test cluster's run has no step ") + step));
        const QJsonObject ours = m_ours.value(step);
        const QJsonObject theirs = m_theirs.value(step);
        QStringList fields = theirs.keys() + ours.keys();
        fields.removeDuplicates();
        QStringList differences;
        for (const QString &field : fields) {
            if (ours.value(field) == theirs.value(field))
                continue;
            if (const char *why = knownDifference(step, field)) {
                qInfo("%s.%s differs (known: %s)", qPrintable(step), qPrintable(field), why);
                continue;
            }
            differences << QStringLiteral("%1: test cluster %2, real %3")
                               .arg(field,
                                    QString::fromUtf8(QJsonDocument(QJsonObject{{field, ours.value(field)}})
                                                          .toJson(QJsonDocument::Compact)),
                                    QString::fromUtf8(QJsonDocument(QJsonObject{{field, theirs.value(field)}})
                                                          .toJson(QJsonDocument::Compact)));
        }
        QVERIFY2(differences.isEmpty(), qPrintable(differences.join(u'\n')));
    }

    // The scenario did what it says on the real server (so the comparison means something).
    void realServerAnsweredAsDocumented() {
        QCOMPARE(m_theirs.value(QStringLiteral("stale_update")).value(QLatin1String("code")).toInt(), 409);
        QCOMPARE(m_theirs.value(QStringLiteral("quota_denied")).value(QLatin1String("code")).toInt(), 403);
        QCOMPARE(m_theirs.value(QStringLiteral("watch_too_old"))
                     .value(QLatin1String("events"))
                     .toVariant()
                     .toList()
                     .size(),
                 1);
        QCOMPARE(m_theirs.value(QStringLiteral("tokenreview_valid"))
                     .value(QLatin1String("authenticated"))
                     .toBool(),
                 true);
        QCOMPARE(m_theirs.value(QStringLiteral("pod_delete")).value(QLatin1String("gone")).toBool(), true);
    }
};

QTEST_GUILESS_MAIN(TestRealClusterFidelity)
#include "tst_realcluster_fidelity.moc"
