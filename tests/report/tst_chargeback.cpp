#include "core/report/chargeback.h"
#include "core/report/chargebackformat.h"
#include "core/report/money.h"
#include "core/report/ratecard.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTest>

using namespace gq;

// The chargeback's arithmetic and its inputs, without a database: what a finance
// reader checks on paper (columns add up to the totals, cost = hours x rate, rounded
// once) and what a wrong rates file is told (the key and the line).
class TestChargeback : public QObject {
    Q_OBJECT
private slots:
    void rates_data();
    void rates();
    void costRoundsHalfUpOnce();
    void hoursAreTheUsageDigits();
    void rateCard();
    void rateCardErrors_data();
    void rateCardErrors();
    void months_data();
    void months();
    void badMonths();
    void linesSortByCostAndAddUp();
    void mixedRatesAverageByHours();
    void modelRates();
    void modelRatesChargeEachPart();
    void idleShare();
    void csvIsExact();
    void emptyMonth();
};

static ChargebackMonth nov(const char *zone = "UTC") {
    return *parseChargebackMonth(QStringLiteral("2026-11"), *parseZone(QString::fromLatin1(zone)));
}

void TestChargeback::rates_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("micros");
    QTest::addColumn<QString>("shown");
    QTest::newRow("2.50") << "2.50" << qint64(2500000) << "2.50";
    QTest::newRow("integer") << "3" << qint64(3000000) << "3.00";
    QTest::newRow("eighth") << "0.125" << qint64(125000) << "0.125";
    QTest::newRow("six places") << "0.357143" << qint64(357143) << "0.357143";
    QTest::newRow("zero") << "0" << qint64(0) << "0.00";
    QTest::newRow("padded") << " 1.2 " << qint64(1200000) << "1.20";
    QTest::newRow("negative") << "-1" << qint64(-1) << "";
    QTest::newRow("seven places") << "0.1234567" << qint64(-1) << "";
    QTest::newRow("comma") << "2,50" << qint64(-1) << "";
    QTest::newRow("exponent") << "1e3" << qint64(-1) << "";
    QTest::newRow("empty") << "" << qint64(-1) << "";
    QTest::newRow("absurd") << "2000000" << qint64(-1) << "";
}

void TestChargeback::rates() {
    QFETCH(QString, text);
    QFETCH(qint64, micros);
    QFETCH(QString, shown);
    auto r = parseRateMicros(text, QStringLiteral("--rate"));
    if (micros < 0) {
        QVERIFY(!r);
        QCOMPARE(r.error().field, QStringLiteral("--rate"));
        return;
    }
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    QCOMPARE(*r, micros);
    QCOMPARE(formatRate(*r), shown);
}

void TestChargeback::costRoundsHalfUpOnce() {
    QCOMPARE(costCents(10000, 2500000), qint64(250)); // 1 h x 2.50
    QCOMPARE(costCents(12345, 2500000), qint64(309)); // 1.2345 x 2.5 = 3.08625 -> 3.09
    QCOMPARE(costCents(12344, 2500000), qint64(309)); // 3.086 -> 3.09
    QCOMPARE(costCents(12340, 2500000), qint64(309)); // 3.085 -> 3.09 (half up)
    QCOMPARE(costCents(12339, 2500000), qint64(308)); // 3.08475 -> 3.08
    QCOMPARE(costCents(1, 1), qint64(0));
    // A large month at a large rate does not overflow: 10^8 GPU-hours at 999999.99.
    QCOMPARE(costCents(qint64(100000000) * 10000, 999999990000LL), qint64(9999999900000000LL));
    QCOMPARE(formatCents(123456), QStringLiteral("1234.56"));
    QCOMPARE(formatCents(5), QStringLiteral("0.05"));
}

void TestChargeback::hoursAreTheUsageDigits() {
    for (double h : {0.0, 1.0, 2.00005, 123.45675, 1.0 / 3, 1e6 + 0.00015, 7.99995})
        QCOMPARE(formatHoursE4(hoursE4(h)), QString::number(h, 'f', 4));
}

