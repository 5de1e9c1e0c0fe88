#include "core/domain/textdiff.h"

#include <QElapsedTimer>
#include <QTest>

#include <random>

using namespace gq;

namespace {

// Renders a diff as one compact token per row: "=a" same, "+b" added, "-a" removed,
// "~a>b" changed, so expectations read like the diff itself.
QString render(const LineDiff &d, const QStringList &l, const QStringList &r) {
    QStringList out;
    for (const DiffRow &row : d.rows) {
        switch (row.kind) {
        case DiffRow::Kind::Same: out << QStringLiteral("=") + l[row.left]; break;
        case DiffRow::Kind::Added: out << QStringLiteral("+") + r[row.right]; break;
        case DiffRow::Kind::Removed: out << QStringLiteral("-") + l[row.left]; break;
        case DiffRow::Kind::Changed:
            out << QStringLiteral("~") + l[row.left] + QStringLiteral(">") + r[row.right];
            break;
        }
    }
    return out.join(QLatin1Char(' '));
}

QStringList chars(const char *s) {
    QStringList out;
    for (const char *p = s; *p; ++p)
        out << QString(QLatin1Char(*p));
    return out;
}

QString spans(QStringView s, const QList<CharSpan> &list) {
    QStringList out;
    for (const CharSpan &c : list)
        out << s.mid(c.start, c.length).toString();
    return out.join(QLatin1Char('|'));
}

// Each chunk's ranges tile the three inputs exactly, in order.
void verifyChunksTile(const QList<MergeChunk> &chunks, const QStringList &base, const QStringList &ours,
                      const QStringList &theirs) {
    int pb = 0, po = 0, pt = 0;
    for (const MergeChunk &c : chunks) {
        QCOMPARE(c.base.begin, pb);
        QCOMPARE(c.ours.begin, po);
        QCOMPARE(c.theirs.begin, pt);
        pb = c.base.end;
        po = c.ours.end;
        pt = c.theirs.end;
    }
    QCOMPARE(pb, int(base.size()));
    QCOMPARE(po, int(ours.size()));
    QCOMPARE(pt, int(theirs.size()));
}

} // namespace

