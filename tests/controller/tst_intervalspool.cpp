// The controller's spool (services/controller/intervalspool.h): what it keeps, in order, across a
// new instance (a restart), and that it is durable the way the kernel makes files
// durable: the file's lines fsync'd, and its directory fsync'd when the file is created
// and when it is removed after a replay (else a crash can lose a spool that existed, or
// bring back one that was replayed). The syscalls are observed with strace on a child
// run of this binary (`--spool-child DIR`), not assumed.
#include "services/controller/intervalspool.h"
#include "tests/kube/kubetestutil.h"
#include "services/controller/ledgerwriter.h"
#include "tests/usagetestdata.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace gq;
using namespace gq::test;

namespace {

// One pod's GPU interval, open or with its end.
UsageInterval interval(qint64 start, std::optional<qint64> end = std::nullopt) {
    return gq::test::interval(QStringLiteral("team-a"), QStringLiteral("alice"), QStringLiteral("train"), 2,
                              start, end);
}

// The child: create the spool with two states, then clear it, as a replay does.
int spoolChild(const QString &dir) {
    IntervalSpool spool(dir);
    if (!spool.append({interval(100), false}) || !spool.append({interval(100, 200), true}))
        return 1;
    return spool.clear() ? 0 : 2;
}

// Appends raw bytes to the spool file: what a write cut short (ENOSPC, a crash) leaves.
void appendRaw(const QString &file, const QByteArray &bytes) {
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Append));
    QCOMPARE(f.write(bytes), bytes.size());
}

} // namespace

