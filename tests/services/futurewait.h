#pragma once

#include "core/domain/error.h"

#include <QFuture>
#include <QTest>

#include <chrono>
#include <future>

namespace gq::test {

// The result of a future that should finish within 10 s, or a Timeout error in its place.
// (Not QTRY_*: those return void from the caller.)
template <typename T> T waitFor(QFuture<T> future) {
    (void)QTest::qWaitFor([&] { return future.isFinished(); }, 10000);
    return future.isFinished() ? future.result()
                               : T(Error::make(Error::Kind::Timeout, QStringLiteral("no answer")));
}

// Runs a blocking call (a connection test, a discovery) on another thread while this
// one spins its event loop (a server in the test may live on it); waits up to a minute.
template <typename F> auto offThread(F f) {
    auto future = std::async(std::launch::async, std::move(f));
    (void)QTest::qWaitFor(
        [&] { return future.wait_for(std::chrono::seconds(0)) == std::future_status::ready; }, 60000);
    return future.get();
}

} // namespace gq::test
