// The text exposition parser: what it reads, what it reports and where, and the
// fuzzer's properties on every input kept in fuzz/regressions/exposition/.
#include "tests/coretestdata.h"
#include "core/metrics/exposition.h"
#include "fuzz/exposition_properties.h"

#include <QTest>

#include <cmath>

using namespace gq::metrics;

class TestExposition : public QObject {
    Q_OBJECT
private slots:
    void helpTypeAndComments();
    void labelEscapes();
    void valuesAndTimestamps();
    void blanksTrailingCommaAndCrlf();
    void malformedLinesAreReportedAndSkipped_data();
    void malformedLinesAreReportedAndSkipped();
    void duplicateSeries();
    void invalidUtf8();
    void issueCap();
    void regressions_data();
    void regressions();
};

void TestExposition::helpTypeAndComments() {
    const Exposition e = parseExposition("# a plain comment\n"
                                         "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                                         "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                                         "#HELP m2 escaped \\\\ backslash and\\nnew line, \\t kept\n"
                                         "# TYPE m2 counter\n"
                                         "# EOF\n"
                                         "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 7\n");
    QCOMPARE(e.issueCount, 0);
    QCOMPARE(e.lines, 7);
    QCOMPARE(e.help.value(QStringLiteral("DCGM_FI_DEV_GPU_UTIL")), QStringLiteral("GPU utilization (in %)."));
    QCOMPARE(e.type.value(QStringLiteral("DCGM_FI_DEV_GPU_UTIL")), QStringLiteral("gauge"));
    QCOMPARE(e.help.value(QStringLiteral("m2")),
             QStringLiteral("escaped \\ backslash and\nnew line, \\t kept"));
    QCOMPARE(e.type.value(QStringLiteral("m2")), QStringLiteral("counter"));
    QCOMPARE(e.samples.size(), 1);
    QCOMPARE(e.samples[0].line, 7);
    QCOMPARE(e.samples[0].value, 7.0);
}

void TestExposition::labelEscapes() {
    const Exposition e = parseExposition("m{a=\"quote \\\" here\",b=\"back\\\\slash\",c=\"two\\nlines\","
                                         "d=\"odd \\q kept\",e=\"\",f=\"ünïcødé 空\"} 1\n");
    QCOMPARE(e.issueCount, 0);
    QCOMPARE(e.samples.size(), 1);
    const Labels &l = e.samples[0].labels;
    QCOMPARE(l.size(), 6);
    QCOMPARE(labelValue(l, u"a"), QStringLiteral("quote \" here"));
    QCOMPARE(labelValue(l, u"b"), QStringLiteral("back\\slash"));
    QCOMPARE(labelValue(l, u"c"), QStringLiteral("two\nlines"));
    QCOMPARE(labelValue(l, u"d"), QStringLiteral("odd \\q kept"));
    QVERIFY(!labelValue(l, u"e").isNull());
    QVERIFY(labelValue(l, u"e").isEmpty());
    QVERIFY(labelValue(l, u"missing").isNull());
    QCOMPARE(labelValue(l, u"f"), QStringLiteral("ünïcødé 空"));
    // Printed back with the same escapes.
    Sample printed;
    printed.name = QStringLiteral("m");
    printed.labels = {{QStringLiteral("a"), QStringLiteral("x\"y\\z\n")}};
    QCOMPARE(seriesText(printed), QStringLiteral("m{a=\"x\\\"y\\\\z\\n\"}"));
}

void TestExposition::valuesAndTimestamps() {
    const Exposition e = parseExposition("a 302.206000\n"
                                         "b NaN\n"
                                         "c +Inf\n"
                                         "d -Inf\n"
                                         "e inf 1700000000000\n"
                                         "f -1.5e-3 -5\n"
                                         "g +12\n"
                                         "h 9223372036854775794\n"
                                         "i nan\n");
    QCOMPARE(e.issueCount, 0);
    QCOMPARE(e.samples.size(), 9);
    QCOMPARE(e.samples[0].value, 302.206);
    QVERIFY(!e.samples[0].timestampMs);
    QVERIFY(std::isnan(e.samples[1].value));
    QVERIFY(std::isinf(e.samples[2].value) && e.samples[2].value > 0);
    QVERIFY(std::isinf(e.samples[3].value) && e.samples[3].value < 0);
    QVERIFY(std::isinf(e.samples[4].value));
    QCOMPARE(*e.samples[4].timestampMs, Q_INT64_C(1700000000000));
    QCOMPARE(e.samples[5].value, -0.0015);
    QCOMPARE(*e.samples[5].timestampMs, Q_INT64_C(-5));
    QCOMPARE(e.samples[6].value, 12.0);
    QCOMPARE(e.samples[7].value, 9223372036854775794.0);
    QVERIFY(std::isnan(e.samples[8].value));
}

void TestExposition::blanksTrailingCommaAndCrlf() {
    const Exposition e = parseExposition("m{ a = \"1\" , b=\"2\", } \t 3 \r\n"
                                         "  n{} 4\r\n"
                                         "\r\n"
                                         "o 5");
    QCOMPARE(e.issueCount, 0);
    QCOMPARE(e.lines, 4);
    QCOMPARE(e.samples.size(), 3);
    QCOMPARE(labelValue(e.samples[0].labels, u"b"), QStringLiteral("2"));
    QCOMPARE(e.samples[0].value, 3.0);
    QCOMPARE(e.samples[1].name, QStringLiteral("n"));
    QVERIFY(e.samples[1].labels.isEmpty());
    QCOMPARE(e.samples[2].line, 4);
}

