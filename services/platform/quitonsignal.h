#pragma once

#include <QObject>

#include <functional>

class QSocketNotifier;

namespace gq {

// Turns SIGTERM, SIGINT and SIGHUP into a normal QCoreApplication::quit(), so a
// console stopped by `kill`, Ctrl+C or a closing session still runs its cleanup:
// the demo cluster child is stopped, its temporary directory removed, drafts flushed.
// A signal handler may only write to a pipe; the notifier reads it on the GUI thread.
// A signal that arrives before the event loop runs waits in the pipe until it does.
class QuitOnSignal final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QuitOnSignal)

public:
    explicit QuitOnSignal(QObject *parent = nullptr);
    ~QuitOnSignal() override;

    // Runs `handler` on this object's thread instead of quit(), for a process that must
    // do something first (the controller gives its Lease up) and then quits by itself.
    void setHandler(std::function<void()> handler) { m_handler = std::move(handler); }
    // What a stop signal does: the handler, else quit(). Called by the platform part.
    void deliver();

private:
    QSocketNotifier *m_notifier = nullptr;
    std::function<void()> m_handler;
};

} // namespace gq
