#include "core/usage/timewindow.h"

#include <QTest>

#include <cstdlib>

using namespace gq;

// Calendar windows: every case spelled as RFC 3339 so the table reads like a calendar.
class TestTimeWindow : public QObject {
    Q_OBJECT
private slots:
    void periodContaining_data();
    void periodContaining();
    void periodsCovering_data();
    void periodsCovering();
    void periodCountMatchesCovering();
    void parseInstant_data();
    void parseInstant();
    void formatInstant();
    void parseDuration_data();
    void parseDuration();
    void badInput();
};

static qint64 t(const char *s) {
    auto r = parseInstant(QString::fromLatin1(s));
    if (!r)
        qFatal("bad test instant %s", s);
    return *r;
}

void TestTimeWindow::periodContaining_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("period");
    QTest::addColumn<QString>("at");
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("end");
    QTest::addColumn<qint64>("hours");

    QTest::newRow("utc day") << "UTC"
                             << "day"
                             << "2026-03-10T12:00:00Z"
                             << "2026-03-10T00:00:00Z"
                             << "2026-03-11T00:00:00Z" << qint64(24);
    // Berlin spring forward 2026-03-29 02:00 CET -> 03:00 CEST: a 23 h day.
    QTest::newRow("berlin spring day") << "Europe/Berlin"
                                       << "day"
                                       << "2026-03-29T12:00:00+02:00"
                                       << "2026-03-29T00:00:00+01:00"
                                       << "2026-03-30T00:00:00+02:00" << qint64(23);
    // Berlin fall back 2026-10-25 03:00 CEST -> 02:00 CET: a 25 h day.
    QTest::newRow("berlin autumn day") << "Europe/Berlin"
                                       << "day"
                                       << "2026-10-25T02:30:00+01:00"
                                       << "2026-10-25T00:00:00+02:00"
                                       << "2026-10-26T00:00:00+01:00" << qint64(25);
    QTest::newRow("new york spring day") << "America/New_York"
                                         << "day"
                                         << "2026-03-08T12:00:00-04:00"
                                         << "2026-03-08T00:00:00-05:00"
                                         << "2026-03-09T00:00:00-04:00" << qint64(23);
    QTest::newRow("new york autumn day") << "America/New_York"
                                         << "day"
                                         << "2026-11-01T01:30:00-05:00"
                                         << "2026-11-01T00:00:00-04:00"
                                         << "2026-11-02T00:00:00-05:00" << qint64(25);
    // The repeated hour 01:00-02:00 in New York is two separate local hours.
    QTest::newRow("new york repeated hour, first") << "America/New_York"
                                                   << "hour"
                                                   << "2026-11-01T01:30:00-04:00"
                                                   << "2026-11-01T01:00:00-04:00"
                                                   << "2026-11-01T01:00:00-05:00" << qint64(1);
    QTest::newRow("new york repeated hour, second") << "America/New_York"
                                                    << "hour"
                                                    << "2026-11-01T01:30:00-05:00"
                                                    << "2026-11-01T01:00:00-05:00"
                                                    << "2026-11-01T02:00:00-05:00" << qint64(1);
    QTest::newRow("kolkata hour at :30 utc") << "Asia/Kolkata"
                                             << "hour"
                                             << "2026-01-01T10:10:00Z"
                                             << "2026-01-01T15:00:00+05:30"
                                             << "2026-01-01T16:00:00+05:30" << qint64(1);
    QTest::newRow("leap day") << "UTC"
                              << "day"
                              << "2028-02-29T23:59:59Z"
                              << "2028-02-29T00:00:00Z"
                              << "2028-03-01T00:00:00Z" << qint64(24);
    QTest::newRow("leap february") << "UTC"
                                   << "month"
                                   << "2028-02-15T00:00:00Z"
                                   << "2028-02-01T00:00:00Z"
                                   << "2028-03-01T00:00:00Z" << qint64(29 * 24);
    QTest::newRow("berlin march month has 743 h") << "Europe/Berlin"
                                                  << "month"
                                                  << "2026-03-31T23:59:59+02:00"
                                                  << "2026-03-01T00:00:00+01:00"
                                                  << "2026-04-01T00:00:00+02:00" << qint64(31 * 24 - 1);
    QTest::newRow("iso week starts monday") << "UTC"
                                            << "week"
                                            << "2026-03-01T10:00:00Z"
                                            << "2026-02-23T00:00:00Z"
                                            << "2026-03-02T00:00:00Z" << qint64(168);
    QTest::newRow("week across new year") << "Europe/Berlin"
                                          << "week"
                                          << "2027-01-01T00:00:00+01:00"
                                          << "2026-12-28T00:00:00+01:00"
                                          << "2027-01-04T00:00:00+01:00" << qint64(168);
    QTest::newRow("berlin dst week") << "Europe/Berlin"
                                     << "week"
                                     << "2026-03-29T23:00:00+02:00"
                                     << "2026-03-23T00:00:00+01:00"
                                     << "2026-03-30T00:00:00+02:00" << qint64(167);
    QTest::newRow("exact start belongs to the period") << "Europe/Berlin"
                                                       << "day"
                                                       << "2026-03-29T00:00:00+01:00"
                                                       << "2026-03-29T00:00:00+01:00"
                                                       << "2026-03-30T00:00:00+02:00" << qint64(23);
    QTest::newRow("one second before midnight") << "America/New_York"
                                                << "day"
                                                << "2026-06-30T23:59:59-04:00"
                                                << "2026-06-30T00:00:00-04:00"
                                                << "2026-07-01T00:00:00-04:00" << qint64(24);
}

