#include "core/domain/clock.h"
#include "core/usage/forecast.h"
#include "core/usage/ledger.h"

#include <QTest>

using namespace gq;

// The forecast (core/usage/forecast.h): pods held from a manual clock's point of
// view, the running decision for the period containing "now", and when the budget
// runs out at the rate of the GPUs held now.
class TestForecast : public QObject {
    Q_OBJECT
private slots:
    void table_data();
    void table();
    void clockMovesOn();
    void states_data();
    void states();
};

namespace {
// "START/END/GPUS[/RESOURCE]" separated by ';' — END "open" for a running pod.
std::vector<UsageInterval> podsOf(const QString &spec) {
    std::vector<UsageInterval> out;
    int n = 0;
    for (const QString &p : spec.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QStringList f = p.split(QLatin1Char('/'));
        UsageInterval iv;
        iv.ns = QStringLiteral("ml");
        iv.user = QStringLiteral("alice");
        iv.podUid = QStringLiteral("pod-%1").arg(++n);
        iv.start = *parseInstant(f.at(0));
        if (f.at(1) != QLatin1String("open"))
            iv.end = *parseInstant(f.at(1));
        iv.gpus = f.at(2).toInt();
        if (f.size() > 3)
            iv.resource = f.mid(3).join(QLatin1Char('/'));
        out.push_back(iv);
    }
    return out;
}

// The running decision exactly as the store makes it, from the pods instead of SQL.
Decision runningDecision(const Budget &b, const std::vector<UsageInterval> &pods, const Clock &clock) {
    const qint64 now = clock.nowSecs();
    const ResourceWeights weights;
    const TimeRange period = periodContaining(now, b.period, *parseZone(b.tz));
    double seconds = 0, gpus = 0;
    for (const UsageInterval &iv : pods) {
        seconds += gpuSeconds(iv, period, now, weights);
        if (iv.start <= now && (!iv.end || *iv.end > now))
            gpus += iv.gpus * weights.weight(iv.resource);
    }
    return decide(b, period, seconds / 3600.0, gpus, AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0});
}

Budget budget(double limit, qint64 grace, Period p = Period::Day) {
    Budget b;
    b.subject = QStringLiteral("alice");
    b.period = p;
    b.limitGpuHours = limit;
    b.graceSeconds = grace;
    b.tz = QStringLiteral("Europe/Berlin");
    return b;
}

QString instant(const std::optional<qint64> &t) {
    return t ? formatInstant(*t, *parseZone(QStringLiteral("Europe/Berlin"))) : QStringLiteral("-");
}
} // namespace

