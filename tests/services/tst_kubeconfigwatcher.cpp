// KubeconfigWatcher on kubeconfig files the test writes (no cluster needed): it asks
// for a new connection only when the current context's server, CA or credentials
// change, keeps quiet about unrelated edits, and reports a broken or shrunken file
// while a connection is in use instead of dropping it.

#include "services/cluster/kubeconfigwatcher.h"

#include <QFile>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

Q_DECLARE_METATYPE(gq::KubeConnection)

namespace {
QString config(const QString &token, const QString &caFile, bool withB = false, bool withA = true) {
    QString contexts;
    if (withA)
        contexts += QStringLiteral("- name: ctx-a\n  context:\n    cluster: c1\n    user: u1\n");
    if (withB)
        contexts += QStringLiteral("- name: ctx-b\n  context:\n    cluster: c1\n    user: u2\n");
    return QStringLiteral(
               "apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster:\n"
               "    server: https://127.0.0.1:6443\n    certificate-authority: %2\n"
               "users:\n- name: u1\n  user:\n    token: %1\n- name: u2\n  user:\n    token: other\n"
               "contexts:\n%3current-context: ctx-a\n")
        .arg(token, caFile, contexts);
}

// As an editor saves: a new file renamed over the old one.
bool replaceFile(const QString &path, const QByteArray &bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(bytes);
    return f.commit();
}
bool replaceFile(const QString &path, const QString &text) {
    return replaceFile(path, text.toUtf8());
}

// One of the two fixture CA certificates, tests/fixtures/certs/ca-<which>.pem.
QByteArray caCert(char which) {
    QFile f(QStringLiteral(GQ_TEST_FIXTURES "/certs/ca-%1.pem").arg(QLatin1Char(which)));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestKubeconfigWatcher : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<KubeConnection>(); }
    void onlyConnectionChangesAskForANewConnection();
    void brokenFileKeepsTheConnectionAndSaysSo();
    void unreadableFileIsUnusableAndWatched();

private:
    QTemporaryDir m_dir;
};

void TestKubeconfigWatcher::onlyConnectionChangesAskForANewConnection() {
    const QString path = m_dir.filePath(QStringLiteral("config-1"));
    const QString ca = m_dir.filePath(QStringLiteral("ca-1.pem"));
    QVERIFY(replaceFile(ca, caCert('a')));
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca)));

    KubeconfigWatcher w;
    QSignalSpy changed(&w, &KubeconfigWatcher::connectionChanged);
    QSignalSpy contexts(&w, &KubeconfigWatcher::contextsChanged);
    QSignalSpy problems(&w, &KubeconfigWatcher::kubeconfigProblem);
    QSignalSpy unusable(&w, &KubeconfigWatcher::unusable);
    w.watch(path, QString()); // current-context
    (void)changed.wait(10000);
    QVERIFY2(unusable.isEmpty(),
             qPrintable(unusable.isEmpty() ? QString() : unusable.at(0).at(0).value<Error>().toString()));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(w.context(), QStringLiteral("ctx-a"));
    QVERIFY(w.handedOut());
    QCOMPARE(changed.at(0).at(0).value<KubeConnection>().token, QStringLiteral("tok-1"));
    QCOMPARE(contexts.at(0).at(0).toStringList(), QStringList{QStringLiteral("ctx-a")});
    QVERIFY(w.watchedFiles().contains(QFileInfo(path).absoluteFilePath()));
    QVERIFY(w.watchedFiles().contains(QFileInfo(ca).absoluteFilePath()));

    // Another context added: announced, but the current connection is the same.
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca, true)));
    QTRY_COMPARE_WITH_TIMEOUT(contexts.count(), 2, 10000);
    QCOMPARE(contexts.at(1).at(0).toStringList(),
             (QStringList{QStringLiteral("ctx-a"), QStringLiteral("ctx-b")}));
    QTest::qWait(500);
    QCOMPARE(changed.count(), 1);

    // New credentials for the current context: a new connection.
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-2"), ca, true)));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 10000);
    QCOMPARE(changed.at(1).at(0).value<KubeConnection>().token, QStringLiteral("tok-2"));

    // The CA file the kubeconfig names changes: that is the connection too.
    QVERIFY(replaceFile(ca, caCert('b')));
    QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, 10000);
    QCOMPARE(changed.at(2).at(0).value<KubeConnection>().caPem, caCert('b'));
    QCOMPARE(problems.count(), 0);
}

void TestKubeconfigWatcher::brokenFileKeepsTheConnectionAndSaysSo() {
    const QString path = m_dir.filePath(QStringLiteral("config-2"));
    const QString ca = m_dir.filePath(QStringLiteral("ca-2.pem"));
    QVERIFY(replaceFile(ca, caCert('a')));
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca, true)));
    KubeconfigWatcher w;
    QSignalSpy changed(&w, &KubeconfigWatcher::connectionChanged);
    QSignalSpy problems(&w, &KubeconfigWatcher::kubeconfigProblem);
    QSignalSpy ok(&w, &KubeconfigWatcher::kubeconfigOk);
    QSignalSpy unusable(&w, &KubeconfigWatcher::unusable);
    w.watch(path, QStringLiteral("ctx-b"));
    QVERIFY(changed.wait(10000));
    QCOMPARE(w.context(), QStringLiteral("ctx-b"));

    QVERIFY(replaceFile(path, QStringLiteral("apiVersion: v1\nclusters: [\n")));
    QVERIFY(problems.wait(10000));
    QCOMPARE(unusable.count(), 0);

    // Back as it was: fine again, and still the same connection.
    const qsizetype oks = ok.count();
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca, true)));
    QTRY_COMPARE_WITH_TIMEOUT(ok.count(), oks + 1, 10000);
    QCOMPARE(changed.count(), 1);

    // The context followed is removed: a problem naming the field, the connection kept.
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca, false)));
    QTRY_COMPARE_WITH_TIMEOUT(problems.count(), 2, 10000);
    const auto e = problems.at(1).at(0).value<Error>();
    QCOMPARE(e.kind, Error::Kind::NotFound);
    QCOMPARE(e.field, QStringLiteral("contexts"));
    QVERIFY(e.message.contains(QStringLiteral("ctx-b")));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(w.context(), QStringLiteral("ctx-b"));
}

void TestKubeconfigWatcher::unreadableFileIsUnusableAndWatched() {
    const QString path = m_dir.filePath(QStringLiteral("config-later"));
    const QString ca = m_dir.filePath(QStringLiteral("ca-3.pem"));
    QVERIFY(replaceFile(ca, caCert('a')));
    KubeconfigWatcher w;
    QSignalSpy unusable(&w, &KubeconfigWatcher::unusable);
    QSignalSpy changed(&w, &KubeconfigWatcher::connectionChanged);
    w.watch(path, QStringLiteral("ctx-b"), KubeconfigWatcher::Choice::PreferredElseCurrent);
    QVERIFY(unusable.wait(10000));
    QCOMPARE(unusable.at(0).at(1).toBool(), false); // the file itself could not be read
    QVERIFY(!w.handedOut());
    QCOMPARE(w.watchedFiles(), QStringList{path});

    // Written later without the preferred context: current-context is taken.
    QVERIFY(replaceFile(path, config(QStringLiteral("tok-1"), ca, false)));
    QVERIFY(changed.wait(10000));
    QCOMPARE(w.context(), QStringLiteral("ctx-a"));
}

QTEST_GUILESS_MAIN(TestKubeconfigWatcher)
#include "tst_kubeconfigwatcher.moc"
