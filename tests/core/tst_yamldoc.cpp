// The YAML suite (tst_yamldoc.h), part one: loading (documents, lists, positions,
// errors, limits) and big maps.

#include "tests/core/tst_yamldoc.h"

void TestYamlDoc::singleDocument() {
    auto doc = loadYaml("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n  namespace: ns\n");
    QVERIFY(doc);
    QCOMPARE(doc->objects.size(), 1);
    const YamlObject &o = doc->objects.first();
    QCOMPARE(o.kind(), QStringLiteral("ResourceQuota"));
    QCOMPARE(o.apiVersion(), QStringLiteral("v1"));
    QCOMPARE(o.name(), QStringLiteral("q"));
    QCOMPARE(o.namespaceName(), QStringLiteral("ns"));
    QCOMPARE(o.documentIndex, 0);
    QCOMPARE(o.itemIndex, -1);
    auto node = parseYamlNode("a: 1\n");
    QVERIFY(node);
    QCOMPARE(node->scalarAt(u"a"), QStringLiteral("1"));
    QVERIFY(parseYamlNode("")->isNull());
    auto two = parseYamlNode("a: 1\n---\nb: 2\n");
    QVERIFY(!two);
    QVERIFY(two.error().message.contains(u"expected one YAML document, found 2"));
}

void TestYamlDoc::severalDocuments() {
    auto doc = loadYaml("---\nkind: A\n---\n# empty\n---\nkind: B\n...\n---\nkind: C\n");
    QVERIFY(doc);
    QCOMPARE(doc->documents.size(), 4); // the empty one is kept as a document...
    QCOMPARE(doc->objects.size(), 3);   // ...but is not an object
    QCOMPARE(doc->objects[0].kind(), QStringLiteral("A"));
    QCOMPARE(doc->objects[1].kind(), QStringLiteral("B"));
    QCOMPARE(doc->objects[1].documentIndex, 2);
    QCOMPARE(doc->objects[2].root.pos().line, 9);
    QVERIFY(loadYaml("")->objects.isEmpty());
}

void TestYamlDoc::listsAreFlattened() {
    auto doc = loadYaml("apiVersion: v1\nkind: List\nitems:\n- kind: ResourceQuota\n  metadata: {name: a}\n"
                        "- kind: LimitRange\n  metadata: {name: b}\n---\nkind: LimitRangeList\nitems:\n"
                        "- metadata: {name: c}\n---\nkind: List\nitems: []\n");
    QVERIFY(doc);
    QCOMPARE(doc->objects.size(), 3);
    QCOMPARE(doc->objects[0].name(), QStringLiteral("a"));
    QCOMPARE(doc->objects[0].itemIndex, 0);
    QCOMPARE(doc->objects[1].kind(), QStringLiteral("LimitRange"));
    QCOMPARE(doc->objects[1].itemIndex, 1);
    QCOMPARE(doc->objects[2].kind(), QStringLiteral("LimitRange")); // implied by LimitRangeList
    QCOMPARE(doc->objects[2].impliedKind, QStringLiteral("LimitRange"));
    QCOMPARE(doc->objects[2].documentIndex, 1);
    QCOMPARE(doc->objects[2].root.pos().line, 11);
}

void TestYamlDoc::positions() {
    const QByteArray text = "apiVersion: v1\n"     // 1
                            "spec:\n"              // 2
                            "  hard:\n"            // 3
                            "    cpu: \"2\"\n"     // 4
                            "    pods: 10 # ten\n" // 5
                            "  list:\n"            // 6
                            "  - a\n"              // 7
                            "  - {x: 1}\n";        // 8
    auto node = parseYamlNode(text);
    QVERIFY(node);
    const YamlNode *hard = node->find(u"spec")->find(u"hard");
    const YamlNode::Entry *cpu = hard->findEntry(u"cpu");
    QCOMPARE(cpu->keyPos.line, 4);
    QCOMPARE(cpu->keyPos.column, 5);
    QCOMPARE(cpu->value.pos().line, 4);
    QCOMPARE(cpu->value.pos().column, 10); // the opening quote
    QCOMPARE(cpu->value.pos().offset, text.indexOf("\"2\""));
    const YamlNode *pods = hard->find(u"pods");
    QCOMPARE(pods->pos().column, 11);
    const YamlNode *list = node->find(u"spec")->find(u"list");
    QCOMPARE(list->items().at(1).pos().line, 8);
    QCOMPARE(list->items().at(1).find(u"x")->pos().column, 9);
}

