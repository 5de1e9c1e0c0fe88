#pragma once

// The real kubectl for the suites that drive gpuquota-testcluster with it (tst_kubectl,
// tst_manifests, tst_nodes, tst_webhooks): what one run gave, the releases on the
// machine, and one run against a cluster with a HOME and a discovery cache of its own.

#include <QByteArray>
#include <QDir>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>
#include <QTest>

namespace gq::test {

struct KubectlRun {
    int exitCode = -1;
    QString out;
    QString err;
    [[nodiscard]] QString all() const { return out + err; }
};

// kubectl binaries by version: kubectl.1.27 ... kubectl.1.33 on PATH or beside the
// default kubectl (the image installs them in the Google Cloud SDK bin folder); when
// there are none, the default kubectl alone as "default".
inline QMap<QString, QString> findKubectls() {
    QStringList dirs = qEnvironmentVariable("PATH").split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString main = QStandardPaths::findExecutable(QStringLiteral("kubectl"));
    if (!main.isEmpty())
        dirs.append(QFileInfo(QFileInfo(main).canonicalFilePath()).absolutePath());
    QMap<QString, QString> found;
    for (int minor = 27; minor <= 33; ++minor) {
        const QString name = QStringLiteral("kubectl.1.%1").arg(minor);
        for (const QString &d : dirs) {
            const QString candidate = QDir(d).filePath(name);
            if (QFileInfo(candidate).isExecutable()) {
                found.insert(QStringLiteral("1.%1").arg(minor), candidate);
                break;
            }
        }
    }
    if (found.isEmpty() && !main.isEmpty())
        found.insert(QStringLiteral("default"), main);
    return found;
}

// `binary` with `args` against `kubeconfig`, with HOME `home` and a discovery cache of
// its own there (one per binary: releases do not share one); `stdinData` on its stdin.
// Killed after a minute.
inline KubectlRun runKubectl(const QString &binary, const QString &kubeconfig, const QString &home,
                             const QStringList &args, const QByteArray &stdinData = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
    env.insert(QStringLiteral("HOME"), home);
    p.setProcessEnvironment(env);
    const QStringList full =
        QStringList{QStringLiteral("--cache-dir"),
                    QDir(home).filePath(QStringLiteral("cache-") + QFileInfo(binary).fileName())} +
        args;
    p.start(binary, full);
    if (!stdinData.isEmpty())
        p.write(stdinData);
    p.closeWriteChannel();
    KubectlRun r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("kubectl timed out: ") + full.join(QLatin1Char(' '));
        return r;
    }
    r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// `kubectl get quota -n NS --watch`, one "NAME GPUS" line per event, while it lives.
class QuotaWatch {
public:
    QuotaWatch(const QString &binary, const QString &kubeconfig, const QString &home, const QString &ns) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KUBECONFIG"), kubeconfig);
        env.insert(QStringLiteral("HOME"), home);
        m_process.setProcessEnvironment(env);
        m_process.start(
            binary,
            {QStringLiteral("--cache-dir"), QDir(home).filePath(QStringLiteral("cache-watch")),
             QStringLiteral("get"), QStringLiteral("quota"), QStringLiteral("-n"), ns,
             QStringLiteral("--watch"), QStringLiteral("-o"),
             QStringLiteral("jsonpath={.metadata.name} {.spec.hard.requests\\.nvidia\\.com/gpu}{\"\\n\"}")});
    }
    ~QuotaWatch() {
        m_process.kill();
        m_process.waitForFinished();
    }
    QuotaWatch(const QuotaWatch &) = delete;
    QuotaWatch &operator=(const QuotaWatch &) = delete;
    // True once the watch has printed `line` ("gpu 7"), within timeoutMs.
    bool waitFor(const QString &line, int timeoutMs = 20000) {
        return m_process.waitForStarted() &&
               QTest::qWaitFor(
                   [&] {
                       return (m_seen += QString::fromUtf8(m_process.readAllStandardOutput())).contains(line);
                   },
                   timeoutMs);
    }
    [[nodiscard]] QString seen() const { return m_seen; }

private:
    QProcess m_process;
    QString m_seen;
};

} // namespace gq::test

// In initTestCase, when `found` (the kubectl path or paths found) is empty: fails in CI,
// where kubectl must be there, and skips the suite elsewhere.
#define GQ_REQUIRE_KUBECTL(found)                                                                            \
    do {                                                                                                     \
        if ((found).isEmpty()) {                                                                             \
            if (qEnvironmentVariable("CI") == QLatin1String("true"))                                         \
                QFAIL("kubectl is required in CI but none was found on PATH");                               \
            QSKIP("no kubectl on this machine");                                                             \
        }                                                                                                    \
    } while (false)
