#pragma once

// The HTTP/1.1 wire format of the event-driven server (eventserver.h): parsing one
// request out of a connection's read buffer, and writing one response. Internal to
// gqhttpd.
#include "core/httpd/httpserver.h"

#include <QByteArray>

namespace gq::httpd::wire {

inline constexpr qsizetype kMaxHeadBytes = 64 * 1024; // request line and headers

struct Parsed {
    enum class State { Incomplete, Complete, Bad };
    State state = State::Incomplete;
    Request request;
    qsizetype consumed = 0;       // bytes of the buffer the request took (Complete)
    int status = 0;               // Bad: the status to answer with (400, 413, 431, 501)
    bool keepAlive = true;        // Complete: the client keeps the connection
    bool expectsContinue = false; // Incomplete: headers read, body pending, 100-continue asked
    bool head = false;            // HEAD request: answer without a body
    QByteArray acceptEncoding;
};

// Looks for one complete request at the start of `buffer`.
[[nodiscard]] Parsed parseRequest(const QByteArray &buffer, qint64 maxBodyBytes);

// Status line, headers and body; gzip when the client accepts it and the body is
// text of some size. `keepAlive` false adds `Connection: close`.
[[nodiscard]] QByteArray serialize(const Response &response, bool keepAlive, bool head,
                                   const QByteArray &acceptEncoding);

[[nodiscard]] QByteArray gzip(const QByteArray &data);

} // namespace gq::httpd::wire
