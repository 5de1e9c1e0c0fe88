#pragma once

// The real Kubernetes control plane for a suite: kube-apiserver, kube-controller-manager,
// kube-scheduler, etcd and kwok (simulated GPU nodes), built from the official Go modules
// and started by scripts/real-cluster.sh on free loopback ports.
//
//     gq::test::RealCluster cluster;             // 2 kwok nodes x 8 nvidia.com/gpu
//     GQ_START_REAL_CLUSTER(cluster);            // fails under CI=true, skips elsewhere
//     cluster.kubectl({"get", "nodes"});          // the admin context (cluster-admin)
//     cluster.kubectlAs("t-alice", {...});        // a static-token user (usersFile())
//
// The users every suite gets (the API server's static token file):
//     t-alice   alice@example.com   groups team-a
//     t-bob     oidc:bob            no group
//     t-viewer  viewer@example.com  groups viewers
// GQ_REAL_K8S_VERSION picks the minor (1.35 by default; 1.33 is the oldest supported).
// Header-only: needs Qt Core and QtTest.

#include "tests/kube/kubetestutil.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <memory>

#include <csignal>
#include <sys/types.h>

#ifndef GQ_SOURCE_DIR
#error "GQ_SOURCE_DIR must name the source tree (scripts/real-cluster.sh)"
#endif

namespace gq::test {

class RealCluster final {
public:
    struct Options {
        int gpuNodes = 2;
        int gpusPerNode = 8;
        // Extra lines for the static token file (token,user,uid,"group1,group2").
        QStringList extraUsers;
        QStringList extraArguments;          // more `start` options
        QStringList apiServerArguments;      // more kube-apiserver flags (GQ_APISERVER_EXTRA_ARGS)
        int startTimeoutMs = 20 * 60 * 1000; // a cold cache builds first
    };

    RealCluster()
        : RealCluster(Options{}) {}
    explicit RealCluster(Options options)
        : m_options(std::move(options)) {}
    ~RealCluster() { stop(); }
    RealCluster(const RealCluster &) = delete;
    RealCluster &operator=(const RealCluster &) = delete;

    static QString script() { return QStringLiteral(GQ_SOURCE_DIR "/scripts/real-cluster.sh"); }
    static QString version() {
        const QString v = qEnvironmentVariable("GQ_REAL_K8S_VERSION");
        return v.isEmpty() ? QStringLiteral("1.35") : v;
    }

    bool start() {
        if (m_process)
            return true;
        if (!m_tmp.isValid()) {
            m_error = QStringLiteral("cannot create a temporary directory");
            return false;
        }
        m_dir = m_tmp.filePath(QStringLiteral("cluster"));
        QStringList users = {QStringLiteral("t-alice,alice@example.com,u-alice,\"team-a\""),
                             QStringLiteral("t-bob,oidc:bob,u-bob,\"\""),
                             QStringLiteral("t-viewer,viewer@example.com,u-viewer,\"viewers\"")};
        users += m_options.extraUsers;
        m_usersFile = writeFile(m_tmp.filePath(QStringLiteral("users.csv")),
                                users.join(QLatin1Char('\n')).toUtf8() + '\n');
        QStringList args = {QStringLiteral("start"),
                            QStringLiteral("--dir"),
                            m_dir,
                            QStringLiteral("--version"),
                            version(),
                            QStringLiteral("--users"),
                            m_usersFile,
                            QStringLiteral("--gpu-nodes"),
                            QString::number(m_options.gpuNodes),
                            QStringLiteral("--gpus-per-node"),
                            QString::number(m_options.gpusPerNode)};
        args += m_options.extraArguments;
        m_process = std::make_unique<QProcess>();
        m_process->setProcessChannelMode(QProcess::SeparateChannels);
        m_process->setStandardErrorFile(m_tmp.filePath(QStringLiteral("start.log")));
        if (!m_options.apiServerArguments.isEmpty()) {
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("GQ_APISERVER_EXTRA_ARGS"), m_options.apiServerArguments.join(u' '));
            m_process->setProcessEnvironment(env);
        }
        m_process->start(QStringLiteral("bash"), QStringList{script()} + args);
        if (!m_process->waitForStarted(10000)) {
            m_error = QStringLiteral("cannot run %1: %2").arg(script(), m_process->errorString());
            m_process.reset();
            return false;
        }
        QElapsedTimer timer;
        timer.start();
        QByteArray out;
        while (timer.elapsed() < m_options.startTimeoutMs && m_process->state() == QProcess::Running) {
            m_process->waitForReadyRead(500);
            out += m_process->readAllStandardOutput();
            const qsizetype at = out.indexOf("ready https://");
            if (at >= 0 && out.indexOf('\n', at) > at) {
                m_url = QUrl(QString::fromUtf8(out.mid(at + 6, out.indexOf('\n', at) - at - 6).trimmed()));
                m_kubeconfig = QDir(m_dir).filePath(QStringLiteral("kubeconfig"));
                return true;
            }
        }
        m_error =
            QStringLiteral("the real cluster did not become ready (%1 s): %2")
                .arg(timer.elapsed() / 1000)
                .arg(lastLines(QString::fromUtf8(readFile(m_tmp.filePath(QStringLiteral("start.log")))), 40));
        stop();
        return false;
    }

