#include "services/controller/intervalspool.h"

#include "services/platform/platform.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcSpool, "gq.controller.spool")

namespace gq {

namespace {

QByteArray checksum(const QByteArray &json) {
    return QCryptographicHash::hash(json, QCryptographicHash::Sha1).toHex().left(8);
}

// The JSON of the frame `GQS1 <length> <checksum> <json>` at `at` of `line`, and
// where the frame ends; nothing when it is torn (too short, or the checksum differs).
std::optional<std::pair<QByteArray, qsizetype>> unframe(const QByteArray &line, qsizetype at) {
    const QList<QByteArray> head = line.mid(at, 64).split(' ');
    if (head.size() < 4)
        return std::nullopt;
    bool ok = false;
    const qsizetype length = head.at(1).toLongLong(&ok);
    const qsizetype offset = at + head.at(0).size() + head.at(1).size() + head.at(2).size() + 3;
    if (!ok || length < 0 || line.size() < offset + length)
        return std::nullopt;
    QByteArray json = line.mid(offset, length);
    if (checksum(json) != head.at(2))
        return std::nullopt;
    return std::pair{std::move(json), offset + length};
}

// A line of an old (unframed) spool: one JSON object, or a torn one with a whole one
// glued to its end (the write after a torn one began on the same line).
std::optional<SpoolEntry> decodeLegacy(const QByteArray &line, qint64 &skipped) {
    if (auto entry = IntervalSpool::decode(line))
        return entry;
    ++skipped;
    for (qsizetype at = line.indexOf("{\"", 1); at > 0; at = line.indexOf("{\"", at + 1))
        if (auto entry = IntervalSpool::decode(line.mid(at)))
            return entry;
    return std::nullopt;
}

} // namespace

IntervalSpool::IntervalSpool(QString directory)
    : m_dir(std::move(directory)) {
    if (auto all = readAll())
        m_depth = static_cast<qint64>(all->size());
}

QString IntervalSpool::filePath() const {
    return QDir(m_dir).filePath(QStringLiteral("intervals.spool"));
}

QByteArray IntervalSpool::encode(const SpoolEntry &entry) {
    const UsageInterval &iv = entry.iv;
    QJsonObject o;
    if (entry.closeOnly)
        o.insert(QLatin1String("op"), QLatin1String("close"));
    o.insert(QLatin1String("cluster"), iv.cluster);
    o.insert(QLatin1String("ns"), iv.ns);
    o.insert(QLatin1String("user"), iv.user);
    o.insert(QLatin1String("podUid"), iv.podUid);
    o.insert(QLatin1String("podName"), iv.podName);
    o.insert(QLatin1String("resource"), iv.resource);
    o.insert(QLatin1String("gpus"), iv.gpus);
    o.insert(QLatin1String("start"), iv.start);
    if (iv.end)
        o.insert(QLatin1String("end"), *iv.end);
    o.insert(QLatin1String("source"), iv.source);
    o.insert(QLatin1String("node"), iv.node);
    o.insert(QLatin1String("gpuModel"), iv.gpuModel);
    if (iv.weight)
        o.insert(QLatin1String("weight"), *iv.weight);
    if (iv.endEstimated)
        o.insert(QLatin1String("endEstimated"), true);
    if (iv.seen)
        o.insert(QLatin1String("seen"), *iv.seen);
    const QByteArray json = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return kFrameMagic + QByteArray::number(json.size()) + ' ' + checksum(json) + ' ' + json + '\n';
}

std::optional<SpoolEntry> IntervalSpool::decode(const QByteArray &line) {
    QByteArray json = line;
    if (line.startsWith(kFrameMagic)) {
        auto body = unframe(line, 0);
        if (!body || body->second != line.size())
            return std::nullopt;
        json = body->first;
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    UsageInterval iv;
    iv.cluster = o.value(QLatin1String("cluster")).toString();
    iv.ns = o.value(QLatin1String("ns")).toString();
    iv.user = o.value(QLatin1String("user")).toString();
    iv.podUid = o.value(QLatin1String("podUid")).toString();
    iv.podName = o.value(QLatin1String("podName")).toString();
    iv.resource = o.value(QLatin1String("resource")).toString();
    iv.gpus = o.value(QLatin1String("gpus")).toInt();
    iv.start = o.value(QLatin1String("start")).toInteger();
    if (o.contains(QLatin1String("end")))
        iv.end = o.value(QLatin1String("end")).toInteger();
    iv.source = o.value(QLatin1String("source")).toString();
    iv.node = o.value(QLatin1String("node")).toString();
    iv.gpuModel = o.value(QLatin1String("gpuModel")).toString();
    if (o.contains(QLatin1String("weight")))
        iv.weight = o.value(QLatin1String("weight")).toDouble();
    iv.endEstimated = o.value(QLatin1String("endEstimated")).toBool();
    if (o.contains(QLatin1String("seen")))
        iv.seen = o.value(QLatin1String("seen")).toInteger();
    return SpoolEntry{iv, o.value(QLatin1String("op")).toString() == QLatin1String("close")};
}

std::vector<SpoolEntry> IntervalSpool::decodeLine(const QByteArray &line, qint64 &skipped) {
    std::vector<SpoolEntry> out;
    qsizetype frame = line.indexOf(kFrameMagic);
    // Before the first frame: an old spool's JSON line, or the torn rest of something.
    const QByteArray before = frame < 0 ? line : line.left(frame);
    if (!before.isEmpty())
        if (auto entry = decodeLegacy(before, skipped))
            out.push_back(*entry);
    while (frame >= 0) {
        // A whole frame is taken whole (its JSON may even contain the magic); a torn
        // one is skipped up to the next frame that begins after its magic.
        const auto body = unframe(line, frame);
        const std::optional<SpoolEntry> entry =
            body ? decode(line.mid(frame, body->second - frame)) : std::nullopt;
        if (!entry) {
            ++skipped;
            frame = line.indexOf(kFrameMagic, frame + 1);
            continue;
        }
        out.push_back(*entry);
        const qsizetype end = body->second;
        frame = end < line.size() ? line.indexOf(kFrameMagic, end) : -1;
        if (end < line.size() && frame != end)
            ++skipped; // bytes after a whole frame that are not a frame
    }
    return out;
}

Result<void> IntervalSpool::append(const SpoolEntry &entry) {
    if (!QDir().mkpath(m_dir))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the spool directory %1").arg(m_dir),
                           QStringLiteral("spool"));
    QFile f(filePath());
    const bool created = !f.exists();
    if (!f.open(QIODevice::ReadWrite | QIODevice::Append))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot open %1: %2").arg(f.fileName(), f.errorString()),
                           QStringLiteral("spool"));
    QByteArray line = encode(entry);
    const qint64 before = f.size();
    // A torn last entry (a write cut short) gets its line ended first, so it cannot
    // take this whole entry down with it.
    if (before > 0 && f.seek(before - 1) && f.peek(1) != "\n")
        line.prepend('\n');
    if (f.write(line) != line.size() || !platform::syncFile(f)) {
        const QString why = f.errorString();
        // A full disk may have taken part of the line: cut it off, so the next entry
        // starts where this one did.
        f.close();
        (void)QFile::resize(f.fileName(), before);
        return Error::make(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(f.fileName(), why),
                           QStringLiteral("spool"));
    }
    if (created)
        if (auto r = platform::syncDirectory(m_dir); !r)
            return r;
    ++m_depth;
    return {};
}

