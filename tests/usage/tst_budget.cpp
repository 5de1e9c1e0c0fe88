#include "core/usage/budget.h"

#include <QTest>

using namespace gq;

// The admission decision: outcome, numbers and the exact message shapes.
class TestBudget : public QObject {
    Q_OBJECT
private slots:
    void newJob_data();
    void newJob();
    void running_data();
    void running();
    void combineMostRestrictive();
    void noBudget();
    void validation_data();
    void validation();
};

static Budget dayBudget(double limit, qint64 grace = 900) {
    Budget b;
    b.scope = BudgetScope::User;
    b.subject = QStringLiteral("alice");
    b.period = Period::Day;
    b.limitGpuHours = limit;
    b.graceSeconds = grace;
    b.tz = QStringLiteral("Europe/Berlin");
    return b;
}

void TestBudget::newJob_data() {
    QTest::addColumn<double>("limit");
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("gpus");
    QTest::addColumn<double>("hours");
    QTest::addColumn<double>("boost");
    QTest::addColumn<QString>("outcome");
    QTest::addColumn<QString>("message");
    // The design notes' example: used 3.5 today, limit 8, 1 GPU x 4 h -> 7.5 <= 8.
    QTest::newRow("design example") << 8.0 << 3.5 << 1.0 << 4.0 << 0.0 << "allowed"
                                    << "Allowed: 4.00 GPU-h ≤ 4.50 available";
    QTest::newRow("exactly fits") << 8.0 << 4.0 << 2.0 << 2.0 << 0.0 << "allowed"
                                  << "Allowed: 4.00 GPU-h ≤ 4.00 available";
    QTest::newRow("issue denied example") << 8.0 << 7.5 << 1.0 << 4.0 << 0.0 << "denied"
                                          << "Denied: need 4.00 GPU-h, only 0.50 left (limit 8.00 per day)";
    QTest::newRow("overrun shows zero left")
        << 8.0 << 9.0 << 1.0 << 0.5 << 0.0 << "denied"
        << "Denied: need 0.50 GPU-h, only 0.00 left (limit 8.00 per day)";
    QTest::newRow("boost makes it fit") << 8.0 << 7.5 << 1.0 << 4.0 << 4.0 << "allowed"
                                        << "Allowed: 4.00 GPU-h ≤ 4.50 available";
    QTest::newRow("zero limit") << 0.0 << 0.0 << 1.0 << 0.01 << 0.0 << "denied"
                                << "Denied: need 0.01 GPU-h, only 0.00 left (limit 0.00 per day)";
    QTest::newRow("zero request always fits") << 0.0 << 0.0 << 0.0 << 5.0 << 0.0 << "allowed"
                                              << "Allowed: 0.00 GPU-h ≤ 0.00 available";
    QTest::newRow("float rounding 0.1+0.2") << 0.3 << 0.1 << 1.0 << 0.2 << 0.0 << "allowed"
                                            << "Allowed: 0.20 GPU-h ≤ 0.20 available";
}

void TestBudget::newJob() {
    QFETCH(double, limit);
    QFETCH(double, used);
    QFETCH(double, gpus);
    QFETCH(double, hours);
    QFETCH(double, boost);
    QFETCH(QString, outcome);
    QFETCH(QString, message);
    AdmissionRequest req{AdmissionRequest::Kind::NewJob, gpus, hours};
    // Running GPUs and grace must not matter for a new job.
    const Decision d = decide(dayBudget(limit, 3600), TimeRange{0, 86400}, used, 8.0, req, boost);
    QCOMPARE(outcomeName(d.outcome), outcome);
    QCOMPARE(d.message, message);
    QCOMPARE(d.used, used);
    QCOMPARE(d.required, gpus * hours);
    QCOMPARE(d.limit, limit + boost);
}

