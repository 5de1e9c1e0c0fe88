#pragma once

// For the tests of a keychain that cannot be reached: DBUS_SESSION_BUS_ADDRESS points
// nowhere until restore() or the end of the scope, so QtKeychain finds no Secret Service.

#include <QByteArray>
#include <QtGlobal>

namespace gq::test {

class NoSessionBus {
public:
    NoSessionBus()
        : m_saved(qgetenv("DBUS_SESSION_BUS_ADDRESS")) {
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/gq-no-bus");
    }
    ~NoSessionBus() { restore(); }
    NoSessionBus(const NoSessionBus &) = delete;
    NoSessionBus &operator=(const NoSessionBus &) = delete;

    // The address as it was before.
    void restore() {
        if (m_restored)
            return;
        m_restored = true;
        if (m_saved.isEmpty())
            qunsetenv("DBUS_SESSION_BUS_ADDRESS");
        else
            qputenv("DBUS_SESSION_BUS_ADDRESS", m_saved);
    }

private:
    QByteArray m_saved;
    bool m_restored = false;
};

} // namespace gq::test
