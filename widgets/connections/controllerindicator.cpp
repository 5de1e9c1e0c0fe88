#include "widgets/connections/controllerindicator.h"

#include "services/cluster/connectionprobe.h"

#include <QTimer>

namespace gq {

ControllerIndicator::ControllerIndicator(std::shared_ptr<ConnectionProbe> probe, QWidget *parent)
    : QLabel(parent)
    , m_timer(new QTimer(this))
    , m_probe(std::move(probe)) {
    setObjectName(QStringLiteral("controllerLabel"));
    setContentsMargins(6, 0, 6, 0);
    m_timer->setInterval(60 * 1000);
    connect(m_timer, &QTimer::timeout, this, &ControllerIndicator::check);
    hide();
}

ControllerIndicator::~ControllerIndicator() = default;

void ControllerIndicator::setUrl(const QString &url) {
    const QString u = url.trimmed();
    if (u == m_url && (m_url.isEmpty() || m_timer->isActive()))
        return;
    m_url = u;
    m_jobs.cancel(); // an answer about the previous controller must not land here
    m_ready = false;
    if (m_url.isEmpty()) {
        m_timer->stop();
        clear();
        hide();
        return;
    }
    setText(tr("controller: asking..."));
    setToolTip(m_url);
    show();
    m_timer->start();
    check();
}

void ControllerIndicator::setInterval(int ms) {
    m_timer->setInterval(ms);
}

void ControllerIndicator::check() {
    if (m_url.isEmpty())
        return;
    m_jobs.run([probe = m_probe, url = m_url] { return probe->controllerReady(url); },
               [this](const Result<QString> &r) {
                   m_ready = r.has_value();
                   const QString text = r ? *r : r.error().message;
                   setText(text);
                   setStyleSheet(m_ready ? QString() : QStringLiteral("color: #c62828;"));
                   setToolTip(tr("%1 (asked every minute)").arg(m_url));
                   emit checked(m_ready, text);
               });
}

} // namespace gq
