#pragma once

// Helpers shared by the kube suites: running the real kubectl and openssl, and
// deciding whether a missing tool is a skip (developer machine) or a failure (CI).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QtTest>

namespace gq::test {

inline bool inCi() {
    return qEnvironmentVariable("CI") == QLatin1String("true");
}

struct ToolRun {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    qint64 elapsedMs = 0;
};

inline ToolRun runTool(const QString &program, const QStringList &args, int timeoutMs = 60000,
                       const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment()) {
    ToolRun r;
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        r.err = p.errorString().toUtf8();
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.elapsedMs = t.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline QString writeFile(const QString &path, const QByteArray &data) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(data);
    return path;
}

inline QByteArray readFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace gq::test

// Skips outside CI, fails in CI, when a tool the suite needs is missing.
#define GQ_REQUIRE_TOOL(name)                                                                                \
    do {                                                                                                     \
        if (QStandardPaths::findExecutable(QStringLiteral(name)).isEmpty()) {                                \
            if (gq::test::inCi())                                                                            \
                QFAIL(name " is not on the PATH (required in CI)");                                          \
            QSKIP(name " is not on the PATH");                                                               \
        }                                                                                                    \
    } while (false)