void TestExposition::malformedLinesAreReportedAndSkipped_data() {
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("no value") << QByteArray("m{a=\"1\"}") << 9 << QStringLiteral("missing value after m");
    QTest::newRow("not a number") << QByteArray("m 12abc") << 3 << QStringLiteral("'12abc' is not a number");
    QTest::newRow("bad timestamp") << QByteArray("m 1 1.5") << 5 << QStringLiteral("is not a timestamp");
    QTest::newRow("extra text") << QByteArray("m 1 2 3") << 7
                                << QStringLiteral("unexpected text after the timestamp");
    QTest::newRow("unquoted") << QByteArray("m{a=1} 1") << 5
                              << QStringLiteral("expected '\"' to start the value of label a");
    QTest::newRow("no equals") << QByteArray("m{a} 1") << 4 << QStringLiteral("expected '=' after label a");
    QTest::newRow("unterminated value")
        << QByteArray("m{a=\"x} 1") << 5 << QStringLiteral("unterminated value of label a");
    QTest::newRow("unterminated set")
        << QByteArray("m{a=\"x\"") << 8 << QStringLiteral("unterminated label set");
    QTest::newRow("missing comma") << QByteArray("m{a=\"x\" b=\"y\"} 1") << 9
                                   << QStringLiteral("expected ',' or '}'");
    QTest::newRow("bad label name") << QByteArray("m{1a=\"x\"} 1") << 3
                                    << QStringLiteral("expected a label name");
    QTest::newRow("bad metric name") << QByteArray("9m 1") << 1 << QStringLiteral("expected a metric name");
    QTest::newRow("label twice") << QByteArray("m{a=\"1\",a=\"2\"} 1") << 9
                                 << QStringLiteral("label a appears twice");
    QTest::newRow("no blank") << QByteArray("m{}1") << 4
                              << QStringLiteral("expected a blank before the value");
    QTest::newRow("unknown type") << QByteArray("# TYPE m gaug") << 10
                                  << QStringLiteral("unknown metric type 'gaug' for m");
    QTest::newRow("type without name")
        << QByteArray("# TYPE") << 7 << QStringLiteral("# TYPE needs a metric name");
    QTest::newRow("+-") << QByteArray("m +-1") << 3 << QStringLiteral("is not a number");
    QTest::newRow("overflow") << QByteArray("m 1e999") << 3 << QStringLiteral("is not a number");
}

void TestExposition::malformedLinesAreReportedAndSkipped() {
    QFETCH(QByteArray, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    // The bad line sits at line 3 between good ones, which are all kept.
    const QByteArray text = "good1{gpu=\"0\"} 1\n# HELP good2 fine\n" + line + "\ngood2 2\n";
    const Exposition e = parseExposition(text);
    QCOMPARE(e.issueCount, 1);
    QCOMPARE(e.issues[0].line, 3);
    QCOMPARE(e.issues[0].column, column);
    QVERIFY2(e.issues[0].message.contains(message), qPrintable(e.issues[0].message));
    QVERIFY(e.issues[0].toString().startsWith(QStringLiteral("line 3, column %1: ").arg(column)));
    QCOMPARE(e.samples.size(), 2);
    QCOMPARE(e.samples[0].name, QStringLiteral("good1"));
    QCOMPARE(e.samples[1].name, QStringLiteral("good2"));
    QCOMPARE(e.samples[1].line, 4);
}

void TestExposition::duplicateSeries() {
    const Exposition e = parseExposition("m{a=\"1\",b=\"2\"} 1\n"
                                         "m{b=\"2\",a=\"1\"} 2\n"      // same set, other order
                                         "m{a=\"1\"} 3\n"              // a different series
                                         "m{a=\"1\",b=\"2\"} 4 1000\n" // other timestamp: a new sample
                                         "n{a=\"1\",b=\"2\"} 5\n");
    QCOMPARE(e.issueCount, 1);
    QCOMPARE(e.issues[0].line, 2);
    QVERIFY2(
        e.issues[0].message.contains(QStringLiteral("duplicate series m{b=\"2\",a=\"1\"} (first at line 1)")),
        qPrintable(e.issues[0].message));
    QCOMPARE(e.samples.size(), 4);
    QCOMPARE(e.samples[0].value, 1.0); // the first one is kept
    QCOMPARE(e.samples[1].value, 3.0);
}

void TestExposition::invalidUtf8() {
    const Exposition e = parseExposition("m{a=\"ok\"} 1\nm{a=\"\xff\"} 2\n# HELP m \xc3\x28\n");
    QCOMPARE(e.issueCount, 2);
    QCOMPARE(e.issues[0].line, 2);
    QVERIFY(e.issues[0].message.contains(QStringLiteral("invalid UTF-8 in the value of label a")));
    QCOMPARE(e.issues[1].line, 3);
    QCOMPARE(e.samples.size(), 1);
}

void TestExposition::issueCap() {
    QByteArray text;
    for (int i = 0; i < Exposition::kMaxIssues + 500; ++i)
        text += "bad{\n";
    text += "ok 1\n";
    const Exposition e = parseExposition(text);
    QCOMPARE(e.issueCount, Exposition::kMaxIssues + 500);
    QCOMPARE(e.issues.size(), Exposition::kMaxIssues);
    QCOMPARE(e.samples.size(), 1);
    QCOMPARE(e.samples[0].line, Exposition::kMaxIssues + 501);
}

void TestExposition::regressions_data() {
    gq::test::addFuzzRegressionRows(QStringLiteral("exposition"));
}

void TestExposition::regressions() {
    QFETCH(QByteArray, bytes);
    const QString problem = gq::fuzz::checkExpositionProperties(bytes);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

QTEST_GUILESS_MAIN(TestExposition)
#include "tst_exposition.moc"
