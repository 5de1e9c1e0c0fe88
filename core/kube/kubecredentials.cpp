// Credentials at run time: exec credential plugins and KubeCredentials, which hands
// every request the current token or client certificate.
#include "core/domain/clock.h"
#include "core/kube/execactivity.h"
#include "core/kube/kubeconfig.h"

#include "core/kube/kubeconfig_p.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>

namespace gq {

using detail::readFileField;
using detail::resolvePath;

int execPluginTimeoutMs(const KubeExecConfig &exec) {
    return exec.interactiveMode == QLatin1String("Never") ? 30000 : 5 * 60 * 1000;
}

Result<ExecCredential> runExecPlugin(const KubeExecConfig &exec, const QString &server, int timeoutMs) {
    const QString what = QStringLiteral("exec plugin \"%1\"").arg(exec.command);
    if (exec.interactiveMode == QLatin1String("Always"))
        return Error::make(Error::Kind::Config,
                           what +
                               QStringLiteral(" requires an interactive terminal (interactiveMode: Always), "
                                              "but gpuquota runs it non-interactively"),
                           QStringLiteral("exec.interactiveMode"));
    QString program = exec.command;
    if (program.contains(QLatin1Char('/')))
        program = resolvePath(program, exec.baseDir);
    else {
        const QString found = QStandardPaths::findExecutable(program);
        if (found.isEmpty()) {
            QString msg = what + QStringLiteral(" not found on PATH");
            if (!exec.installHint.isEmpty())
                msg += QStringLiteral("; ") + exec.installHint.trimmed();
            return Error::make(Error::Kind::Config, msg, QStringLiteral("exec.command"));
        }
        program = found;
    }

    QJsonObject spec{{QStringLiteral("interactive"), false}};
    if (exec.provideClusterInfo)
        spec.insert(QStringLiteral("cluster"), QJsonObject{{QStringLiteral("server"), server}});
    const QJsonObject info{{QStringLiteral("apiVersion"), exec.apiVersion},
                           {QStringLiteral("kind"), QStringLiteral("ExecCredential")},
                           {QStringLiteral("spec"), spec}};

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const auto &kv : exec.env)
        env.insert(kv.first, kv.second);
    env.insert(QStringLiteral("KUBERNETES_EXEC_INFO"),
               QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact)));

    // Said in the window while it runs (a browser login can take minutes).
    const execactivity::Scope running(exec.command, exec.interactiveMode != QLatin1String("Never"));
    QProcess proc;
    proc.setProcessEnvironment(env);
    proc.setStandardInputFile(QProcess::nullDevice());
    proc.start(program, exec.args);
    if (!proc.waitForStarted(timeoutMs)) {
        QString msg = what + QStringLiteral(" could not be started: %1").arg(proc.errorString());
        if (!exec.installHint.isEmpty())
            msg += QStringLiteral("; ") + exec.installHint.trimmed();
        return Error::make(Error::Kind::Config, msg, QStringLiteral("exec.command"));
    }
    if (!proc.waitForFinished(timeoutMs)) {
        proc.kill();
        proc.waitForFinished(1000);
        return Error::make(Error::Kind::Timeout,
                           what + QStringLiteral(" did not finish within %1 ms").arg(timeoutMs));
    }
    const QString stderrText = QString::fromLocal8Bit(proc.readAllStandardError()).trimmed();
    if (proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0)
        return Error::make(
            Error::Kind::Unauthorized,
            what + QStringLiteral(" failed with exit code %1: %2")
                       .arg(proc.exitCode())
                       .arg(stderrText.isEmpty() ? QStringLiteral("(no output on stderr)") : stderrText));
    QJsonParseError perr;
    const QJsonDocument doc = QJsonDocument::fromJson(proc.readAllStandardOutput(), &perr);
    if (!doc.isObject())
        return Error::make(
            Error::Kind::Parse,
            what + QStringLiteral(" printed no ExecCredential JSON (%1)").arg(perr.errorString()));
    const QJsonObject obj = doc.object();
    if (obj.value(QLatin1String("kind")).toString() != QLatin1String("ExecCredential"))
        return Error::make(Error::Kind::Parse,
                           what + QStringLiteral(" printed an object that is not an ExecCredential"));
    if (obj.value(QLatin1String("apiVersion")).toString() != exec.apiVersion)
        return Error::make(Error::Kind::Parse,
                           what +
                               QStringLiteral(" answered apiVersion '%1', expected '%2'")
                                   .arg(obj.value(QLatin1String("apiVersion")).toString(), exec.apiVersion));
    const QJsonObject status = obj.value(QLatin1String("status")).toObject();
    ExecCredential cred;
    cred.token = status.value(QLatin1String("token")).toString();
    cred.clientCertPem = status.value(QLatin1String("clientCertificateData")).toString().toUtf8();
    cred.clientKeyPem = status.value(QLatin1String("clientKeyData")).toString().toUtf8();
    const QString exp = status.value(QLatin1String("expirationTimestamp")).toString();
    if (!exp.isEmpty()) {
        cred.expiry = QDateTime::fromString(exp, Qt::ISODate);
        if (!cred.expiry.isValid())
            return Error::make(
                Error::Kind::Parse,
                what + QStringLiteral(" returned an unreadable expirationTimestamp '%1'").arg(exp),
                QStringLiteral("status.expirationTimestamp"));
    }
    if (cred.token.isEmpty() && (cred.clientCertPem.isEmpty() || cred.clientKeyPem.isEmpty()))
        return Error::make(Error::Kind::Parse,
                           what +
                               QStringLiteral(" returned neither a token nor a client certificate and key"),
                           QStringLiteral("status"));
    return cred;
}

KubeCredentials::KubeCredentials(KubeConnection connection)
    : m_conn(std::move(connection)) {}

Result<KubeCredentials::Material> KubeCredentials::current() {
    Material m;
    m.clientCertPem = m_conn.clientCertPem;
    m.clientKeyPem = m_conn.clientKeyPem;
    if (!m_conn.token.isEmpty()) {
        m.bearerToken = m_conn.token;
        return m;
    }
    if (!m_conn.tokenFile.isEmpty()) {
        auto data =
            readFileField(m_conn.tokenFile, QStringLiteral("users[%1].user.tokenFile").arg(m_conn.userName));
        if (!data)
            return data.error();
        m.bearerToken = QString::fromUtf8(data->trimmed());
        return m;
    }
    if (!m_conn.exec)
        return m;
    std::lock_guard lock(m_mutex);
    // A little margin so a token does not expire between check and use.
    const QDateTime now = Clock::system().nowUtc().addSecs(10);
    if (!m_cached || (m_cached->expiry.isValid() && m_cached->expiry <= now)) {
        m_cached.reset();
        ++m_execRuns;
        auto cred = runExecPlugin(*m_conn.exec, m_conn.server);
        if (!cred) {
            Error e = cred.error();
            e.field = QStringLiteral("users[%1].user.%2")
                          .arg(m_conn.userName, e.field.isEmpty() ? QStringLiteral("exec") : e.field);
            return e;
        }
        m_cached = *cred;
    }
    m.bearerToken = m_cached->token;
    if (!m_cached->clientCertPem.isEmpty()) {
        m.clientCertPem = m_cached->clientCertPem;
        m.clientKeyPem = m_cached->clientKeyPem;
    }
    return m;
}

void KubeCredentials::invalidate() {
    std::lock_guard lock(m_mutex);
    m_cached.reset();
}

int KubeCredentials::execRuns() const {
    std::lock_guard lock(m_mutex);
    return m_execRuns;
}

} // namespace gq