void TestChargeback::rateCard() {
    const QByteArray yaml = "# rates\n"
                            "currency: EUR\n"
                            "default: 2.50\n"
                            "resources:\n"
                            "  nvidia.com/gpu: 2.50\n"
                            "  nvidia.com/mig-1g.10gb: 1.2\n";
    auto card = parseRateCard(yaml);
    QVERIFY2(card, qPrintable(card ? QString() : card.error().toString()));
    QCOMPARE(card->currency, QStringLiteral("EUR"));
    QCOMPARE(card->defaultMicros, qint64(2500000));
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/mig-1g.10gb")), qint64(1200000));
    QCOMPARE(card->rateFor(QStringLiteral("example.com/tpu")), qint64(2500000));
    QVERIFY(!card->isFlat());
    // Every resource at the default is flat: no split by resource needed.
    auto flat = parseRateCard("default: 2\nresources:\n  nvidia.com/gpu: 2.0\n");
    QVERIFY(flat);
    QVERIFY(flat->isFlat());
    QCOMPARE(rateSummary(*card),
             QStringLiteral("default 2.50; nvidia.com/mig-1g.10gb 1.20 EUR per GPU-hour"));
    QCOMPARE(rateSummary(RateCard::flat(2500000)), QStringLiteral("2.50 per GPU-hour"));
}

void TestChargeback::rateCardErrors_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("says");
    QTest::newRow("bad rate") << QByteArray("default: 2.5\nresources:\n  nvidia.com/gpu: abc\n")
                              << "resources.nvidia.com/gpu" << 3 << "got 'abc'";
    QTest::newRow("negative default") << QByteArray("# c\ndefault: -2\n") << "default" << 2 << "non-negative";
    QTest::newRow("unknown key") << QByteArray("default: 2\nrate: 3\n") << "rate" << 2
                                 << "unknown key 'rate'";
    QTest::newRow("bad model rate") << QByteArray("default: 2\nmodels:\n  Tesla-T4: cheap\n")
                                    << "models.Tesla-T4" << 3 << "got 'cheap'";
    QTest::newRow("models a list") << QByteArray("default: 2\nmodels:\n  - H100\n") << "models" << 2
                                   << "map GPU models";
    QTest::newRow("no default") << QByteArray("resources:\n  nvidia.com/gpu: 2\n") << "default" << 1
                                << "'default' is required";
    QTest::newRow("resources a list")
        << QByteArray("default: 2\nresources:\n  - 2\n") << "resources" << 2 << "map resource names";
    QTest::newRow("rate a map") << QByteArray("default:\n  x: 1\n") << "default" << 2 << "must be a number";
    QTest::newRow("not a map") << QByteArray("- 2\n") << "" << 1 << "is a map";
}

void TestChargeback::rateCardErrors() {
    QFETCH(QByteArray, yaml);
    QFETCH(QString, field);
    QFETCH(int, line);
    QFETCH(QString, says);
    auto card = parseRateCard(yaml);
    QVERIFY(!card);
    QCOMPARE(card.error().field, field);
    QCOMPARE(card.error().line, line);
    QVERIFY2(card.error().message.contains(says), qPrintable(card.error().message));
}

void TestChargeback::months_data() {
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("month");
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::newRow("UTC") << "UTC"
                         << "2026-11"
                         << "2026-11-01T00:00:00Z"
                         << "2026-12-01T00:00:00Z";
    QTest::newRow("Berlin, DST ends in October") << "Europe/Berlin"
                                                 << "2026-10"
                                                 << "2026-10-01T00:00:00+02:00"
                                                 << "2026-11-01T00:00:00+01:00";
    QTest::newRow("New York December") << "America/New_York"
                                       << "2026-12"
                                       << "2026-12-01T00:00:00-05:00"
                                       << "2027-01-01T00:00:00-05:00";
}

void TestChargeback::months() {
    QFETCH(QString, zone);
    QFETCH(QString, month);
    QFETCH(QString, from);
    QFETCH(QString, to);
    const QTimeZone tz = *parseZone(zone);
    auto m = parseChargebackMonth(month, tz);
    QVERIFY(m);
    QCOMPARE(m->label(), month);
    QCOMPARE(formatInstant(m->range.start, tz), from);
    QCOMPARE(formatInstant(m->range.end, tz), to);
    const ChargebackMonth before = previousMonth(m->range.end + 3600, tz);
    QCOMPARE(before.label(), month);
}

