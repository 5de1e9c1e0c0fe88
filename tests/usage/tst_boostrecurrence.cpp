#include "core/usage/boosts.h"
#include "core/usage/timewindow.h"

#include <QtTest>

using namespace gq;

// BoostRecurrence: the windows of a recurring boost, computed in its zone.
class TestBoostRecurrence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void occurrences_data();
    void occurrences();
    void rejects_data();
    void rejects();
    void catchUpAfterAnOutage_data();
    void catchUpAfterAnOutage();
};

static qint64 t(const char *rfc3339) {
    return *parseInstant(QString::fromLatin1(rfc3339));
}

void TestBoostRecurrence::occurrences_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("window");
    QTest::addColumn<QString>("tz");
    QTest::addColumn<qint64>("after");
    QTest::addColumn<qint64>("until");
    QTest::addColumn<QString>("expected"); // "start/end" in UTC, or "" for none
    const qint64 far = t("2027-01-01T00:00:00Z");
    QTest::newRow("tonight") << "nightly"
                             << "20:00-08:00"
                             << "UTC" << t("2026-06-01T12:00:00Z") << far
                             << "2026-06-01T20:00:00Z/2026-06-02T08:00:00Z";
    QTest::newRow("inside last night's window")
        << "nightly"
        << "20:00-08:00"
        << "UTC" << t("2026-06-02T03:00:00Z") << far << "2026-06-02T03:00:00Z/2026-06-02T08:00:00Z";
    QTest::newRow("spring forward night is an hour shorter")
        << "nightly"
        << "20:00-08:00"
        << "Europe/Berlin" << t("2026-03-28T12:00:00Z") << far << "2026-03-28T19:00:00Z/2026-03-29T06:00:00Z";
    QTest::newRow("fall back night is an hour longer")
        << "nightly"
        << "20:00-08:00"
        << "Europe/Berlin" << t("2026-10-24T12:00:00Z") << far << "2026-10-24T18:00:00Z/2026-10-25T07:00:00Z";
    // 2026-06-05 is a Friday.
    QTest::newRow("weekends skip to Saturday")
        << "weekends"
        << "00:00-00:00"
        << "UTC" << t("2026-06-05T12:00:00Z") << far << "2026-06-06T00:00:00Z/2026-06-07T00:00:00Z";
    QTest::newRow("weekdays skip the weekend")
        << "weekdays"
        << "09:00-17:00"
        << "UTC" << t("2026-06-06T12:00:00Z") << far << "2026-06-08T09:00:00Z/2026-06-08T17:00:00Z";
    QTest::newRow("clipped by until") << "nightly"
                                      << "20:00-08:00"
                                      << "UTC" << t("2026-06-01T12:00:00Z") << t("2026-06-02T01:00:00Z")
                                      << "2026-06-01T20:00:00Z/2026-06-02T01:00:00Z";
    QTest::newRow("none left") << "nightly"
                               << "20:00-08:00"
                               << "UTC" << t("2026-06-01T12:00:00Z") << t("2026-06-01T20:00:00Z") << "";
}

void TestBoostRecurrence::occurrences() {
    QFETCH(QString, kind);
    QFETCH(QString, window);
    QFETCH(QString, tz);
    QFETCH(qint64, after);
    QFETCH(qint64, until);
    QFETCH(QString, expected);
    auto r = BoostRecurrence::make(kind, window, tz, until);
    QVERIFY2(r, r ? "" : qPrintable(r.error().message));
    const auto occ = r->nextOccurrence(after, after);
    const QString got =
        occ ? formatInstantUtc(occ->first) + QLatin1Char('/') + formatInstantUtc(occ->second) : QString();
    QCOMPARE(got, expected);
}

void TestBoostRecurrence::rejects_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("window");
    QTest::addColumn<QString>("tz");
    QTest::addColumn<QString>("field");
    QTest::newRow("kind") << "hourly"
                          << "20:00-08:00"
                          << "UTC"
                          << "recur";
    QTest::newRow("window words") << "nightly"
                                  << "8pm-8am"
                                  << "UTC"
                                  << "window";
    QTest::newRow("window hour 24") << "nightly"
                                    << "24:00-08:00"
                                    << "UTC"
                                    << "window";
    QTest::newRow("zone") << "nightly"
                          << "20:00-08:00"
                          << "Mars/Olympus"
                          << "tz";
}

void TestBoostRecurrence::rejects() {
    QFETCH(QString, kind);
    QFETCH(QString, window);
    QFETCH(QString, tz);
    QFETCH(QString, field);
    auto r = BoostRecurrence::make(kind, window, tz, t("2027-01-01T00:00:00Z"));
    QVERIFY(!r);
    QCOMPARE(r.error().field, field);
}

// The last window ended at `after` (the night of 1-2 June); no reconcile ran until `now`.
void TestBoostRecurrence::catchUpAfterAnOutage_data() {
    QTest::addColumn<qint64>("now");
    QTest::addColumn<QString>("expected"); // the window right at `now`, "" for none
    QTest::addColumn<int>("missed");
    QTest::newRow("no outage: the next night")
        << t("2026-06-02T08:00:00Z") << "2026-06-02T20:00:00Z/2026-06-03T08:00:00Z" << 0;
    QTest::newRow("inside the next night")
        << t("2026-06-02T23:00:00Z") << "2026-06-02T20:00:00Z/2026-06-03T08:00:00Z" << 0;
    QTest::newRow("9 nights later, inside a window")
        << t("2026-06-11T23:00:00Z") << "2026-06-11T20:00:00Z/2026-06-12T08:00:00Z" << 9;
    QTest::newRow("9 nights later, in the day")
        << t("2026-06-11T12:00:00Z") << "2026-06-11T20:00:00Z/2026-06-12T08:00:00Z" << 9;
    QTest::newRow("at the end of a window")
        << t("2026-06-11T08:00:00Z") << "2026-06-11T20:00:00Z/2026-06-12T08:00:00Z" << 9;
    QTest::newRow("past the last window") << t("2026-06-20T12:00:00Z") << "" << 13;
}

void TestBoostRecurrence::catchUpAfterAnOutage() {
    QFETCH(qint64, now);
    QFETCH(QString, expected);
    QFETCH(int, missed);
    auto r = BoostRecurrence::make(QStringLiteral("nightly"), QStringLiteral("20:00-08:00"),
                                   QStringLiteral("UTC"), t("2026-06-15T12:00:00Z"));
    QVERIFY(r);
    int skipped = -1;
    const auto occ = r->occurrenceAt(now, t("2026-06-02T08:00:00Z"), &skipped);
    const QString got =
        occ ? formatInstantUtc(occ->first) + QLatin1Char('/') + formatInstantUtc(occ->second) : QString();
    QCOMPARE(got, expected);
    QCOMPARE(skipped, missed);
}

QTEST_GUILESS_MAIN(TestBoostRecurrence)
#include "tst_boostrecurrence.moc"
