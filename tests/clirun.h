#pragma once

// Running a command-line program from a test (the built gpuquota, mostly): what it
// exited with and printed, and arguments written as one string for the tables of bad
// inputs.

#include <QProcess>
#include <QString>
#include <QStringList>

namespace gq::test {

// The built `gpuquota` (GQ_BIN_DIR overrides where it is looked for).
inline QString gpuquotaBinary() {
    return qEnvironmentVariable("GQ_BIN_DIR", QStringLiteral(GQ_BINARY_DIR "/bin")) +
           QStringLiteral("/gpuquota");
}

struct CliRun {
    int code = -1; // -1: did not start, crashed or timed out
    QString out;
    QString err;
};

// `program` with `args` in `env`, `stdinData` on its standard input (closed after it);
// given up (code -1, nothing printed) when it does not start within 10 s or finish
// within `timeoutMs`.
inline CliRun runCli(const QString &program, const QStringList &args,
                     const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
                     int timeoutMs = 60000, const QByteArray &stdinData = {}) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted(10000))
        return {};
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

// "--user a --now tomorrow" as {"--user", "a", "--now", "tomorrow"}: for arguments
// without spaces in them.
inline QStringList words(const char *text) {
    return QString::fromUtf8(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

} // namespace gq::test
