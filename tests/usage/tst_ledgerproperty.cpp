#include "core/usage/ledger.h"

#include <QRandomGenerator>
#include <QTest>

#include <vector>

using namespace gq;

// Randomized cases checked against an independent, deliberately dumb computation:
// walk every second of the range, look up the local date of that second through
// QDateTime (not through periodContaining), and add the weight of every interval
// that covers it.
class TestLedgerProperty : public QObject {
    Q_OBJECT
private slots:
    void matchesBruteForce_data();
    void matchesBruteForce();
};

void TestLedgerProperty::matchesBruteForce_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("base"); // a day with a DST change or a leap day
    QTest::addColumn<quint32>("seed");
    const struct {
        const char *zone, *base;
    } cases[] = {{"Europe/Berlin", "2026-03-28T00:00:00Z"},
                 {"Europe/Berlin", "2026-10-24T00:00:00Z"},
                 {"America/New_York", "2026-03-07T00:00:00Z"},
                 {"America/New_York", "2026-10-31T00:00:00Z"},
                 {"UTC", "2028-02-28T00:00:00Z"},
                 {"Asia/Kolkata", "2026-05-31T00:00:00Z"}};
    for (const auto &c : cases)
        for (quint32 seed = 1; seed <= 3; ++seed)
            QTest::addRow("%s %s #%u", c.zone, c.base, seed)
                << QString::fromLatin1(c.zone) << QString::fromLatin1(c.base) << seed;
}

void TestLedgerProperty::matchesBruteForce() {
    QFETCH(QString, zone);
    QFETCH(QString, base);
    QFETCH(quint32, seed);
    const QTimeZone tz = *parseZone(zone);
    const qint64 t0 = *parseInstant(base);
    const qint64 span = 3 * 86400;
    QRandomGenerator rng(seed);
    const QStringList resources{QStringLiteral("nvidia.com/gpu"), QStringLiteral("nvidia.com/mig-1g.10gb"),
                                QStringLiteral("nvidia.com/mig-3g.40gb")};
    const QStringList users{QStringLiteral("alice"), QStringLiteral("bob"), QStringLiteral("carol")};
    std::vector<UsageInterval> ivs;
    for (int i = 0; i < 25; ++i) {
        UsageInterval u;
        u.cluster = QStringLiteral("c");
        u.ns = QStringLiteral("ns");
        u.user = users[rng.bounded(users.size())];
        u.podUid = QString::number(i);
        u.resource = resources[rng.bounded(resources.size())];
        u.gpus = 1 + int(rng.bounded(4));
        u.start = t0 - 3600 + qint64(rng.bounded(int(span)));
        if (rng.bounded(5) != 0)
            u.end = u.start + 1 + qint64(rng.bounded(20 * 3600));
        QVERIFY(validateInterval(u));
        ivs.push_back(u);
    }
    const qint64 from = t0 + qint64(rng.bounded(7200)), to = t0 + span - qint64(rng.bounded(7200));
    const qint64 now = t0 + span / 2 + qint64(rng.bounded(86400));
    const ResourceWeights w;

    // Brute force: one step per second, keyed by the local calendar date.
    QMap<QDate, QMap<QString, double>> brute;
    // (Zone offsets change only on whole minutes, so the date is looked up once a minute.)
    QDate day;
    for (qint64 s = from; s < to; ++s) {
        if (s == from || s % 60 == 0)
            day = QDateTime::fromSecsSinceEpoch(s, tz).date();
        for (const UsageInterval &u : ivs) {
            const qint64 end = u.end ? *u.end : now;
            if (s >= u.start && s < end)
                brute[day][u.user] += u.gpus * w.weight(u.resource) / 3600.0;
        }
    }

    const auto fast = gpuHoursByPeriod(ivs, GroupBy::User, from, to, Period::Day, tz, now, w);
    QMap<QDate, QMap<QString, double>> fastByDate;
    for (auto it = fast.cbegin(); it != fast.cend(); ++it)
        fastByDate[QDateTime::fromSecsSinceEpoch(it.key(), tz).date()] = *it;
    QCOMPARE(fastByDate.keys(), brute.keys());
    double total = 0;
    for (auto it = brute.cbegin(); it != brute.cend(); ++it) {
        for (auto u = it->cbegin(); u != it->cend(); ++u) {
            const double f = fastByDate.value(it.key()).value(u.key());
            QVERIFY2(qAbs(f - *u) < 1e-6, qPrintable(QStringLiteral("%1 %2: fast %3 brute %4")
                                                         .arg(it.key().toString(Qt::ISODate), u.key())
                                                         .arg(f)
                                                         .arg(*u)));
            total += *u;
        }
    }
    // And the window total equals the plain sum over the whole range.
    QVERIFY(qAbs(gpuHours(ivs, TimeRange{from, to}, now, w) - total) < 1e-6);
    QVERIFY(total > 0); // the generator must produce something to compare
}

QTEST_GUILESS_MAIN(TestLedgerProperty)
#include "tst_ledgerproperty.moc"
