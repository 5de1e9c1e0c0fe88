#include "ledgerwriter.h"

#include <QDateTime>
#include <QLoggingCategory>

#include <limits>
#include <mutex>

Q_LOGGING_CATEGORY(lcLedger, "gq.controller.ledger")

namespace gq {

LedgerWriter::LedgerWriter(QString databaseUrl, UsageStore::Options options, QString spoolDirectory,
                           QObject *parent)
    : QObject(parent)
    , m_url(std::move(databaseUrl))
    , m_options(std::move(options))
    , m_spool(std::move(spoolDirectory)) {
    m_spoolDepth = m_spool.depth();
    m_spoolWritable = m_spool.writable();
    m_retry.setSingleShot(false);
    QObject::connect(&m_retry, &QTimer::timeout, this, [this] {
        if (connect())
            m_retry.stop();
    });
}

LedgerWriter::~LedgerWriter() = default;

void LedgerWriter::start(int retryMs) {
    m_retry.setInterval(retryMs);
    if (!connect())
        m_retry.start();
}

QString LedgerWriter::lastError() const {
    std::lock_guard lock(m_errorMutex);
    return m_lastError;
}

bool LedgerWriter::connect() {
    if (!m_store) {
        auto store = UsageStore::open(m_url, m_options);
        if (!store) {
            fail(store.error());
            return false;
        }
        m_store = std::move(*store);
    }
    if (!replay())
        return false;
    const bool wasAvailable = m_available.exchange(true);
    {
        std::lock_guard lock(m_errorMutex);
        m_lastError.clear();
    }
    if (!wasAvailable) {
        qCInfo(lcLedger) << "usage database available:" << m_store->url().display();
        Q_EMIT databaseReady();
    }
    return true;
}

// Replays the spool in order. On a failure part-way the spool stays whole: the rows
// already written are written again next time, which the upsert makes harmless.
bool LedgerWriter::replay() {
    qint64 skipped = 0; // torn entries, each logged by the spool
    auto pending = m_spool.readAll(&skipped);
    if (!pending) {
        fail(pending.error());
        return false;
    }
    if (pending->empty())
        return true;
    for (const SpoolEntry &entry : *pending) {
        auto r = apply(entry);
        if (!r && r.error().kind != Error::Kind::Invalid) {
            fail(r.error());
            return false;
        }
        if (!r)
            qCWarning(lcLedger) << "spooled interval dropped:" << r.error().toString();
    }
    if (auto r = m_spool.clear(); !r) {
        fail(r.error());
        return false;
    }
    m_spoolSkipped += skipped;
    if (skipped > 0)
        qCWarning(lcLedger) << "replayed" << pending->size() << "spooled interval states;" << skipped
                            << "torn or unreadable spool entries skipped";
    else
        qCInfo(lcLedger) << "replayed" << pending->size() << "spooled interval states";
    m_written += static_cast<qint64>(pending->size());
    m_lastWrite = QDateTime::currentSecsSinceEpoch();
    m_spoolDepth = 0;
    return true;
}

void LedgerWriter::fail(const Error &error) {
    {
        std::lock_guard lock(m_errorMutex);
        m_lastError = error.toString();
    }
    // The connection may be broken for good (a restarted server): open a new one.
    m_store.reset();
    if (m_available.exchange(false)) {
        qCWarning(lcLedger) << "usage database unavailable, spooling:" << error.toString();
        Q_EMIT databaseLost(error);
    }
    if (!m_retry.isActive())
        m_retry.start();
}

Result<void> LedgerWriter::apply(const SpoolEntry &entry) {
    if (entry.closeOnly) {
        if (!entry.iv.end)
            return Error::make(Error::Kind::Invalid, QStringLiteral("a close without an end"),
                               QStringLiteral("end"));
        auto r = m_store->closeInterval(entry.iv.cluster, entry.iv.podUid, entry.iv.resource, entry.iv.start,
                                        *entry.iv.end);
        if (!r)
            return r.error();
        return {};
    }
    auto r = m_store->upsertInterval(entry.iv);
    if (!r)
        return r.error();
    return {};
}

void LedgerWriter::spool(const SpoolEntry &entry) {
    if (auto r = m_spool.append(entry); !r) {
        // Nothing else can keep it: say so loudly; readiness turns false.
        m_spoolWritable = false;
        qCCritical(lcLedger) << "interval state LOST (database down, spool not writable):"
                             << r.error().toString();
        return;
    }
    m_spoolWritable = true;
    m_spoolDepth = m_spool.depth();
    ++m_spooledTotal;
}

void LedgerWriter::submit(const UsageInterval &iv) {
    write(SpoolEntry{iv, false});
}

void LedgerWriter::close(const UsageInterval &iv) {
    write(SpoolEntry{iv, true});
}

void LedgerWriter::write(const SpoolEntry &entry) {
    if (!m_available.load() || m_spool.depth() > 0) {
        spool(entry);
        return;
    }
    auto r = apply(entry);
    if (r) {
        ++m_written;
        m_lastWrite = QDateTime::currentSecsSinceEpoch();
        return;
    }
    if (r.error().kind == Error::Kind::Invalid) {
        qCWarning(lcLedger) << "interval not recorded:" << r.error().toString();
        return;
    }
    fail(r.error());
    spool(entry);
}

Result<std::vector<UsageInterval>> LedgerWriter::openIntervals(const QString &cluster,
                                                               const QString &source) {
    if (!m_store || !m_available.load())
        return Error::make(Error::Kind::Database, QStringLiteral("the usage database is not available"));
    auto running = m_store->runningNow(std::numeric_limits<qint64>::max() / 4);
    if (!running) {
        fail(running.error());
        return running.error();
    }
    std::vector<UsageInterval> out;
    for (const UsageInterval &iv : *running)
        if (iv.cluster == cluster && iv.source == source)
            out.push_back(iv);
    return out;
}

} // namespace gq