void TestTimeWindow::periodContaining() {
    QFETCH(QString, zone);
    QFETCH(QString, period);
    QFETCH(QString, at);
    QFETCH(QString, start);
    QFETCH(QString, end);
    QFETCH(qint64, hours);
    const auto tz = parseZone(zone);
    QVERIFY(tz);
    const auto p = parsePeriod(period);
    QVERIFY(p);
    const TimeRange r = gq::periodContaining(t(qPrintable(at)), *p, *tz);
    QCOMPARE(gq::formatInstant(r.start, *tz), start);
    QCOMPARE(gq::formatInstant(r.end, *tz), end);
    QCOMPARE(r.seconds(), hours * 3600);
}

void TestTimeWindow::periodsCovering_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("period");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QStringList>("starts");
    QTest::newRow("three berlin days over dst")
        << "Europe/Berlin"
        << "day"
        << "2026-03-28T12:00:00Z"
        << "2026-03-30T01:00:00Z"
        << QStringList{"2026-03-28T00:00:00+01:00", "2026-03-29T00:00:00+01:00", "2026-03-30T00:00:00+02:00"};
    QTest::newRow("end is exclusive")
        << "UTC"
        << "day"
        << "2026-01-01T00:00:00Z"
        << "2026-01-03T00:00:00Z" << QStringList{"2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"};
    QTest::newRow("months over leap feb")
        << "UTC"
        << "month"
        << "2028-01-31T00:00:00Z"
        << "2028-03-01T00:00:01Z"
        << QStringList{"2028-01-01T00:00:00Z", "2028-02-01T00:00:00Z", "2028-03-01T00:00:00Z"};
    QTest::newRow("empty") << "UTC"
                           << "day"
                           << "2026-01-02T00:00:00Z"
                           << "2026-01-02T00:00:00Z" << QStringList{};
}

void TestTimeWindow::periodsCovering() {
    QFETCH(QString, zone);
    QFETCH(QString, period);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QStringList, starts);
    const auto tz = parseZone(zone);
    QVERIFY(tz);
    QStringList got;
    const auto ranges =
        gq::periodsCovering(t(qPrintable(from)), t(qPrintable(to)), *parsePeriod(period), *tz);
    for (const TimeRange &r : ranges)
        got << gq::formatInstant(r.start, *tz);
    QCOMPARE(got, starts);
    for (size_t i = 1; i < ranges.size(); ++i)
        QCOMPARE(ranges[i].start, ranges[i - 1].end);
}

