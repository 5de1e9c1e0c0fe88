// The one CSV cell rule (core/domain/csvfield.h) every export uses: RFC 4180 quoting and
// OWASP's defence against spreadsheet formula injection.
#include "core/domain/csvfield.h"

#include <QTest>

using namespace gq;

class TestCsvField : public QObject {
    Q_OBJECT

private slots:
    void field_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("cell");
        QTest::newRow("plain") << QStringLiteral("team-a") << QStringLiteral("team-a");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::newRow("line feed") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
        QTest::newRow("carriage return inside") << QStringLiteral("a\rb") << QStringLiteral("\"a\rb\"");
        QTest::newRow("equals") << QStringLiteral("=1+2") << QStringLiteral("\"'=1+2\"");
        QTest::newRow("plus") << QStringLiteral("+1") << QStringLiteral("\"'+1\"");
        QTest::newRow("minus") << QStringLiteral("-4") << QStringLiteral("\"'-4\"");
        QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QStringLiteral("\"'@SUM(A1)\"");
        QTest::newRow("tab") << QStringLiteral("\t=1") << QStringLiteral("\"'\t=1\"");
        QTest::newRow("carriage return first") << QStringLiteral("\r=1") << QStringLiteral("\"'\r=1\"");
        QTest::newRow("formula with quotes") << QStringLiteral("=HYPERLINK(\"http://x\")")
                                             << QStringLiteral("\"'=HYPERLINK(\"\"http://x\"\")\"");
        // Already quoted once: one more, so a reader taking one off gives the value back.
        QTest::newRow("quoted formula") << QStringLiteral("'=1") << QStringLiteral("\"''=1\"");
        QTest::newRow("only quotes") << QStringLiteral("''") << QStringLiteral("''");
        QTest::newRow("formula sign later") << QStringLiteral("a=b") << QStringLiteral("a=b");
        QTest::newRow("leading space") << QStringLiteral(" =1") << QStringLiteral(" =1");
    }
    void field() {
        QFETCH(QString, value);
        QFETCH(QString, cell);
        QCOMPARE(csvField(value), cell);
    }

    void formulaLike_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("formula");
        int row = 0;
        for (const char *f : {"=", "+", "-", "@", "\t", "\r", "'=x", "''@x"})
            QTest::addRow("formula %d", ++row) << QString::fromLatin1(f) << true;
        for (const char *f : {"", "'", "a", "1", " -1", "x=y", "\n="})
            QTest::addRow("text %d", ++row) << QString::fromLatin1(f) << false;
    }
    void formulaLike() {
        QFETCH(QString, value);
        QFETCH(bool, formula);
        QCOMPARE(isFormulaLike(value), formula);
    }
};

QTEST_GUILESS_MAIN(TestCsvField)
#include "tst_csvfield.moc"