    void stop() {
        if (!m_process)
            return;
        runTool(QStringLiteral("bash"), {script(), QStringLiteral("stop"), QStringLiteral("--dir"), m_dir},
                120000);
        if (!m_process->waitForFinished(60000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
        m_process.reset();
    }

    [[nodiscard]] QString errorString() const { return m_error; }
    [[nodiscard]] QUrl url() const { return m_url; }
    [[nodiscard]] QString kubeconfigPath() const { return m_kubeconfig; }
    [[nodiscard]] QString dir() const { return m_dir; }
    [[nodiscard]] QString usersFile() const { return m_usersFile; }
    [[nodiscard]] QString temporaryDir() const { return m_tmp.path(); }

    // kubectl (the one on PATH) as the admin context.
    ToolRun kubectl(const QStringList &args, int timeoutMs = 60000) const {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), m_kubeconfig} + args, timeoutMs);
    }
    // kubectl as a static-token user (the cluster's server and CA, no client certificate).
    ToolRun kubectlAs(const QString &token, const QStringList &args) const {
        return runTool(QStringLiteral("kubectl"),
                       QStringList{QStringLiteral("--kubeconfig"), kubeconfigFor(token, token)} + args);
    }
    // `kubectl apply` of a manifest given as text.
    ToolRun apply(const QByteArray &yaml) const {
        static int n = 0;
        const QString f =
            writeFile(QDir(m_tmp.path()).filePath(QStringLiteral("apply-%1.yaml").arg(++n)), yaml);
        return kubectl({QStringLiteral("apply"), QStringLiteral("-f"), f});
    }
    // A kubeconfig for a static-token user: context `user`, the cluster's server and CA.
    QString kubeconfigFor(const QString &token, const QString &name) const {
        const QString path = QDir(m_tmp.path()).filePath(name + QStringLiteral(".kubeconfig"));
        if (QFileInfo::exists(path))
            return path;
        QFile::copy(m_kubeconfig, path);
        const auto run = [&](const QStringList &a) {
            return runTool(QStringLiteral("kubectl"), QStringList{QStringLiteral("--kubeconfig"), path} + a);
        };
        run({QStringLiteral("config"), QStringLiteral("set-credentials"), name, QStringLiteral("--token"),
             token});
        const QString cluster =
            QString::fromUtf8(run({QStringLiteral("config"), QStringLiteral("view"), QStringLiteral("-o"),
                                   QStringLiteral("jsonpath={.contexts[0].context.cluster}")})
                                  .out);
        run({QStringLiteral("config"), QStringLiteral("set-context"), name, QStringLiteral("--cluster"),
             cluster, QStringLiteral("--user"), name});
        run({QStringLiteral("config"), QStringLiteral("use-context"), name});
        return path;
    }
    // Waits until `kubectl get ... -o jsonpath=TEMPLATE` prints `expected`.
    bool waitForJsonPath(const QStringList &object, const QString &templ, const QString &expected,
                         int timeoutMs = 60000) const {
        return QTest::qWaitFor(
            [&] {
                return QString::fromUtf8(
                           kubectl(QStringList{QStringLiteral("get")} + object +
                                   QStringList{QStringLiteral("-o"), QStringLiteral("jsonpath=") + templ})
                               .out)
                           .trimmed() == expected;
            },
            timeoutMs);
    }
    // A pod asking for `gpus` nvidia.com/gpu, labelled with its user (kubectl apply).
    ToolRun createGpuPod(const QString &ns, const QString &name, const QString &user, int gpus) const {
        return apply(QStringLiteral("apiVersion: v1\nkind: Pod\nmetadata:\n  name: %1\n  namespace: %2\n"
                                    "  labels: {gpuquota.io/user: %3}\nspec:\n  containers:\n"
                                    "  - name: main\n    image: cuda\n    resources:\n"
                                    "      limits: {nvidia.com/gpu: \"%4\"}\n")
                         .arg(name, ns, user)
                         .arg(gpus)
                         .toUtf8());
    }
    // When the pod's first container started running, as kwok (a kubelet) reported it:
    // waits up to timeoutMs for it; 0 when it never ran.
    qint64 waitStartedAt(const QString &ns, const QString &name, int timeoutMs = 60000) const {
        qint64 at = 0;
        (void)QTest::qWaitFor(
            [&] {
                const QString s = QString::fromUtf8(
                    kubectl(
                        {QStringLiteral("get"), QStringLiteral("pod"), name, QStringLiteral("-n"), ns,
                         QStringLiteral("-o"),
                         QStringLiteral("jsonpath={.status.containerStatuses[0].state.running.startedAt}")})
                        .out.trimmed());
                at = s.isEmpty() ? 0 : QDateTime::fromString(s, Qt::ISODate).toSecsSinceEpoch();
                return at > 0;
            },
            timeoutMs);
        return at;
    }
    // Sends `sig` to one component (kube-controller-manager, kube-scheduler, kwok, ...):
    // SIGSTOP and SIGCONT make it hang and go on, as a control plane outage would.
    bool signalComponent(const QString &component, int sig) const {
        const qint64 pid = readFile(QDir(m_dir).filePath(QStringLiteral("pids/%1.pid").arg(component)))
                               .trimmed()
                               .toLongLong();
        return pid > 0 && ::kill(static_cast<pid_t>(pid), sig) == 0;
    }
    // A namespace whose `default` ServiceAccount exists (pods can be created in it).
    bool createNamespace(const QString &ns) const {
        if (kubectl({QStringLiteral("create"), QStringLiteral("namespace"), ns}).exitCode != 0)
            return false;
        return QTest::qWaitFor(
            [&] {
                return kubectl({QStringLiteral("get"), QStringLiteral("serviceaccount"),
                                QStringLiteral("default"), QStringLiteral("-n"), ns})
                           .exitCode == 0;
            },
            60000);
    }

    static QString lastLines(const QString &text, int n) {
        const QStringList lines = text.split(QLatin1Char('\n'));
        return lines.mid(qMax(0, lines.size() - n)).join(QLatin1Char('\n'));
    }

private:
    Options m_options;
    QTemporaryDir m_tmp;
    QString m_dir;
    QString m_usersFile;
    QString m_kubeconfig;
    QUrl m_url;
    QString m_error;
    std::unique_ptr<QProcess> m_process;
};

} // namespace gq::test

// In initTestCase: the real cluster must start under CI=true; elsewhere a machine that
// cannot build or start it skips the suite with the reason.
#define GQ_START_REAL_CLUSTER(cluster)                                                                       \
    do {                                                                                                     \
        if (!(cluster).start()) {                                                                            \
            if (gq::test::inCi())                                                                            \
                QFAIL(qPrintable((cluster).errorString()));                                                  \
            QSKIP(qPrintable(QStringLiteral("no real cluster here: ") + (cluster).errorString()));           \
        }                                                                                                    \
    } while (false)
