#pragma once

#include "core/jobs/jobtracker.h"

#include <QLabel>

#include <memory>

class QTimer;

namespace gq {

class ConnectionProbe;

// The controller of the current context in the status bar: its /readyz asked off the
// GUI thread now and every minute, as "controller ready" or "controller unreachable:
// ..." (red). Hidden while the context has no controller URL. Asks through the
// console's ConnectionProbe (services/), the transport it shares with the Connections tab.
class ControllerIndicator final : public QLabel {
    Q_OBJECT
public:
    explicit ControllerIndicator(std::shared_ptr<ConnectionProbe> probe, QWidget *parent = nullptr);
    ~ControllerIndicator() override;

    // Empty: no controller (hidden). Asks at once.
    void setUrl(const QString &url);
    [[nodiscard]] QString url() const { return m_url; }
    // Tests ask more often than every minute.
    void setInterval(int ms);
    [[nodiscard]] bool isReady() const { return m_ready; }

signals:
    // Each answer (or failure), in the words shown.
    void checked(bool ready, const QString &text);

private:
    void check();

    QString m_url;
    QTimer *m_timer;
    std::shared_ptr<ConnectionProbe> m_probe;
    bool m_ready = false;
    JobTracker m_jobs{this};
};

} // namespace gq