class TestTextDiff : public QObject {
    Q_OBJECT
private slots:
    void splitLines_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("lines");
        QTest::newRow("empty") << QString() << QStringList();
        QTest::newRow("one, no newline") << QStringLiteral("a") << QStringList{QStringLiteral("a")};
        QTest::newRow("trailing newline")
            << QStringLiteral("a\nb\n") << QStringList{QStringLiteral("a"), QStringLiteral("b")};
        QTest::newRow("crlf") << QStringLiteral("a\r\nb\r\n")
                              << QStringList{QStringLiteral("a"), QStringLiteral("b")};
        QTest::newRow("blank lines kept")
            << QStringLiteral("a\n\n\nb")
            << QStringList{QStringLiteral("a"), QString(), QString(), QStringLiteral("b")};
        QTest::newRow("only newline") << QStringLiteral("\n") << QStringList{QString()};
    }
    void splitLines() {
        QFETCH(QString, text);
        QFETCH(QStringList, lines);
        QCOMPARE(gq::splitLines(text), lines);
    }

    void diffLines_data() {
        QTest::addColumn<QStringList>("left");
        QTest::addColumn<QStringList>("right");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("added");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("changed");

        QTest::newRow("both empty") << QStringList() << QStringList() << QString() << 0 << 0 << 0;
        QTest::newRow("identical") << chars("abc") << chars("abc") << QStringLiteral("=a =b =c") << 0 << 0
                                   << 0;
        QTest::newRow("left empty") << QStringList() << chars("ab") << QStringLiteral("+a +b") << 2 << 0 << 0;
        QTest::newRow("right empty") << chars("ab") << QStringList() << QStringLiteral("-a -b") << 0 << 2
                                     << 0;
        QTest::newRow("insert middle")
            << chars("ac") << chars("abc") << QStringLiteral("=a +b =c") << 1 << 0 << 0;
        QTest::newRow("insert front")
            << chars("bc") << chars("abc") << QStringLiteral("+a =b =c") << 1 << 0 << 0;
        QTest::newRow("append") << chars("ab") << chars("abc") << QStringLiteral("=a =b +c") << 1 << 0 << 0;
        QTest::newRow("delete middle")
            << chars("abc") << chars("ac") << QStringLiteral("=a -b =c") << 0 << 1 << 0;
        QTest::newRow("delete last") << chars("abc") << chars("ab") << QStringLiteral("=a =b -c") << 0 << 1
                                     << 0;
        QTest::newRow("change one") << chars("abc") << chars("axc") << QStringLiteral("=a ~b>x =c") << 0 << 0
                                    << 1;
        QTest::newRow("change two, add one")
            << chars("abcd") << chars("axyzd") << QStringLiteral("=a ~b>x ~c>y +z =d") << 1 << 0 << 2;
        QTest::newRow("change and delete")
            << chars("abcd") << chars("axd") << QStringLiteral("=a ~b>x -c =d") << 0 << 1 << 1;
        QTest::newRow("all different")
            << chars("ab") << chars("xyz") << QStringLiteral("~a>x ~b>y +z") << 1 << 0 << 2;
        QTest::newRow("separate hunks") << chars("abcdefg") << chars("aBcdeFg")
                                        << QStringLiteral("=a ~b>B =c =d =e ~f>F =g") << 0 << 0 << 2;
        QTest::newRow("moved line") << chars("abc") << chars("bca") << QStringLiteral("-a =b =c +a") << 1 << 1
                                    << 0;
        QTest::newRow("duplicates") << chars("aaa") << chars("aa") << QStringLiteral("=a =a -a") << 0 << 1
                                    << 0;
        // A changed value is paired with the same key even when a new line comes first.
        QTest::newRow("pairs by key")
            << QStringList{QStringLiteral("a: 1"), QStringLiteral("gpu: 8"), QStringLiteral("pods: 40")}
            << QStringList{QStringLiteral("a: 1"), QStringLiteral("limits: 128"), QStringLiteral("gpu: 12")}
            << QStringLiteral("=a: 1 +limits: 128 ~gpu: 8>gpu: 12 -pods: 40") << 1 << 1 << 1;
        QTest::newRow("pairs by key, reordered")
            << QStringList{QStringLiteral("  x: 1"), QStringLiteral("  y: 2")}
            << QStringList{QStringLiteral("  y: 3"), QStringLiteral("  z: 4")}
            << QStringLiteral("-  x: 1 ~  y: 2>  y: 3 +  z: 4") << 1 << 1 << 1;
        const QStringList quota{QStringLiteral("spec:"), QStringLiteral("  hard:"),
                                QStringLiteral("    requests.cpu: \"8\""),
                                QStringLiteral("    requests.nvidia.com/gpu: \"4\"")};
        QStringList edited = quota;
        edited[3] = QStringLiteral("    requests.nvidia.com/gpu: \"6\"");
        edited << QStringLiteral("    count/pods: \"20\"");
        QTest::newRow("quota edit") << quota << edited
                                    << QStringLiteral(
                                           "=spec: =  hard: =    requests.cpu: \"8\" "
                                           "~    requests.nvidia.com/gpu: \"4\">    "
                                           "requests.nvidia.com/gpu: \"6\" +    count/pods: \"20\"")
                                    << 1 << 0 << 1;
    }
    void diffLines() {
        QFETCH(QStringList, left);
        QFETCH(QStringList, right);
        QFETCH(QString, expected);
        const LineDiff d = gq::diffLines(left, right);
        QCOMPARE(render(d, left, right), expected);
        QTEST(d.added, "added");
        QTEST(d.removed, "removed");
        QTEST(d.changed, "changed");
        QCOMPARE(d.identical(), left == right);
        // Every line of both sides appears exactly once, in order.
        int l = 0;
        int r = 0;
        for (const DiffRow &row : d.rows) {
            if (row.left >= 0)
                QCOMPARE(row.left, l++);
            if (row.right >= 0)
                QCOMPARE(row.right, r++);
        }
        QCOMPARE(l, int(left.size()));
        QCOMPARE(r, int(right.size()));
    }

    void hunkStarts() {
        const LineDiff d = gq::diffLines(chars("abcdefg"), chars("aBcdeFG"));
        QCOMPARE(d.hunkStarts(), (QList<int>{1, 5}));
        QVERIFY(gq::diffLines(chars("ab"), chars("ab")).hunkStarts().isEmpty());
    }

    void largeInputIsMinimal() {
        QStringList left;
        for (int i = 0; i < 5000; ++i)
            left << QString::number(i);
        QStringList right = left;
        right[10] = QStringLiteral("x");
        right.removeAt(2500);
        right.insert(4000, QStringLiteral("y"));
        const LineDiff d = gq::diffLines(left, right);
        QCOMPARE(d.changed, 1);
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.added, 1);
    }

    void completelyDifferentLargeInputsStayBounded() {
        // Past the edit-distance cap the rest is reported as replaced, quickly and
        // still consistently (every line once, in order).
        QStringList left;
        QStringList right;
        for (int i = 0; i < 5000; ++i) {
            left << QStringLiteral("l%1").arg(i);
            right << QStringLiteral("r%1").arg(i);
        }
        QElapsedTimer t;
        t.start();
        const LineDiff d = gq::diffLines(left, right);
        const qint64 ms = t.elapsed();
        qInfo("5000 vs 5000 unrelated lines: %lld ms", ms);
        QVERIFY2(ms < 5000, qPrintable(QString::number(ms)));
        QCOMPARE(d.changed, 5000);
        int l = 0;
        for (const DiffRow &row : d.rows) {
            if (row.left >= 0)
                QCOMPARE(row.left, l++);
        }
        QCOMPARE(l, 5000);
    }

    void largeDocumentTimings() {
        // A 20,000-line manifest with a change every 100 lines on each side.
        QStringList base;
        for (int i = 0; i < 20000; ++i)
            base << QStringLiteral("    key-%1: \"%2\"").arg(i).arg(i % 97);
        QStringList ours = base;
        QStringList theirs = base;
        for (int i = 0; i < 20000; i += 100) {
            ours[i] += QStringLiteral(" # mine");
            theirs[i + 50] += QStringLiteral(" # theirs");
        }
        QElapsedTimer t;
        t.start();
        const LineDiff d = gq::diffLines(base, ours);
        const qint64 diffMs = t.restart();
        const MergeResult m = gq::merge3(base.join(QLatin1Char('\n')), ours.join(QLatin1Char('\n')),
                                         theirs.join(QLatin1Char('\n')));
        const qint64 mergeMs = t.elapsed();
        qInfo("diffLines 20000 lines / 200 changes: %lld ms; merge3 20000 lines / 400 changes: %lld ms",
              diffMs, mergeMs);
        QCOMPARE(d.changed, 200);
        QVERIFY(m.clean());
        QCOMPARE(gq::splitLines(m.text).size(), 20000);
        QVERIFY(diffMs < 2000);
        QVERIFY(mergeMs < 4000);
    }

    void diffInline_data() {
        QTest::addColumn<QString>("left");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("leftSpans");
        QTest::addColumn<QString>("rightSpans");
        QTest::newRow("value") << QStringLiteral("  requests.nvidia.com/gpu: \"4\"")
                               << QStringLiteral("  requests.nvidia.com/gpu: \"16\"") << QStringLiteral("4")
                               << QStringLiteral("16");
        QTest::newRow("suffix") << QStringLiteral("memory: 16Gi") << QStringLiteral("memory: 32Gi")
                                << QStringLiteral("16Gi") << QStringLiteral("32Gi");
        QTest::newRow("identical") << QStringLiteral("a: 1") << QStringLiteral("a: 1") << QString()
                                   << QString();
        QTest::newRow("append") << QStringLiteral("a: 1") << QStringLiteral("a: 1 # note") << QString()
                                << QStringLiteral(" # note");
        QTest::newRow("empty left") << QString() << QStringLiteral("x y") << QString()
                                    << QStringLiteral("x y");
    }
    void diffInline() {
        QFETCH(QString, left);
        QFETCH(QString, right);
        const InlineDiff d = gq::diffInline(left, right);
        QTEST(spans(left, d.left), "leftSpans");
        QTEST(spans(right, d.right), "rightSpans");
    }

    void merge3_data() {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("ours");
        QTest::addColumn<QString>("theirs");
        QTest::addColumn<QString>("merged");
        QTest::addColumn<int>("conflicts");

        const QString base = QStringLiteral("kind: ResourceQuota\n"
                                            "metadata:\n"
                                            "  resourceVersion: \"100\"\n"
                                            "spec:\n"
                                            "  hard:\n"
                                            "    requests.cpu: \"8\"\n"
                                            "    requests.memory: 32Gi\n"
                                            "    requests.nvidia.com/gpu: \"4\"\n");
        auto with = [&](const QString &from, const QString &to) {
            QString s = base;
            s.replace(from, to);
            return s;
        };
        const QString rv = QStringLiteral("resourceVersion: \"100\"");
        const QString rv2 = QStringLiteral("resourceVersion: \"117\"");
        const QString gpu = QStringLiteral("nvidia.com/gpu: \"4\"");
        const QString cpu = QStringLiteral("requests.cpu: \"8\"");

        QTest::newRow("nothing changed") << base << base << base << base << 0;
        QTest::newRow("only mine") << base << with(gpu, QStringLiteral("nvidia.com/gpu: \"6\"")) << base
                                   << with(gpu, QStringLiteral("nvidia.com/gpu: \"6\"")) << 0;
        QTest::newRow("only server") << base << base << with(rv, rv2) << with(rv, rv2) << 0;
        {
            // The server bumped the version and changed cpu (the line right above
            // memory); I changed the GPU limit: a clean merge with both changes.
            QString theirs = with(rv, rv2);
            theirs.replace(cpu, QStringLiteral("requests.cpu: \"16\""));
            const QString ours = with(gpu, QStringLiteral("nvidia.com/gpu: \"6\""));
            QString merged = theirs;
            merged.replace(gpu, QStringLiteral("nvidia.com/gpu: \"6\""));
            QTest::newRow("non-overlapping") << base << ours << theirs << merged << 0;
        }
        {
            // Neighbouring lines changed on each side: still no conflict.
            const QString ours = with(QStringLiteral("32Gi"), QStringLiteral("64Gi"));
            const QString theirs = with(gpu, QStringLiteral("nvidia.com/gpu: \"2\""));
            QString merged = ours;
            merged.replace(gpu, QStringLiteral("nvidia.com/gpu: \"2\""));
            QTest::newRow("adjacent lines") << base << ours << theirs << merged << 0;
        }
        {
            const QString ours = with(gpu, QStringLiteral("nvidia.com/gpu: \"6\""));
            const QString theirs = with(gpu, QStringLiteral("nvidia.com/gpu: \"2\""));
            const QString merged = with(QStringLiteral("    requests.nvidia.com/gpu: \"4\"\n"),
                                        QStringLiteral("<<<<<<< yours\n"
                                                       "    requests.nvidia.com/gpu: \"6\"\n"
                                                       "=======\n"
                                                       "    requests.nvidia.com/gpu: \"2\"\n"
                                                       ">>>>>>> server\n"));
            QTest::newRow("same line, different values") << base << ours << theirs << merged << 1;
        }
        {
            const QString ours = with(gpu, QStringLiteral("nvidia.com/gpu: \"6\""));
            QTest::newRow("same change on both sides") << base << ours << ours << ours << 0;
        }
        {
            // Both appended a different resource at the end: a real conflict (order).
            const QString ours = base + QStringLiteral("    count/pods: \"10\"\n");
            const QString theirs = base + QStringLiteral("    limits.cpu: \"8\"\n");
            QTest::newRow("both append")
                << base << ours << theirs
                << base + QStringLiteral("<<<<<<< yours\n    count/pods: \"10\"\n=======\n"
                                         "    limits.cpu: \"8\"\n>>>>>>> server\n")
                << 1;
        }
        {
            // I deleted a line that the server left alone; the server changed another.
            const QString ours = with(QStringLiteral("    requests.memory: 32Gi\n"), QString());
            const QString theirs = with(rv, rv2);
            QString merged = theirs;
            merged.replace(QStringLiteral("    requests.memory: 32Gi\n"), QString());
            QTest::newRow("delete vs unrelated change") << base << ours << theirs << merged << 0;
        }
        {
            // I changed a line the server deleted: conflict, with an empty server side.
            const QString ours = with(QStringLiteral("32Gi"), QStringLiteral("64Gi"));
            const QString theirs = with(QStringLiteral("    requests.memory: 32Gi\n"), QString());
            const QString merged = with(QStringLiteral("    requests.memory: 32Gi\n"),
                                        QStringLiteral("<<<<<<< yours\n    requests.memory: 64Gi\n=======\n"
                                                       ">>>>>>> server\n"));
            QTest::newRow("change vs delete") << base << ours << theirs << merged << 1;
        }
        QTest::newRow("empty base, both add same")
            << QString() << QStringLiteral("a\n") << QStringLiteral("a\n") << QStringLiteral("a\n") << 0;
        QTest::newRow("empty base, different")
            << QString() << QStringLiteral("a\n") << QStringLiteral("b\n")
            << QStringLiteral("<<<<<<< yours\na\n=======\nb\n>>>>>>> server\n") << 1;
    }
    void merge3() {
        QFETCH(QString, base);
        QFETCH(QString, ours);
        QFETCH(QString, theirs);
        const MergeResult r = gq::merge3(base, ours, theirs);
        QTEST(r.text, "merged");
        QTEST(int(r.conflicts.size()), "conflicts");
        QCOMPARE(r.clean(), r.conflicts.isEmpty());
        for (const MergeConflict &c : r.conflicts) {
            const QStringList lines = gq::splitLines(r.text);
            QVERIFY(c.line >= 1 && c.line <= lines.size());
            QVERIFY(lines[c.line - 1].startsWith(QStringLiteral("<<<<<<<")));
        }
    }

    void merge3ConflictDetails() {
        const QString base = QStringLiteral("a\nb\nc\n");
        const MergeResult r = gq::merge3(base, QStringLiteral("a\nB1\nc\n"), QStringLiteral("a\nB2\nc\n"),
                                         {QStringLiteral("mine"), QStringLiteral("theirs")});
        QCOMPARE(r.conflicts.size(), 1);
        const MergeConflict &c = r.conflicts.first();
        QCOMPARE(c.line, 2);
        QCOMPARE(c.baseLine, 2);
        QCOMPARE(c.oursLine, 2);
        QCOMPARE(c.theirsLine, 2);
        QCOMPARE(c.base, QStringList{QStringLiteral("b")});
        QCOMPARE(c.ours, QStringList{QStringLiteral("B1")});
        QCOMPARE(c.theirs, QStringList{QStringLiteral("B2")});
        QVERIFY(r.text.contains(QStringLiteral("<<<<<<< mine\n")));
        QVERIFY(r.text.contains(QStringLiteral(">>>>>>> theirs\n")));
    }

    void merge3ChunksAlign() {
        const QStringList b = chars("abcdefgh");
        const QStringList o = chars("aXcdefgYh");
        const QStringList t = chars("abcZefh");
        verifyChunksTile(gq::merge3Chunks(b, o, t), b, o, t);
        if (QTest::currentTestFailed())
            return;
        const MergeResult r =
            gq::merge3(b.join(QLatin1Char('\n')), o.join(QLatin1Char('\n')), t.join(QLatin1Char('\n')));
        QVERIFY(r.clean());
        QCOMPARE(r.text, QStringLiteral("a\nX\nc\nZ\ne\nf\nY\nh"));
    }

    void randomizedProperties() {
        // Seeded, so a failure reproduces. Small alphabets make repeats and moves common.
        std::mt19937 rng(20261130);
        auto randomText = [&](int maxLines) {
            QStringList lines;
            const int n = int(rng() % unsigned(maxLines + 1));
            for (int i = 0; i < n; ++i)
                lines << QString(QLatin1Char(char('a' + rng() % 5)));
            return lines;
        };
        auto mutate = [&](QStringList lines) {
            const int edits = int(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                const int op = int(rng() % 3);
                const int at = lines.isEmpty() ? 0 : int(rng() % unsigned(lines.size()));
                if (op == 0 || lines.isEmpty())
                    lines.insert(at, QString(QLatin1Char(char('a' + rng() % 7))));
                else if (op == 1)
                    lines.removeAt(at);
                else
                    lines[at] = QString(QLatin1Char(char('a' + rng() % 7)));
            }
            return lines;
        };
        const auto join = [](const QStringList &l) {
            return l.isEmpty() ? QString() : l.join(QLatin1Char('\n')) + QLatin1Char('\n');
        };
        for (int round = 0; round < 3000; ++round) {
            const QStringList base = randomText(12);
            const QStringList ours = mutate(base);
            const QStringList theirs = mutate(base);

            // The diff replays to both sides.
            const LineDiff d = gq::diffLines(base, ours);
            QStringList left;
            QStringList right;
            for (const DiffRow &row : d.rows) {
                if (row.left >= 0)
                    left << base[row.left];
                if (row.right >= 0)
                    right << ours[row.right];
                if (row.kind == DiffRow::Kind::Same)
                    QCOMPARE(base[row.left], ours[row.right]);
            }
            QCOMPARE(left, base);
            QCOMPARE(right, ours);

            // Merging with an unchanged side gives the other side; identical sides merge to themselves.
            QCOMPARE(gq::merge3(join(base), join(ours), join(base)).text, join(ours));
            QCOMPARE(gq::merge3(join(base), join(base), join(theirs)).text, join(theirs));
            QCOMPARE(gq::merge3(join(base), join(ours), join(ours)).text, join(ours));

            // Chunks tile all three inputs, and a clean merge contains no markers.
            const QList<MergeChunk> chunks = gq::merge3Chunks(base, ours, theirs);
            verifyChunksTile(chunks, base, ours, theirs);
            if (QTest::currentTestFailed())
                return;
            for (const MergeChunk &c : chunks) {
                if (c.kind == MergeChunk::Kind::Stable) {
                    QCOMPARE(base.mid(c.base.begin, c.base.size()), ours.mid(c.ours.begin, c.ours.size()));
                    QCOMPARE(base.mid(c.base.begin, c.base.size()),
                             theirs.mid(c.theirs.begin, c.theirs.size()));
                }
            }
            const MergeResult m = gq::merge3(join(base), join(ours), join(theirs));
            if (m.clean()) {
                for (const QString &line : gq::splitLines(m.text))
                    QVERIFY(!isConflictMarker(line));
            }
        }
    }

    void conflictMarkers_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("marker");
        QTest::newRow("open") << QStringLiteral("<<<<<<< yours") << true;
        QTest::newRow("open bare") << QStringLiteral("<<<<<<<") << true;
        QTest::newRow("middle") << QStringLiteral("=======") << true;
        QTest::newRow("close") << QStringLiteral(">>>>>>> server") << true;
        QTest::newRow("yaml merge key") << QStringLiteral("<<: *defaults") << false;
        QTest::newRow("eight") << QStringLiteral("========") << false;
        QTest::newRow("text") << QStringLiteral("a: b") << false;
    }
    void conflictMarkers() {
        QFETCH(QString, line);
        QTEST(isConflictMarker(line), "marker");
    }
};

QTEST_GUILESS_MAIN(TestTextDiff)
#include "tst_textdiff.moc"