void TestChargeback::badMonths() {
    for (const char *bad : {"2026-13", "2026-00", "2026-1", "26-11", "2026/11", "", "November"}) {
        auto m = parseChargebackMonth(QString::fromLatin1(bad), QTimeZone::utc());
        QVERIFY2(!m, bad);
        QCOMPARE(m.error().field, QStringLiteral("--month"));
    }
}

void TestChargeback::linesSortByCostAndAddUp() {
    const QMap<QString, double> hours{{QStringLiteral("team-a"), 10.00004},
                                      {QStringLiteral("team-b"), 120.5},
                                      {QStringLiteral("team-c"), 10.00004},
                                      {QStringLiteral("team-d"), 0.33333}};
    const ChargebackReport r =
        computeChargeback(GroupBy::Namespace, nov(), RateCard::flat(2500000), {hours, {}, {}}, 0);
    QStringList order;
    for (const ChargebackLine &l : r.lines)
        order << l.subject;
    QCOMPARE(order, (QStringList{QStringLiteral("team-b"), QStringLiteral("team-a"), QStringLiteral("team-c"),
                                 QStringLiteral("team-d")}));
    qint64 h = 0, c = 0;
    for (const ChargebackLine &l : r.lines) {
        h += l.hoursE4;
        c += l.costCents;
        QCOMPARE(l.costCents, costCents(l.hoursE4, 2500000));
    }
    QCOMPARE(r.totalHoursE4, h);
    QCOMPARE(r.totalCents, c);
    QCOMPARE(formatHoursE4(r.totalHoursE4), QStringLiteral("140.8333")); // 120.5 + 2 x 10.0000 + 0.3333
    QCOMPARE(formatCents(r.totalCents), QStringLiteral("352.08"));       // 301.25 + 2 x 25.00 + 0.83
}

static RatedHours part(const char *resource, const char *model, double hours) {
    RatedHours p;
    p.resource = QString::fromLatin1(resource);
    p.model = QString::fromLatin1(model);
    p.gpuHours = hours;
    return p;
}

void TestChargeback::mixedRatesAverageByHours() {
    RateCard card = RateCard::flat(2000000);
    card.resourceMicros.insert(QStringLiteral("nvidia.com/mig-1g.10gb"), 1000000);
    ChargebackInputs in;
    in.gpuHours = {{QStringLiteral("alice"), 4}, {QStringLiteral("bob"), 2}};
    in.parts = {
        {QStringLiteral("alice"), {part("nvidia.com/gpu", "", 3), part("nvidia.com/mig-1g.10gb", "", 1)}},
        {QStringLiteral("bob"), {part("nvidia.com/mig-1g.10gb", "", 2)}}};
    const ChargebackReport r = computeChargeback(GroupBy::User, nov(), card, in, 0);
    QCOMPARE(r.lines.size(), 2);
    QCOMPARE(r.lines[0].subject, QStringLiteral("alice"));
    QVERIFY(r.lines[0].mixedRate);
    QCOMPARE(r.lines[0].rateMicros, qint64(1750000)); // (3 x 2 + 1 x 1) / 4
    QCOMPARE(r.lines[0].costCents, qint64(700));
    QVERIFY(!r.lines[1].mixedRate); // one resource: its own rate, not an average
    QCOMPARE(r.lines[1].rateMicros, qint64(1000000));
    QCOMPARE(r.lines[1].costCents, qint64(200));
}

