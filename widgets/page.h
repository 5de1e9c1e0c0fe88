#pragma once

#include <QtGlobal>

class QString;

namespace gq {

class ClusterConnection;

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

protected:
    Page() = default;
    Q_DISABLE_COPY_MOVE(Page)
};

} // namespace gq
