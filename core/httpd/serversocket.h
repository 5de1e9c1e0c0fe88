#pragma once

// Socket helpers of the event-driven server (internal to gqhttpd).
#include "core/httpd/httpserver.h"

#include <QString>

namespace gq::httpd::sock {

// A non-blocking listening socket on host:port (SO_REUSEADDR, never SO_REUSEPORT);
// -1 when it cannot bind.
[[nodiscard]] int listenOn(const ListenAddress &address);
[[nodiscard]] int boundPort(int fd);
// The numeric address of a connected socket's peer.
[[nodiscard]] QString peerAddress(int fd);
// Every connection is a file descriptor: raises the soft limit to the hard one.
void raiseFileLimit();

} // namespace gq::httpd::sock
