#include "core/usage/ledger.h"

#include <QTest>

using namespace gq;

// GPU-hour arithmetic on hand-computed cases.
class TestLedger : public QObject {
    Q_OBJECT
private slots:
    void gpuHoursInWindow_data();
    void gpuHoursInWindow();
    void rejectsBadIntervals_data();
    void rejectsBadIntervals();
    void migWeights_data();
    void migWeights();
    void weightsParse();
    void byPeriodAcrossDst_data();
    void byPeriodAcrossDst();
    void onesecondPrecision();
    void podUser_data();
    void podUser();
};

static qint64 t(const QString &s) {
    auto r = parseInstant(s);
    if (!r)
        qFatal("bad instant");
    return *r;
}

static UsageInterval iv(const QString &start, const QString &end, int gpus = 1,
                        const QString &resource = QStringLiteral("nvidia.com/gpu")) {
    UsageInterval u;
    u.cluster = QStringLiteral("c1");
    u.ns = QStringLiteral("team-a");
    u.user = QStringLiteral("alice");
    u.podUid = QStringLiteral("uid-1");
    u.podName = QStringLiteral("train-0");
    u.resource = resource;
    u.gpus = gpus;
    u.start = t(start);
    if (!end.isEmpty())
        u.end = t(end);
    return u;
}

void TestLedger::gpuHoursInWindow_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end"); // empty: running
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("wStart");
    QTest::addColumn<QString>("wEnd");
    QTest::addColumn<QString>("now");
    QTest::addColumn<double>("hours");

    const QString gpu = QStringLiteral("nvidia.com/gpu");
    QTest::newRow("inside") << "2026-01-01T10:00:00Z"
                            << "2026-01-01T12:00:00Z" << 2 << gpu << "2026-01-01T00:00:00Z"
                            << "2026-01-02T00:00:00Z"
                            << "2026-02-01T00:00:00Z" << 4.0;
    QTest::newRow("crosses midnight, counts first day only")
        << "2026-01-01T23:00:00Z"
        << "2026-01-02T01:30:00Z" << 1 << gpu << "2026-01-01T00:00:00Z"
        << "2026-01-02T00:00:00Z"
        << "2026-02-01T00:00:00Z" << 1.0;
    QTest::newRow("crosses midnight, second day")
        << "2026-01-01T23:00:00Z"
        << "2026-01-02T01:30:00Z" << 1 << gpu << "2026-01-02T00:00:00Z"
        << "2026-01-03T00:00:00Z"
        << "2026-02-01T00:00:00Z" << 1.5;
    QTest::newRow("before window") << "2026-01-01T01:00:00Z"
                                   << "2026-01-01T02:00:00Z" << 8 << gpu << "2026-01-02T00:00:00Z"
                                   << "2026-01-03T00:00:00Z"
                                   << "2026-02-01T00:00:00Z" << 0.0;
    QTest::newRow("ends exactly at window start")
        << "2026-01-01T22:00:00Z"
        << "2026-01-02T00:00:00Z" << 8 << gpu << "2026-01-02T00:00:00Z"
        << "2026-01-03T00:00:00Z"
        << "2026-02-01T00:00:00Z" << 0.0;
    QTest::newRow("running counts to now") << "2026-01-01T08:00:00Z"
                                           << "" << 4 << gpu << "2026-01-01T00:00:00Z"
                                           << "2026-01-02T00:00:00Z"
                                           << "2026-01-01T09:30:00Z" << 6.0;
    QTest::newRow("running, now after window") << "2026-01-01T20:00:00Z"
                                               << "" << 1 << gpu << "2026-01-01T00:00:00Z"
                                               << "2026-01-02T00:00:00Z"
                                               << "2026-01-05T00:00:00Z" << 4.0;
    QTest::newRow("running, starts after now") << "2026-01-01T20:00:00Z"
                                               << "" << 1 << gpu << "2026-01-01T00:00:00Z"
                                               << "2026-01-02T00:00:00Z"
                                               << "2026-01-01T10:00:00Z" << 0.0;
    QTest::newRow("mig 1g.10gb is 1/7") << "2026-01-01T00:00:00Z"
                                        << "2026-01-01T07:00:00Z" << 1 << "nvidia.com/mig-1g.10gb"
                                        << "2026-01-01T00:00:00Z"
                                        << "2026-01-02T00:00:00Z"
                                        << "2026-02-01T00:00:00Z" << 1.0;
    QTest::newRow("two mig 3g slices") << "2026-01-01T00:00:00Z"
                                       << "2026-01-01T07:00:00Z" << 2 << "nvidia.com/mig-3g.40gb"
                                       << "2026-01-01T00:00:00Z"
                                       << "2026-01-02T00:00:00Z"
                                       << "2026-02-01T00:00:00Z" << 6.0;
    // Berlin 2026-03-29 has 23 hours: a pod holding 1 GPU all local day is 23 GPU-h.
    QTest::newRow("berlin spring day is 23 h")
        << "2026-03-28T00:00:00Z"
        << "2026-03-31T00:00:00Z" << 1 << gpu << "2026-03-29T00:00:00+01:00"
        << "2026-03-30T00:00:00+02:00"
        << "2026-04-01T00:00:00Z" << 23.0;
    QTest::newRow("new york autumn day is 25 h")
        << "2026-10-30T00:00:00Z"
        << "2026-11-03T00:00:00Z" << 1 << gpu << "2026-11-01T00:00:00-04:00"
        << "2026-11-02T00:00:00-05:00"
        << "2026-12-01T00:00:00Z" << 25.0;
    QTest::newRow("leap day full") << "2028-02-28T12:00:00Z"
                                   << "2028-03-01T12:00:00Z" << 3 << gpu << "2028-02-29T00:00:00Z"
                                   << "2028-03-01T00:00:00Z"
                                   << "2028-04-01T00:00:00Z" << 72.0;
    QTest::newRow("one second") << "2026-01-01T00:00:00Z"
                                << "2026-01-01T00:00:01Z" << 3600 << gpu << "2026-01-01T00:00:00Z"
                                << "2026-01-02T00:00:00Z"
                                << "2026-02-01T00:00:00Z" << 1.0;
}

