#include "core/usage/auditanchor.h"

#include "core/domain/atomicfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QMessageAuthenticationCode>

#include <cerrno>
#include <cstring>

namespace gq {

namespace {

const QLatin1String kCheckpointFormat("gpuquota-audit-checkpoint/1");

void appendField(QByteArray &out, const QByteArray &value) {
    out += QByteArray::number(value.size());
    out += ':';
    out += value;
    out += ';';
}

bool isHexHash(const QString &s) {
    if (s.size() != 64)
        return false;
    for (QChar c : s)
        if (!c.isDigit() && !(c >= QLatin1Char('a') && c <= QLatin1Char('f')))
            return false;
    return true;
}

} // namespace

Result<AuditKey> AuditKey::fromSecret(const QByteArray &secret) {
    const QByteArray trimmed = secret.trimmed();
    if (trimmed.size() < 16)
        return Error::make(Error::Kind::Config,
                           QStringLiteral("the audit key is too short (%1 bytes, at least 16 needed; "
                                          "make one with `openssl rand -hex 32`)")
                               .arg(trimmed.size()),
                           QStringLiteral("audit key"));
    return AuditKey(trimmed);
}

Result<AuditKey> AuditKey::fromFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read the audit key file %1: %2").arg(path, f.errorString()),
                           QStringLiteral("audit key"));
    auto key = fromSecret(f.readAll());
    if (!key) {
        Error e = key.error();
        e.message = path + QStringLiteral(": ") + e.message;
        return e;
    }
    return key;
}

QString AuditKey::mac(const QByteArray &message) const {
    return QString::fromLatin1(
        QMessageAuthenticationCode::hash(message, m_secret, QCryptographicHash::Sha256).toHex());
}

QString AuditKey::id() const {
    return mac(QByteArrayLiteral("gpuquota audit key id")).left(16);
}

Result<AuditSigning> AuditSigning::fromEnvironment() {
    AuditSigning s;
    const QString keyFile = qEnvironmentVariable("GQ_AUDIT_KEY_FILE");
    if (!keyFile.isEmpty()) {
        auto key = AuditKey::fromFile(keyFile);
        if (!key)
            return key.error();
        s.key = *key;
    }
    s.checkpointPath = qEnvironmentVariable("GQ_AUDIT_CHECKPOINT");
    return s;
}

QString AuditHead::toText() const {
    return QStringLiteral("%1:%2").arg(count).arg(hash);
}

Result<AuditHead> AuditHead::parse(const QString &text) {
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    bool ok = false;
    AuditHead h;
    h.count = colon > 0 ? text.left(colon).toLongLong(&ok) : 0;
    h.hash = colon > 0 ? text.mid(colon + 1).trimmed() : QString();
    if (!ok || h.count < 1 || !isHexHash(h.hash))
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("expected COUNT:HASH (an entry count and its 64-digit hash, as "
                                          "in the %1 annotation), got '%2'")
                               .arg(QLatin1String(kAuditHeadAnnotation), text),
                           QStringLiteral("head"));
    return h;
}

QJsonObject withAuditHead(QJsonObject object, const AuditHead &head) {
    if (head.count < 1)
        return object;
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
    annotations.insert(QLatin1String(kAuditHeadAnnotation), head.toText());
    meta.insert(QStringLiteral("annotations"), annotations);
    object.insert(QStringLiteral("metadata"), meta);
    return object;
}

std::optional<AuditHead> auditHeadOf(const QJsonObject &object) {
    const QJsonValue v = object.value(QLatin1String("metadata"))
                             .toObject()
                             .value(QLatin1String("annotations"))
                             .toObject()
                             .value(QLatin1String(kAuditHeadAnnotation));
    if (!v.isString())
        return std::nullopt;
    auto head = AuditHead::parse(v.toString());
    return head ? std::optional<AuditHead>(*head) : std::nullopt;
}

QByteArray AuditCheckpoint::canonical() const {
    QByteArray out;
    appendField(out, QByteArray(kCheckpointFormat.data(), kCheckpointFormat.size()));
    appendField(out, QByteArray::number(count));
    appendField(out, head.toLatin1());
    appendField(out, QByteArray::number(keyedFrom));
    appendField(out, QByteArray::number(at));
    appendField(out, keyId.toLatin1());
    return out;
}

void AuditCheckpoint::sign(const AuditKey &key) {
    keyId = key.id();
    mac = key.mac(canonical());
}

