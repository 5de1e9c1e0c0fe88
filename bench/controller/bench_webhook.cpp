// The admission webhook under parallel calls, as the real API server makes them: many
// admission requests at once, each client keeping its HTTPS connection (keep-alive).
// Starts the controller's webhook (AdmissionWebhook on the controller's HttpServer with
// its default options, TLS) on a SQLite usage database with a budget for the user, then
// for each concurrency C in the list runs C client threads, each on one keep-alive
// connection, POSTing AdmissionReviews of a GPU pod (the budget check) for --seconds, and
// prints requests/s and the latency p50/p99/max; then the same for a CPU pod (answered
// without the database).
//
// With --rate R: an open-loop load instead (webhookload.h): R GPU-pod reviews a second
// spread over each count of keep-alive TLS connections in --connections, latency from
// each request's due time; with --url https://127.0.0.1:PORT/PATH against that server
// instead of the in-process webhook (webhook-vs-nginx.sh points it at nginx).
//
//   bench_webhook [--concurrency 1,8,32] [--seconds 5] [--db sqlite:///path]
//   bench_webhook --rate 500 [--connections 25,200] [--seconds 10] [--url URL | --fixed 1]
#include "services/controller/admissionwebhook.h"
#include "core/httpd/httpserver.h"
#include "testcluster/testcerts.h"
#include "core/usage/usagestore.h"
#include "bench/controller/webhookload.h"

#include <httplib.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTextStream>
#include <QUrl>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

using namespace gq;

namespace {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

std::string review(int n, bool gpu) {
    const QString resources = gpu ? QStringLiteral("{\"limits\":{\"nvidia.com/gpu\":\"1\"}}")
                                  : QStringLiteral("{\"requests\":{\"cpu\":\"100m\"}}");
    return QStringLiteral(
               "{\"apiVersion\":\"admission.k8s.io/"
               "v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u-%1\","
               "\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},\"operation\":\"CREATE\","
               "\"namespace\":\"team-a\",\"userInfo\":{\"username\":\"alice@example.com\"},\"object\":{"
               "\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"job-%1\",\"namespace\":"
               "\"team-a\","
               "\"labels\":{\"gpuquota.io/user\":\"alice\"}},\"spec\":{\"containers\":[{\"name\":\"main\","
               "\"image\":\"cuda\",\"resources\":%2}]}}}}")
        .arg(n)
        .arg(resources)
        .toStdString();
}

struct Figures {
    qint64 requests = 0;
    qint64 failures = 0;
    double seconds = 0;
    std::vector<double> latenciesMs;
};

Figures run(int port, const QString &caFile, int clients, int seconds, bool gpu) {
    std::vector<std::vector<double>> perThread(static_cast<std::size_t>(clients));
    std::atomic<qint64> failures{0};
    std::atomic<bool> stop{false};
    const std::string ca = caFile.toStdString();
    std::vector<std::thread> threads;
    QElapsedTimer wall;
    wall.start();
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            httplib::SSLClient client("127.0.0.1", port);
            client.set_ca_cert_path(ca.c_str());
            client.enable_server_certificate_verification(true);
            client.set_keep_alive(true);
            client.set_tcp_nodelay(true); // as Go's net/http (the API server) does
            client.set_read_timeout(10);
            int n = c * 1000000;
            while (!stop.load()) {
                const std::string body = review(++n, gpu);
                const auto t0 = std::chrono::steady_clock::now();
                const auto res = client.Post("/validate/pods?timeout=5s", body, "application/json");
                const auto t1 = std::chrono::steady_clock::now();
                if (!res || res->status != 200)
                    ++failures;
                else
                    perThread[size_t(c)].push_back(
                        std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
        });
    }
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    stop = true;
    for (std::thread &t : threads)
        t.join();
    Figures f;
    f.seconds = double(wall.elapsed()) / 1000.0;
    for (auto &v : perThread)
        f.latenciesMs.insert(f.latenciesMs.end(), v.begin(), v.end());
    std::sort(f.latenciesMs.begin(), f.latenciesMs.end());
    f.requests = qint64(f.latenciesMs.size());
    f.failures = failures.load();
    return f;
}

