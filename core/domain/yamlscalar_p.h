#pragma once

// How a plain scalar reads in the YAML 1.2 core schema, and which strings must be
// quoted to read back as strings. Shared by YamlNode's typing (resolvesAsString),
// its JSON conversion and the emitter, so all three agree. Not public API.

#include <QString>
#include <QStringView>

namespace gq::detail {

bool isYamlNull(const QString &t);
bool isYamlBool(const QString &t, bool *value);
bool isYaml11Bool(const QString &t);
bool isYamlInt(QStringView t);
bool isYamlFloat(QStringView t);

// A string that plain would read as a null, boolean (1.2 or 1.1) or number.
bool needsQuotes(const QString &t);
bool hasControlChars(const QString &t);
bool startsLikeDocumentMarker(const QString &t);
bool startsLikeNumber(const QString &t);

} // namespace gq::detail
