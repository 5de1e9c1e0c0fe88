#pragma once

// The properties every input must have when it goes through the YAML loader, the
// validator and `fmt`. Shared by the libFuzzer target (fuzz/fuzz_yaml.cpp, which
// aborts on a violation) and the regression replay (tests/core/tst_yamldoc.cpp,
// which reports it), so both check the same thing.
#include "core/specformat.h"
#include "core/validation.h"
#include "core/yamldoc.h"

#include <QString>
#include <QStringBuilder>

namespace gq::fuzz {

// Returns an empty string when the input behaves, otherwise what went wrong.
inline QString checkYamlProperties(const QByteArray &input) {
    auto doc = loadYaml(input);
    if (!doc) {
        const Error &e = doc.error();
        if (e.message.isEmpty())
            return QStringLiteral("load error without a message");
        if (e.line < 0 || e.column < 0)
            return QStringLiteral("negative error position");
        return {};
    }
    for (const YamlObject &o : doc->objects) {
        for (const Error &e : validateObject(o)) {
            if (e.message.isEmpty())
                return QStringLiteral("validation error without a message");
            if (e.line < 0 || e.column < 0)
                return QStringLiteral("negative validation error position");
        }
    }

    // Emitting a document and reading it back gives the same tree.
    for (const YamlNode &d : doc->documents) {
        const QByteArray emitted = emitYaml(d);
        auto back = parseYamlNode(emitted);
        if (!back)
            return QStringLiteral("emitted YAML does not parse: ") % back.error().message % u"\n" %
                   QString::fromUtf8(emitted);
        if (!(*back == d))
            return QStringLiteral("emitted YAML reads back differently:\n") % QString::fromUtf8(emitted);
    }

    // fmt succeeds on anything that loads, keeps the objects, and is idempotent.
    auto formatted = formatQuantities(input);
    if (!formatted)
        return QStringLiteral("fmt failed on loadable input: ") % formatted.error().message;
    auto reloaded = loadYaml(formatted->text);
    if (!reloaded)
        return QStringLiteral("fmt output does not load: ") % reloaded.error().message;
    if (reloaded->objects.size() != doc->objects.size())
        return QStringLiteral("fmt changed the number of objects");
    auto twice = formatQuantities(formatted->text);
    if (!twice || twice->text != formatted->text || twice->changed != 0)
        return QStringLiteral("fmt is not idempotent");
    return {};
}

} // namespace gq::fuzz