// A rate per GPU model beats the resource's, which beats the default.
void TestChargeback::modelRates() {
    auto card = parseRateCard("currency: EUR\n"
                              "default: 2.50\n"
                              "resources:\n"
                              "  nvidia.com/mig-1g.10gb: 1.20\n"
                              "models:\n"
                              "  NVIDIA-H100-80GB-HBM3: 4.00\n"
                              "  Tesla-T4: 0.9\n");
    QVERIFY2(card, qPrintable(card ? QString() : card.error().toString()));
    QCOMPARE(card->modelMicros.size(), 2);
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/gpu")), qint64(2500000));
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/gpu"), QStringLiteral("Tesla-T4")), qint64(900000));
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/mig-1g.10gb"), QStringLiteral("NVIDIA-H100-80GB-HBM3")),
             qint64(4000000)); // model > resource
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/mig-1g.10gb"), QStringLiteral("NVIDIA-A100")),
             qint64(1200000)); // an unpriced model: the resource's rate
    QCOMPARE(card->rateFor(QStringLiteral("nvidia.com/gpu"), QStringLiteral("NVIDIA-A100")), qint64(2500000));
    QVERIFY(!card->isFlat());
    QCOMPARE(rateSummary(*card), QStringLiteral("default 2.50; nvidia.com/mig-1g.10gb 1.20; model "
                                                "NVIDIA-H100-80GB-HBM3 4.00; model Tesla-T4 0.90 EUR per "
                                                "GPU-hour"));
    // A model at the default rate changes nothing.
    auto flat = parseRateCard("default: 2\nmodels:\n  Tesla-T4: 2.00\n");
    QVERIFY(flat);
    QVERIFY(flat->isFlat());
}

// Cost = the sum of each (resource, model) part's hours x its rate, rounded once; the
// parts add up to the printed hours; `rate` in the CSV is the effective rate.
void TestChargeback::modelRatesChargeEachPart() {
    RateCard card = RateCard::flat(2500000);
    card.modelMicros.insert(QStringLiteral("H100"), 4000000);
    card.modelMicros.insert(QStringLiteral("T4"), 900000);
    ChargebackInputs in;
    // team-a: 3.0001 h by the usage query; its parts read 1.00004 h on H100 and 2 h on
    // T4 (1.0000 + 2.0000 printed), so the missing 0.0001 h goes to the largest part.
    in.gpuHours = {{QStringLiteral("team-a"), 3.0001}, {QStringLiteral("team-b"), 2}};
    in.parts = {{QStringLiteral("team-a"),
                 {part("nvidia.com/gpu", "H100", 1.00004), part("nvidia.com/gpu", "T4", 2)}},
                {QStringLiteral("team-b"), {part("nvidia.com/gpu", "", 2)}}};
    const ChargebackReport r = computeChargeback(GroupBy::Namespace, nov(), card, in, 0);
    QCOMPARE(r.lines.size(), 2);
    const ChargebackLine &a = r.lines[0];
    QCOMPARE(a.subject, QStringLiteral("team-a"));
    QVERIFY(a.mixedRate);
    QCOMPARE(a.parts.size(), 2);
    QCOMPARE(a.parts[0].hoursE4, qint64(10000));
    QCOMPARE(a.parts[0].rateMicros, qint64(4000000));
    QCOMPARE(a.parts[1].hoursE4, qint64(20001));
    QCOMPARE(a.parts[1].rateMicros, qint64(900000));
    QCOMPARE(a.hoursE4, a.parts[0].hoursE4 + a.parts[1].hoursE4);
    // 1.0000 x 4.00 + 2.0001 x 0.90 = 5.80009 -> 5.80 (not 3.0001 x one rate)
    QCOMPARE(a.costCents, qint64(580));
    QCOMPARE(a.rateMicros, qint64(1933299)); // 5.80009 / 3.0001
    const ChargebackLine &b = r.lines[1];
    QVERIFY(!b.mixedRate);
    QCOMPARE(b.rateMicros, qint64(2500000)); // no model recorded: the default
    QCOMPARE(b.costCents, qint64(500));
    QCOMPARE(QString::fromUtf8(chargebackCsv(r)), QStringLiteral("subject,gpu_hours,rate,cost\n"
                                                                 "team-a,3.0001,1.9333,5.80\n"
                                                                 "team-b,2.0000,2.50,5.00\n"
                                                                 "TOTAL,5.0001,,10.80\n"));
    const QJsonObject row = chargebackJson(r).value(QStringLiteral("rows")).toArray().at(0).toObject();
    QCOMPARE(row.value(QStringLiteral("mixed_rate")).toBool(), true);
    const QJsonArray parts = row.value(QStringLiteral("parts")).toArray();
    QCOMPARE(parts.size(), 2);
    QCOMPARE(parts.at(0).toObject().value(QStringLiteral("model")).toString(), QStringLiteral("H100"));
    QCOMPARE(parts.at(0).toObject().value(QStringLiteral("rate")).toDouble(), 4.0);
    QVERIFY(chargebackTable(r).contains(QStringLiteral("1.9333 eff")));
}

