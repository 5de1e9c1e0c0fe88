#pragma once

#include "core/domain/error.h"
#include "core/domain/yamldoc.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gq {

// Reads the sections of a YAML configuration file (the controller's, and the metrics
// and idle sections it shares with --check-config) and collects every problem with the
// key's dotted path and the node's line and column, so one pass reports them all.
class ConfigReader {
public:
    QList<Error> errors;

    void add(const QString &field, const SourcePos &pos, const QString &message);
    // Whether `node` is a map (if not: an error at its position, or at `fallback` for a
    // node that has none, e.g. an empty document); a key not in `known` is an error.
    bool map(const QString &field, const YamlNode &node, const QStringList &known,
             const SourcePos &fallback = {});
    [[nodiscard]] std::optional<QString> string(const QString &field, const YamlNode &node);
    [[nodiscard]] std::optional<bool> boolean(const QString &field, const YamlNode &node);
    // A number greater than 0 and at most `max` (a GPU weight of 1e308 cannot be meant).
    [[nodiscard]] std::optional<double> positive(const QString &field, const YamlNode &node,
                                                 double max = 1000);
    // A duration longer than 0 in seconds; `examples` go into the message ("10s or 1m").
    [[nodiscard]] std::optional<qint64> duration(const QString &field, const YamlNode &node,
                                                 const QString &examples);
    // A path, a relative one taken from the folder of `configFile`; an error (the path
    // is still returned) when it is not a readable file.
    [[nodiscard]] std::optional<QString> file(const QString &field, const YamlNode &node,
                                              const QString &configFile);

    // `path` relative to the folder of `configFile` unless absolute.
    [[nodiscard]] static QString resolvePath(const QString &path, const QString &configFile);
};

} // namespace gq
