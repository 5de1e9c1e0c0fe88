// The console's own save paths on a full disk: drafts and templates are written all or
// nothing, the error names the file and the system's reason, and what was there before
// (an earlier draft, an earlier template) is still there.
#include "services/quotas/draftstore.h"
#include "tests/robustness/fulldisk.h"
#include "services/quotas/templatestore.h"

#include <QtTest>

using namespace gq;

namespace {

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

Draft draftWith(const QString &text) {
    Draft d;
    d.key = DraftKey{QStringLiteral("ctx"), QStringLiteral("team-a"), QStringLiteral("ResourceQuota"),
                     QStringLiteral("gpu")};
    d.text = text;
    return d;
}

const QString kTemplate = QStringLiteral("apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: gpu\n"
                                         "spec:\n  hard:\n    requests.nvidia.com/gpu: \"4\"\n");

} // namespace

class TestFullDiskStores : public QObject {
    Q_OBJECT

private slots:
    void draftKeepsTheEarlierOne() {
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        DraftStore store(nullptr, disk.path(QStringLiteral("drafts")));
        QVERIFY(store.save(draftWith(QStringLiteral("first edit\n"))));
        const QString file = disk.path(QStringLiteral("drafts/") + draftWith({}).key.fileName());
        const QByteArray before = readFile(file);
        QVERIFY(before.contains("first edit"));
        QVERIFY(disk.fill());

        const auto r = store.save(draftWith(QStringLiteral("second edit, longer than the first one\n")));
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("No space left on device")),
                 qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(file), qPrintable(r.error().message));
        QCOMPARE(readFile(file), before);
        // Still pending-free of the failed one: a later flush may save it again.
        QCOMPARE(store.draft(draftWith({}).key)->text, QStringLiteral("first edit\n"));
    }

    void templateKeepsTheEarlierOne() {
        test::FullDisk disk;
        GQ_REQUIRE_FULLDISK(disk);
        TemplateStore store(disk.path(QStringLiteral("templates")));
        QVERIFY(store.save(QStringLiteral("team"), kTemplate));
        const QString file = disk.path(QStringLiteral("templates/team.yaml"));
        const QByteArray before = readFile(file);
        QVERIFY(disk.fill());

        const QString bigger =
            kTemplate + QStringLiteral("# a longer version of the same template\n").repeated(100);
        const auto r = store.save(QStringLiteral("team"), bigger);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(QLatin1String("No space left on device")),
                 qPrintable(r.error().message));
        QCOMPARE(readFile(file), before);
    }
};

QTEST_GUILESS_MAIN(TestFullDiskStores)
#include "tst_fulldisk_stores.moc"
