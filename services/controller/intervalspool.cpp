#include "intervalspool.h"

#include "platform.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq {

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
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<SpoolEntry> IntervalSpool::decode(const QByteArray &line) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
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
    return SpoolEntry{iv, o.value(QLatin1String("op")).toString() == QLatin1String("close")};
}

Result<void> IntervalSpool::append(const SpoolEntry &entry) {
    if (!QDir().mkpath(m_dir))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create the spool directory %1").arg(m_dir),
                           QStringLiteral("spool"));
    QFile f(filePath());
    const bool created = !f.exists();
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot open %1: %2").arg(f.fileName(), f.errorString()),
                           QStringLiteral("spool"));
    const QByteArray line = encode(entry);
    const qint64 before = f.size();
    if (f.write(line) != line.size() || !platform::syncFile(f)) {
        const QString why = f.errorString();
        // A full disk may have taken part of the line: cut it off, so the next entry
        // starts on a line of its own.
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

Result<std::vector<SpoolEntry>> IntervalSpool::readAll() const {
    std::vector<SpoolEntry> out;
    QFile f(filePath());
    if (!f.exists())
        return out;
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()),
                           QStringLiteral("spool"));
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.isEmpty())
            continue;
        if (auto entry = decode(line))
            out.push_back(*entry);
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
