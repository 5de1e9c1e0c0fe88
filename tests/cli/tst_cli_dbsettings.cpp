// `gpuquota` without --db: the usage database the console's Preferences > Connections
// set for the context in use (--context, else the kubeconfig's current-context), read
// from the console's settings file (--settings-file). A --db flag still wins, and a
// context without a database is told what to do.
#include "services/settings/connectionsettings.h"
#include "services/settings/consolesettings.h"
#include "services/settings/secretstore.h"
#include "core/usage/usagestore.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

class TestCliDbSettings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void contextFlagPicksTheDatabase();
    void currentContextPicksTheDatabase();
    void dbFlagWins();
    void contextWithoutDatabase();
    void sameContextNameOnAnotherCluster();

private:
    struct Run {
        int code = -1;
        QString out, err;
    };
    Run run(const QStringList &args, const QString &kubeconfig = {});
    QString makeDatabase(const QString &name, const QString &team);
    QString writeKubeconfig(const QString &name, const QString &server);
    QString m_bin;
    QTemporaryDir m_dir;
    QString m_ini;
    QString m_kubeconfig;
    QString m_prod, m_lab;
};

QString TestCliDbSettings::makeDatabase(const QString &name, const QString &team) {
    const QString url = QStringLiteral("sqlite://") + m_dir.filePath(name);
    auto store = UsageStore::open(url);
    if (!store)
        return {};
    Budget b;
    b.scope = BudgetScope::Namespace;
    b.subject = team;
    b.period = Period::Day;
    b.limitGpuHours = 12;
    if (!(*store)->setBudget(b))
        return {};
    return url;
}

void TestCliDbSettings::initTestCase() {
    m_bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    QVERIFY(m_dir.isValid());
    m_prod = makeDatabase(QStringLiteral("prod.db"), QStringLiteral("team-prod"));
    m_lab = makeDatabase(QStringLiteral("lab.db"), QStringLiteral("team-lab"));
    QVERIFY(!m_prod.isEmpty() && !m_lab.isEmpty());
    m_ini = m_dir.filePath(QStringLiteral("console.ini"));
    {
        ConsoleSettings settings(m_ini, std::make_unique<MemorySecretStore>());
        ContextConnections prod, lab;
        prod.usageDatabaseUrl = m_prod;
        lab.usageDatabaseUrl = m_lab;
        saveConnections(settings, QStringLiteral("prod"), prod);
        saveConnections(settings, QStringLiteral("lab"), lab);
        saveConnections(settings, QStringLiteral("bare"), ContextConnections());
        settings.sync();
    }
    // Two contexts on two clusters; current-context is lab. Nothing connects to them.
    m_kubeconfig = m_dir.filePath(QStringLiteral("kubeconfig"));
    QFile k(m_kubeconfig);
    QVERIFY(k.open(QIODevice::WriteOnly));
    k.write("apiVersion: v1\nkind: Config\ncurrent-context: lab\n"
            "clusters:\n"
            "- name: prod\n  cluster: {server: 'https://127.0.0.1:1'}\n"
            "- name: lab\n  cluster: {server: 'https://127.0.0.1:2'}\n"
            "users:\n- name: u\n  user: {token: t}\n"
            "contexts:\n"
            "- name: prod\n  context: {cluster: prod, user: u}\n"
            "- name: lab\n  context: {cluster: lab, user: u}\n");
}

TestCliDbSettings::Run TestCliDbSettings::run(const QStringList &args, const QString &kubeconfig) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"),
               kubeconfig.isEmpty() ? m_dir.filePath(QStringLiteral("none")) : kubeconfig);
    p.setProcessEnvironment(env);
    p.start(m_bin, QStringList{QStringLiteral("--settings-file"), m_ini} + args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void TestCliDbSettings::contextFlagPicksTheDatabase() {
    for (const auto &[context, team] : {std::pair{QStringLiteral("prod"), QStringLiteral("team-prod")},
                                        std::pair{QStringLiteral("lab"), QStringLiteral("team-lab")}}) {
        const Run r =
            run({QStringLiteral("budget"), QStringLiteral("list"), QStringLiteral("--context"), context},
                m_kubeconfig);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(team), qPrintable(r.out));
        QVERIFY2(!r.out.contains(context == QLatin1String("prod") ? QStringLiteral("team-lab")
                                                                  : QStringLiteral("team-prod")),
                 qPrintable(r.out));
    }
}

