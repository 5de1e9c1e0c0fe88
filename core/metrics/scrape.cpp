#include "core/metrics/scrape.h"

#include "core/net/httptransport.h"

#include <QFile>
#include <QFileInfo>
#include <QPromise>
#include <QUrl>

namespace gq::metrics {

namespace {

QFuture<Result<ScrapedText>> ready(Result<ScrapedText> r) {
    QPromise<Result<ScrapedText>> p;
    p.start();
    p.addResult(std::move(r));
    p.finish();
    return p.future();
}

QString instanceOf(const QString &url) {
    const QUrl u(url);
    if (u.isLocalFile())
        return QFileInfo(u.toLocalFile()).fileName();
    return u.port() > 0 ? QStringLiteral("%1:%2").arg(u.host()).arg(u.port()) : u.host();
}

} // namespace

Result<void> checkScrapeUrl(const QString &url) {
    const QUrl u(url);
    const QString scheme = u.scheme();
    if (!u.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https") &&
                         scheme != QLatin1String("file")))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("'%1' is not an http://, https:// or file:// URL").arg(url),
                           QStringLiteral("--scrape"));
    if (scheme != QLatin1String("file") && u.host().isEmpty())
        return Error::make(Error::Kind::Usage, QStringLiteral("'%1' names no host").arg(url),
                           QStringLiteral("--scrape"));
    return {};
}

QFuture<Result<ScrapedText>> scrape(HttpTransport &transport, const ScrapeTarget &target) {
    if (auto ok = checkScrapeUrl(target.url); !ok)
        return ready(ok.error());
    const QUrl u(target.url);
    if (u.isLocalFile()) {
        // A saved page: small, read here (the caller is a CLI or a worker thread).
        QFile f(u.toLocalFile());
        if (!f.open(QIODevice::ReadOnly))
            return ready(Error::make(
                Error::Kind::Io, QStringLiteral("cannot read %1: %2").arg(u.toLocalFile(), f.errorString())));
        if (f.size() > kMaxScrapeBytes)
            return ready(Error::make(
                Error::Kind::Invalid,
                QStringLiteral("%1 is larger than %2 MiB").arg(u.toLocalFile()).arg(kMaxScrapeBytes >> 20)));
        const QByteArray text = f.readAll();
        return ready(ScrapedText{target.url, parseExposition(text)});
    }
    HttpRequest req;
    req.url = QString::fromUtf8(u.toEncoded());
    req.description = QStringLiteral("GET ") + u.path();
    req.headers.append(qMakePair(QByteArray("Accept"), QByteArray("text/plain;version=0.0.4")));
    req.tls.caPem = target.caPem;
    req.tls.insecureSkipVerify = target.insecureSkipVerify;
    req.timeoutMs = target.timeoutMs;
    req.retry.maxAttempts = 3;
    req.userAgent = "gpuquota";
    const QString url = target.url;
    return transport.send(std::move(req)).then([url](HttpResponse r) -> Result<ScrapedText> {
        if (r.transportError) {
            Error e = *r.transportError;
            e.message = QStringLiteral("cannot scrape %1: %2").arg(url, e.message);
            return e;
        }
        if (!r.ok()) {
            Error e = Error::make(r.httpStatus >= 500 ? Error::Kind::Server : Error::Kind::Invalid,
                                  QStringLiteral("cannot scrape %1: HTTP %2").arg(url).arg(r.httpStatus));
            e.httpStatus = r.httpStatus;
            return e;
        }
        if (r.body.size() > kMaxScrapeBytes)
            return Error::make(
                Error::Kind::Invalid,
                QStringLiteral("%1 sent more than %2 MiB").arg(url).arg(kMaxScrapeBytes >> 20));
        return ScrapedText{url, parseExposition(r.body)};
    });
}

GpuSnapshot snapshotFromScrapes(const QList<ScrapedText> &pages) {
    QList<Sample> all;
    QHash<QString, QString> help;
    QStringList warnings;
    for (const ScrapedText &page : pages) {
        const QString instance = page.instance.isEmpty() ? instanceOf(page.url) : page.instance;
        for (Sample s : page.exposition.samples) {
            if (!hasLabel(s.labels, u"instance"))
                s.labels.append(Label{QStringLiteral("instance"), instance});
            all.append(std::move(s));
        }
        for (auto it = page.exposition.help.constBegin(); it != page.exposition.help.constEnd(); ++it)
            help.insert(it.key(), it.value());
        for (const ParseIssue &i : page.exposition.issues)
            warnings << page.url + QStringLiteral(": ") + i.toString();
        if (const int more = page.exposition.issueCount - int(page.exposition.issues.size()); more > 0)
            warnings << QStringLiteral("%1: %2 more malformed lines").arg(page.url).arg(more);
    }
    GpuSnapshot snap = gpusFromSamples(all, help);
    snap.warnings = warnings;
    return snap;
}

ScrapeRound collectScrapes(QList<QFuture<Result<ScrapedText>>> pending) {
    ScrapeRound round;
    for (auto &f : pending) {
        f.waitForFinished();
        Result<ScrapedText> r = f.result();
        if (r)
            round.pages.append(std::move(*r));
        else
            round.failures.append(r.error());
    }
    return round;
}

Result<GpuSnapshot> snapshotFromRound(const ScrapeRound &round) {
    if (round.pages.isEmpty() && !round.failures.isEmpty())
        return round.failures.first();
    GpuSnapshot snap = snapshotFromScrapes(round.pages);
    QStringList failures;
    for (const Error &e : round.failures)
        failures << e.message;
    snap.warnings = failures + snap.warnings;
    return snap;
}

} // namespace gq::metrics
