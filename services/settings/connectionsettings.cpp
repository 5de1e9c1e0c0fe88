#include "services/settings/connectionsettings.h"

#include "services/settings/consolesettings.h"

#include <QCryptographicHash>
#include <QDir>

#include <QPromise>
#include <QRegularExpression>
#include <QUrl>
#include <memory>

namespace gq {

QString metricsSourceKey(MetricsSource source) {
    switch (source) {
    case MetricsSource::Prometheus: return QStringLiteral("prometheus");
    case MetricsSource::Exporters: return QStringLiteral("exporters");
    case MetricsSource::Discover: return QStringLiteral("discover");
    case MetricsSource::None: break;
    }
    return QString();
}

MetricsSource metricsSourceFromKey(const QString &key) {
    for (MetricsSource s : {MetricsSource::Prometheus, MetricsSource::Exporters, MetricsSource::Discover})
        if (key == metricsSourceKey(s))
            return s;
    return MetricsSource::None;
}

bool ContextConnections::metricsConfigured() const {
    switch (metricsSource) {
    case MetricsSource::Prometheus: return !prometheusUrl.isEmpty();
    case MetricsSource::Exporters: return !exporterEndpoints.isEmpty();
    case MetricsSource::Discover: return true;
    case MetricsSource::None: break;
    }
    return false;
}

QString ContextId::key() const {
    return server.isEmpty() ? name : name + QLatin1Char('\n') + server;
}

namespace {
ContextConnections readConnections(const ConsoleSettings &s, const QString &key) {
    ContextConnections c;
    c.usageDatabaseUrl = s.value(settings::usageDatabaseUrl, key);
    c.metricsSource = metricsSourceFromKey(s.value(settings::metricsSource, key));
    c.prometheusUrl = s.value(settings::prometheusUrl, key);
    c.prometheusCaFile = s.value(settings::prometheusCaFile, key);
    c.exporterEndpoints = s.value(settings::exporterEndpoints, key);
    c.controllerUrl = s.value(settings::controllerUrl, key);
    return c;
}

// saveConnections() writes every key: one of them says whether anything is kept.
bool kept(const ConsoleSettings &s, const QString &key) {
    return s.contains(settings::metricsSource, key) || s.contains(settings::usageDatabaseUrl, key);
}
} // namespace

ContextConnections loadConnections(const ConsoleSettings &s, const ContextId &id) {
    const QString key = id.key();
    return readConnections(s, kept(s, key) || key == id.name ? key : id.name);
}

ContextConnections takeConnections(ConsoleSettings &s, const ContextId &id) {
    const QString key = id.key();
    if (key == id.name || kept(s, key) || !kept(s, id.name))
        return readConnections(s, key);
    const ContextConnections c = readConnections(s, id.name);
    saveConnections(s, id, c);
    s.remove(settings::usageDatabaseUrl, id.name);
    s.remove(settings::metricsSource, id.name);
    s.remove(settings::prometheusUrl, id.name);
    s.remove(settings::prometheusCaFile, id.name);
    s.remove(settings::exporterEndpoints, id.name);
    s.remove(settings::controllerUrl, id.name);
    s.sync();
    return c;
}

void saveConnections(ConsoleSettings &s, const ContextId &id, const ContextConnections &c) {
    const QString key = id.key();
    s.setValue(settings::usageDatabaseUrl, key, c.usageDatabaseUrl);
    s.setValue(settings::metricsSource, key, metricsSourceKey(c.metricsSource));
    s.setValue(settings::prometheusUrl, key, c.prometheusUrl);
    s.setValue(settings::prometheusCaFile, key, c.prometheusCaFile);
    s.setValue(settings::exporterEndpoints, key, c.exporterEndpoints);
    s.setValue(settings::controllerUrl, key, c.controllerUrl);
}

QFuture<Result<QString>> contextSecret(ConsoleSettings &s, const SecretSetting &secret, const ContextId &id) {
    const QString key = id.key();
    if (key == id.name)
        return s.secret(secret, key);
    auto promise = std::make_shared<QPromise<Result<QString>>>();
    QFuture<Result<QString>> out = promise->future();
    promise->start();
    SecretStore *store = s.secrets();
    const auto finish = [promise](const Result<QString> &r) {
        promise->addResult(r);
        promise->finish();
    };
    // Continuations on the store's thread, where its futures are made.
    (void)s.secret(secret, key).then(store, [&s, secret, id, store, finish](const Result<QString> &r) {
        if (r || r.error().kind != Error::Kind::NotFound) {
            finish(r);
            return;
        }
        (void)s.secret(secret, id.name).then(store, [&s, secret, id, finish](const Result<QString> &old) {
            if (old) {
                (void)s.setSecret(secret, id.key(), *old);
                (void)s.removeSecret(secret, id.name);
            }
            finish(old);
        });
    });
    return out;
}

UrlPassword splitUrlPassword(const QString &text) {
    QUrl url(text.trimmed());
    if (!url.isValid() || url.password().isEmpty())
        return {text, {}};
    const QString password = url.password(QUrl::FullyDecoded);
    url.setPassword(QString());
    return {url.toString(), password};
}

QString withUrlPassword(const QString &text, const QString &password) {
    QUrl url(text.trimmed());
    if (password.isEmpty() || !url.isValid() || url.userName().isEmpty() || !url.password().isEmpty())
        return text;
    url.setPassword(password, QUrl::DecodedMode);
    return url.toString();
}

// Readable where the context name is ("prod-eu"), with a short hash so that two names
// that clean up alike ("a/b", "a:b") never share a file.
QString embeddedDatabaseUrl(const QString &dataDir, const QString &context) {
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString stem = context;
    stem.replace(unsafe, QStringLiteral("_"));
    const QString hash = QString::fromLatin1(
        QCryptographicHash::hash(context.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
    const QString file = QStringLiteral("usage-%1-%2.db").arg(stem.left(40), hash);
    return QStringLiteral("sqlite://") + QDir(dataDir).absoluteFilePath(file);
}

} // namespace gq
