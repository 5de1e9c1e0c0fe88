// The typed settings facade: every key has its default, values survive a new
// instance on the same file, per-name keys keep names apart, and secrets go to the
// SecretStore, never into the settings file (the file is read back and searched).

#include "services/settings/consolesettings.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include "tests/services/futurewait.h"

using namespace gq;

using gq::test::waitFor;

class TestConsoleSettings : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void defaultsWhenNothingWasSaved() {
        ConsoleSettings s(file(QStringLiteral("empty.ini")), std::make_unique<MemorySecretStore>());
        QVERIFY(s.windowGeometry().isEmpty());
        QVERIFY(s.namespaceHeaderState().isEmpty());
        QCOMPARE(s.detailsTab(), 0);
        QCOMPARE(s.language(), QString());
        QCOMPARE(s.lastContext(QStringLiteral("/home/a/.kube/config")), QString());
        // A default other than the type's own comes from the key.
        const Setting<int> answer{"test/answer", 42};
        QCOMPARE(s.value(answer), 42);
        const PerNameSetting<QString> greeting{"test/greeting", QStringLiteral("hello")};
        QCOMPARE(s.value(greeting, QStringLiteral("x")), QStringLiteral("hello"));
    }

    void roundTripThroughTheFile() {
        const QString path = file(QStringLiteral("round.ini"));
        const QByteArray geometry("\x01\x02\x00\xff", 4);
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            s.setWindowGeometry(geometry);
            s.setDetailsTab(2);
            s.setLanguage(QStringLiteral("zh_CN"));
            s.setLastContext(QStringLiteral("/tmp/a/config"), QStringLiteral("admin"));
            s.setLastContext(QStringLiteral("/tmp/b/config"), QStringLiteral("prod/eu")); // '/' in values too
            s.setLastNamespace(QStringLiteral("admin"), QStringLiteral("team-vision"));
            s.sync();
        }
        ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
        QCOMPARE(s.windowGeometry(), geometry);
        QCOMPARE(s.detailsTab(), 2);
        QCOMPARE(s.language(), QStringLiteral("zh_CN"));
        QCOMPARE(s.lastContext(QStringLiteral("/tmp/a/config")), QStringLiteral("admin"));
        QCOMPARE(s.lastContext(QStringLiteral("/tmp/b/config")), QStringLiteral("prod/eu"));
        QCOMPARE(s.lastContext(QStringLiteral("/tmp/c/config")), QString());
        QCOMPARE(s.lastNamespace(QStringLiteral("admin")), QStringLiteral("team-vision"));
        // The typed key and the named accessor are one setting.
        QCOMPARE(s.value(settings::detailsTab), 2);
        s.setValue(settings::detailsTab, 1);
        QCOMPARE(s.detailsTab(), 1);
    }

    void secretsNeverReachTheFile() {
        const QString path = file(QStringLiteral("secret.ini"));
        const QString url = QStringLiteral("postgresql://gq@db.example:5432/usage");
        const QString secret = QStringLiteral("hunter2-Zq9x7Wv"); // ASCII: written as is if written at all
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            s.setLanguage(QStringLiteral("en")); // the file exists and holds something
            QVERIFY(waitFor(s.setSecret(settings::usageDatabasePassword, url, secret)));
            const Result<QString> back = waitFor(s.secret(settings::usageDatabasePassword, url));
            QVERIFY(back);
            QCOMPARE(*back, secret);
            const Result<QString> other =
                waitFor(s.secret(settings::usageDatabasePassword, QStringLiteral("sqlite:///x.db")));
            QCOMPARE(other.error().kind, Error::Kind::NotFound);
            s.sync();
        }
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.contains("ui\\language") || text.contains("language=en"));
        QVERIFY2(!text.contains(secret.toLatin1()), text.constData());
        QVERIFY2(!text.contains(QByteArray("usageDatabase")), text.constData());
        QSettings raw(path, QSettings::IniFormat);
        for (const QString &k : raw.allKeys())
            QVERIFY2(raw.value(k).toString() != secret, qPrintable(k));

        ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
        QVERIFY(waitFor(s.removeSecret(settings::usageDatabasePassword, url)));
    }

    // The default secret store here (no D-Bus session, as in CI) is memory, and the
    // facade says so rather than failing.
    void defaultSecretStoreWorksHeadless() {
        qputenv("GQ_SECRET_STORE", "memory");
        ConsoleSettings s(file(QStringLiteral("headless.ini")));
        qunsetenv("GQ_SECRET_STORE");
        QVERIFY(s.secrets());
        QCOMPARE(s.secrets()->backendName(), QStringLiteral("memory"));
        QVERIFY(!s.secrets()->notice().isEmpty());
        QVERIFY(
            waitFor(s.setSecret(settings::usageDatabasePassword, QStringLiteral("u"), QStringLiteral("p"))));
        QCOMPARE(*waitFor(s.secret(settings::usageDatabasePassword, QStringLiteral("u"))),
                 QStringLiteral("p"));
    }

private:
    QString file(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestConsoleSettings)
#include "tst_consolesettings.moc"
