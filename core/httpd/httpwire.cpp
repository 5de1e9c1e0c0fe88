#include "core/httpd/httpwire.h"

#include <QUrl>

#include <zlib.h>

#include <optional>

namespace gq::httpd::wire {

namespace {

Parsed bad(int status) {
    Parsed p;
    p.state = Parsed::State::Bad;
    p.status = status;
    return p;
}

bool hasToken(const QByteArray &value, const char *token) {
    for (const QByteArray &part : value.split(','))
        if (part.trimmed().split(';').first().trimmed().toLower() == token)
            return true;
    return false;
}

// A chunked body starting at `from`: the decoded body and where it ends, nullopt when
// incomplete; `error` set when malformed or too large.
std::optional<std::pair<QByteArray, qsizetype>> dechunk(const QByteArray &buffer, qsizetype from,
                                                        qint64 maxBodyBytes, int &error) {
    QByteArray body;
    qsizetype pos = from;
    while (true) {
        const qsizetype eol = buffer.indexOf("\r\n", pos);
        if (eol < 0) {
            if (buffer.size() - pos > 64)
                error = 400;
            return std::nullopt;
        }
        bool ok = false;
        const qint64 size = buffer.mid(pos, eol - pos).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0)
            return error = 400, std::nullopt;
        if (body.size() + size > maxBodyBytes)
            return error = 413, std::nullopt;
        pos = eol + 2;
        if (size == 0) { // trailers up to an empty line
            const qsizetype end = buffer.indexOf("\r\n", pos);
            if (end < 0)
                return std::nullopt;
            if (end == pos)
                return std::pair{body, end + 2};
            const qsizetype trailersEnd = buffer.indexOf("\r\n\r\n", pos);
            if (trailersEnd < 0)
                return std::nullopt;
            return std::pair{body, trailersEnd + 4};
        }
        if (buffer.size() < pos + size + 2)
            return std::nullopt;
        body += buffer.mid(pos, size);
        pos += size + 2;
    }
}

bool parseHead(const QByteArray &head, Parsed &p, QByteArray &version) {
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> first = lines.first().trimmed().split(' ');
    if (first.size() != 3 || first[0].isEmpty() || !first[1].startsWith('/') ||
        !first[2].startsWith("HTTP/1."))
        return false;
    p.request.method = first[0];
    version = first[2];
    const QByteArray target = first[1];
    const qsizetype q = target.indexOf('?');
    p.request.path = QUrl::fromPercentEncoding(target.left(q < 0 ? target.size() : q));
    if (q >= 0)
        p.request.query = QUrlQuery(QString::fromUtf8(target.mid(q + 1)));
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return false;
        p.request.headers.append({line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return true;
}

} // namespace

Parsed parseRequest(const QByteArray &buffer, qint64 maxBodyBytes) {
    const qsizetype headEnd = buffer.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return buffer.size() > kMaxHeadBytes ? bad(431) : Parsed{};
    if (headEnd > kMaxHeadBytes)
        return bad(431);
    Parsed p;
    QByteArray version;
    if (!parseHead(buffer.left(headEnd), p, version))
        return bad(400);
    const QByteArray connection = p.request.header("connection");
    p.keepAlive = version == "HTTP/1.0" ? hasToken(connection, "keep-alive") : !hasToken(connection, "close");
    p.head = p.request.method == "HEAD";
    p.acceptEncoding = p.request.header("accept-encoding");
    const qsizetype bodyStart = headEnd + 4;
    if (hasToken(p.request.header("transfer-encoding"), "chunked")) {
        int error = 0;
        auto body = dechunk(buffer, bodyStart, maxBodyBytes, error);
        if (error)
            return bad(error);
        if (!body) {
            p.state = Parsed::State::Incomplete;
            p.expectsContinue = hasToken(p.request.header("expect"), "100-continue");
            return p;
        }
        p.request.body = body->first;
        p.consumed = body->second;
    } else if (!p.request.header("transfer-encoding").isEmpty()) {
        return bad(501);
    } else {
        const QByteArray lengthText = p.request.header("content-length");
        bool ok = true;
        const qint64 length = lengthText.isEmpty() ? 0 : lengthText.toLongLong(&ok);
        if (!ok || length < 0)
            return bad(400);
        if (length > maxBodyBytes)
            return bad(413);
        if (buffer.size() - bodyStart < length) {
            p.state = Parsed::State::Incomplete;
            p.expectsContinue = hasToken(p.request.header("expect"), "100-continue");
            return p;
        }
        p.request.body = buffer.mid(bodyStart, length);
        p.consumed = bodyStart + length;
    }
    p.state = Parsed::State::Complete;
    return p;
}

QByteArray gzip(const QByteArray &data) {
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out;
    out.resize(qsizetype(deflateBound(&zs, uLong(data.size()))) + 32);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    zs.avail_in = uInt(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    const qsizetype written = qsizetype(zs.total_out);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        return {};
    out.truncate(written);
    return out;
}

namespace {

const char *reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

bool compressible(const QByteArray &contentType) {
    return contentType.startsWith("text/") || contentType.startsWith("application/json") ||
           contentType.startsWith("application/javascript") || contentType.startsWith("application/xml") ||
           contentType.startsWith("image/svg+xml");
}

} // namespace

QByteArray serialize(const Response &response, bool keepAlive, bool head, const QByteArray &acceptEncoding) {
    QByteArray body = response.body;
    bool gzipped = false;
    // Small bodies (every AdmissionReview answer) are not worth a deflate stream.
    if (body.size() >= 1024 && compressible(response.contentType) && hasToken(acceptEncoding, "gzip")) {
        if (QByteArray packed = gzip(body); !packed.isEmpty()) {
            body = std::move(packed);
            gzipped = true;
        }
    }
    QByteArray out;
    out.reserve(body.size() + 256);
    out += "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + reason(response.status) + "\r\n";
    bool hasContentType = false;
    for (const auto &[name, value] : response.headers) {
        hasContentType = hasContentType || name.toLower() == "content-type";
        out += name + ": " + value + "\r\n";
    }
    if (!hasContentType && (!response.body.isEmpty() || !response.contentType.isEmpty()))
        out += "Content-Type: " + response.contentType + "\r\n";
    if (gzipped)
        out += "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    out += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
    if (!head)
        out += body;
    return out;
}

} // namespace gq::httpd::wire
