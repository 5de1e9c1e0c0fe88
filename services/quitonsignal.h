#pragma once

#include <QObject>

class QSocketNotifier;

namespace gq {

// Turns SIGTERM, SIGINT and SIGHUP into a normal QCoreApplication::quit(), so a
// console stopped by `kill`, Ctrl+C or a closing session still runs its cleanup:
// the demo cluster child is stopped, its temporary directory removed, drafts flushed.
// A signal handler may only write to a pipe; the notifier reads it on the GUI thread.
class QuitOnSignal final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(QuitOnSignal)

public:
    explicit QuitOnSignal(QObject *parent = nullptr);
    ~QuitOnSignal() override;

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace gq
