#include "widgets/connections/signinindicator.h"

#include "core/domain/clock.h"
#include "core/kube/execactivity.h"

#include <QDateTime>
#include <QTimer>

namespace gq {

namespace {

// Shorter runs (a cached token refreshed by a quick plugin) are not worth a word.
constexpr qint64 kShowAfterMs = 700;

} // namespace

SignInIndicator::SignInIndicator(QWidget *parent)
    : QLabel(parent)
    , m_timer(new QTimer(this)) {
    setObjectName(QStringLiteral("signInIndicator"));
    setStyleSheet(QStringLiteral("QLabel { color: palette(link); padding: 0 6px; }"));
    hide();
    m_timer->setInterval(500);
    connect(m_timer, &QTimer::timeout, this, &SignInIndicator::refresh);
    m_timer->start();
}

void SignInIndicator::setInterval(int ms) {
    m_timer->setInterval(ms);
}

void SignInIndicator::refresh() {
    const auto waiting = execactivity::oldest();
    const qint64 elapsed = waiting ? Clock::system().nowMSecs() - waiting->sinceMs : 0;
    if (!waiting || elapsed < kShowAfterMs) {
        hide();
        return;
    }
    const qint64 seconds = elapsed / 1000;
    setText(waiting->interactive
                ? tr("Waiting for sign-in: %1 (%2 s)… finish the login it opened, e.g. in your browser")
                      .arg(waiting->command)
                      .arg(seconds)
                : tr("Signing in: %1 (%2 s)…").arg(waiting->command).arg(seconds));
    setToolTip(tr("The kubeconfig's exec credential plugin is running; requests to the cluster wait "
                  "for it (up to 5 minutes for a plugin that may ask you to log in)."));
    show();
}

} // namespace gq