void TestYamlDoc::positionsCountCharacters() {
    // "é" is two bytes; columns count characters so an editor lands on the value.
    const QByteArray text = "metadata: {name: \"é\", x: bad}\n";
    auto node = parseYamlNode(text);
    QVERIFY(node);
    const YamlNode *x = node->find(u"metadata")->find(u"x");
    QCOMPARE(x->pos().column, 26);                  // 27 if counted in bytes
    QCOMPARE(x->pos().offset, text.indexOf("bad")); // offsets stay in bytes

    // Several nodes after non-ASCII text on one line, then on the next lines.
    const QByteArray many = "x: {a: \"ü\", b: \"日本\", c: 1, d: [\"é\", y]}\ne: ü\nf: {g: 2}\n";
    auto doc = loadYaml(many);
    QVERIFY(doc);
    const YamlNode &m = doc->documents.first();
    const YamlNode *inner = m.find(u"x");
    QVERIFY(inner && inner->isMap());
    QCOMPARE(inner->find(u"b")->pos().column, 16);
    QCOMPARE(inner->find(u"c")->pos().column, 25);
    QCOMPARE(inner->find(u"d")->items().at(1).pos().column, 37);
    QVERIFY(m.findEntry(u"e"));
    QCOMPARE(m.findEntry(u"e")->keyPos.line, 2);
    QCOMPARE(m.find(u"e")->pos().column, 4);
    QCOMPARE(m.find(u"f")->find(u"g")->pos().column, 8);
}

void TestYamlDoc::stringness_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isString");
    QTest::newRow("plain int") << QByteArray("v: 4") << "4" << false;
    QTest::newRow("quoted int") << QByteArray("v: \"4\"") << "4" << true;
    QTest::newRow("single quoted") << QByteArray("v: 'true'") << "true" << true;
    QTest::newRow("plain word") << QByteArray("v: hello") << "hello" << false;
    QTest::newRow("block") << QByteArray("v: |\n  line\n") << "line\n" << true;
    QTest::newRow("tagged str") << QByteArray("v: !!str 4") << "4" << true;
    QTest::newRow("quantity") << QByteArray("v: 500m") << "500m" << false;
}

void TestYamlDoc::stringness() {
    QFETCH(QByteArray, yaml);
    QFETCH(QString, text);
    QFETCH(bool, isString);
    auto node = parseYamlNode(yaml);
    QVERIFY(node);
    const YamlNode *v = node->find(u"v");
    QVERIFY(v && v->isScalar());
    QCOMPARE(v->text(), text);
    QCOMPARE(v->isString(), isString);
    // Null forms are nodes of type Null, whatever their spelling.
    QVERIFY(parseYamlNode("v: ~")->find(u"v")->isNull());
    QVERIFY(parseYamlNode("v:")->find(u"v")->isNull());
    QVERIFY(parseYamlNode("v: \"null\"")->find(u"v")->isScalar());
}