void TestCliDbSettings::currentContextPicksTheDatabase() {
    // KUBECONFIG's current-context (lab), and --kubeconfig's.
    const Run viaEnv = run({QStringLiteral("budget"), QStringLiteral("list")}, m_kubeconfig);
    QVERIFY2(viaEnv.code == 0, qPrintable(viaEnv.err));
    QVERIFY2(viaEnv.out.contains(QStringLiteral("team-lab")), qPrintable(viaEnv.out));
    const Run viaFlag =
        run({QStringLiteral("budget"), QStringLiteral("list"), QStringLiteral("--kubeconfig"), m_kubeconfig});
    QVERIFY2(viaFlag.code == 0, qPrintable(viaFlag.err));
    QVERIFY2(viaFlag.out.contains(QStringLiteral("team-lab")), qPrintable(viaFlag.out));
}

void TestCliDbSettings::dbFlagWins() {
    const Run r = run({QStringLiteral("budget"), QStringLiteral("list"), QStringLiteral("--context"),
                       QStringLiteral("prod"), QStringLiteral("--db"), m_lab},
                      m_kubeconfig);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("team-lab")) && !r.out.contains(QStringLiteral("team-prod")),
             qPrintable(r.out));
}

void TestCliDbSettings::contextWithoutDatabase() {
    const Run r = run({QStringLiteral("budget"), QStringLiteral("list"), QStringLiteral("--context"),
                       QStringLiteral("bare")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--db URL is required")) &&
                 r.err.contains(QStringLiteral("context \"bare\"")) && r.err.contains(m_ini),
             qPrintable(r.err));
    QVERIFY(r.out.isEmpty());
}

QString TestCliDbSettings::writeKubeconfig(const QString &name, const QString &server) {
    const QString path = m_dir.filePath(name);
    QFile k(path);
    if (!k.open(QIODevice::WriteOnly))
        return {};
    k.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: default\n"
                           "clusters:\n- name: c\n  cluster: {server: '%1'}\n"
                           "users:\n- name: u\n  user: {token: t}\n"
                           "contexts:\n- name: default\n  context: {cluster: c, user: u}\n")
                .arg(server)
                .toUtf8());
    return path;
}

// Two kubeconfigs call their context "default", for two clusters: each gets the database
// set for its own cluster (connections are kept by context name and API server).
void TestCliDbSettings::sameContextNameOnAnotherCluster() {
    const QString one = writeKubeconfig(QStringLiteral("one.yaml"), QStringLiteral("https://127.0.0.1:11"));
    const QString two = writeKubeconfig(QStringLiteral("two.yaml"), QStringLiteral("https://127.0.0.1:12"));
    {
        ConsoleSettings settings(m_ini, std::make_unique<MemorySecretStore>());
        ContextConnections prod, lab;
        prod.usageDatabaseUrl = m_prod;
        lab.usageDatabaseUrl = m_lab;
        saveConnections(settings,
                        ContextId{QStringLiteral("default"), QStringLiteral("https://127.0.0.1:11")}, prod);
        saveConnections(settings,
                        ContextId{QStringLiteral("default"), QStringLiteral("https://127.0.0.1:12")}, lab);
        settings.sync();
    }
    const Run a = run({QStringLiteral("budget"), QStringLiteral("list")}, one);
    const Run b = run({QStringLiteral("budget"), QStringLiteral("list")}, two);
    QVERIFY2(a.code == 0 && b.code == 0, qPrintable(a.err + b.err));
    QVERIFY2(a.out.contains(QStringLiteral("team-prod")) && !a.out.contains(QStringLiteral("team-lab")),
             qPrintable(a.out));
    QVERIFY2(b.out.contains(QStringLiteral("team-lab")) && !b.out.contains(QStringLiteral("team-prod")),
             qPrintable(b.out));
}

QTEST_GUILESS_MAIN(TestCliDbSettings)
#include "tst_cli_dbsettings.moc"