// Used = held - idle for subjects with idle spans; the others say "not recorded".
void TestChargeback::idleShare() {
    ChargebackInputs in;
    in.gpuHours = {
        {QStringLiteral("team-a"), 10}, {QStringLiteral("team-b"), 4}, {QStringLiteral("team-c"), 1}};
    in.idleGpuHours = {{QStringLiteral("team-a"), 2.5}, {QStringLiteral("team-c"), 3}}; // c: more than held
    const ChargebackReport r = computeChargeback(GroupBy::Namespace, nov(), RateCard::flat(1000000), in, 0);
    QVERIFY(r.utilizationRecorded);
    QCOMPARE(r.lines[0].subject, QStringLiteral("team-a"));
    QCOMPARE(*r.lines[0].idleE4, qint64(25000));
    QCOMPARE(*r.lines[0].usedE4(), qint64(75000));
    QCOMPARE(*r.lines[0].idlePerMille(), 250);
    QVERIFY(!r.lines[1].idleE4);
    QVERIFY(!r.lines[1].usedE4());
    QCOMPARE(*r.lines[2].idleE4, qint64(10000)); // never more idle than held
    QCOMPARE(*r.lines[2].usedE4(), qint64(0));
    const QJsonObject json = chargebackJson(r);
    QCOMPARE(json.value(QStringLiteral("utilization")).toString(), QStringLiteral("recorded"));
    const QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
    QCOMPARE(rows.at(0).toObject().value(QStringLiteral("used_gpu_hours")).toDouble(), 7.5);
    QCOMPARE(rows.at(0).toObject().value(QStringLiteral("idle_gpu_hours")).toDouble(), 2.5);
    QCOMPARE(rows.at(0).toObject().value(QStringLiteral("idle_share")).toDouble(), 0.25);
    QVERIFY(rows.at(1).toObject().value(QStringLiteral("idle_share")).isNull());
    const QString table = chargebackTable(r);
    QVERIFY2(table.contains(QRegularExpression(QStringLiteral("team-a .* 7\\.5000 +25\\.0%"))),
             qPrintable(table));
    QVERIFY2(table.contains(QRegularExpression(QStringLiteral("team-b .* not recorded +not recorded"))),
             qPrintable(table));
    // The CSV keeps its four columns.
    QVERIFY(chargebackCsv(r).startsWith("subject,gpu_hours,rate,cost\nteam-a,10.0000,1.00,10.00\n"));
}

void TestChargeback::csvIsExact() {
    const QMap<QString, double> hours{
        {QStringLiteral("team-a"), 1.23456}, {QStringLiteral("=cmd"), 2}, {QStringLiteral("a,b"), 0.5}};
    const ChargebackReport r =
        computeChargeback(GroupBy::Namespace, nov(), RateCard::flat(2500000), {hours, {}, {}}, 0);
    QCOMPARE(QString::fromUtf8(chargebackCsv(r)), QStringLiteral("subject,gpu_hours,rate,cost\n"
                                                                 "\"'=cmd\",2.0000,2.50,5.00\n"
                                                                 "team-a,1.2346,2.50,3.09\n"
                                                                 "\"a,b\",0.5000,2.50,1.25\n"
                                                                 "TOTAL,3.7346,,9.34\n"));
}

void TestChargeback::emptyMonth() {
    const ChargebackReport r = computeChargeback(GroupBy::User, nov(), RateCard::flat(1), {}, 0);
    QCOMPARE(QString::fromUtf8(chargebackCsv(r)),
             QStringLiteral("subject,gpu_hours,rate,cost\nTOTAL,0.0000,,0.00\n"));
    QVERIFY(chargebackTable(r).contains(QStringLiteral("no GPU-hours recorded in 2026-11")));
    QCOMPARE(chargebackJson(r).value(QStringLiteral("utilization")).toString(),
             QStringLiteral("not recorded"));
}

QTEST_GUILESS_MAIN(TestChargeback)
#include "tst_chargeback.moc"
