#include "services/quotas/draftstore.h"

#include "core/domain/atomicfile.h"
#include "core/domain/clock.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace gq {

namespace {

constexpr int kFormatVersion = 1;
const QLatin1StringView kSuffix(".draft.json");

QJsonObject toJson(const Draft &d) {
    QJsonObject o;
    o.insert(QStringLiteral("version"), kFormatVersion);
    o.insert(QStringLiteral("context"), d.key.context);
    o.insert(QStringLiteral("namespace"), d.key.ns);
    o.insert(QStringLiteral("kind"), d.key.kind);
    o.insert(QStringLiteral("name"), d.key.name);
    o.insert(QStringLiteral("text"), d.text);
    o.insert(QStringLiteral("baseText"), d.baseText);
    o.insert(QStringLiteral("resourceVersion"), d.resourceVersion);
    o.insert(QStringLiteral("savedAt"), d.savedAt.toString(Qt::ISODateWithMs));
    return o;
}

std::optional<Draft> readDraft(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("version")).toInt() != kFormatVersion)
        return std::nullopt;
    Draft d;
    d.key.context = o.value(QStringLiteral("context")).toString();
    d.key.ns = o.value(QStringLiteral("namespace")).toString();
    d.key.kind = o.value(QStringLiteral("kind")).toString();
    d.key.name = o.value(QStringLiteral("name")).toString();
    d.text = o.value(QStringLiteral("text")).toString();
    d.baseText = o.value(QStringLiteral("baseText")).toString();
    d.resourceVersion = o.value(QStringLiteral("resourceVersion")).toString();
    d.savedAt = QDateTime::fromString(o.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
    return d;
}

} // namespace

QString DraftKey::fileName() const {
    // A separator that cannot occur in any part keeps ("a","bc") apart from ("ab","c").
    const QString joined = QStringList{context, ns, kind, name}.join(QChar(0x1f));
    const QByteArray hash = QCryptographicHash::hash(joined.toUtf8(), QCryptographicHash::Sha256);
    return QString::fromLatin1(hash.toHex().left(32)) + kSuffix;
}

DraftStore::DraftStore(QObject *parent, const QString &directory)
    : QObject(parent)
    , m_dir(directory) {
    if (m_dir.isEmpty())
        m_dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/drafts");
    m_timer.setSingleShot(true);
    m_timer.setInterval(1500);
    connect(&m_timer, &QTimer::timeout, this, &DraftStore::flush);
    if (QCoreApplication::instance())
        connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &DraftStore::flush);
}

DraftStore::~DraftStore() {
    flush();
}

QString DraftStore::pathFor(const DraftKey &key) const {
    return m_dir + QLatin1Char('/') + key.fileName();
}

Result<void> DraftStore::save(const Draft &draft) {
    // A draft that fails to write stays pending, so a later flush can still save it.
    if (!QDir().mkpath(m_dir))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the drafts folder %1").arg(m_dir));
    Draft stamped = draft;
    if (!stamped.savedAt.isValid())
        stamped.savedAt = Clock::system().nowUtc();
    const QString path = pathFor(draft.key);
    if (auto w = writeFileAtomically(path, QJsonDocument(toJson(stamped)).toJson(QJsonDocument::Indented));
        !w)
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write draft %1: %2").arg(path, w.error().message));
    m_pending.remove(draft.key.fileName());
    emit saved(draft.key);
    return {};
}

void DraftStore::scheduleSave(const Draft &draft) {
    Draft d = draft;
    d.savedAt = Clock::system().nowUtc();
    m_pending.insert(d.key.fileName(), d);
    m_timer.start();
}

void DraftStore::flush() {
    m_timer.stop();
    const QList<Draft> pending = m_pending.values();
    for (const Draft &d : pending) {
        Result<void> r = save(d);
        if (!r)
            emit saveFailed(d.key, r.error());
    }
}

bool DraftStore::hasDraft(const DraftKey &key) const {
    return m_pending.contains(key.fileName()) || QFile::exists(pathFor(key));
}

std::optional<Draft> DraftStore::draft(const DraftKey &key) const {
    const auto it = m_pending.constFind(key.fileName());
    if (it != m_pending.constEnd())
        return *it;
    std::optional<Draft> d = readDraft(pathFor(key));
    // A hash collision or a hand-edited file must not hand back someone else's text.
    if (d && !(d->key == key))
        return std::nullopt;
    return d;
}

std::optional<Draft> DraftStore::takeDraft(const DraftKey &key) {
    std::optional<Draft> d = draft(key);
    if (d) {
        Result<void> r = discard(key);
        Q_UNUSED(r)
    }
    return d;
}

Result<void> DraftStore::discard(const DraftKey &key) {
    m_pending.remove(key.fileName());
    const QString path = pathFor(key);
    if (QFile::exists(path) && !QFile::remove(path))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot remove draft %1").arg(path));
    return {};
}

QList<Draft> DraftStore::allDrafts() const {
    QHash<QString, Draft> all;
    const QDir dir(m_dir);
    const QStringList files = dir.entryList({QStringLiteral("*") + kSuffix}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        if (std::optional<Draft> d = readDraft(dir.filePath(file)))
            all.insert(file, *d);
    }
    for (auto it = m_pending.constBegin(); it != m_pending.constEnd(); ++it)
        all.insert(it.key(), it.value());
    return all.values();
}

} // namespace gq