void TestForecast::table_data() {
    QTest::addColumn<QString>("pods");
    QTest::addColumn<QString>("now");
    QTest::addColumn<double>("limit");
    QTest::addColumn<qint64>("grace");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("exhausts");
    QTest::addColumn<QString>("graceEnds");

    // 2026-03-10 is a 24-hour CET day (+01:00).
    QTest::newRow("one GPU since 08:00, 8 GPU-h: spent at 16:00")
        << "2026-03-10T08:00:00+01:00/open/1"
        << "2026-03-10T10:00:00+01:00" << 8.0 << qint64(0) << "runs-out"
        << "2026-03-10T16:00:00+01:00"
        << "2026-03-10T16:00:00+01:00";
    QTest::newRow("the rate is what is held now: a second pod since 10:00 doubles it")
        << "2026-03-10T08:00:00+01:00/open/1;2026-03-10T10:00:00+01:00/open/1"
        << "2026-03-10T12:00:00+01:00" << 8.0 << qint64(0) << "runs-out"
        << "2026-03-10T13:00:00+01:00"
        << "2026-03-10T13:00:00+01:00";
    QTest::newRow("a pod that ended lowers the rate, its hours stay used")
        << "2026-03-10T08:00:00+01:00/2026-03-10T10:00:00+01:00/3;2026-03-10T09:00:00+01:00/open/1"
        << "2026-03-10T11:00:00+01:00" << 30.0 << qint64(0) << "not-at-this-rate"
        << "-"
        << "-";
    QTest::newRow("the same ended pod with a 10 GPU-h limit: 6 + 2 used, 2 left at 1 GPU")
        << "2026-03-10T08:00:00+01:00/2026-03-10T10:00:00+01:00/3;2026-03-10T09:00:00+01:00/open/1"
        << "2026-03-10T11:00:00+01:00" << 10.0 << qint64(0) << "runs-out"
        << "2026-03-10T13:00:00+01:00"
        << "2026-03-10T13:00:00+01:00";
    QTest::newRow("MIG slices burn their weight: 7 x 1g = 1 GPU")
        << "2026-03-10T08:00:00+01:00/open/7/nvidia.com/mig-1g.10gb"
        << "2026-03-10T10:00:00+01:00" << 4.0 << qint64(0) << "runs-out"
        << "2026-03-10T12:00:00+01:00"
        << "2026-03-10T12:00:00+01:00";
    QTest::newRow("nothing running: no forecast")
        << "2026-03-10T08:00:00+01:00/2026-03-10T09:00:00+01:00/2"
        << "2026-03-10T10:00:00+01:00" << 8.0 << qint64(1800) << "nothing-running"
        << "-"
        << "-";
    QTest::newRow("a pod that has not started yet does not burn")
        << "2026-03-10T11:00:00+01:00/open/4"
        << "2026-03-10T10:00:00+01:00" << 8.0 << qint64(0) << "nothing-running"
        << "-"
        << "-";
    QTest::newRow("period rollover: would run out after midnight, so not this period")
        << "2026-03-10T20:00:00+01:00/open/2"
        << "2026-03-10T22:00:00+01:00" << 10.0 << qint64(0) << "not-at-this-rate"
        << "-"
        << "-";
    QTest::newRow("period rollover: exactly at midnight is the next period")
        << "2026-03-10T20:00:00+01:00/open/2"
        << "2026-03-10T22:00:00+01:00" << 8.0 << qint64(0) << "not-at-this-rate"
        << "-"
        << "-";
    QTest::newRow("period rollover: one second before midnight is this period")
        << "2026-03-10T20:00:00+01:00/open/2"
        << "2026-03-10T22:00:00+01:00" << 8.0 - 2.0 / 3600 << qint64(0) << "runs-out"
        << "2026-03-10T23:59:59+01:00"
        << "2026-03-10T23:59:59+01:00";
    QTest::newRow("after the rollover the count starts from midnight")
        << "2026-03-10T20:00:00+01:00/open/2"
        << "2026-03-11T01:00:00+01:00" << 8.0 << qint64(0) << "runs-out"
        << "2026-03-11T04:00:00+01:00"
        << "2026-03-11T04:00:00+01:00";
    QTest::newRow("grace after the limit: 30 min more at the same rate")
        << "2026-03-10T08:00:00+01:00/open/1"
        << "2026-03-10T10:00:00+01:00" << 8.0 << qint64(1800) << "runs-out"
        << "2026-03-10T16:00:00+01:00"
        << "2026-03-10T16:30:00+01:00";
    QTest::newRow("in grace: the forecast is the end of grace")
        << "2026-03-10T08:00:00+01:00/open/2"
        << "2026-03-10T12:10:00+01:00" << 8.0 << qint64(1800) << "in-grace"
        << "2026-03-10T12:30:00+01:00"
        << "2026-03-10T12:30:00+01:00";
    QTest::newRow("grace spent: nothing more this period")
        << "2026-03-10T08:00:00+01:00/open/2"
        << "2026-03-10T12:31:00+01:00" << 8.0 << qint64(1800) << "spent"
        << "-"
        << "-";
    QTest::newRow("over without grace is spent") << "2026-03-10T08:00:00+01:00/open/2"
                                                 << "2026-03-10T12:01:00+01:00" << 8.0 << qint64(0) << "spent"
                                                 << "-"
                                                 << "-";
    QTest::newRow("grace that would outlast the period ends with it")
        << "2026-03-10T19:00:00+01:00/open/2"
        << "2026-03-10T23:10:00+01:00" << 8.0 << qint64(3600) << "not-at-this-rate"
        << "-"
        << "-";
    QTest::newRow("runs out before midnight, grace would end after it")
        << "2026-03-10T19:00:00+01:00/open/2"
        << "2026-03-10T22:00:00+01:00" << 8.0 << qint64(3600) << "runs-out"
        << "2026-03-10T23:00:00+01:00"
        << "-";
    // 2026-03-29: the clocks go forward at 02:00 in Berlin, the day has 23 hours.
    QTest::newRow("a 23-hour day: 22 GPU-h from midnight at 1 GPU is spent at 23:00")
        << "2026-03-29T00:00:00+01:00/open/1"
        << "2026-03-29T01:00:00+01:00" << 22.0 << qint64(0) << "runs-out"
        << "2026-03-29T23:00:00+02:00"
        << "2026-03-29T23:00:00+02:00";
    QTest::newRow("a 23-hour day: 23 GPU-h is not reached before midnight")
        << "2026-03-29T00:00:00+01:00/open/1"
        << "2026-03-29T01:00:00+01:00" << 23.0 << qint64(0) << "not-at-this-rate"
        << "-"
        << "-";
    QTest::newRow("monthly budget, the rest of the month is the horizon")
        << "2026-03-01T00:00:00+01:00/open/1"
        << "2026-03-10T00:00:00+01:00" << 300.0 << qint64(0) << "runs-out"
        << "2026-03-13T12:00:00+01:00"
        << "2026-03-13T12:00:00+01:00";
    QTest::newRow("exactly at the limit with pods running: runs out now")
        << "2026-03-10T08:00:00+01:00/open/1"
        << "2026-03-10T16:00:00+01:00" << 8.0 << qint64(0) << "runs-out"
        << "2026-03-10T16:00:00+01:00"
        << "2026-03-10T16:00:00+01:00";
}