void TestBudget::running_data() {
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("runningGpus");
    QTest::addColumn<qint64>("grace");
    QTest::addColumn<QString>("outcome");
    QTest::addColumn<QString>("message");
    QTest::newRow("under limit") << 6.0 << 2.0 << qint64(900) << "allowed"
                                 << "Allowed: 6.00 GPU-h used of 8.00 per day";
    // 2 GPUs x 15 min grace = 0.5 GPU-h of overrun allowed.
    QTest::newRow("in grace")
        << 8.25 << 2.0 << qint64(900) << "allowed-in-grace"
        << "Allowed in grace: 8.25 GPU-h used of 8.00 per day, overrun allowed up to 8.50 "
           "(grace 15m)";
    QTest::newRow("grace edge")
        << 8.5 << 2.0 << qint64(900) << "allowed-in-grace"
        << "Allowed in grace: 8.50 GPU-h used of 8.00 per day, overrun allowed up to 8.50 "
           "(grace 15m)";
    QTest::newRow("grace exhausted") << 8.51 << 2.0 << qint64(900) << "denied"
                                     << "Denied: 8.51 GPU-h used of 8.00 per day, grace of 15m exhausted";
    QTest::newRow("no grace") << 8.01 << 2.0 << qint64(0) << "denied"
                              << "Denied: 8.01 GPU-h used of 8.00 per day, grace of 0s exhausted";
}

void TestBudget::running() {
    QFETCH(double, used);
    QFETCH(double, runningGpus);
    QFETCH(qint64, grace);
    QFETCH(QString, outcome);
    QFETCH(QString, message);
    const Decision d = decide(dayBudget(8.0, grace), TimeRange{0, 86400}, used, runningGpus,
                              AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0});
    QCOMPARE(outcomeName(d.outcome), outcome);
    QCOMPARE(d.message, message);
}

void TestBudget::combineMostRestrictive() {
    const AdmissionRequest req{AdmissionRequest::Kind::NewJob, 1, 2};
    Budget ns = dayBudget(100);
    ns.scope = BudgetScope::Namespace;
    ns.subject = QStringLiteral("team-a");
    ns.period = Period::Month;
    const Decision user = decide(dayBudget(8), {}, 3, 0, req);
    const Decision team = decide(ns, {}, 97, 0, req);
    const Decision both = combine({user, team}, req);
    QCOMPARE(both.budget.scope, BudgetScope::Namespace);
    QCOMPARE(both.message, QStringLiteral("Allowed: 2.00 GPU-h ≤ 3.00 available"));
    const Decision teamDenied = decide(ns, {}, 99.5, 0, req);
    const Decision d = combine({user, teamDenied}, req);
    QCOMPARE(d.outcome, Decision::Outcome::Denied);
    QCOMPARE(d.message, QStringLiteral("Denied: need 2.00 GPU-h, only 0.50 left (limit 100.00 per month)"));
}

void TestBudget::noBudget() {
    const Decision d = combine({}, AdmissionRequest{AdmissionRequest::Kind::NewJob, 4, 10});
    QVERIFY(d.allowed());
    QVERIFY(!d.hasBudget);
    QCOMPARE(d.required, 40.0);
}

void TestBudget::validation_data() {
    QTest::addColumn<QString>("subject");
    QTest::addColumn<QString>("period");
    QTest::addColumn<double>("limit");
    QTest::addColumn<qint64>("grace");
    QTest::addColumn<QString>("tz");
    QTest::addColumn<QString>("field");
    QTest::newRow("ok") << "alice"
                        << "day" << 8.0 << qint64(0) << "UTC"
                        << "";
    QTest::newRow("empty subject") << " "
                                   << "day" << 8.0 << qint64(0) << "UTC"
                                   << "subject";
    QTest::newRow("hour period") << "alice"
                                 << "hour" << 8.0 << qint64(0) << "UTC"
                                 << "period";
    QTest::newRow("negative limit") << "alice"
                                    << "day" << -1.0 << qint64(0) << "UTC"
                                    << "limit";
    QTest::newRow("negative grace") << "alice"
                                    << "day" << 1.0 << qint64(-5) << "UTC"
                                    << "grace";
    QTest::newRow("bad zone") << "alice"
                              << "week" << 1.0 << qint64(0) << "Europe/Atlantis"
                              << "tz";
}

void TestBudget::validation() {
    QFETCH(QString, subject);
    QFETCH(QString, period);
    QFETCH(double, limit);
    QFETCH(qint64, grace);
    QFETCH(QString, tz);
    QFETCH(QString, field);
    Budget b = dayBudget(limit, grace);
    b.subject = subject;
    b.period = *parsePeriod(period);
    b.tz = tz;
    const auto r = validateBudget(b);
    if (field.isEmpty()) {
        QVERIFY(r);
    } else {
        QVERIFY(!r);
        QCOMPARE(r.error().field, field);
    }
}

QTEST_GUILESS_MAIN(TestBudget)
#include "tst_budget.moc"
