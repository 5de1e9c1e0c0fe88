#include "services/quotas/draftstore.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

class TestDraftStore : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        // Test mode puts AppDataLocation under ~/.qttest so real drafts are never touched.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("tst_draftstore"));
    }

    void init() {
        QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/drafts"))
            .removeRecursively();
    }

    void defaultDirectoryIsAppData() {
        DraftStore store;
        QVERIFY(
            store.directory().startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
        QVERIFY(store.directory().contains(QStringLiteral(".qttest")));
    }

    void saveAndRestoreRoundTrip() {
        const DraftKey key{QStringLiteral("prod"), QStringLiteral("team-a"), QStringLiteral("ResourceQuota"),
                           QStringLiteral("gpu-quota")};
        const QString text = QStringLiteral("spec:\n  hard:\n    requests.nvidia.com/gpu: \"8\" # ünïcode\n");
        {
            DraftStore store;
            QVERIFY(!store.hasDraft(key));
            Draft d;
            d.key = key;
            d.text = text;
            d.baseText = QStringLiteral("base");
            d.resourceVersion = QStringLiteral("42");
            QVERIFY(store.save(d).has_value());
            QVERIFY(store.hasDraft(key));
        }
        // A new store (next start of the console) finds it.
        DraftStore store;
        QVERIFY(store.hasDraft(key));
        const std::optional<Draft> d = store.draft(key);
        QVERIFY(d.has_value());
        QCOMPARE(d->text, text);
        QCOMPARE(d->baseText, QStringLiteral("base"));
        QCOMPARE(d->resourceVersion, QStringLiteral("42"));
        QVERIFY(d->key == key);
        QVERIFY(d->savedAt.isValid());
        QCOMPARE(store.allDrafts().size(), 1);

        const std::optional<Draft> taken = store.takeDraft(key);
        QVERIFY(taken.has_value());
        QCOMPARE(taken->text, text);
        QVERIFY(!store.hasDraft(key));
        QVERIFY(!DraftStore().hasDraft(key));
    }

    void keysAreDistinct() {
        DraftStore store;
        const DraftKey a{QStringLiteral("c"), QStringLiteral("ab"), QStringLiteral("ResourceQuota"),
                         QStringLiteral("x")};
        const DraftKey b{QStringLiteral("c"), QStringLiteral("a"), QStringLiteral("bResourceQuota"),
                         QStringLiteral("x")};
        QVERIFY(a.fileName() != b.fileName());
        QVERIFY(store.save({a, QStringLiteral("A"), {}, {}, {}}).has_value());
        QVERIFY(store.save({b, QStringLiteral("B"), {}, {}, {}}).has_value());
        QCOMPARE(store.draft(a)->text, QStringLiteral("A"));
        QCOMPARE(store.draft(b)->text, QStringLiteral("B"));
        QVERIFY(store.discard(a).has_value());
        QVERIFY(!store.hasDraft(a));
        QVERIFY(store.hasDraft(b));
    }

    void debouncedSaveAndFlushOnDestruction() {
        const DraftKey key{QStringLiteral("c"), QStringLiteral("ns"), QStringLiteral("LimitRange"),
                           QStringLiteral("lr")};
        const QString path = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                             QStringLiteral("/drafts/") + key.fileName();
        {
            DraftStore store;
            store.setDebounceInterval(50);
            QSignalSpy saved(&store, &DraftStore::saved);
            store.scheduleSave({key, QStringLiteral("v1"), {}, {}, {}});
            store.scheduleSave({key, QStringLiteral("v2"), {}, {}, {}});
            QVERIFY(!QFile::exists(path));                          // nothing written while typing
            QCOMPARE(store.draft(key)->text, QStringLiteral("v2")); // but visible
            QVERIFY(saved.wait(2000));
            QCOMPARE(saved.size(), 1); // two edits, one write
            QVERIFY(QFile::exists(path));

            store.setDebounceInterval(60000);
            store.scheduleSave({key, QStringLiteral("v3"), {}, {}, {}});
        }
        // The pending v3 was flushed when the store went away (window closed).
        QCOMPARE(DraftStore().draft(key)->text, QStringLiteral("v3"));
    }

    void unwritableDirectoryReportsError() {
        QTemporaryDir tmp;
        QFile blocker(tmp.filePath(QStringLiteral("file")));
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        // A path below a regular file can never be created.
        DraftStore store(nullptr, tmp.filePath(QStringLiteral("file/drafts")));
        const Result<void> r = store.save({{}, QStringLiteral("x"), {}, {}, {}});
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().kind, Error::Kind::Io);

        QSignalSpy failed(&store, &DraftStore::saveFailed);
        store.scheduleSave({{}, QStringLiteral("y"), {}, {}, {}});
        store.flush();
        QCOMPARE(failed.size(), 1);
    }

    void corruptFileIsIgnored() {
        DraftStore store;
        const DraftKey key{QStringLiteral("c"), QStringLiteral("n"), QStringLiteral("ResourceQuota"),
                           QStringLiteral("q")};
        QVERIFY(QDir().mkpath(store.directory()));
        QFile f(store.directory() + QLatin1Char('/') + key.fileName());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ not json");
        f.close();
        QVERIFY(!store.draft(key).has_value());
    }
};

QTEST_GUILESS_MAIN(TestDraftStore)
#include "tst_draftstore.moc"
