// Secrets live in a SecretStore: the OS keychain where there is one, else memory,
// with a message that says so. This machine has no D-Bus session (as CI and headless
// runs), so the keychain store is exercised for its fallback, for real.

#include "services/settings/secretstore.h"

#include <QSignalSpy>
#include <QTest>

#include "tests/services/futurewait.h"
#include "tests/services/nosessionbus.h"

using namespace gq;

using gq::test::waitFor;

class TestSecretStore : public QObject {
    Q_OBJECT
private slots:
    void memoryRoundTrip() {
        MemorySecretStore store;
        QCOMPARE(store.backendName(), QStringLiteral("memory"));
        const Result<QString> missing = waitFor(store.read(QStringLiteral("db")));
        QVERIFY(!missing);
        QCOMPARE(missing.error().kind, Error::Kind::NotFound);

        QVERIFY(waitFor(store.write(QStringLiteral("db"), QStringLiteral("s3cr\u00e9t"))));
        const Result<QString> back = waitFor(store.read(QStringLiteral("db")));
        QVERIFY(back);
        QCOMPARE(*back, QStringLiteral("s3cr\u00e9t"));
        QVERIFY(waitFor(store.write(QStringLiteral("db"), QStringLiteral("new"))));
        QCOMPARE(*waitFor(store.read(QStringLiteral("db"))), QStringLiteral("new"));

        QVERIFY(waitFor(store.remove(QStringLiteral("db"))));
        QCOMPARE(waitFor(store.read(QStringLiteral("db"))).error().kind, Error::Kind::NotFound);
        // Removing what is not there is not an error.
        QVERIFY(waitFor(store.remove(QStringLiteral("db"))));
    }

    void defaultWithoutASessionBusIsMemoryAndSaysSo() {
        const QByteArray saved = qgetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        qunsetenv("GQ_SECRET_STORE");
        std::unique_ptr<SecretStore> store = SecretStore::createDefault(QStringLiteral("gq-tst-secretstore"));
        if (!saved.isEmpty())
            qputenv("DBUS_SESSION_BUS_ADDRESS", saved);
        QCOMPARE(store->backendName(), QStringLiteral("memory"));
        QVERIFY2(store->notice().contains(QStringLiteral("in memory")), qPrintable(store->notice()));
        QVERIFY2(store->notice().contains(QStringLiteral("D-Bus")), qPrintable(store->notice()));
        QVERIFY(waitFor(store->write(QStringLiteral("k"), QStringLiteral("v"))));
        QCOMPARE(*waitFor(store->read(QStringLiteral("k"))), QStringLiteral("v"));
    }

    void memoryOnRequest() {
        qputenv("GQ_SECRET_STORE", "memory");
        std::unique_ptr<SecretStore> store = SecretStore::createDefault(QStringLiteral("gq-tst-secretstore"));
        qunsetenv("GQ_SECRET_STORE");
        QCOMPARE(store->backendName(), QStringLiteral("memory"));
        QVERIFY(store->notice().contains(QStringLiteral("GQ_SECRET_STORE")));
    }

    // The keychain store asked where no keychain answers: it moves to memory once,
    // says why, and every call still works.
    void keychainThatCannotBeReachedFallsBackToMemory() {
        gq::test::NoSessionBus noBus;
        KeychainSecretStore store(QStringLiteral("gq-tst-secretstore"));
        QSignalSpy fellBack(&store, &SecretStore::fellBack);
        QCOMPARE(store.backendName(), QStringLiteral("keychain"));
        QVERIFY(store.notice().isEmpty());

        const Result<void> written = waitFor(store.write(QStringLiteral("db"), QStringLiteral("pw")));
        noBus.restore();
        QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
        QCOMPARE(fellBack.count(), 1);
        QVERIFY(store.fellBackToMemory());
        QCOMPARE(store.backendName(), QStringLiteral("memory"));
        const QString message = fellBack.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("No OS keychain is available")), qPrintable(message));
        QCOMPARE(store.notice(), message);

        const Result<QString> back = waitFor(store.read(QStringLiteral("db")));
        QVERIFY(back);
        QCOMPARE(*back, QStringLiteral("pw"));
        QVERIFY(waitFor(store.remove(QStringLiteral("db"))));
        QCOMPARE(waitFor(store.read(QStringLiteral("db"))).error().kind, Error::Kind::NotFound);
        QCOMPARE(fellBack.count(), 1); // once
    }
};

QTEST_GUILESS_MAIN(TestSecretStore)
#include "tst_secretstore.moc"
