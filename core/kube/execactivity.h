#pragma once

#include <QString>

#include <optional>

namespace gq::execactivity {

// The exec credential plugins running now in this process (runExecPlugin registers each
// while it runs), so a window can say that a sign-in is waiting: an interactive plugin
// (a browser login) may take minutes, and without a word the console looks stuck.
// Thread-safe.
struct Waiting {
    QString command;          // the plugin as written ("kubelogin")
    qint64 sinceMs = 0;       // Clock::system().nowMSecs() when it started
    bool interactive = false; // interactiveMode IfAvailable or Always
    int count = 0;            // plugins running now (this is the oldest)
};
// The longest-running plugin, with how many run; nullopt when none does.
[[nodiscard]] std::optional<Waiting> oldest();

// Registers one running plugin for its lifetime.
class Scope {
public:
    Scope(const QString &command, bool interactive);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

private:
    quint64 m_id = 0;
};

} // namespace gq::execactivity
