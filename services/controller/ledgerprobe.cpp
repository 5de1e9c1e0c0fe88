#include "services/controller/ledgerprobe.h"

#include "core/usage/pgping.h"
#include "core/usage/usageconnection.h"

#include <QTimer>

namespace gq {

// Lives on the probe's thread.
class LedgerProbe::Worker final : public QObject {
public:
    Worker(DbUrl url, int intervalMs, int timeoutMs)
        : m_url(std::move(url))
        , m_intervalMs(intervalMs)
        , m_timeoutMs(timeoutMs) {}

    void probe(const JobToken &token, const Report &report) {
        if (token.isCancelled())
            return;
        Result<void> r;
        if (!m_conn) {
            auto opened = UsageConnection::open(m_url, 1000, true);
            if (opened)
                m_conn = std::move(*opened);
            else
                r = opened.error();
        }
        if (m_conn)
            r = pingConnection(*m_conn, m_timeoutMs);
        if (!r)
            m_conn.reset();
        report(r);
        QTimer::singleShot(m_intervalMs, this, [this, token, report] { probe(token, report); });
    }

    void close() { m_conn.reset(); }

private:
    const DbUrl m_url;
    const int m_intervalMs;
    const int m_timeoutMs;
    std::unique_ptr<UsageConnection> m_conn;
};

LedgerProbe::LedgerProbe(DbUrl url, int intervalMs, int timeoutMs)
    : m_worker(new Worker(std::move(url), intervalMs, timeoutMs))
    , m_thread(m_worker, QStringLiteral("gq-ledger-probe")) {}

LedgerProbe::~LedgerProbe() {
    shutDown();
}

void LedgerProbe::start(const JobToken &token, Report report) {
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, token, report = std::move(report)] { w->probe(token, report); },
        Qt::QueuedConnection);
}

void LedgerProbe::shutDown() {
    m_thread.shutDown([w = m_worker] { w->close(); });
}

} // namespace gq
