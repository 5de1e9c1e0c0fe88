// gpuquota-testcluster: a Kubernetes-API-compatible HTTPS server for tests and
// the console's --demo mode. See testcluster/README.md for the command line.

#include "testcluster/apiserver.h"
#include "testcluster/kubeconfigwriter.h"
#include "testcluster/scenarios.h"
#include "testcluster/stopsignal.h"
#include "testcluster/store.h"
#include "testcluster/tls.h"

#include "gq_version.h"

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
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace {

const char kUsage[] =
    "usage: gpuquota-testcluster --listen 127.0.0.1:PORT --write-kubeconfig FILE\n"
    "                            [--scenario empty|gpu-nodes|demo] [--state FILE]\n"
    "                            [--scale-namespaces N] [--scale-pods N]\n"
    "                            [--latency-ms N] [--error-rate F] [--throttle-rate F] [--retry-after S]\n"
    "                            [--drop-rate F] [--stall-watches] [--pods-stay-pending]\n"
    "                            [--bookmark-interval-ms N] [--threads N] [--verbose] [--version]\n"
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

// Where an option's value goes; a number that does not parse leaves `ok` false.
using OptionTarget = std::variant<QString *, int *, double *>;

bool assign(const OptionTarget &target, const QString &v) {
    bool ok = true;
    if (auto *const *s = std::get_if<QString *>(&target))
        **s = v;
    else if (auto *const *n = std::get_if<int *>(&target))
        **n = v.toInt(&ok);
    else
        *std::get<double *>(target) = v.toDouble(&ok);
    return ok;
}

// The command line; an exit code when the process is done (--help, --version, an error).
struct Options {
    QString listen = QStringLiteral("127.0.0.1:0");
    QString kubeconfigPath;
    QString scenario = QStringLiteral("empty");
    QString statePath;
    gq::tc::ScaleOptions scale;
    gq::tc::Faults faults;
    gq::tc::ServerConfig config;
};

std::optional<int> parseOptions(int argc, char **argv, Options &o) {
    const std::map<QString, bool *> flags{
        {QStringLiteral("--stall-watches"), &o.faults.stallWatches},
        {QStringLiteral("--pods-stay-pending"), &o.config.podsStayPending},
        {QStringLiteral("--verbose"), &o.config.verbose},
    };
    const std::map<QString, OptionTarget> valued{
        {QStringLiteral("--listen"), &o.listen},
        {QStringLiteral("--write-kubeconfig"), &o.kubeconfigPath},
        {QStringLiteral("--scenario"), &o.scenario},
        {QStringLiteral("--state"), &o.statePath},
        {QStringLiteral("--scale-namespaces"), &o.scale.namespaces},
        {QStringLiteral("--scale-pods"), &o.scale.pods},
        {QStringLiteral("--latency-ms"), &o.faults.latencyMs},
        {QStringLiteral("--error-rate"), &o.faults.errorRate},
        {QStringLiteral("--throttle-rate"), &o.faults.throttleRate},
        {QStringLiteral("--retry-after"), &o.faults.retryAfterSeconds},
        {QStringLiteral("--drop-rate"), &o.faults.dropRate},
        {QStringLiteral("--bookmark-interval-ms"), &o.config.bookmarkIntervalMs},
        {QStringLiteral("--threads"), &o.config.threads},
    };
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
        if (a == QLatin1String("--version")) {
            std::printf("gpuquota-testcluster %s\n", GQ_VERSION_STRING);
            return 0;
        }
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (const auto flag = flags.find(a); flag != flags.end()) {
            *flag->second = true;
            continue;
        }
        const auto option = valued.find(a);
        if (option == valued.end())
            return fail(QStringLiteral("unknown option %1\n%2").arg(a, QString::fromLatin1(kUsage)));
        QString v;
        if (!next(&v))
            return fail(QStringLiteral("%1 needs a value\n%2").arg(a, QString::fromLatin1(kUsage)));
        if (!assign(option->second, v))
            return fail(QStringLiteral("%1: not a number: %2").arg(a, v));
    }
    if (o.kubeconfigPath.isEmpty())
        return fail(QStringLiteral("--write-kubeconfig FILE is required\n") + QString::fromLatin1(kUsage));
    return std::nullopt;
}

