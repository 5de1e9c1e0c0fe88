// The plain block YAML reader beside yaml-cpp: whatever it reads must give the tree
// yaml-cpp gives, positions included (fuzz_yaml checks the same property on random
// input); what it is unsure about it must leave to yaml-cpp.
#include "tests/coretestdata.h"
#include "fuzz/yaml_properties.h"
#include "core/domain/yamlfastpath_p.h"

#include <QDirIterator>
#include <QtTest>

using namespace gq;

class TestYamlFastPath : public QObject {
    Q_OBJECT
private slots:
    void readsAndAgrees_data();
    void readsAndAgrees();
    void declines_data();
    void declines();
    void fixturesAgree();
    void bigListIsRead();
};

namespace {

bool plainReaderReads(const QByteArray &text) {
    detail::ScalarInterner interner;
    return detail::readPlainBlockYaml(text, YamlLoadLimits{}, interner).has_value();
}

} // namespace

void TestYamlFastPath::readsAndAgrees_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("quota") << QByteArray(
        "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu\n"
        "  namespace: team-nlp\nspec:\n  hard:\n    requests.nvidia.com/gpu: 4\n"
        "    limits.memory: 64Gi\n");
    QTest::newRow("list, items at the key's column") << QByteArray(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ResourceQuota\n"
        "  metadata:\n    name: q0\n- apiVersion: v1\n  kind: ResourceQuota\n  metadata:\n    name: q1\n");
    QTest::newRow("list, items indented") << QByteArray(
        "kind: List\nitems:\n  -   apiVersion: v1\n      kind: ResourceQuota\n  - kind: LimitRange\n");
    QTest::newRow("key after a same-column sequence") << QByteArray("a:\n- x\n- y\nb: 1\n");
    QTest::newRow("scalar sequence with urls and colons")
        << QByteArray("scopes:\n  - NotTerminating\n  - http://example.com:8080/x\n  - a=b+c@d\n");
    QTest::newRow("null values") << QByteArray("a:\nb:\n  c:\nd: 1\ne:\n");
    QTest::newRow("blank lines and trailing spaces") << QByteArray("\n\na: 1   \n\n  \nb:\n\n  c: 2\n");
    QTest::newRow("root sequence") << QByteArray("- a\n- b: 1\n  c: 2\n- d\n");
    QTest::newRow("indented root") << QByteArray("   a: 1\n   b: 2\n");
    QTest::newRow("no final newline") << QByteArray("a: 1\nb: 2");
    QTest::newRow("typed list") << QByteArray("apiVersion: v1\nkind: ResourceQuotaList\nitems:\n- metadata:\n"
                                              "    name: x\n");
    QByteArray big = "spec:\n  hard:\n";
    for (int i = 0; i < 40; ++i)
        big += "    example.com/r" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
    QTest::newRow("map over the index size") << big;
    QByteArray deep;
    for (int i = 0; i < 63; ++i)
        deep += QByteArray(i * 2, ' ') + "k" + QByteArray::number(i) + ":\n";
    QTest::newRow("63 levels") << deep;
}

void TestYamlFastPath::readsAndAgrees() {
    QFETCH(QByteArray, text);
    // Read by the plain reader, or this row proves nothing about it.
    QVERIFY(plainReaderReads(text));
    const QString d = fuzz::checkFastPathAgrees(text);
    QVERIFY2(d.isEmpty(), qPrintable(d));
}

