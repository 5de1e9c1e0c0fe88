#pragma once

// A TCP port on 127.0.0.1 that nothing listened on a moment ago, for a server a test
// starts (needs Qt6::Network).

#include <QTcpServer>

namespace gq::test {

inline int freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace gq::test