void TestLedger::gpuHoursInWindow() {
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(int, gpus);
    QFETCH(QString, resource);
    QFETCH(QString, wStart);
    QFETCH(QString, wEnd);
    QFETCH(QString, now);
    QFETCH(double, hours);
    const UsageInterval u = iv(start, end, gpus, resource);
    QVERIFY(validateInterval(u));
    const std::vector<UsageInterval> list{u};
    QCOMPARE(gpuHours(list, TimeRange{t(wStart), t(wEnd)}, t(now)), hours);
}

void TestLedger::rejectsBadIntervals_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("zero length") << "2026-01-01T00:00:00Z"
                                 << "2026-01-01T00:00:00Z" << 1 << "end"
                                 << "zero-length";
    QTest::newRow("reversed") << "2026-01-01T00:00:10Z"
                              << "2026-01-01T00:00:00Z" << 1 << "end"
                              << "reversed";
    QTest::newRow("reversed by a second") << "2026-01-01T00:00:01Z"
                                          << "2026-01-01T00:00:00Z" << 1 << "end"
                                          << "1 s before";
    QTest::newRow("zero gpus") << "2026-01-01T00:00:00Z"
                               << "2026-01-01T01:00:00Z" << 0 << "gpus"
                               << "positive";
    QTest::newRow("negative gpus") << "2026-01-01T00:00:00Z"
                                   << "" << -2 << "gpus"
                                   << "positive";
}

void TestLedger::rejectsBadIntervals() {
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(int, gpus);
    QFETCH(QString, field);
    QFETCH(QString, messagePart);
    const auto r = validateInterval(iv(start, end, gpus));
    QVERIFY(!r);
    QCOMPARE(r.error().field, field);
    QVERIFY2(r.error().message.contains(messagePart), qPrintable(r.error().message));
    QCOMPARE(r.error().kind, Error::Kind::Invalid);
}

void TestLedger::migWeights_data() {
    QTest::addColumn<QString>("resource");
    QTest::addColumn<double>("weight");
    QTest::newRow("gpu") << "nvidia.com/gpu" << 1.0;
    QTest::newRow("1g.5gb") << "nvidia.com/mig-1g.5gb" << 1.0 / 7;
    QTest::newRow("1g.10gb") << "nvidia.com/mig-1g.10gb" << 1.0 / 7;
    QTest::newRow("2g.20gb") << "nvidia.com/mig-2g.20gb" << 2.0 / 7;
    QTest::newRow("3g.40gb") << "nvidia.com/mig-3g.40gb" << 3.0 / 7;
    QTest::newRow("4g.40gb") << "nvidia.com/mig-4g.40gb" << 4.0 / 7;
    QTest::newRow("7g.80gb") << "nvidia.com/mig-7g.80gb" << 1.0;
    QTest::newRow("amd") << "amd.com/gpu" << 1.0;
}

void TestLedger::migWeights() {
    QFETCH(QString, resource);
    QFETCH(double, weight);
    QCOMPARE(ResourceWeights().weight(resource), weight);
}

void TestLedger::weightsParse() {
    auto w = ResourceWeights::parse(QStringLiteral("nvidia.com/mig-1g.10gb=1/8, example.com/vgpu=0.5"));
    QVERIFY(w);
    QCOMPARE(w->weight(QStringLiteral("nvidia.com/mig-1g.10gb")), 0.125);
    QCOMPARE(w->weight(QStringLiteral("example.com/vgpu")), 0.5);
    QCOMPARE(w->weight(QStringLiteral("nvidia.com/mig-2g.20gb")), 2.0 / 7);
    auto bad = ResourceWeights::parse(QStringLiteral("nvidia.com/gpu=-1"));
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, QStringLiteral("weights[nvidia.com/gpu]"));
    QVERIFY(!ResourceWeights::parse(QStringLiteral("nvidia.com/gpu")));

    UsageInterval u = iv(QStringLiteral("2026-01-01T00:00:00Z"), QStringLiteral("2026-01-01T08:00:00Z"), 1,
                         QStringLiteral("nvidia.com/mig-1g.10gb"));
    const std::vector<UsageInterval> list{u};
    QCOMPARE(gpuHours(list, TimeRange{u.start, *u.end}, *u.end, *w), 1.0);
}