using bench::percentile;

// What nginx answers in webhook-vs-nginx.sh.
constexpr char kFixedAnswer[] =
    R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"u-1","allowed":true}})";

// A table's column titles, each right-aligned to its width (left for a negative one).
void printHeader(const QList<QPair<const char *, int>> &columns) {
    QStringList titles;
    for (const auto &[title, width] : columns)
        titles << QStringLiteral("%1").arg(QString::fromLatin1(title), width);
    out() << titles.join(QLatin1Char(' ')) << '\n' << Qt::flush;
}

// The open-loop load (--rate) against 127.0.0.1:port; prints one line per connection count.
void runLoadTable(const QString &target, int port, const QByteArray &path, double rate,
                  const QList<int> &connections, int seconds) {
    out() << "open loop: " << rate << " GPU-pod AdmissionReviews/s for " << seconds << " s against " << target
          << ", keep-alive TLS connections; latency from each request's due time\n";
    printHeader({{"conns", 6},
                 {"sent", 7},
                 {"req/s", 7},
                 {"p50 ms", 8},
                 {"p99 ms", 8},
                 {"max ms", 9},
                 {"failed", 7},
                 {">5 s", 6}});
    for (int c : connections) {
        const bench::LoadFigures f = bench::runLoad(port, path, c, rate, seconds, [](qint64 n) {
            return QByteArray::fromStdString(review(int(n % 2000000000), true));
        });
        out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8")
                     .arg(c, 6)
                     .arg(f.sent, 7)
                     .arg(double(f.latenciesMs.size()) / f.seconds, 7, 'f', 0)
                     .arg(percentile(f.latenciesMs, 0.50), 8, 'f', 2)
                     .arg(percentile(f.latenciesMs, 0.99), 8, 'f', 2)
                     .arg(f.latenciesMs.empty() ? 0.0 : f.latenciesMs.back(), 9, 'f', 2)
                     .arg(f.failed, 7)
                     .arg(f.over5s, 6);
        if (f.unconnected)
            out() << "  (" << f.unconnected << " connections never opened)";
        out() << '\n' << Qt::flush;
    }
}

// The closed-loop table: for each concurrency, that many clients back to back.
void runClosedLoopTable(int port, const QString &caFile, const QString &db, const QList<int> &concurrency,
                        int seconds) {
    out() << "webhook on 127.0.0.1:" << port << " (" << httpd::ServerOptions{}.threads
          << " server threads), database "
          << (db.startsWith(QLatin1String("sqlite")) ? "SQLite" : "PostgreSQL") << ", " << seconds
          << " s per run, keep-alive HTTPS clients\n";
    printHeader({{"pod", -4},
                 {"clients", 8},
                 {"requests", 9},
                 {"req/s", 9},
                 {"p50 ms", 8},
                 {"p99 ms", 8},
                 {"max ms", 8}});
    for (bool gpu : {true, false}) {
        for (int c : concurrency) {
            const Figures f = run(port, caFile, c, seconds, gpu);
            out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                         .arg(gpu ? QStringLiteral("gpu") : QStringLiteral("cpu"), -4)
                         .arg(c, 8)
                         .arg(f.requests, 9)
                         .arg(double(f.requests) / f.seconds, 9, 'f', 0)
                         .arg(percentile(f.latenciesMs, 0.50), 8, 'f', 2)
                         .arg(percentile(f.latenciesMs, 0.99), 8, 'f', 2)
                         .arg(f.latenciesMs.empty() ? 0.0 : f.latenciesMs.back(), 8, 'f', 2);
            if (f.failures)
                out() << "  (" << f.failures << " failed)";
            out() << '\n' << Qt::flush;
        }
    }
}

