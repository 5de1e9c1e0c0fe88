#pragma once

// Open-loop load for bench_webhook --rate: `connections` keep-alive TLS connections
// to 127.0.0.1:port, together sending `rate` POSTs a second for `seconds`, each
// connection at rate/connections, its requests spread evenly. A request's latency
// counts from the moment it was due, so a server that falls behind is charged for
// the wait (no coordinated omission).
#include <QByteArray>

#include <functional>
#include <vector>

namespace gq::bench {

struct LoadFigures {
    qint64 sent = 0;
    qint64 failed = 0;      // no answer, or not 200
    qint64 over5s = 0;      // answered after the shipped webhook timeout (5 s)
    qint64 unconnected = 0; // connections that could not be opened (or handshaken)
    double seconds = 0;
    std::vector<double> latenciesMs; // sorted, answered requests only
};

[[nodiscard]] LoadFigures runLoad(int port, const QByteArray &path, int connections, double rate, int seconds,
                                  const std::function<QByteArray(qint64)> &body);

[[nodiscard]] double percentile(const std::vector<double> &sorted, double p);

} // namespace gq::bench