class TestIntervalSpool : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsStatesInOrderAcrossInstances() {
        QTemporaryDir dir;
        const QString spoolDir = dir.filePath(QStringLiteral("spool"));
        {
            IntervalSpool spool(spoolDir);
            QVERIFY(spool.writable());
            QVERIFY(spool.append({interval(100), false}));
            QVERIFY(spool.append({interval(100, 200), true}));
            QCOMPARE(spool.depth(), qint64(2));
        }
        IntervalSpool again(spoolDir); // a restart
        QCOMPARE(again.depth(), qint64(2));
        auto entries = again.readAll();
        QVERIFY(entries);
        QCOMPARE(entries->size(), size_t(2));
        QCOMPARE(entries->at(0).iv, interval(100));
        QVERIFY(!entries->at(0).closeOnly);
        QCOMPARE(entries->at(1).iv, interval(100, 200));
        QVERIFY(entries->at(1).closeOnly);
        QVERIFY(again.clear());
        QCOMPARE(again.depth(), qint64(0));
        QVERIFY(!QFile::exists(again.filePath()));
    }

    // Issue 31 item 4: an estimated end and a new row's first heartbeat survive the spool.
    void keepsEstimatedEndAndSeen() {
        QTemporaryDir dir;
        UsageInterval open = interval(100);
        open.seen = 150;
        UsageInterval closed = interval(100, 180);
        closed.endEstimated = true;
        {
            IntervalSpool spool(dir.path());
            QVERIFY(spool.append({open, false}));
            QVERIFY(spool.append({closed, true}));
        }
        auto entries = IntervalSpool(dir.path()).readAll();
        QVERIFY(entries);
        QCOMPARE(entries->size(), size_t(2));
        QCOMPARE(entries->at(0).iv, open);
        QCOMPARE(entries->at(1).iv, closed);
    }

    // Issue 31 item 3: a torn entry followed by whole ones. Before framing, the next
    // append was glued to the torn line and dropped with it, silently.
    void aTornEntryIsSkippedAloneAndReported() {
        QTemporaryDir dir;
        const QString spoolDir = dir.filePath(QStringLiteral("spool"));
        IntervalSpool spool(spoolDir);
        QVERIFY(spool.append({interval(100), false}));
        const QByteArray torn = IntervalSpool::encode({interval(150), false});
        appendRaw(spool.filePath(), torn.left(torn.size() / 2)); // cut short, no newline
        QVERIFY(spool.append({interval(100, 200), true}));
        QVERIFY(spool.append({interval(300), false}));
        qint64 skipped = 0;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("line 2: 1 torn")));
        auto entries = IntervalSpool(spoolDir).readAll(&skipped);
        QVERIFY(entries);
        QCOMPARE(entries->size(), size_t(3));
        QCOMPARE(entries->at(0).iv, interval(100));
        QCOMPARE(entries->at(1).iv, interval(100, 200));
        QVERIFY(entries->at(1).closeOnly);
        QCOMPARE(entries->at(2).iv, interval(300));
        QCOMPARE(skipped, qint64(1));
    }

    // A frame glued to a torn one on the same line (a writer that did not end the torn
    // line first) is found; a frame whose bytes were changed fails its checksum.
    void aFrameGluedToATornOneIsFoundAndAChangedOneRefused() {
        const QByteArray a = IntervalSpool::encode({interval(100), false}).trimmed();
        const QByteArray b = IntervalSpool::encode({interval(200), false}).trimmed();
        qint64 skipped = 0;
        auto got = IntervalSpool::decodeLine(a.left(a.size() - 3) + b, skipped);
        QCOMPARE(got.size(), size_t(1));
        QCOMPARE(got.at(0).iv, interval(200));
        QCOMPARE(skipped, qint64(1));
        QByteArray changed = a;
        changed.replace("\"gpus\":2", "\"gpus\":8");
        QVERIFY(changed != a);
        QVERIFY(!IntervalSpool::decode(changed));
        QVERIFY(IntervalSpool::decode(a));
    }

    // A spool written before framing (bare JSON lines), with a torn line that swallowed
    // the next one as the old writer did, is still replayed: the glued entry included.
    void readsTheOldFormat() {
        QTemporaryDir dir;
        const QString spoolDir = dir.filePath(QStringLiteral("spool"));
        QVERIFY(QDir().mkpath(spoolDir));
        auto legacy = [](const SpoolEntry &e) {
            const QByteArray framed = IntervalSpool::encode(e);
            return framed.mid(framed.indexOf('{')); // the JSON line the old writer wrote
        };
        const QByteArray torn = legacy({interval(150), false});
        appendRaw(QDir(spoolDir).filePath(QStringLiteral("intervals.spool")),
                  legacy({interval(100), false}) + torn.left(torn.size() / 2) +
                      legacy({interval(100, 200), true}) + legacy({interval(300), false}));
        IntervalSpool spool(spoolDir);
        QCOMPARE(spool.depth(), qint64(3));
        qint64 skipped = 0;
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("line 2: 1 torn")));
        auto entries = spool.readAll(&skipped);
        QVERIFY(entries);
        QCOMPARE(entries->size(), size_t(3));
        QCOMPARE(entries->at(1).iv, interval(100, 200));
        QVERIFY(entries->at(1).closeOnly);
        QCOMPARE(skipped, qint64(1));
        // New entries go behind the old ones, framed.
        QVERIFY(spool.append({interval(400), false}));
        QCOMPARE(spool.readAll()->size(), size_t(4));
    }

    // The replay into a real database writes every whole entry and counts the torn one.
    void theReplayWritesTheGoodEntriesAndCountsTheTornOne() {
        QTemporaryDir dir;
        const QString spoolDir = dir.filePath(QStringLiteral("spool"));
        {
            IntervalSpool spool(spoolDir);
            QVERIFY(spool.append({interval(100), false}));
            const QByteArray torn = IntervalSpool::encode({interval(150), false});
            appendRaw(spool.filePath(), torn.left(20));
            QVERIFY(spool.append({interval(100, 200), true}));
            QVERIFY(spool.append({interval(300), false}));
        }
        const QString db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
        LedgerWriter writer(db, UsageStore::Options{}, spoolDir);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("torn or unreadable")));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("3 spooled interval states; 1 torn")));
        writer.start(50);
        QTRY_VERIFY(writer.databaseAvailable());
        QCOMPARE(writer.spoolSkipped(), qint64(1));
        QCOMPARE(writer.written(), qint64(3));
        QCOMPARE(writer.spoolDepth(), qint64(0));
        auto open = writer.openIntervals(interval(100).cluster, interval(100).source);
        QVERIFY(open);
        QCOMPARE(open->size(), size_t(1)); // 100 closed at 200, 300 open
        QCOMPARE(open->at(0).start, qint64(300));
    }

    void syncsTheDirectoryOnCreateAndRemove() {
        GQ_REQUIRE_TOOL("strace");
        QTemporaryDir dir;
        const QString spoolDir = dir.filePath(QStringLiteral("spool"));
        QVERIFY(QDir().mkpath(spoolDir));
        const QString trace = dir.filePath(QStringLiteral("trace"));
        const ToolRun run =
            runTool(QStringLiteral("strace"),
                    {QStringLiteral("-f"), QStringLiteral("-o"), trace, QStringLiteral("-e"),
                     QStringLiteral("trace=openat,fsync,fdatasync,unlink,unlinkat,close"),
                     QCoreApplication::applicationFilePath(), QStringLiteral("--spool-child"), spoolDir});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        // The calls on the spool's file and folder, in order, with descriptors by name.
        QStringList calls;
        QHash<QString, QString> fds; // descriptor -> "file" or "dir"
        const QString file = spoolDir + QStringLiteral("/intervals.spool");
        const QRegularExpression open(
            QStringLiteral("openat\\(AT_FDCWD, \"([^\"]+)\", ([A-Z_|]+).*\\) = (\\d+)"));
        const QRegularExpression call(QStringLiteral("(fsync|fdatasync|close)\\((\\d+)\\)"));
        const QRegularExpression unlink(QStringLiteral("unlink(?:at)?\\((?:AT_FDCWD, )?\"([^\"]+)\""));
        for (const QString &line : QString::fromUtf8(readFile(trace)).split(u'\n')) {
            if (const auto m = open.match(line); m.hasMatch()) {
                if (m.captured(1) == file)
                    fds.insert(m.captured(3), QStringLiteral("file"));
                else if (m.captured(1) == spoolDir && m.captured(2).contains(QLatin1String("O_DIRECTORY")))
                    fds.insert(m.captured(3), QStringLiteral("dir"));
                else
                    fds.remove(m.captured(3));
                if (fds.contains(m.captured(3)))
                    calls << QStringLiteral("open ") + fds.value(m.captured(3));
            } else if (const auto c = call.match(line); c.hasMatch() && fds.contains(c.captured(2))) {
                calls << c.captured(1) + u' ' + fds.value(c.captured(2));
                if (c.captured(1) == QLatin1String("close"))
                    fds.remove(c.captured(2));
            } else if (const auto u = unlink.match(line); u.hasMatch() && u.captured(1) == file) {
                calls << QStringLiteral("unlink file");
            }
        }
        // Create (the file, its line, then the directory entry), append (the line only),
        // remove (then the directory entry).
        const QStringList expected = {
            QStringLiteral("open file"),   QStringLiteral("fsync file"), QStringLiteral("open dir"),
            QStringLiteral("fsync dir"),   QStringLiteral("close dir"),  QStringLiteral("close file"),
            QStringLiteral("open file"),   QStringLiteral("fsync file"), QStringLiteral("close file"),
            QStringLiteral("unlink file"), QStringLiteral("open dir"),   QStringLiteral("fsync dir"),
            QStringLiteral("close dir")};
        QCOMPARE(calls, expected);
    }
};

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc == 3 && qstrcmp(argv[1], "--spool-child") == 0)
        return spoolChild(QString::fromLocal8Bit(argv[2]));
    TestIntervalSpool test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_intervalspool.moc"
