// Replays every input kept in fuzz/regressions/quantity/ (crashers the fuzzer found and
// hand-picked edge cases) through the same property check the fuzzer runs, so a fixed
// bug stays fixed in the ordinary test run, without clang or libFuzzer.
#include "tests/coretestdata.h"
#include "fuzz/quantity_properties.h"

#include <QFile>
#include <QTest>

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void quantity_data();
    void quantity();
    void knownOutcomes_data();
    void knownOutcomes();
};

void TestFuzzRegressions::quantity_data() {
    gq::test::addFuzzRegressionRows(QStringLiteral("quantity"));
}

void TestFuzzRegressions::quantity() {
    QFETCH(QByteArray, bytes);
    const QString input = QString::fromUtf8(bytes);
    const QString problem = gq::fuzz::checkQuantityProperties(input);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestFuzzRegressions::knownOutcomes_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected"); // canonical text, or "error: <fragment>"
    QTest::newRow("cap") << QStringLiteral("binary-cap-9Ei") << QStringLiteral("9223372036854775807");
    QTest::newRow("cap beyond int128")
        << QStringLiteral("binary-beyond-int128-capped") << QStringLiteral("9223372036854775807");
    QTest::newRow("tiny negative") << QStringLiteral("tiny-negative-rounds-away") << QStringLiteral("-1e-9");
    QTest::newRow("max") << QStringLiteral("max-nanos")
                         << QStringLiteral("170141183460469231731687303715884105727n");
    QTest::newRow("max+1") << QStringLiteral("max-nanos-plus-one") << QStringLiteral("error: out of range");
    QTest::newRow("int32 wrap") << QStringLiteral("exponent-wraps-in-int32")
                                << QStringLiteral("error: out of range");
    QTest::newRow("nbsp") << QStringLiteral("nbsp-whitespace") << QStringLiteral("error: whitespace");
    QTest::newRow("nul") << QStringLiteral("embedded-nul") << QStringLiteral("error: unexpected character");
    QTest::newRow("long fraction") << QStringLiteral("long-fraction") << QStringLiteral("1n");
    QTest::newRow("beyond E") << QStringLiteral("decimal-beyond-E") << QStringLiteral("1e24");
}

void TestFuzzRegressions::knownOutcomes() {
    // Guards against a vacuous replay: these files must still mean what they were kept for.
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QFile f(gq::test::fuzzRegressionDir(QStringLiteral("quantity")) + u'/' + file);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    const auto r = gq::Quantity::parse(QString::fromUtf8(f.readAll()));
    if (expected.startsWith(QStringLiteral("error: "))) {
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(expected.mid(7)), qPrintable(r.error().message));
    } else {
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r->toString(), expected);
    }
}

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