QString AuditCheckpoint::checkSignature(const AuditKey &key) const {
    if (!isSigned())
        return QStringLiteral("the checkpoint is not signed, so anyone could have written it");
    if (keyId != key.id())
        return QStringLiteral("the checkpoint was signed with another key (key id %1, the given key is %2)")
            .arg(keyId, key.id());
    if (key.mac(canonical()) != mac)
        return QStringLiteral("the checkpoint's signature does not match its content (the file was edited)");
    return {};
}

QByteArray AuditCheckpoint::toJson() const {
    const QJsonObject o{
        {QStringLiteral("format"), kCheckpointFormat},
        {QStringLiteral("count"), count},
        {QStringLiteral("head"), head},
        {QStringLiteral("keyedFrom"), keyedFrom},
        {QStringLiteral("at"), at},
        {QStringLiteral("keyId"), keyId},
        {QStringLiteral("mac"), mac},
        {QStringLiteral("source"), source},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

Result<AuditCheckpoint> AuditCheckpoint::fromJson(const QByteArray &json, const QString &origin) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    auto bad = [&](const QString &why) {
        return Error::make(Error::Kind::Parse,
                           QStringLiteral("%1: not an audit checkpoint: %2").arg(origin, why),
                           QStringLiteral("checkpoint"));
    };
    if (pe.error != QJsonParseError::NoError)
        return bad(pe.errorString());
    const QJsonObject o = doc.object();
    if (o.value(QStringLiteral("format")).toString() != kCheckpointFormat)
        return bad(QStringLiteral("format is not %1").arg(kCheckpointFormat));
    AuditCheckpoint cp;
    cp.count = o.value(QStringLiteral("count")).toInteger(-1);
    cp.head = o.value(QStringLiteral("head")).toString();
    cp.keyedFrom = o.value(QStringLiteral("keyedFrom")).toInteger(-1);
    cp.at = o.value(QStringLiteral("at")).toInteger(0);
    cp.keyId = o.value(QStringLiteral("keyId")).toString();
    cp.mac = o.value(QStringLiteral("mac")).toString();
    cp.source = o.value(QStringLiteral("source")).toString();
    if (cp.count < 0 || cp.keyedFrom < 0 || cp.keyedFrom > cp.count)
        return bad(QStringLiteral("count or keyedFrom out of range"));
    if (cp.count > 0 ? !isHexHash(cp.head) : !cp.head.isEmpty())
        return bad(QStringLiteral("head is not a 64-digit hash"));
    return cp;
}

Result<AuditCheckpoint> AuditCheckpoint::readFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(
            Error::Kind::Io,
            QStringLiteral("cannot read the audit checkpoint %1: %2").arg(path, f.errorString()),
            QStringLiteral("checkpoint"));
    return fromJson(f.readAll(), path);
}

Result<void> AuditCheckpoint::writeFile(const QString &path, const AuditCheckpoint &cp, bool neverBackwards) {
    auto ioError = [&](const QString &why) {
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write the audit checkpoint %1: %2").arg(path, why),
                           QStringLiteral("checkpoint"));
    };
    // Appenders in several processes (console, controller, CLI) share the file: the lock
    // orders read-compare-replace so a slower one cannot put an older head back.
    QLockFile lock(path + QStringLiteral(".lock"));
    errno = 0;
    if (!lock.tryLock(10000)) {
        // QLockFile says only "unknown error"; the system's reason (a full disk) is in errno.
        const int code = errno;
        if (lock.error() == QLockFile::LockFailedError)
            return ioError(QStringLiteral("its lock file %1.lock is held by another process").arg(path));
        return ioError(QStringLiteral("cannot create its lock file %1.lock%2")
                           .arg(path, code != 0
                                          ? QStringLiteral(": ") + QString::fromLocal8Bit(std::strerror(code))
                                          : QString()));
    }
    if (neverBackwards && QFileInfo::exists(path)) {
        auto existing = readFile(path);
        if (existing && existing->count >= cp.count)
            return {};
    }
    // All or nothing: a full disk leaves the previous checkpoint as it was (QSaveFile
    // alone renamed an empty file over it on Qt 6.4, see atomicfile.h).
    if (auto r = writeFileAtomically(path, cp.toJson()); !r)
        return ioError(r.error().message);
    return {};
}

} // namespace gq