// periodCount() is what periodsCovering().size() would be, without building anything:
// exact for calendar periods, for hours off by at most one per DST shift in the range
// (two in a year).
void TestTimeWindow::periodCountMatchesCovering() {
    const char *zones[] = {"UTC", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe", "America/St_Johns"};
    const qint64 base = t("2025-12-30T07:13:00Z");
    for (const char *zone : zones) {
        const auto tz = parseZone(QString::fromLatin1(zone));
        QVERIFY(tz);
        for (const Period p : {Period::Hour, Period::Day, Period::Week, Period::Month}) {
            for (qint64 from = base; from < base + 400 * 86400; from += 29 * 86400 + 3 * 3599) {
                for (const qint64 span : {qint64(1), qint64(3600), qint64(86399), qint64(9 * 86400 + 1800),
                                          qint64(95 * 86400), qint64(370 * 86400)}) {
                    const qint64 covering = qint64(gq::periodsCovering(from, from + span, p, *tz).size());
                    const qint64 counted = periodCount(from, from + span, p, *tz);
                    const QString where = QStringLiteral("%1 %2 from %3 span %4: counted %5, covering %6")
                                              .arg(QLatin1String(zone), periodName(p), formatInstantUtc(from))
                                              .arg(span)
                                              .arg(counted)
                                              .arg(covering);
                    if (p == Period::Hour)
                        QVERIFY2(std::abs(counted - covering) <= 2, qPrintable(where));
                    else
                        QVERIFY2(counted == covering, qPrintable(where));
                }
            }
        }
    }
    QCOMPARE(periodCount(10, 10, Period::Day, *parseZone(QStringLiteral("UTC"))), qint64(0));
    QCOMPARE(periodCount(t("0001-01-01T00:00:00Z"), t("9999-12-31T00:00:00Z"), Period::Hour,
                         *parseZone(QStringLiteral("UTC"))),
             qint64(87649392));
}

void TestTimeWindow::parseInstant_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("epoch");
    QTest::newRow("zulu") << "2026-03-29T00:30:00Z" << qint64(1774744200);
    QTest::newRow("offset") << "2026-03-29T02:30:00+02:00" << qint64(1774744200);
    QTest::newRow("negative offset") << "2026-03-28T20:30:00-04:00" << qint64(1774744200);
    QTest::newRow("fraction truncated") << "2026-03-29T00:30:00.999Z" << qint64(1774744200);
    QTest::newRow("epoch") << "1970-01-01T00:00:00Z" << qint64(0);
    QTest::newRow("leap day") << "2028-02-29T12:00:00Z" << qint64(1835438400);
}

void TestTimeWindow::parseInstant() {
    QFETCH(QString, text);
    QFETCH(qint64, epoch);
    const auto r = gq::parseInstant(text);
    QVERIFY2(r, r ? "" : qPrintable(r.error().message));
    QCOMPARE(*r, epoch);
}

void TestTimeWindow::formatInstant() {
    QCOMPARE(gq::formatInstant(1774744200, *parseZone(QStringLiteral("Europe/Berlin"))),
             QStringLiteral("2026-03-29T01:30:00+01:00"));
    QCOMPARE(gq::formatInstant(1774744200, *parseZone(QStringLiteral("Asia/Kathmandu"))),
             QStringLiteral("2026-03-29T06:15:00+05:45"));
    QCOMPARE(gq::formatInstantUtc(1774744200), QStringLiteral("2026-03-29T00:30:00Z"));
}

void TestTimeWindow::parseDuration_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("seconds");
    QTest::newRow("15m") << "15m" << qint64(900);
    QTest::newRow("1h30m") << "1h30m" << qint64(5400);
    QTest::newRow("2d") << "2d" << qint64(172800);
    QTest::newRow("plain") << "90" << qint64(90);
    QTest::newRow("zero") << "0s" << qint64(0);
}

void TestTimeWindow::parseDuration() {
    QFETCH(QString, text);
    QFETCH(qint64, seconds);
    const auto r = gq::parseDuration(text);
    QVERIFY(r);
    QCOMPARE(*r, seconds);
    QCOMPARE(*gq::parseDuration(formatDuration(seconds)), seconds);
}

void TestTimeWindow::badInput() {
    auto e1 = gq::parseInstant(QStringLiteral("2026-03-29T00:30:00"), QStringLiteral("start"));
    QVERIFY(!e1);
    QCOMPARE(e1.error().field, QStringLiteral("start"));
    QVERIFY(e1.error().message.contains(QStringLiteral("RFC 3339")));
    QVERIFY(!gq::parseInstant(QStringLiteral("2026-02-30T00:00:00Z")));
    QVERIFY(!gq::parseInstant(QStringLiteral("yesterday")));
    auto e2 = parseZone(QStringLiteral("Mars/Olympus"));
    QVERIFY(!e2);
    QVERIFY(e2.error().message.contains(QStringLiteral("Mars/Olympus")));
    auto e3 = parsePeriod(QStringLiteral("fortnight"));
    QVERIFY(!e3);
    QCOMPARE(e3.error().field, QStringLiteral("period"));
    QVERIFY(!gq::parseDuration(QStringLiteral("15 minutes")));
    QVERIFY(!gq::parseDuration(QStringLiteral("-5")));
}

QTEST_GUILESS_MAIN(TestTimeWindow)
#include "tst_timewindow.moc"