// The objects to start with: the saved --state if there is one, else the scenario.
gq::Result<void> loadStart(gq::tc::ApiServer &server, gq::tc::Store &store, const Options &o) {
    if (!o.statePath.isEmpty() && QFile::exists(o.statePath)) {
        QFile f(o.statePath);
        if (!f.open(QIODevice::ReadOnly))
            return gq::Error::make(
                gq::Error::Kind::Io,
                QStringLiteral("cannot read state %1: %2").arg(o.statePath, f.errorString()));
        QJsonParseError perr{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &perr);
        if (perr.error != QJsonParseError::NoError)
            return gq::Error::make(gq::Error::Kind::Parse, QStringLiteral("state %1: %2 at offset %3")
                                                               .arg(o.statePath, perr.errorString())
                                                               .arg(perr.offset));
        std::lock_guard lock(store.mutex);
        if (const gq::Result<void> r = store.loadState(doc.object()); !r)
            return gq::Error::make(gq::Error::Kind::Parse,
                                   QStringLiteral("state %1: %2").arg(o.statePath, r.error().message));
        return {};
    }
    return gq::tc::loadScenario(server, store, o.scenario);
}

// Writes --state on the way out; false (said on stderr) when it cannot.
bool saveState(gq::tc::Store &store, const QString &statePath) {
    QSaveFile f(statePath);
    QByteArray data;
    {
        std::lock_guard lock(store.mutex);
        data = QJsonDocument(store.saveState()).toJson(QJsonDocument::Compact);
    }
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        std::fprintf(stderr, "gpuquota-testcluster: cannot save state %s: %s\n", qPrintable(statePath),
                     qPrintable(f.errorString()));
        return false;
    }
    return true;
}

// Test hooks as lines on stdin, each answered on stdout (see kUsage).
void serveStdinHooks(gq::tc::ApiServer &server) {
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
}

} // namespace

int main(int argc, char **argv) {
    QElapsedTimer startup;
    startup.start();
    Options o;
    if (const std::optional<int> done = parseOptions(argc, argv, o))
        return *done;
    gq::tc::ServerConfig &config = o.config;
    const QString host = o.listen.section(QLatin1Char(':'), 0, -2);
    bool portOk = false;
    const int port = o.listen.section(QLatin1Char(':'), -1).toInt(&portOk);
    if (host.isEmpty() || !portOk || port < 0 || port > 65535)
        return fail(QStringLiteral("--listen: expected HOST:PORT, got \"%1\"").arg(o.listen));
    // Stop requests are taken by one thread; set up before any other thread exists.
    gq::tc::StopSignal stopSignal;

    const gq::Result<gq::tc::TlsMaterial> generated = gq::tc::generateTlsMaterial();
    if (!generated)
        return fail(generated.error().message);
    const gq::tc::TlsMaterial &tls = *generated;

    config.adminToken = randomToken();
    config.readonlyToken = randomToken();
    config.openapiCoreV1 = readResource(QStringLiteral(":/testcluster/openapi/api__v1_openapi.json"));
    config.openapiAuthorizationV1 =
        readResource(QStringLiteral(":/testcluster/openapi/apis__authorization.k8s.io__v1_openapi.json"));
    if (config.openapiCoreV1.isEmpty())
        return fail(QStringLiteral("embedded OpenAPI documents are missing"));

    gq::tc::Store store;
    gq::tc::ApiServer server(store, config);

    if (const gq::Result<void> r = loadStart(server, store, o); !r)
        return fail(r.error().message);
    if (o.scale.namespaces > 0)
        gq::tc::loadScale(server, store, o.scale);
    server.setFaults(o.faults);

    const gq::Result<int> bound = server.bind(host, port, tls);
    if (!bound)
        return fail(bound.error().message);
    const QString url = QStringLiteral("https://%1:%2").arg(host).arg(*bound);
    if (const gq::Result<void> r =
            gq::tc::writeKubeconfig(o.kubeconfigPath, {url, config.adminToken, config.readonlyToken}, tls);
        !r)
        return fail(r.error().message);

    // A stop signal can come before the listen loop runs (a console killed right after
    // starting us sends SIGTERM through PR_SET_PDEATHSIG); cpp-httplib's stop() does
    // nothing then, so wait for the loop to be running, or to have ended, first.
    std::atomic<bool> runEnded{false};
    std::thread signalThread([&server, &runEnded, &stopSignal] {
        stopSignal.wait();
        while (!server.isListening() && !runEnded.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        server.stop();
    });
    std::thread stdinThread([&server] { serveStdinHooks(server); });
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
        stopSignal.wake(signalThread);
    }
    signalThread.join();

    if (!o.statePath.isEmpty() && !saveState(store, o.statePath))
        return 1;
    // Leave without running static destructors: the detached stdin reader may still
    // be blocked in std::cin, and nothing is left to clean up.
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(ok ? 0 : 1);
}
