#include "services/cluster/connectionprobe.h"

#include "core/net/httptransport.h"

namespace gq {

ConnectionProbe::ConnectionProbe() = default;

ConnectionProbe::~ConnectionProbe() = default;

HttpTransport &ConnectionProbe::transport() {
    const std::lock_guard lock(m_mutex);
    if (!m_http)
        m_http = std::make_unique<HttpTransport>();
    return *m_http;
}

bool ConnectionProbe::isStarted() const {
    const std::lock_guard lock(m_mutex);
    return m_http != nullptr;
}

Result<QString> ConnectionProbe::controller(const QString &url) {
    return connectiontests::controller(transport(), url);
}

Result<QString> ConnectionProbe::controllerReady(const QString &url) {
    return connectiontests::controllerReady(transport(), url);
}

Result<QString> ConnectionProbe::prometheus(const connectiontests::PrometheusTarget &target) {
    return connectiontests::prometheus(transport(), target);
}

Result<QString> ConnectionProbe::exporters(const QStringList &endpoints) {
    return connectiontests::exporters(transport(), endpoints);
}

} // namespace gq