Result<std::vector<SpoolEntry>> IntervalSpool::readAll(qint64 *skipped) const {
    std::vector<SpoolEntry> out;
    QFile f(filePath());
    if (!f.exists())
        return out;
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()),
                           QStringLiteral("spool"));
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines.at(i).isEmpty())
            continue;
        qint64 bad = 0;
        for (SpoolEntry &entry : decodeLine(lines.at(i), bad))
            out.push_back(std::move(entry));
        if (bad > 0 && skipped) {
            *skipped += bad;
            qCWarning(lcSpool).nospace()
                << "spool " << f.fileName() << " line " << i + 1 << ": " << bad << " torn or unreadable entr"
                << (bad == 1 ? "y" : "ies") << " skipped";
        }
    }
    return out;
}

Result<void> IntervalSpool::clear() {
    QFile f(filePath());
    if (!f.exists()) {
        m_depth = 0;
        return {};
    }
    if (!f.remove())
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot remove %1: %2").arg(f.fileName(), f.errorString()),
                           QStringLiteral("spool"));
    m_depth = 0;
    return platform::syncDirectory(m_dir);
}

bool IntervalSpool::writable() const {
    if (!QDir().mkpath(m_dir))
        return false;
    QFile f(filePath());
    return f.open(QIODevice::WriteOnly | QIODevice::Append);
}

} // namespace gq
