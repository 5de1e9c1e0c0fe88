#include "testcluster/apicall.h"

#include <chrono>
#include <thread>
#include <type_traits>
#include <utility>
#include <variant>

// Fault injection: latency, 500s, 429s and cut-off responses on purpose, for the
// client and informer robustness suites.

namespace gq::tc {

namespace {

// Every knob under its JSON name, read and written by the one table so the two
// directions cannot drift apart.
using FaultField = std::variant<int Faults::*, double Faults::*, bool Faults::*, QString Faults::*>;

const std::pair<const char *, FaultField> kFaultFields[] = {
    {"latencyMs", &Faults::latencyMs},         {"errorRate", &Faults::errorRate},
    {"errorCount", &Faults::errorCount},       {"throttleRate", &Faults::throttleRate},
    {"throttleCount", &Faults::throttleCount}, {"retryAfterSeconds", &Faults::retryAfterSeconds},
    {"dropRate", &Faults::dropRate},           {"dropCount", &Faults::dropCount},
    {"stallWatches", &Faults::stallWatches},   {"pathPrefix", &Faults::pathPrefix},
};

} // namespace

QJsonObject Faults::toJson() const {
    QJsonObject o;
    for (const auto &[name, field] : kFaultFields)
        std::visit([&](auto member) { o.insert(QLatin1String(name), this->*member); }, field);
    return o;
}

Faults Faults::fromJson(const QJsonObject &o) {
    // A knob left out keeps its default (retryAfterSeconds is 1, the rest off).
    Faults f;
    for (const auto &[name, field] : kFaultFields) {
        std::visit(
            [&](auto member) {
                using T = std::remove_reference_t<decltype(f.*member)>;
                const QJsonValue v = o.value(QLatin1String(name));
                if constexpr (std::is_same_v<T, int>)
                    f.*member = v.toInt(f.*member);
                else if constexpr (std::is_same_v<T, double>)
                    f.*member = v.toDouble(f.*member);
                else if constexpr (std::is_same_v<T, bool>)
                    f.*member = v.toBool(f.*member);
                else
                    f.*member = v.toString(f.*member);
            },
            field);
    }
    return f;
}

void ApiServer::setFaults(const Faults &faults) {
    std::lock_guard lock(m_faultMutex);
    m_faults = faults;
}

bool ApiServer::applyFaults(const httplib::Request &req, httplib::Response &res) {
    Faults f;
    bool error = false, throttle = false, drop = false;
    {
        std::lock_guard lock(m_faultMutex);
        f = m_faults;
        const QString path = QString::fromStdString(req.path);
        const bool applies =
            f.pathPrefix.isEmpty() ? (path.startsWith(QLatin1String("/api"))) : path.startsWith(f.pathPrefix);
        if (!applies)
            return false;
        std::uniform_real_distribution<double> dist(0.0, 1.0);
        if (m_faults.throttleCount > 0) {
            --m_faults.throttleCount;
            throttle = true;
        } else if (f.throttleRate > 0 && dist(m_rng) < f.throttleRate) {
            throttle = true;
        } else if (m_faults.errorCount > 0) {
            --m_faults.errorCount;
            error = true;
        } else if (f.errorRate > 0 && dist(m_rng) < f.errorRate) {
            error = true;
        } else if (m_faults.dropCount > 0) {
            --m_faults.dropCount;
            drop = true;
        } else if (f.dropRate > 0 && dist(m_rng) < f.dropRate) {
            drop = true;
        }
    }
    if (f.latencyMs > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(f.latencyMs));
    if (throttle) {
        sendError(res, ApiError::tooManyRequests(f.retryAfterSeconds));
        return true;
    }
    if (error) {
        sendError(res, ApiError::internal(QStringLiteral("injected fault (gpuquota-testcluster)")));
        return true;
    }
    if (drop) {
        // Promise a body, send half of it, then fail the write: the client sees
        // the connection close mid-response.
        auto body = std::make_shared<std::string>(
            R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","message":"this response is cut off on purpose by the fault injector of gpuquota-testcluster"})");
        res.status = 200;
        res.set_content_provider(body->size(), "application/json",
                                 [body](std::size_t offset, std::size_t, httplib::DataSink &sink) {
                                     if (offset == 0) {
                                         sink.write(body->data(), body->size() / 2);
                                         return true;
                                     }
                                     return false;
                                 });
        return true;
    }
    return false;
}

} // namespace gq::tc
