#include "services/controller/configreader.h"

#include "core/usage/timewindow.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace gq {

namespace {

QString join(const QString &parent, const QString &key) {
    return parent.isEmpty() ? key : parent + QLatin1Char('.') + key;
}

} // namespace

void ConfigReader::add(const QString &field, const SourcePos &pos, const QString &message) {
    Error e = Error::make(Error::Kind::Config, message, field);
    e.line = pos.line;
    e.column = pos.column;
    errors.append(e);
}

bool ConfigReader::map(const QString &field, const YamlNode &node, const QStringList &known,
                       const SourcePos &fallback) {
    if (!node.isMap()) {
        add(field, node.pos().isValid() ? node.pos() : fallback, QStringLiteral("must be a map"));
        return false;
    }
    for (const YamlNode::Entry &e : node.entries())
        if (!known.contains(e.key))
            add(join(field, e.key), e.keyPos,
                QStringLiteral("unknown key (known here: %1)").arg(known.join(QStringLiteral(", "))));
    return true;
}

std::optional<QString> ConfigReader::string(const QString &field, const YamlNode &node) {
    if (!node.isScalar() || node.text().isEmpty()) {
        add(field, node.pos(), QStringLiteral("must be a non-empty string"));
        return std::nullopt;
    }
    return node.text();
}

std::optional<bool> ConfigReader::boolean(const QString &field, const YamlNode &node) {
    if (node.isScalar() && !node.isString()) {
        if (node.text() == QLatin1String("true"))
            return true;
        if (node.text() == QLatin1String("false"))
            return false;
    }
    add(field, node.pos(), QStringLiteral("must be true or false"));
    return std::nullopt;
}

std::optional<double> ConfigReader::positive(const QString &field, const YamlNode &node, double max) {
    bool ok = false;
    const double v = node.isScalar() ? node.text().toDouble(&ok) : 0;
    if (!ok || !std::isfinite(v) || v <= 0) {
        add(field, node.pos(),
            QStringLiteral("must be a number greater than 0 (got \"%1\")").arg(elided(node.text())));
        return std::nullopt;
    }
    if (v > max) {
        add(field, node.pos(),
            QStringLiteral("must be at most %1 (got \"%2\")").arg(max).arg(elided(node.text())));
        return std::nullopt;
    }
    return v;
}

std::optional<qint64> ConfigReader::duration(const QString &field, const YamlNode &node,
                                             const QString &examples) {
    const auto d = node.isScalar() ? parseDuration(node.text(), field)
                                   : Result<qint64>(Error::make(Error::Kind::Config, QString()));
    if (!d || *d <= 0) {
        add(field, node.pos(),
            QStringLiteral("must be a duration longer than 0 such as %1 (got \"%2\")")
                .arg(examples, elided(node.text())));
        return std::nullopt;
    }
    return *d;
}

std::optional<QString> ConfigReader::file(const QString &field, const YamlNode &node,
                                          const QString &configFile) {
    const auto text = string(field, node);
    if (!text)
        return std::nullopt;
    const QString path = resolvePath(*text, configFile);
    const QFileInfo info(path);
    if (!info.isFile() || !info.isReadable())
        add(field, node.pos(), QStringLiteral("cannot read the file %1").arg(path));
    return path;
}

QString ConfigReader::resolvePath(const QString &path, const QString &configFile) {
    if (path.isEmpty() || QDir::isAbsolutePath(path) || configFile.isEmpty())
        return path;
    return QFileInfo(configFile).absoluteDir().filePath(path);
}

} // namespace gq
