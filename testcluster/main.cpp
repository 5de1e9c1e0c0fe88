// gpuquota-testcluster: a Kubernetes-API-compatible HTTPS server for tests and
// the console's --demo mode. See testcluster/README.md for the command line.

#include "testcluster/apiserver.h"
#include "testcluster/kubeconfigwriter.h"
#include "testcluster/scenarios.h"
#include "testcluster/store.h"
#include "testcluster/tls.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSaveFile>
#include <QString>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include <pthread.h>

namespace {

const char kUsage[] =
    "usage: gpuquota-testcluster --listen 127.0.0.1:PORT --write-kubeconfig FILE\n"
    "                            [--scenario empty|demo] [--state FILE]\n"
    "                            [--scale-namespaces N] [--scale-pods N]\n"
    "                            [--latency-ms N] [--error-rate F] [--throttle-rate F] [--retry-after S]\n"
    "                            [--drop-rate F] [--stall-watches] [--pods-stay-pending]\n"
    "                            [--bookmark-interval-ms N] [--threads N] [--verbose]\n"
    "\n"
    "PORT 0 picks a free port. Prints one line `ready https://127.0.0.1:PORT` on stdout\n"
    "once serving; SIGTERM stops it (saving --state). Test hooks: `/_gq/...` over HTTPS\n"
    "with the admin token, or lines `METHOD /_gq/PATH [JSON]` on stdin, each answered\n"
    "by one line `hook STATUS JSON` on stdout.\n";

std::mutex g_stdoutMutex;

void printLine(const QByteArray &line) {
    std::lock_guard lock(g_stdoutMutex);
    std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

int fail(const QString &message) {
    std::fprintf(stderr, "gpuquota-testcluster: %s\n", qPrintable(message));
    return 2;
}

QString randomToken() {
    QByteArray bytes(24, Qt::Uninitialized);
    for (char &c : bytes)
        c = static_cast<char>(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(bytes.toHex());
}

QByteArray readResource(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

int main(int argc, char **argv) {
    QElapsedTimer startup;
    startup.start();
    QString listen = QStringLiteral("127.0.0.1:0");
    QString kubeconfigPath, scenario = QStringLiteral("empty"), statePath;
    gq::tc::ScaleOptions scale;
    gq::tc::Faults faults;
    gq::tc::ServerConfig config;

    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    for (qsizetype i = 0; i < args.size(); ++i) {
        QString a = args[i];
        QString value;
        const bool hasInline = a.startsWith(QLatin1String("--")) && a.contains(QLatin1Char('='));
        if (hasInline) {
            value = a.section(QLatin1Char('='), 1);
            a = a.section(QLatin1Char('='), 0, 0);
        }
        auto next = [&](QString *out) {
            if (hasInline) {
                *out = value;
                return true;
            }
            if (i + 1 >= args.size())
                return false;
            *out = args[++i];
            return true;
        };
        QString v;
        bool ok = true;
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == QLatin1String("--stall-watches")) {
            faults.stallWatches = true;
        } else if (a == QLatin1String("--pods-stay-pending")) {
            config.podsStayPending = true;
        } else if (a == QLatin1String("--verbose")) {
            config.verbose = true;
        } else if (!next(&v)) {
            return fail(QStringLiteral("%1 needs a value\n%2").arg(a, QString::fromLatin1(kUsage)));
        } else if (a == QLatin1String("--listen")) {
            listen = v;
        } else if (a == QLatin1String("--write-kubeconfig")) {
            kubeconfigPath = v;
        } else if (a == QLatin1String("--scenario")) {
            scenario = v;
        } else if (a == QLatin1String("--state")) {
            statePath = v;
        } else if (a == QLatin1String("--scale-namespaces")) {
            scale.namespaces = v.toInt(&ok);
        } else if (a == QLatin1String("--scale-pods")) {
            scale.pods = v.toInt(&ok);
        } else if (a == QLatin1String("--latency-ms")) {
            faults.latencyMs = v.toInt(&ok);
        } else if (a == QLatin1String("--error-rate")) {
            faults.errorRate = v.toDouble(&ok);
        } else if (a == QLatin1String("--throttle-rate")) {
            faults.throttleRate = v.toDouble(&ok);
        } else if (a == QLatin1String("--retry-after")) {
            faults.retryAfterSeconds = v.toInt(&ok);
        } else if (a == QLatin1String("--drop-rate")) {
            faults.dropRate = v.toDouble(&ok);
        } else if (a == QLatin1String("--bookmark-interval-ms")) {
            config.bookmarkIntervalMs = v.toInt(&ok);
        } else if (a == QLatin1String("--threads")) {
            config.threads = v.toInt(&ok);
        } else {
            return fail(QStringLiteral("unknown option %1\n%2").arg(a, QString::fromLatin1(kUsage)));
        }
        if (!ok)
            return fail(QStringLiteral("%1: not a number: %2").arg(a, v));
    }
    if (kubeconfigPath.isEmpty())
        return fail(QStringLiteral("--write-kubeconfig FILE is required\n") + QString::fromLatin1(kUsage));
    const QString host = listen.section(QLatin1Char(':'), 0, -2);
    bool portOk = false;
    const int port = listen.section(QLatin1Char(':'), -1).toInt(&portOk);
    if (host.isEmpty() || !portOk || port < 0 || port > 65535)
        return fail(QStringLiteral("--listen: expected HOST:PORT, got \"%1\"").arg(listen));

    // Signals are taken by one thread with sigwait; block them before any other
    // thread exists so the pool threads inherit the mask.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGTERM);
    sigaddset(&stopSignals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    QString error;
    const gq::tc::TlsMaterial tls = gq::tc::generateTlsMaterial(&error);
    if (tls.caCertPem.isEmpty())
        return fail(error);

    config.adminToken = randomToken();
    config.readonlyToken = randomToken();
    config.openapiCoreV1 = readResource(QStringLiteral(":/testcluster/openapi/api__v1_openapi.json"));
    config.openapiAuthorizationV1 =
        readResource(QStringLiteral(":/testcluster/openapi/apis__authorization.k8s.io__v1_openapi.json"));
    if (config.openapiCoreV1.isEmpty())
        return fail(QStringLiteral("embedded OpenAPI documents are missing"));

    gq::tc::Store store;
    gq::tc::ApiServer server(store, config);

    bool loaded = false;
    if (!statePath.isEmpty() && QFile::exists(statePath)) {
        QFile f(statePath);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read state %1: %2").arg(statePath, f.errorString()));
        QJsonParseError perr{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &perr);
        if (perr.error != QJsonParseError::NoError)
            return fail(QStringLiteral("state %1: %2 at offset %3")
                            .arg(statePath, perr.errorString())
                            .arg(perr.offset));
        std::lock_guard lock(store.mutex);
        if (!store.loadState(doc.object(), &error))
            return fail(QStringLiteral("state %1: %2").arg(statePath, error));
        loaded = true;
    }
    if (!loaded) {
        if (!gq::tc::loadScenario(server, store, scenario, &error))
            return fail(error);
    }
    if (scale.namespaces > 0)
        gq::tc::loadScale(server, store, scale);
    server.setFaults(faults);

    const int bound = server.bind(host, port, tls, &error);
    if (bound < 0)
        return fail(error);
    const QString url = QStringLiteral("https://%1:%2").arg(host).arg(bound);
    if (!gq::tc::writeKubeconfig(kubeconfigPath, {url, config.adminToken, config.readonlyToken}, tls, &error))
        return fail(error);

    // A stop signal can come before the listen loop runs (a console killed right after
    // starting us sends SIGTERM through PR_SET_PDEATHSIG); cpp-httplib's stop() does
    // nothing then, so wait for the loop to be running, or to have ended, first.
    std::atomic<bool> runEnded{false};
    std::thread signalThread([&server, &runEnded, stopSignals] {
        int sig = 0;
        sigwait(&stopSignals, &sig);
        while (!server.isListening() && !runEnded.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        server.stop();
    });
    std::thread stdinThread([&server] {
        std::string line;
        while (std::getline(std::cin, line)) {
            const QString text = QString::fromStdString(line).trimmed();
            if (text.isEmpty())
                continue;
            const QByteArray method = text.section(QLatin1Char(' '), 0, 0).toLatin1();
            const QString path = text.section(QLatin1Char(' '), 1, 1);
            const QByteArray body = text.section(QLatin1Char(' '), 2).toUtf8();
            const gq::tc::ApiServer::HookReply reply = server.hook(method, path, body);
            printLine("hook " + QByteArray::number(reply.status) + ' ' + reply.body);
        }
    });
    stdinThread.detach();

    {
        std::lock_guard lock(store.mutex);
        std::fprintf(stderr, "gpuquota-testcluster: %zu objects, resourceVersion %llu, started in %lld ms\n",
                     store.objectCount(), static_cast<unsigned long long>(store.currentRv()),
                     static_cast<long long>(startup.elapsed()));
    }
    printLine("ready " + url.toUtf8());

    const bool ok = server.run();
    runEnded = true;
    if (!server.stopping()) {
        // The listen loop ended without a signal; make the signal thread exit too.
        pthread_kill(signalThread.native_handle(), SIGTERM);
    }
    signalThread.join();

    if (!statePath.isEmpty()) {
        QSaveFile f(statePath);
        QByteArray data;
        {
            std::lock_guard lock(store.mutex);
            data = QJsonDocument(store.saveState()).toJson(QJsonDocument::Compact);
        }
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
            std::fprintf(stderr, "gpuquota-testcluster: cannot save state %s: %s\n", qPrintable(statePath),
                         qPrintable(f.errorString()));
            return 1;
        }
    }
    // Leave without running static destructors: the detached stdin reader may still
    // be blocked in std::cin, and nothing is left to clean up.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(ok ? 0 : 1);
}
