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
#include "demoexposition.h"
#include "httpcompression.h"
#include "syntheticfleet.h"

#include <httplib.h>

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

    httplib::Server server;
    gq::httpd::serveNoBrotli(server);
    server.Get("/metrics", [&](const httplib::Request &, httplib::Response &res) {
        QByteArray body;
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        if (!file.isEmpty()) {
            QFile f(file);
            if (!f.open(QIODevice::ReadOnly)) {
                res.status = 500;
                res.set_content("cannot read the metrics file\n", "text/plain");
                return;
            }
            body = f.readAll();
        } else if (demo) {
            body = gq::tc::demoExposition(now);
        } else if (!frames.isEmpty()) {
            body = frames.at(int((now / period) % frames.size()));
        } else {
            body = gq::metrics::fleetExposition(spec, now);
        }
        res.set_content(body.constData(), size_t(body.size()), "text/plain; version=0.0.4; charset=utf-8");
    });
    server.Get("/", [](const httplib::Request &, httplib::Response &res) {
        res.set_content("gq-test-exporter: see /metrics\n", "text/plain");
    });
    int bound = port;
    if (port == 0) {
        bound = server.bind_to_any_port(host.toStdString());
    } else if (!server.bind_to_port(host.toStdString(), port)) {
        bound = -1;
    }
    if (bound <= 0) {
        std::fprintf(stderr, "gq-test-exporter: cannot listen on %s:%d\n", qPrintable(host), port);
        return 1;
    }
    std::printf("ready http://%s:%d/metrics\n", qPrintable(host), bound);
    std::fflush(stdout);
    return server.listen_after_bind() ? 0 : 1;
}
