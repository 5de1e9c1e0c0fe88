// gq-test-exporter: a stand-in for dcgm-exporter that Prometheus scrapes in tests and
// demos. It serves /metrics in the text exposition format from one of:
//   --file PATH          the file's content, read afresh on every scrape (a test
//                        rewrites it to change the readings)
//   --samples DIR        the *.prom files of DIR in turn, one per --period seconds
//   --fleet NODES        a synthetic fleet of NODES x 8 GPUs (some MIG) whose readings
//                        change over time
//   --demo               the GPUs of the "demo" scenario's nodes, held by its running
//                        pods (one of them idle), readings changing over time
// and listens on --host (127.0.0.1) --port (0: any free one). Prints "ready URL" on
// standard output once listening.
#include "testcluster/demoexposition.h"
#include "core/httpd/httpserver.h"
#include "app/demo/syntheticfleet.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QStringList>

#include <cstdio>

namespace {

int usage(const char *message) {
    std::fprintf(stderr, "gq-test-exporter: %s\n", message);
    std::fprintf(
        stderr, "usage: gq-test-exporter (--file PATH | --samples DIR [--period S] | --fleet NODES | --demo) "
                "[--host H] [--port P]\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto value = [&](const char *name) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : QString();
    };
    const QString file = value("--file"), samplesDir = value("--samples"), fleet = value("--fleet");
    const QString host = value("--host").isEmpty() ? QStringLiteral("127.0.0.1") : value("--host");
    const int port = value("--port").toInt();
    const int period = std::max(1, value("--period").isEmpty() ? 10 : value("--period").toInt());
    const bool demo = args.contains(QStringLiteral("--demo"));
    if (int(!file.isEmpty()) + int(!samplesDir.isEmpty()) + int(!fleet.isEmpty()) + int(demo) != 1)
        return usage("give one of --file, --samples, --fleet, --demo");

    QList<QByteArray> frames;
    if (!samplesDir.isEmpty()) {
        const QDir dir(samplesDir);
        for (const QString &name : dir.entryList({QStringLiteral("*.prom")}, QDir::Files, QDir::Name)) {
            QFile f(dir.filePath(name));
            if (f.open(QIODevice::ReadOnly))
                frames.append(f.readAll());
        }
        if (frames.isEmpty())
            return usage("no *.prom files in --samples DIR");
    }
    gq::metrics::FleetSpec spec;
    spec.nodes = std::max(1, fleet.toInt());

    // The controller's server (gqhttpd): idle scrapers' connections hold no worker.
    gq::httpd::HttpServer server;
    server.route("GET", QStringLiteral("/metrics"), [&](const gq::httpd::Request &) {
        gq::httpd::Response res;
        res.contentType = "text/plain; version=0.0.4; charset=utf-8";
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        if (!file.isEmpty()) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly))
                return gq::httpd::Response::text(500, QStringLiteral("cannot read the metrics file\n"));
            res.body = f.readAll();
        } else if (demo) {
            res.body = gq::tc::demoExposition(now);
        } else if (!frames.isEmpty()) {
            res.body = frames.at(int((now / period) % frames.size()));
        } else {
            res.body = gq::metrics::fleetExposition(spec, now);
        }
        return res;
    });
    server.route("GET", QStringLiteral("/"), [](const gq::httpd::Request &) {
        return gq::httpd::Response::text(200, QStringLiteral("gq-test-exporter: see /metrics\n"));
    });
    const auto bound = server.start({host, port});
    if (!bound) {
        std::fprintf(stderr, "gq-test-exporter: cannot listen on %s:%d\n", qPrintable(host), port);
        return 1;
    }
    std::printf("ready http://%s:%d/metrics\n", qPrintable(host), *bound);
    std::fflush(stdout);
    return app.exec(); // until killed
}