void TestLedger::byPeriodAcrossDst_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("period");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected"); // "bucketstart=hours;..."
    QTest::newRow("berlin days around spring dst")
        << "Europe/Berlin"
        << "day"
        << "2026-03-28T22:00:00+01:00"
        << "2026-03-30T02:00:00+02:00"
        << "2026-03-28T00:00:00Z"
        << "2026-04-01T00:00:00Z"
        << "2026-03-28T00:00:00+01:00=2;2026-03-29T00:00:00+01:00=23;2026-03-30T00:00:00+02:00=2";
    QTest::newRow("new york days around autumn dst")
        << "America/New_York"
        << "day"
        << "2026-10-31T23:00:00-04:00"
        << "2026-11-02T01:00:00-05:00"
        << "2026-10-30T00:00:00Z"
        << "2026-11-05T00:00:00Z"
        << "2026-10-31T00:00:00-04:00=1;2026-11-01T00:00:00-04:00=25;2026-11-02T00:00:00-05:00=1";
    QTest::newRow("clipped by query range") << "UTC"
                                            << "day"
                                            << "2026-01-01T20:00:00Z"
                                            << "2026-01-02T04:00:00Z"
                                            << "2026-01-01T22:00:00Z"
                                            << "2026-01-02T03:00:00Z"
                                            << "2026-01-01T00:00:00Z=2;2026-01-02T00:00:00Z=3";
    QTest::newRow("month boundary berlin") << "Europe/Berlin"
                                           << "month"
                                           << "2026-03-31T23:00:00+02:00"
                                           << "2026-04-01T01:00:00+02:00"
                                           << "2026-03-01T00:00:00Z"
                                           << "2026-05-01T00:00:00Z"
                                           << "2026-03-01T00:00:00+01:00=1;2026-04-01T00:00:00+02:00=1";
    QTest::newRow("leap day week") << "UTC"
                                   << "week"
                                   << "2028-02-27T00:00:00Z"
                                   << "2028-03-01T00:00:00Z"
                                   << "2028-02-01T00:00:00Z"
                                   << "2028-04-01T00:00:00Z"
                                   << "2028-02-21T00:00:00Z=24;2028-02-28T00:00:00Z=48";
}

void TestLedger::byPeriodAcrossDst() {
    QFETCH(QString, zone);
    QFETCH(QString, period);
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    const QTimeZone tz = *parseZone(zone);
    const std::vector<UsageInterval> list{iv(start, end)};
    const auto m = gpuHoursByPeriod(list, GroupBy::User, t(from), t(to), *parsePeriod(period), tz, t(to));
    QStringList got;
    for (auto it = m.cbegin(); it != m.cend(); ++it)
        got << formatInstant(it.key(), tz) + QLatin1Char('=') +
                   QString::number(it->value(QStringLiteral("alice")));
    QCOMPARE(got.join(QLatin1Char(';')), expected);
}

void TestLedger::onesecondPrecision() {
    // 1 GPU for 1 s is 1/3600 GPU-h; a million of them add up exactly enough.
    UsageInterval u = iv(QStringLiteral("2026-01-01T00:00:00Z"), QStringLiteral("2026-01-01T00:00:01Z"));
    QCOMPARE(overlapSeconds(u, TimeRange{u.start, u.start + 1}, 0), qint64(1));
    QCOMPARE(overlapSeconds(u, TimeRange{u.start + 1, u.start + 2}, 0), qint64(0));
    QCOMPARE(overlapSeconds(u, TimeRange{u.start - 1, u.start}, 0), qint64(0));
    std::vector<UsageInterval> many(3600, u);
    QCOMPARE(gpuHours(many, TimeRange{u.start, u.start + 10}, 0), 1.0);
}

void TestLedger::podUser_data() {
    QTest::addColumn<QString>("labelValue");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("expected");
    QTest::newRow("default label") << "alice"
                                   << ""
                                   << "alice";
    QTest::newRow("empty label falls back") << "  "
                                            << ""
                                            << "team-a";
    QTest::newRow("missing falls back") << "<none>"
                                        << ""
                                        << "team-a";
    QTest::newRow("custom label") << "bob"
                                  << "example.com/owner"
                                  << "bob";
}

void TestLedger::podUser() {
    QFETCH(QString, labelValue);
    QFETCH(QString, label);
    QFETCH(QString, expected);
    QHash<QString, QString> labels;
    const QString key = label.isEmpty() ? kDefaultUserLabel : label;
    if (labelValue != QLatin1String("<none>"))
        labels.insert(key, labelValue);
    labels.insert(QStringLiteral("app"), QStringLiteral("trainer"));
    const QString user = label.isEmpty() ? gq::podUser(labels, QStringLiteral("team-a"))
                                         : gq::podUser(labels, QStringLiteral("team-a"), label);
    QCOMPARE(user, expected);
}

QTEST_GUILESS_MAIN(TestLedger)
#include "tst_ledger.moc"
