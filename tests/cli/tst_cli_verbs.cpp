// Every verb (and sub-command) of `gpuquota` parses its flags the same way
// (app/cli/cliargs.h): --help prints help and exits 0, an unknown flag is a usage error
// (exit 2) that names the flag, and -o json gets past the parser wherever -o is
// documented. A table over all verbs, so a new verb or flag cannot drift.
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestCliVerbs : public QObject {
    Q_OBJECT

    QString m_bin;
    QTemporaryDir m_home;

    Run run(const QStringList &args) {
        QProcess p;
        // No console settings, no kubeconfig: nothing but the parser can answer.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("KUBECONFIG"), m_home.filePath(QStringLiteral("no-kubeconfig")));
        p.setProcessEnvironment(env);
        p.start(m_bin, args);
        p.closeWriteChannel();
        if (!p.waitForFinished(60000))
            p.kill();
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }

    // Every verb and sub-command, and whether it takes -o (apply: as kubectl apply does, with
    // the other cluster verbs' flags).
    static QList<QPair<QString, bool>> verbs() {
        return {
            {QStringLiteral("validate"), false},
            {QStringLiteral("fmt"), false},
            {QStringLiteral("get"), true},
            {QStringLiteral("apply"), true},
            {QStringLiteral("whoami"), true},
            {QStringLiteral("status"), true},
            {QStringLiteral("gpus"), true},
            {QStringLiteral("idle"), true},
            {QStringLiteral("import"), false},
            {QStringLiteral("export"), false},
            {QStringLiteral("demo-data"), false},
            {QStringLiteral("rollup rebuild"), true},
            {QStringLiteral("usage"), true},
            {QStringLiteral("check"), true},
            {QStringLiteral("budget set"), true},
            {QStringLiteral("budget list"), true},
            {QStringLiteral("budget delete"), true},
            {QStringLiteral("budget status"), true},
            {QStringLiteral("report chargeback"), true},
            {QStringLiteral("audit list"), true},
            {QStringLiteral("audit verify"), true},
            {QStringLiteral("audit checkpoint"), false},
            {QStringLiteral("boost grant"), false},
            {QStringLiteral("boost list"), true},
            {QStringLiteral("boost revoke"), false},
            {QStringLiteral("boost extend"), false},
            {QStringLiteral("boost request"), true},
            {QStringLiteral("boost withdraw"), false},
            {QStringLiteral("boost requests"), true},
            {QStringLiteral("boost approve"), false},
            {QStringLiteral("boost deny"), false},
            {QStringLiteral("reconcile"), false},
            {QStringLiteral("identity map"), true},
            {QStringLiteral("advise"), true},
            {QStringLiteral("queues"), true},
            {QStringLiteral("workloads"), true},
        };
    }
    static void verbTable() {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<bool>("output");
        for (const auto &[words, output] : verbs())
            QTest::newRow(qPrintable(words)) << words.split(u' ') << output;
    }

private slots:
    void initTestCase() {
        m_bin = qEnvironmentVariable("GQ_BIN_DIR") + QStringLiteral("/gpuquota");
        QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
        QVERIFY(m_home.isValid());
    }

    // The table covers every verb `gpuquota --help` lists.
    void tableCoversEveryVerb() {
        const Run r = run({QStringLiteral("--help")});
        QCOMPARE(r.code, 0);
        QStringList listed;
        bool inVerbs = false;
        for (const QByteArray &line : r.out.split('\n')) {
            if (line.startsWith("Verbs:")) {
                inVerbs = true;
                continue;
            }
            if (inVerbs && line.isEmpty())
                break;
            if (inVerbs)
                listed << QString::fromUtf8(line.trimmed()).section(u' ', 0, 0);
        }
        QVERIFY(listed.size() > 20);
        QStringList covered;
        for (const auto &verb : verbs())
            covered << verb.first.section(u' ', 0, 0);
        for (const QString &v : std::as_const(listed))
            QVERIFY2(covered.contains(v), qPrintable(QStringLiteral("verb %1 is not in the table").arg(v)));
    }

    void helpExitsZero_data() { verbTable(); }
    void helpExitsZero() {
        QFETCH(QStringList, words);
        for (const char *flag : {"--help", "-h"}) {
            const Run r = run(words + QStringList{QLatin1String(flag)});
            QVERIFY2(r.code == 0, qPrintable(QStringLiteral("exit %1: %2").arg(r.code).arg(r.err)));
            const QByteArray usage = QByteArray("Usage: gpuquota ") + words.first().toUtf8();
            QVERIFY2(r.out.startsWith(usage), r.out.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }
    }

    void unknownFlagIsAUsageError_data() { verbTable(); }
    void unknownFlagIsAUsageError() {
        QFETCH(QStringList, words);
        for (const QString &flag : {QStringLiteral("--no-such-flag"), QStringLiteral("--no-such-flag=1")}) {
            const Run r = run(words + QStringList{flag});
            QVERIFY2(r.code == 2,
                     qPrintable(QStringLiteral("%1: exit %2: %3").arg(flag).arg(r.code).arg(r.err)));
            QVERIFY2(r.err.contains("--no-such-flag"), r.err.constData());
            QVERIFY2(r.out.isEmpty(), r.out.constData());
        }
        // A one-letter flag no verb has.
        const Run r = run(words + QStringList{QStringLiteral("-Z")});
        QVERIFY2(r.code == 2, qPrintable(QStringLiteral("-Z: exit %1: %2").arg(r.code).arg(r.err)));
        QVERIFY2(r.err.contains("-Z"), r.err.constData());
    }

    void outputFlag_data() { verbTable(); }
    void outputFlag() {
        QFETCH(QStringList, words);
        QFETCH(bool, output);
        for (const QStringList &flag :
             {QStringList{QStringLiteral("-o"), QStringLiteral("json")},
              QStringList{QStringLiteral("-ojson")}, QStringList{QStringLiteral("--output=json")}}) {
            const Run r = run(words + flag);
            if (output) {
                // Other flags may be missing; -o itself is accepted.
                QVERIFY2(!r.err.contains("unknown flag") && !r.err.contains("unknown option") &&
                             !r.err.contains("-o must be"),
                         qPrintable(flag.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            } else {
                QVERIFY2(r.code == 2, qPrintable(flag.join(u' ') + QStringLiteral(": exit %1").arg(r.code)));
                QVERIFY2(r.err.contains("unknown flag") || r.err.contains("unknown option"),
                         r.err.constData());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCliVerbs)
#include "tst_cli_verbs.moc"
