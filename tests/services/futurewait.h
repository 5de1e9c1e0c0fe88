#pragma once

#include "error.h"

#include <QFuture>
#include <QTest>

namespace gq::test {

// The result of a future that should finish within 10 s, or a Timeout error in its place.
// (Not QTRY_*: those return void from the caller.)
template <typename T> T waitFor(QFuture<T> future) {
    (void)QTest::qWaitFor([&] { return future.isFinished(); }, 10000);
    return future.isFinished() ? future.result()
                               : T(Error::make(Error::Kind::Timeout, QStringLiteral("no answer")));
}

} // namespace gq::test
