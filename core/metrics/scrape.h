#pragma once

#include "core/metrics/exposition.h"
#include "core/metrics/gpusample.h"
#include "core/domain/result.h"

#include <QFuture>
#include <QList>
#include <QString>

#include <memory>

namespace gq {
class HttpTransport;
}

namespace gq::metrics {

// Direct mode, for clusters without Prometheus: read dcgm-exporter /metrics endpoints
// (http://, https://) or saved exposition files (file://) and map them like a
// Prometheus answer. A malformed line does not lose the scrape: it becomes a warning.
struct ScrapeTarget {
    QString url;
    QByteArray caPem;
    bool insecureSkipVerify = false;
    int timeoutMs = 10000;
};

struct ScrapedText {
    QString url;
    Exposition exposition;
    QString instance = QString(); // the `instance` of its series; empty: the URL's host:port
};

// Largest body read from one endpoint or file (a dcgm-exporter page is ~100 KiB per
// 8 GPUs); more is refused rather than read until memory runs out.
constexpr qint64 kMaxScrapeBytes = 256LL * 1024 * 1024;

// Checks a --scrape URL's scheme (http, https, file) without touching it.
[[nodiscard]] Result<void> checkScrapeUrl(const QString &url);

// One target: a GET (retried on transient failures) or a file read, then parsed.
QFuture<Result<ScrapedText>> scrape(HttpTransport &transport, const ScrapeTarget &target);

// Every page of one refresh, waited for (a worker thread or a CLI): the pages read and
// the failures, each in the order asked.
struct ScrapeRound {
    QList<ScrapedText> pages;
    QList<Error> failures;
};
[[nodiscard]] ScrapeRound collectScrapes(QList<QFuture<Result<ScrapedText>>> pending);
// The round as one snapshot (snapshotFromScrapes), its failures first among the
// warnings: one endpoint down does not blank the others. No page at all: the first
// failure.
[[nodiscard]] Result<GpuSnapshot> snapshotFromRound(const ScrapeRound &round);

// The scraped pages as one snapshot. Each page's series get an `instance` label naming
// the page's instance, else its URL's host:port (or file name), where they carry none,
// so GPUs without a Hostname label stay apart; parse issues become warnings "URL: line
// N, column C: ...".
[[nodiscard]] GpuSnapshot snapshotFromScrapes(const QList<ScrapedText> &pages);

} // namespace gq::metrics
