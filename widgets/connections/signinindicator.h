#pragma once

#include <QLabel>

class QTimer;

namespace gq {

// "Waiting for sign-in: kubelogin (12 s)…" in the status bar while an exec credential
// plugin runs (core/kube/execactivity.h): an interactive login in the browser may take
// minutes, and the window must not look stuck meanwhile. Hidden otherwise; looks twice
// a second (reading a mutex-guarded table, no I/O).
class SignInIndicator final : public QLabel {
    Q_OBJECT
public:
    explicit SignInIndicator(QWidget *parent = nullptr);
    // Tests look more often.
    void setInterval(int ms);

private:
    void refresh();

    QTimer *m_timer;
};

} // namespace gq
