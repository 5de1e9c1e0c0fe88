#pragma once

// Header-only: the server still built on cpp-httplib (the test cluster's API server)
// includes it after <httplib.h>. HttpServer (eventserver.h) never offers Brotli.
#include <httplib.h>

#include <string>

namespace gq::httpd {

// cpp-httplib as Debian builds it (CPPHTTPLIB_BROTLI_SUPPORT) answers every request
// whose Accept-Encoding names `br` with a body compressed at Brotli's slowest quality
// (11), which no setting changes: a 157 KB page then costs ~50x its gzip time, and
// any caller could spend the server's CPU that way. So Brotli is never offered: the
// request's Accept-Encoding is narrowed before routing to gzip when the client
// accepts gzip, else to nothing (identity).
inline std::string withoutBrotli(const std::string &acceptEncoding) {
    return acceptEncoding.find("gzip") != std::string::npos ? std::string("gzip") : std::string();
}

inline void serveNoBrotli(httplib::Server &server) {
    server.set_pre_routing_handler([](const httplib::Request &req, httplib::Response &) {
        if (req.get_header_value("Accept-Encoding").find("br") != std::string::npos) {
            // The request is the server's own non-const object, handed out as const.
            auto &headers = const_cast<httplib::Request &>(req).headers;
            const std::string narrowed = withoutBrotli(req.get_header_value("Accept-Encoding"));
            headers.erase("Accept-Encoding");
            if (!narrowed.empty())
                headers.emplace("Accept-Encoding", narrowed);
        }
        return httplib::Server::HandlerResponse::Unhandled;
    });
}

} // namespace gq::httpd
