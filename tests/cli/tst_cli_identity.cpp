// `gpuquota identity map` (app/cli/cmd_identity.cpp): the controller's identity mapping
// from the command line, with the defaults and with a controller configuration's
// identity: section; what it says for a name it cannot map, and configuration errors
// with file and line.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestCliIdentity : public QObject {
    Q_OBJECT

    QString m_bin;
    QTemporaryDir m_dir;

    Run run(const QStringList &args) {
        QProcess p;
        p.start(m_bin, QStringList{QStringLiteral("identity")} + args);
        p.waitForFinished(60000);
        return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }
    QString config(const QByteArray &text) {
        static int n = 0;
        const QString path = m_dir.filePath(QStringLiteral("controller-%1.yaml").arg(++n));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(text);
        return path;
    }

private slots:
    void initTestCase() {
        m_bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
        QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
        QVERIFY(m_dir.isValid());
    }

    void defaultsAsText() {
        const Run r =
            run({QStringLiteral("map"), QStringLiteral("alice@example.com"), QStringLiteral("oidc:bob"),
                 QStringLiteral("system:serviceaccount:team-a:notebook")});
        QCOMPARE(r.code, 0);
        QCOMPARE(
            QString::fromUtf8(r.out),
            QStringLiteral("alice@example.com \u2192 alice (e-mail local part)\n"
                           "oidc:bob \u2192 bob (prefix oidc: removed)\n"
                           "system:serviceaccount:team-a:notebook \u2192 namespace team-a (ServiceAccount "
                           "notebook of namespace team-a)\n"));
    }

    void configAsJson() {
        const QString path = config("database: sqlite:///x.db\n"
                                    "identity:\n"
                                    "  users: {\"arn:aws:iam::1:user/Alice\": alice}\n"
                                    "  serviceAccounts: none\n");
        const Run r = run({QStringLiteral("map"), QStringLiteral("arn:aws:iam::1:user/Alice"),
                           QStringLiteral("system:serviceaccount:team-a:notebook"),
                           QStringLiteral("--config"), path, QStringLiteral("-o"), QStringLiteral("json")});
        QCOMPARE(r.code, 1); // the ServiceAccount maps to nothing
        const QJsonArray a = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(a.size(), 2);
        const QJsonObject alice = a[0].toObject();
        QCOMPARE(alice.value(QLatin1String("subject")).toString(), QStringLiteral("alice"));
        QCOMPARE(alice.value(QLatin1String("scope")).toString(), QStringLiteral("user"));
        QCOMPARE(alice.value(QLatin1String("rule")).toString(), QStringLiteral("table"));
        QVERIFY(a[1].toObject()
                    .value(QLatin1String("error"))
                    .toString()
                    .contains(QLatin1String("identity.serviceAccounts: none")));
    }

    void unmappableName() {
        const Run r = run({QStringLiteral("map"), QStringLiteral("bob smith")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("error: bob smith cannot be mapped to a budget user"), r.err.constData());
    }

    void configErrorsNameTheLine() {
        const QString path =
            config("database: sqlite:///x.db\nidentity:\n  emailLocalPart: yes\n  lower: true\n");
        const Run r = run({QStringLiteral("map"), QStringLiteral("alice"), QStringLiteral("--config"), path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(
                     QByteArray(path.toUtf8() + ":3:19: identity.emailLocalPart: must be true or false")),
                 r.err.constData());
        QVERIFY2(r.err.contains(QByteArray(path.toUtf8() + ":4:3: identity.lower: unknown key")),
                 r.err.constData());
    }

    void usage() {
        QCOMPARE(run({}).code, 2);
        QCOMPARE(run({QStringLiteral("map")}).code, 2);
        QCOMPARE(
            run({QStringLiteral("map"), QStringLiteral("a"), QStringLiteral("-o"), QStringLiteral("yaml")})
                .code,
            2);
        QCOMPARE(run({QStringLiteral("--help")}).code, 0);
    }
};

QTEST_GUILESS_MAIN(TestCliIdentity)
#include "tst_cli_identity.moc"
