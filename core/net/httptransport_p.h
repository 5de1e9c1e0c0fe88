#pragma once

// Internal to the HTTP transport: one request in flight, shared by the multi loop
// (httptransport.cpp) and the SMTP set-up (httpsmtp.cpp). Not part of gqnet's public API.

#include "core/net/httptransport.h"

#include <curl/curl.h>

#include <chrono>
#include <optional>

namespace gq {

namespace detail {

struct Transfer {
    HttpTransport::RequestId id = 0;
    HttpRequest req;
    int attempts = 0;
    bool streaming = false;
    bool tooLarge = false; // the body passed req.maxBodyBytes: ended on purpose
    std::optional<std::chrono::steady_clock::time_point> deadline; // from req.retry.totalTimeoutMs

    CURL *easy = nullptr;
    curl_slist *headers = nullptr;
    curl_slist *connectTo = nullptr;
    curl_slist *rcpt = nullptr; // SMTP recipients
    qsizetype uploaded = 0;     // SMTP: bytes of the message handed to libcurl
    HttpResponse response;
    char errbuf[CURL_ERROR_SIZE] = {};

    HttpTransport::ChunkHandler onChunk;
    HttpTransport::Done done;

    void releaseCurl() {
        if (headers)
            curl_slist_free_all(headers);
        if (connectTo)
            curl_slist_free_all(connectTo);
        if (rcpt)
            curl_slist_free_all(rcpt);
        if (easy)
            curl_easy_cleanup(easy);
        headers = connectTo = rcpt = nullptr;
        easy = nullptr;
    }
    ~Transfer() { releaseCurl(); }
};

// Turns t's easy handle (URL, timeouts and TLS already set) into an SMTP transfer of
// t.req.smtp: envelope, STARTTLS, login and the message upload (httpsmtp.cpp).
void setupSmtp(Transfer &t);

} // namespace detail

} // namespace gq