void TestForecast::table() {
    QFETCH(QString, pods);
    QFETCH(QString, now);
    QFETCH(double, limit);
    QFETCH(qint64, grace);
    QFETCH(QString, kind);
    QFETCH(QString, exhausts);
    QFETCH(QString, graceEnds);
    ManualClock clock(*parseInstant(now));
    const Period p = QByteArray(QTest::currentDataTag()).startsWith("monthly") ? Period::Month : Period::Day;
    const Decision d = runningDecision(budget(limit, grace, p), podsOf(pods), clock);
    const Forecast f = forecast(d, clock.nowSecs());
    QCOMPARE(forecastKindName(f.kind), kind);
    QCOMPARE(instant(f.exhaustsAt), exhausts);
    QCOMPARE(instant(f.graceEndsAt), graceEnds);
}

// One subject through a day with the clock moving: the forecast follows the rate
// (pods start and stop), and after the rollover it starts again.
void TestForecast::clockMovesOn() {
    const Budget b = budget(8.0, 1800);
    ManualClock clock(*parseInstant(QStringLiteral("2026-03-10T09:00:00+01:00")));
    std::vector<UsageInterval> pods = podsOf(QStringLiteral("2026-03-10T08:00:00+01:00/open/1"));
    auto now = [&] { return forecast(runningDecision(b, pods, clock), clock.nowSecs()); };
    QCOMPARE(instant(now().exhaustsAt), QStringLiteral("2026-03-10T16:00:00+01:00"));

    clock.advance(3600); // 10:00, a 3-GPU pod joins: 2 used, 6 left at 4 GPUs = 1.5 h
    pods.push_back(podsOf(QStringLiteral("2026-03-10T10:00:00+01:00/open/3")).front());
    QCOMPARE(instant(now().exhaustsAt), QStringLiteral("2026-03-10T11:30:00+01:00"));
    QCOMPARE(instant(now().graceEndsAt), QStringLiteral("2026-03-10T12:00:00+01:00"));

    clock.advance(1800); // 10:30 the big pod stops: 4 used, 4 left at 1 GPU
    pods.back().end = clock.nowSecs();
    QCOMPARE(instant(now().exhaustsAt), QStringLiteral("2026-03-10T14:30:00+01:00"));

    clock.set(*parseInstant(QStringLiteral("2026-03-10T14:40:00+01:00"))); // in grace until 15:00
    QCOMPARE(now().kind, Forecast::Kind::InGrace);
    QCOMPARE(budgetState(runningDecision(b, pods, clock)), BudgetState::Grace);
    QCOMPARE(instant(now().exhaustsAt), QStringLiteral("2026-03-10T15:00:00+01:00"));

    clock.set(*parseInstant(QStringLiteral("2026-03-10T15:00:01+01:00")));
    QCOMPARE(now().kind, Forecast::Kind::Spent);

    pods.front().end = clock.nowSecs(); // stopped: still spent, nothing runs
    clock.advance(60);
    QCOMPARE(now().kind, Forecast::Kind::Spent);

    clock.set(*parseInstant(QStringLiteral("2026-03-11T00:00:00+01:00"))); // rollover, nothing runs
    QCOMPARE(now().kind, Forecast::Kind::NothingRunning);
    QCOMPARE(budgetState(runningDecision(b, pods, clock)), BudgetState::Ok);
}

void TestForecast::states_data() {
    QTest::addColumn<double>("used");
    QTest::addColumn<double>("running");
    QTest::addColumn<qint64>("grace");
    QTest::addColumn<QString>("state");
    QTest::newRow("fresh") << 0.0 << 0.0 << qint64(0) << "ok";
    QTest::newRow("just under 80 %") << 6.39 << 1.0 << qint64(0) << "ok";
    QTest::newRow("80 % used is near") << 6.4 << 1.0 << qint64(0) << "near";
    QTest::newRow("exactly the limit is near, not over") << 8.0 << 1.0 << qint64(0) << "near";
    QTest::newRow("over with grace and pods running") << 8.2 << 1.0 << qint64(1800) << "grace";
    QTest::newRow("over with grace but nothing running") << 8.2 << 0.0 << qint64(1800) << "over";
    QTest::newRow("over, grace spent") << 8.6 << 1.0 << qint64(1800) << "over";
}

void TestForecast::states() {
    QFETCH(double, used);
    QFETCH(double, running);
    QFETCH(qint64, grace);
    QFETCH(QString, state);
    const Decision d = decide(budget(8.0, grace), TimeRange{0, 86400}, used, running,
                              AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0});
    QCOMPARE(budgetStateName(budgetState(d)), state);
}

QTEST_GUILESS_MAIN(TestForecast)
#include "tst_forecast.moc"