void TestYamlDoc::parseErrorsHavePositions_data() {
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unclosed flow") << QByteArray("a: [1, 2\nb: 3\n") << 2 << "end of sequence flow not found";
    QTest::newRow("bad indent") << QByteArray("a:\n  b: 1\n c: 2\n") << 3 << "invalid YAML";
    QTest::newRow("duplicate key") << QByteArray("spec:\n  hard:\n    cpu: 1\n    cpu: 2\n") << 4
                                   << "mapping key \"cpu\" already defined at line 3";
    QTest::newRow("complex key") << QByteArray("? [a]\n: b\n") << 1 << "mapping keys must be scalars";
    // yaml-cpp's LoadAll never returns on these (endless empty documents).
    QTest::newRow("root flow map then comma") << QByteArray("{a: 1},\n") << 1 << "unexpected content";
    QTest::newRow("root quoted then comma") << QByteArray("\"a\",\n") << 1 << "unexpected content";
    QTest::newRow("not utf-8") << QByteArray("a: 1\nb: \"\xff\"\n") << 2 << "not UTF-8 text: byte 0xff";
    QTest::newRow("NUL byte (UTF-16 guess)") << QByteArray("a\0: 1\n", 7) << 1 << "byte 0x00";
    QTest::newRow("map then sequence") << QByteArray("a: 1\n- b\n") << 2 << "invalid YAML";
}

void TestYamlDoc::parseErrorsHavePositions() {
    QFETCH(QByteArray, yaml);
    QFETCH(int, line);
    QFETCH(QString, fragment);
    auto doc = loadYaml(yaml);
    QVERIFY(!doc);
    QCOMPARE(doc.error().kind, Error::Kind::Parse);
    QCOMPARE(doc.error().line, line);
    QVERIFY(doc.error().column >= 1);
    QVERIFY2(doc.error().message.contains(fragment), qPrintable(doc.error().message));
}

void TestYamlDoc::limits() {
    QByteArray deep;
    for (int i = 0; i < 100; ++i)
        deep += QByteArray(i * 2, ' ') + "k:\n";
    auto tooDeep = loadYaml(deep);
    QVERIFY(!tooDeep);
    QVERIFY2(tooDeep.error().message.contains(u"nested too deeply"), qPrintable(tooDeep.error().message));
    QVERIFY(tooDeep.error().line > 60);

    YamlLoadLimits generous;
    generous.maxDepth = 200;
    QVERIFY(loadYaml(deep, generous));

    // 9^6 leaves through aliases: refused instead of expanded.
    QByteArray laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n";
    const char *names = "abcdefg";
    for (int i = 1; i < 7; ++i) {
        laughs += QByteArray(1, names[i]) + ": &" + QByteArray(1, names[i]) + " [";
        for (int j = 0; j < 9; ++j)
            laughs += QByteArray(j ? ", *" : "*") + QByteArray(1, names[i - 1]);
        laughs += "]\n";
    }
    YamlLoadLimits small;
    small.maxNodes = 10000;
    auto bomb = loadYaml(laughs, small);
    QVERIFY(!bomb);
    QVERIFY2(bomb.error().message.contains(u"too large"), qPrintable(bomb.error().message));
}

// yaml-cpp's own recursion guard used to throw first ("invalid YAML: bad file").
void TestYamlDoc::deepNestingSaysTooDeep_data() {
    QTest::addColumn<QByteArray>("yaml");
    for (int levels : {100, 497, 1000, 3000}) {
        QTest::addRow("flow map %d", levels)
            << "a: " + QByteArray("{a: ").repeated(levels) + '1' + QByteArray("}").repeated(levels);
        QTest::addRow("flow list %d", levels)
            << "a: " + QByteArray("[").repeated(levels) + QByteArray("]").repeated(levels);
        QByteArray block;
        for (int i = 0; i < levels; ++i)
            block += QByteArray(i * 2, ' ') + "a:\n";
        QTest::addRow("block map %d", levels) << block + QByteArray(levels * 2, ' ') + "b: 1\n";
    }
}

void TestYamlDoc::deepNestingSaysTooDeep() {
    QFETCH(QByteArray, yaml);
    auto doc = loadYaml(yaml);
    QVERIFY(!doc);
    QCOMPARE(doc.error().message, QStringLiteral("document nested too deeply (more than 64 levels)"));
    QVERIFY(doc.error().line >= 1);
}

// The node limit is against alias expansion; a big document without aliases is
// bounded by the input size limit and must load.
void TestYamlDoc::nodeLimitCountsOnlyAliasCopies() {
    QByteArray list = "items:\n";
    for (int i = 0; i < 5000; ++i)
        list += "- {a: 1, b: 2}\n";
    YamlLoadLimits small;
    small.maxNodes = 1000;
    auto doc = loadYaml(list, small);
    QVERIFY2(doc, doc ? "" : qPrintable(doc.error().message));
    QCOMPARE(doc->documents.first().find(u"items")->size(), 5000);

    QByteArray aliases = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: [";
    for (int i = 0; i < 200; ++i)
        aliases += i ? ", *a" : "*a";
    aliases += "]\n";
    auto bomb = loadYaml(aliases, small);
    QVERIFY(!bomb);
    QCOMPARE(bomb.error().message,
             QStringLiteral("document too large: its aliases expand to more than 1000 nodes"));
}

void TestYamlDoc::duplicateKeyInBigMap() {
    QByteArray yaml;
    for (int i = 0; i < 50000; ++i)
        yaml += "k" + QByteArray::number(i) + ": 1\n";
    yaml += "k7: 2\n";
    auto doc = loadYaml(yaml);
    QVERIFY(!doc);
    QCOMPARE(doc.error().message, QStringLiteral("mapping key \"k7\" already defined at line 8"));
    QCOMPARE(doc.error().line, 50001);

    // The same key in sibling maps is no duplicate.
    QVERIFY(loadYaml("a: {x: 1}\nb: {x: 2}\nc:\n  x: 3\n"));
}

// Big maps are looked up through an index; every way of changing the map keeps
// lookups right, and copies stay independent.
void TestYamlDoc::bigMapLookupsStayCorrect() {
    QByteArray yaml;
    for (int i = 0; i < 100; ++i)
        yaml += "k" + QByteArray::number(i) + ": v" + QByteArray::number(i) + "\n";
    auto doc = parseYamlNode(yaml);
    QVERIFY(doc);
    YamlNode m = *doc;
    QCOMPARE(m.scalarAt(u"k42"), QStringLiteral("v42"));
    QCOMPARE(m.findEntry(u"k99")->keyPos.line, 100);
    QVERIFY(!m.find(u"k100"));

    const YamlNode before = m;
    m.insert(QStringLiteral("k100"), YamlNode::scalar(QStringLiteral("new")));
    m.insert(QStringLiteral("k5"), YamlNode::scalar(QStringLiteral("replaced")));
    QCOMPARE(m.scalarAt(u"k100"), QStringLiteral("new"));
    QCOMPARE(m.scalarAt(u"k5"), QStringLiteral("replaced"));
    QVERIFY(m.remove(u"k0"));
    QVERIFY(!m.find(u"k0"));
    QCOMPARE(m.scalarAt(u"k1"), QStringLiteral("v1"));
    QCOMPARE(m.scalarAt(u"k100"), QStringLiteral("new"));
    m.entries().push_back(
        YamlNode::Entry{QStringLiteral("pushed"), {}, YamlNode::scalar(QStringLiteral("p"))});
    QCOMPARE(std::as_const(m).scalarAt(u"pushed"), QStringLiteral("p"));
    m.entries()[0].key = QStringLiteral("renamed");
    QCOMPARE(m.scalarAt(u"renamed"), QStringLiteral("v1"));
    QVERIFY(!m.find(u"k1"));
    m.find(u"k2")->setScalar(QStringLiteral("written"));
    QCOMPARE(m.scalarAt(u"k2"), QStringLiteral("written"));

    // The copy taken before all that is untouched.
    QCOMPARE(before.size(), 100);
    QCOMPARE(before.scalarAt(u"k0"), QStringLiteral("v0"));
    QCOMPARE(before.scalarAt(u"k2"), QStringLiteral("v2"));
    QCOMPARE(before.scalarAt(u"k5"), QStringLiteral("v5"));
    QVERIFY(!before.find(u"k100"));
    QVERIFY(before == *doc);
    QVERIFY(!(before == m));
}

// An error shows at most 64 characters of a value the user wrote.
void TestYamlDoc::echoedValuesAreElided() {
    QCOMPARE(elided(u"short"), QStringLiteral("short"));
    QCOMPARE(elided(QString(64, u'x')), QString(64, u'x'));
    QCOMPARE(elided(QString(65, u'x')), QString(64, u'x') + QChar(0x2026) + QStringLiteral(" (65 bytes)"));

    const QByteArray head = "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n";
    const QList<Error> quantity = validateYamlText(head + "    cpu: '" + QByteArray(100000, '1') + "x'\n");
    QCOMPARE(quantity.size(), 1);
    QCOMPARE(
        quantity[0].message,
        QStringLiteral("Invalid value: \"%1… (100001 bytes)\": invalid quantity '%1… (100001 bytes)': "
                       "unknown suffix 'x'; expected one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, "
                       "Ei or an exponent such as e3 or E-2")
            .arg(QString(64, u'1')));

    QByteArray dup = "? " + QByteArray(5000, 'k') + "\n: 1\n? " + QByteArray(5000, 'k') + "\n: 2\n";
    auto doc = loadYaml(dup);
    QVERIFY(!doc);
    QCOMPARE(
        doc.error().message,
        QStringLiteral("mapping key \"%1… (5000 bytes)\" already defined at line 1").arg(QString(64, u'k')));
}

// Big maps are converted in key order (QJsonObject sorts its keys); the result is
// the same as inserting in document order, the last of duplicate keys winning.
void TestYamlDoc::bigMapToJson() {
    YamlNode m = YamlNode::map();
    QJsonObject expected;
    for (int i = 999; i >= 0; --i) {
        const QString key = QStringLiteral("k") + QString::number(i);
        m.entries().push_back(YamlNode::Entry{key, {}, YamlNode::scalar(QString::number(i), false)});
        expected.insert(key, i);
    }
    m.entries().push_back(
        YamlNode::Entry{QStringLiteral("k7"), {}, YamlNode::scalar(QStringLiteral("last"))});
    expected.insert(QStringLiteral("k7"), QStringLiteral("last"));
    QCOMPARE(m.toJsonObject(), expected);
    QCOMPARE(m.toJsonObject().value(u"k7").toString(), QStringLiteral("last"));
}

QTEST_GUILESS_MAIN(TestYamlDoc)
