#include "bench/controller/webhookload.h"
#include "tests/rawhttpclient.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>
#include <thread>

namespace gq::bench {

namespace {

using Clock = std::chrono::steady_clock;

struct PerConnection {
    std::vector<double> latenciesMs;
    qint64 sent = 0;
    qint64 failed = 0;
    bool connected = false;
};

} // namespace

double percentile(const std::vector<double> &sorted, double p) {
    if (sorted.empty())
        return 0;
    return sorted[std::min(sorted.size() - 1, std::size_t(p * double(sorted.size())))];
}

LoadFigures runLoad(int port, const QByteArray &path, int connections, double rate, int seconds,
                    const std::function<QByteArray(qint64)> &body) {
    std::signal(SIGPIPE, SIG_IGN); // a server may close a connection the client still writes to
    test::ClientCtx ctx = test::clientContext();
    std::vector<PerConnection> results(static_cast<std::size_t>(connections));
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    Clock::time_point t0;
    const auto interval = std::chrono::duration<double>(double(connections) / rate);
    const auto stagger = std::chrono::duration<double>(1.0 / rate);
    std::vector<std::thread> threads;
    for (int i = 0; i < connections; ++i) {
        threads.emplace_back([&, i] {
            PerConnection &mine = results[std::size_t(i)];
            auto client = std::make_unique<test::RawClient>();
            mine.connected = client->connectTo(port, ctx.get(), 10000);
            ++ready;
            while (!go.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (!mine.connected)
                return;
            const Clock::time_point end = t0 + std::chrono::seconds(seconds);
            for (qint64 k = 0;; ++k) {
                const auto due =
                    t0 + std::chrono::duration_cast<Clock::duration>(stagger * i + interval * double(k));
                if (due >= end)
                    break;
                std::this_thread::sleep_until(due);
                ++mine.sent;
                const int status = client->post(path, body(qint64(i) * 1000000 + k));
                if (status != 200) {
                    ++mine.failed;
                    if (status == 0) { // the connection broke: a new one, as a client pool would
                        client = std::make_unique<test::RawClient>();
                        client->connectTo(port, ctx.get(), 10000);
                    }
                    continue;
                }
                mine.latenciesMs.push_back(
                    std::chrono::duration<double, std::milli>(Clock::now() - due).count());
            }
        });
    }
    while (ready.load() < connections)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    t0 = Clock::now() + std::chrono::milliseconds(100);
    go = true;
    for (std::thread &t : threads)
        t.join();
    LoadFigures f;
    f.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    for (const PerConnection &c : results) {
        f.sent += c.sent;
        f.failed += c.failed;
        f.unconnected += c.connected ? 0 : 1;
        f.latenciesMs.insert(f.latenciesMs.end(), c.latenciesMs.begin(), c.latenciesMs.end());
    }
    std::sort(f.latenciesMs.begin(), f.latenciesMs.end());
    f.over5s =
        qint64(f.latenciesMs.end() - std::upper_bound(f.latenciesMs.begin(), f.latenciesMs.end(), 5000.0));
    return f;
}

} // namespace gq::bench
