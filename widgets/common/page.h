#pragma once

#include <QString>
#include <QTimeZone>
#include <QtGlobal>

namespace gq {

class ClusterConnection;

// What the Preferences (General tab) say about how pages show their data.
struct PagePreferences {
    QString timeZone; // IANA id of charts, budgets and the chargeback month; "" : the system's
    qint64 chargebackRateMicros = 2500000; // the Chargeback page's rate before a rates file
    QString currency;                      // shown with money where a rates file names none

    // timeZone, or the system's when it names none (or one this system does not know).
    [[nodiscard]] QString zone() const {
        return QTimeZone::isTimeZoneIdAvailable(timeZone.toUtf8())
                   ? timeZone
                   : QString::fromUtf8(QTimeZone::systemTimeZoneId());
    }
};

// What the window tells every page of its detail tabs, in one place: the connection
// the page reads from and writes through, and the namespace selected on the left. A
// page is a QWidget that also implements this; it owns neither of them.
class Page {
public:
    virtual ~Page() = default;

    // Null: no connection (the page shows nothing of a cluster).
    virtual void setConnection(ClusterConnection *connection) = 0;
    // Empty: no namespace selected.
    virtual void setNamespace(const QString &ns) = 0;
    // At start and after Preferences > Apply; pages that show none of it ignore it.
    virtual void setPreferences(const PagePreferences &preferences) { Q_UNUSED(preferences) }

protected:
    Page() = default;
    Q_DISABLE_COPY_MOVE(Page)
};

} // namespace gq
