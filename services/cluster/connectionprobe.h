#pragma once

#include "services/cluster/connectiontests.h"
#include "core/domain/result.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <mutex>

namespace gq {

class HttpTransport;

// The console's one HTTP transport for asking its sources whether they answer: the
// controller indicator's /readyz every minute and the Test buttons of the Connections
// tab (controller, Prometheus, exporters), so the window runs one libcurl thread for
// them, not one per widget. Made once per console and handed to the widgets that ask;
// the transport starts on the first question.
//
// Each call blocks until it has its answer (see connectiontests.h): run it off the GUI
// thread (JobTracker::run). Calls from several threads at once are fine; hold the probe
// by its shared_ptr in the job so it outlives a closed widget.
class ConnectionProbe final {
public:
    ConnectionProbe();
    ~ConnectionProbe();
    Q_DISABLE_COPY_MOVE(ConnectionProbe)

    [[nodiscard]] Result<QString> controller(const QString &url);
    [[nodiscard]] Result<QString> controllerReady(const QString &url);
    [[nodiscard]] Result<QString> prometheus(const connectiontests::PrometheusTarget &target);
    [[nodiscard]] Result<QString> exporters(const QStringList &endpoints);
    // Whether the transport has been started (for tests: one per console).
    [[nodiscard]] bool isStarted() const;

private:
    HttpTransport &transport();

    mutable std::mutex m_mutex;
    std::unique_ptr<HttpTransport> m_http;
};

} // namespace gq
