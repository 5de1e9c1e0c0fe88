// Connections per context: they survive a new settings instance, contexts are kept
// apart, secrets go to the SecretStore (also when the OS keychain cannot be reached and
// it falls back to memory) and never into the settings file, which is read back and
// searched for them.

#include "services/settings/connectionsettings.h"
#include "services/settings/consolesettings.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "tests/services/futurewait.h"
#include "tests/services/nosessionbus.h"

using namespace gq;
using gq::test::waitFor;

class TestConnectionSettings : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void roundTripPerContext() {
        const QString path = m_dir.filePath(QStringLiteral("round.ini"));
        ContextConnections prod;
        prod.usageDatabaseUrl = QStringLiteral("postgresql://gq@db.example:5432/gpuquota");
        prod.metricsSource = MetricsSource::Prometheus;
        prod.prometheusUrl = QStringLiteral("https://prom.example");
        prod.prometheusCaFile = QStringLiteral("/etc/ssl/prom-ca.pem");
        prod.controllerUrl = QStringLiteral("http://controller.example:8080");
        ContextConnections lab;
        lab.usageDatabaseUrl = QStringLiteral("sqlite:///var/lib/gq/lab.db");
        lab.metricsSource = MetricsSource::Exporters;
        lab.exporterEndpoints = {QStringLiteral("http://gpu-1:9400/metrics"),
                                 QStringLiteral("http://gpu-2:9400/metrics")};
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            saveConnections(s, QStringLiteral("prod/eu"), prod);
            saveConnections(s, QStringLiteral("lab"), lab);
            s.sync();
        }
        ConsoleSettings again(path, std::make_unique<MemorySecretStore>());
        QCOMPARE(loadConnections(again, QStringLiteral("prod/eu")), prod);
        QCOMPARE(loadConnections(again, QStringLiteral("lab")), lab);
        // A context never configured has nothing, and says so.
        const ContextConnections none = loadConnections(again, QStringLiteral("other"));
        QCOMPARE(none, ContextConnections());
        QVERIFY(!none.metricsConfigured());
        QVERIFY(prod.metricsConfigured());
        QVERIFY(lab.metricsConfigured());
    }

    // Two kubeconfigs both call a context "default", for two clusters: each keeps its own
    // connections and secrets (keyed by name and API server).
    void sameNameOnTwoClustersKeptApart() {
        const QString path = m_dir.filePath(QStringLiteral("twins.ini"));
        const ContextId a{QStringLiteral("default"), QStringLiteral("https://10.0.0.1:6443")};
        const ContextId b{QStringLiteral("default"), QStringLiteral("https://k8s.lab.example:443")};
        QVERIFY(a.key() != b.key());
        ContextConnections ca, cb;
        ca.usageDatabaseUrl = QStringLiteral("sqlite:///a.db");
        cb.usageDatabaseUrl = QStringLiteral("sqlite:///b.db");
        cb.controllerUrl = QStringLiteral("http://ctl-b:8080");
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            saveConnections(s, a, ca);
            saveConnections(s, b, cb);
            s.sync();
        }
        ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
        QCOMPARE(loadConnections(s, a), ca);
        QCOMPARE(loadConnections(s, b), cb);
        QCOMPARE(takeConnections(s, a), ca);
        QCOMPARE(loadConnections(s, b), cb);
        QVERIFY(waitFor(s.setSecret(settings::usageDatabaseSecret, a.key(), QStringLiteral("pw-a"))));
        QVERIFY(waitFor(s.setSecret(settings::usageDatabaseSecret, b.key(), QStringLiteral("pw-b"))));
        QCOMPARE(*waitFor(contextSecret(s, settings::usageDatabaseSecret, a)), QStringLiteral("pw-a"));
        QCOMPARE(*waitFor(contextSecret(s, settings::usageDatabaseSecret, b)), QStringLiteral("pw-b"));
    }

    // Settings kept before by name alone: the first context of that name reads them and
    // takes them over (with their secret); another cluster's same-named context then
    // starts empty instead of sharing them.
    void entryByNameAloneIsTakenOnce() {
        const QString path = m_dir.filePath(QStringLiteral("legacy.ini"));
        ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
        ContextConnections old;
        old.usageDatabaseUrl = QStringLiteral("postgresql://gq@db/gq");
        old.metricsSource = MetricsSource::Prometheus;
        old.prometheusUrl = QStringLiteral("https://prom");
        saveConnections(s, QStringLiteral("prod"), old);
        QVERIFY(waitFor(
            s.setSecret(settings::usageDatabaseSecret, QStringLiteral("prod"), QStringLiteral("pw"))));
        const ContextId first{QStringLiteral("prod"), QStringLiteral("https://a:6443")};
        const ContextId second{QStringLiteral("prod"), QStringLiteral("https://b:6443")};
        QCOMPARE(loadConnections(s, first), old); // reading alone moves nothing
        QCOMPARE(loadConnections(s, second), old);
        QCOMPARE(takeConnections(s, first), old);
        QCOMPARE(loadConnections(s, first), old);
        QCOMPARE(loadConnections(s, second), ContextConnections());
        QCOMPARE(loadConnections(s, QStringLiteral("prod")), ContextConnections());
        QCOMPARE(*waitFor(contextSecret(s, settings::usageDatabaseSecret, first)), QStringLiteral("pw"));
        QCOMPARE(*waitFor(s.secret(settings::usageDatabaseSecret, first.key())), QStringLiteral("pw"));
        QCOMPARE(waitFor(contextSecret(s, settings::usageDatabaseSecret, second)).error().kind,
                 Error::Kind::NotFound);
    }

    // A password typed into a URL comes out of it (for the SecretStore), the rest stays.
    void passwordsOutOfUrls() {
        const UrlPassword pg =
            splitUrlPassword(QStringLiteral("postgresql://gq:s3cr%40t@db:5432/gq?schema=x"));
        QCOMPARE(pg.url, QStringLiteral("postgresql://gq@db:5432/gq?schema=x"));
        QCOMPARE(pg.password, QStringLiteral("s3cr@t"));
        const UrlPassword prom = splitUrlPassword(QStringLiteral("https://user:pass@prom:9090"));
        QCOMPARE(prom.url, QStringLiteral("https://user@prom:9090"));
        QCOMPARE(prom.password, QStringLiteral("pass"));
        QCOMPARE(withUrlPassword(prom.url, prom.password), QStringLiteral("https://user:pass@prom:9090"));
        for (const QString &plain :
             {QStringLiteral("sqlite:///var/lib/gq/usage.db"), QStringLiteral("postgresql://gq@db/gq"),
              QStringLiteral("https://prom")}) {
            QCOMPARE(splitUrlPassword(plain).url, plain);
            QVERIFY(splitUrlPassword(plain).password.isEmpty());
        }
        QCOMPARE(withUrlPassword(QStringLiteral("https://prom"), QStringLiteral("x")),
                 QStringLiteral("https://prom"));
    }

    void metricsSourceKeys() {
        for (MetricsSource s : {MetricsSource::None, MetricsSource::Prometheus, MetricsSource::Exporters,
                                MetricsSource::Discover})
            QCOMPARE(metricsSourceFromKey(metricsSourceKey(s)), s);
        QCOMPARE(metricsSourceFromKey(QStringLiteral("carrier-pigeon")), MetricsSource::None);
    }

    // The secrets go to the store: the file, read back byte by byte, has none of them.
    void secretsNeverInTheSettingsFile() {
        const QString path = m_dir.filePath(QStringLiteral("secrets.ini"));
        const QString password = QStringLiteral("pw-6f1d2c-in-the-keychain");
        const QString token = QStringLiteral("tok-93ab77-in-the-keychain");
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            ContextConnections c;
            c.usageDatabaseUrl = QStringLiteral("postgresql://gq@db:5432/gq");
            c.metricsSource = MetricsSource::Prometheus;
            c.prometheusUrl = QStringLiteral("https://prom");
            saveConnections(s, QStringLiteral("prod"), c);
            QVERIFY(waitFor(s.setSecret(settings::usageDatabaseSecret, QStringLiteral("prod"), password)));
            QVERIFY(waitFor(s.setSecret(settings::prometheusToken, QStringLiteral("prod"), token)));
            QCOMPARE(*waitFor(s.secret(settings::usageDatabaseSecret, QStringLiteral("prod"))), password);
            QCOMPARE(*waitFor(s.secret(settings::prometheusToken, QStringLiteral("prod"))), token);
            // Another context has none.
            QCOMPARE(waitFor(s.secret(settings::prometheusToken, QStringLiteral("lab"))).error().kind,
                     Error::Kind::NotFound);
            s.sync();
        }
        assertFileHasNo(path, {password, token});
    }

    // No keychain answers (a session bus that is not there): the store says so, keeps the
    // secrets for this session, and still writes none to the file.
    void keychainFallbackKeepsSecretsOutOfTheFile() {
        const QString path = m_dir.filePath(QStringLiteral("fallback.ini"));
        const QString password = QStringLiteral("pw-fallback-51c0");
        gq::test::NoSessionBus noBus;
        auto store = std::make_unique<KeychainSecretStore>(QStringLiteral("gq-tst-connectionsettings"));
        KeychainSecretStore *keychain = store.get();
        QSignalSpy fellBack(keychain, &SecretStore::fellBack);
        {
            ConsoleSettings s(path, std::move(store));
            const Result<void> written =
                waitFor(s.setSecret(settings::usageDatabaseSecret, QStringLiteral("prod"), password));
            noBus.restore();
            QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
            QCOMPARE(fellBack.count(), 1);
            QVERIFY(fellBack.at(0).at(0).toString().contains(QStringLiteral("this session only")));
            QCOMPARE(s.secrets()->backendName(), QStringLiteral("memory"));
            QCOMPARE(*waitFor(s.secret(settings::usageDatabaseSecret, QStringLiteral("prod"))), password);
            s.setValue(settings::usageDatabaseUrl, QStringLiteral("prod"),
                       QStringLiteral("postgresql://gq@db/gq"));
            s.sync();
        }
        assertFileHasNo(path, {password});
    }

    // One file per context, readable, never shared by two names that clean up alike.
    void embeddedDatabasePerContext() {
        const QString a = embeddedDatabaseUrl(QStringLiteral("/data"), QStringLiteral("team/a"));
        const QString b = embeddedDatabaseUrl(QStringLiteral("/data"), QStringLiteral("team:a"));
        QVERIFY2(a.startsWith(QStringLiteral("sqlite:///data/usage-team_a-")), qPrintable(a));
        QVERIFY(a.endsWith(QStringLiteral(".db")));
        QVERIFY(a != b);
        QCOMPARE(embeddedDatabaseUrl(QStringLiteral("/data"), QStringLiteral("team/a")), a);
    }

    // Each key once: the preferences read back what was written, defaults otherwise.
    void preferencesDefaultsAndRoundTrip() {
        const QString path = m_dir.filePath(QStringLiteral("prefs.ini"));
        {
            ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
            QCOMPARE(s.value(settings::startPage), QStringLiteral("last"));
            QCOMPARE(s.value(settings::budgetRefreshSeconds), 30);
            QCOMPARE(s.value(settings::chargebackCurrency), QStringLiteral("USD"));
            s.setValue(settings::timeZone, QStringLiteral("Asia/Shanghai"));
            s.setValue(settings::chargebackRate, 2.75);
            s.setValue(settings::idleMinutes, 45);
            s.sync();
        }
        ConsoleSettings s(path, std::make_unique<MemorySecretStore>());
        QCOMPARE(s.value(settings::timeZone), QStringLiteral("Asia/Shanghai"));
        QCOMPARE(s.value(settings::chargebackRate), 2.75);
        QCOMPARE(s.value(settings::idleMinutes), 45);
        QCOMPARE(s.fileName(), path);
    }

private:
    void assertFileHasNo(const QString &path, const QStringList &secrets) {
        QFile f(path);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
        const QByteArray text = f.readAll();
        QVERIFY2(!text.isEmpty(), "the settings were written");
        for (const QString &secret : secrets)
            QVERIFY2(
                !text.contains(secret.toUtf8()),
                qPrintable(QStringLiteral("secret found in %1:\n%2").arg(path, QString::fromUtf8(text))));
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestConnectionSettings)
#include "tst_connectionsettings.moc"