void TestYamlFastPath::declines_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("duplicate key") << QByteArray("a: 1\nb: 2\na: 3\n");
    QTest::newRow("duplicate key in a big map") << []() -> QByteArray {
        QByteArray y;
        for (int i = 0; i < 30; ++i)
            y += "k" + QByteArray::number(i) + ": 1\n";
        return y + "k7: 2\n";
    }();
    QTest::newRow("multi-line scalar") << QByteArray("a: one\n  two\n");
    QTest::newRow("words") << QByteArray("a: two words\n");
    QTest::newRow("quoted") << QByteArray("a: \"1\"\n");
    QTest::newRow("flow") << QByteArray("a: {b: 1}\n");
    QTest::newRow("comment") << QByteArray("a: 1 # one\n");
    QTest::newRow("anchor") << QByteArray("a: &x 1\nb: *x\n");
    QTest::newRow("tab") << QByteArray("a:\n\tb: 1\n");
    QTest::newRow("CRLF") << QByteArray("a: 1\r\n");
    QTest::newRow("documents") << QByteArray("a: 1\n---\nb: 2\n");
    QTest::newRow("non-ASCII") << QByteArray("a: \xc3\xa9\n");
    QTest::newRow("bad indentation") << QByteArray("a:\n    b: 1\n  c: 2\n");
    QTest::newRow("sequence inside a map's column") << QByteArray("a: 1\n- b\n");
    QTest::newRow("lone dash") << QByteArray("-\n  a: 1\n");
    QTest::newRow("nested dash") << QByteArray("- - a\n");
    QTest::newRow("root scalar") << QByteArray("hello\n");
    QTest::newRow("empty") << QByteArray("\n\n");
    QTest::newRow("negative number") << QByteArray("a: -1\n");
    QTest::newRow("value ending in a colon") << QByteArray("a: b:\n");
    QByteArray deep;
    for (int i = 0; i < 70; ++i)
        deep += QByteArray(i * 2, ' ') + "k" + QByteArray::number(i) + ":\n";
    QTest::newRow("70 levels") << deep;
}

void TestYamlFastPath::declines() {
    QFETCH(QByteArray, text);
    QVERIFY(!plainReaderReads(text));
    // Declined texts go to yaml-cpp: the answer is the same either way.
    const QString d = fuzz::checkFastPathAgrees(text);
    QVERIFY2(d.isEmpty(), qPrintable(d));
}

void TestYamlFastPath::fixturesAgree() {
    int files = 0;
    int read = 0;
    for (const QString &root :
         {QStringLiteral(GQ_TEST_FIXTURES), test::fuzzRegressionDir(QStringLiteral("yaml")),
          QStringLiteral(GQ_TEST_FIXTURES "/../../fuzz/corpus/yaml")}) {
        QDirIterator it(root, {QStringLiteral("*")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.endsWith(u".pem") || path.endsWith(u".csv") || path.endsWith(u".key") ||
                path.endsWith(u".crt"))
                continue;
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            ++files;
            read += plainReaderReads(text) ? 1 : 0;
            const QString d = fuzz::checkFastPathAgrees(text);
            QVERIFY2(d.isEmpty(), qPrintable(path + u": " + d));
        }
    }
    QVERIFY2(files > 40, qPrintable(QString::number(files)));
    QVERIFY2(read > 0, qPrintable(QString::number(read))); // some must exercise the plain reader
    qInfo("%d files, %d read by the plain reader", files, read);
}

void TestYamlFastPath::bigListIsRead() {
    QByteArray y = "apiVersion: v1\nkind: List\nitems:\n";
    for (int i = 0; i < 2000; ++i)
        y += "- apiVersion: v1\n  kind: ResourceQuota\n  metadata:\n    name: q" + QByteArray::number(i) +
             "\n  spec:\n    hard:\n      requests.nvidia.com/gpu: 4\n      cpu: 10\n";
    QVERIFY(plainReaderReads(y));
    const QString d = fuzz::checkFastPathAgrees(y);
    QVERIFY2(d.isEmpty(), qPrintable(d));
    auto doc = loadYaml(y);
    QVERIFY(doc);
    QCOMPARE(doc->objects.size(), 2000);
    QCOMPARE(doc->objects.last().name(), QStringLiteral("q1999"));
    QCOMPARE(doc->objects.last().root.pos().line, 3 + 1999 * 8 + 1);
}

QTEST_GUILESS_MAIN(TestYamlFastPath)
#include "tst_yamlfastpath.moc"