struct Args {
    QList<int> concurrency{1, 8, 32};
    int seconds = 5;
    QString db;
    double rate = 0;
    QList<int> connections{25, 200};
    QUrl url;
    bool fixed = false; // --fixed 1: HttpServer answers a constant AdmissionReview (as nginx in the script)
};

QList<int> intList(const QString &text) {
    QList<int> out;
    for (const QString &c : text.split(QLatin1Char(',')))
        out << c.toInt();
    return out;
}

Args parseArgs(const QStringList &args) {
    Args a;
    for (int i = 1; i + 1 < args.size(); i += 2) {
        const QString &value = args[i + 1];
        if (args[i] == QLatin1String("--concurrency"))
            a.concurrency = intList(value);
        else if (args[i] == QLatin1String("--connections"))
            a.connections = intList(value);
        else if (args[i] == QLatin1String("--seconds"))
            a.seconds = value.toInt();
        else if (args[i] == QLatin1String("--db"))
            a.db = value;
        else if (args[i] == QLatin1String("--rate"))
            a.rate = value.toDouble();
        else if (args[i] == QLatin1String("--url"))
            a.url = QUrl(value);
        else if (args[i] == QLatin1String("--fixed"))
            a.fixed = value == QLatin1String("1");
    }
    return a;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const Args a = parseArgs(app.arguments());
    const QList<int> &concurrency = a.concurrency;
    const int seconds = a.seconds;
    QString db = a.db;
    const double rate = a.rate;
    const QList<int> &connections = a.connections;
    const QUrl &url = a.url;
    if (rate > 0 && url.isValid()) {
        runLoadTable(url.toString(), url.port(), url.path().toUtf8(), rate, connections, seconds);
        return 0;
    }
    QTemporaryDir dir;
    if (db.isEmpty())
        db = QStringLiteral("sqlite://") + dir.filePath(QStringLiteral("usage.db"));
    {
        auto store = UsageStore::open(db);
        if (!store) {
            out() << "cannot open " << db << ": " << store.error().message << '\n';
            return 1;
        }
        Budget b;
        b.subject = QStringLiteral("alice");
        b.limitGpuHours = 1e9; // every check is allowed: the work is the check itself
        if (auto r = (*store)->setBudget(b); !r) {
            out() << "budget: " << r.error().message << '\n';
            return 1;
        }
    }
    const auto tls = tc::generateServingMaterial("IP:127.0.0.1");
    if (!tls) {
        out() << "certificate: " << tls.error().message << '\n';
        return 1;
    }
    const QString caFile = dir.filePath(QStringLiteral("ca.crt"));
    {
        QFile f(caFile);
        if (!f.open(QIODevice::WriteOnly) || f.write(tls->caCertPem) != tls->caCertPem.size()) {
            out() << "cannot write " << caFile << '\n';
            return 1;
        }
    }
    AdmissionWebhook webhook(db, UsageStore::Options{}, AdmissionWebhook::Options{});
    httpd::HttpServer server; // the controller's webhook server: default ServerOptions
    if (a.fixed)
        server.route("POST", AdmissionWebhook::kPath, [](const httpd::Request &) {
            return httpd::Response::json(200, QJsonDocument::fromJson(kFixedAnswer));
        });
    else
        webhook.registerRoutes(server);
    const auto port = server.start(httpd::ListenAddress{QStringLiteral("127.0.0.1"), 0},
                                   httpd::TlsConfig{tls->serverCertPem, tls->serverKeyPem});
    if (!port) {
        out() << "server: " << port.error().message << '\n';
        return 1;
    }
    if (rate > 0) {
        runLoadTable(a.fixed
                         ? QStringLiteral("HttpServer (default options) answering a fixed AdmissionReview")
                         : QStringLiteral("the webhook (HttpServer, default options, SQLite budget check)"),
                     *port, "/validate/pods?timeout=5s", rate, connections, seconds);
        server.stop();
        return 0;
    }
    runClosedLoopTable(*port, caFile, db, concurrency, seconds);
    server.stop();
    return 0;
}
