#pragma once

// The properties every input must have when it goes through the YAML loader, the
// validator and `fmt`. Shared by the libFuzzer target (fuzz/fuzz_yaml.cpp, which
// aborts on a violation) and the regression replay (tests/core/tst_yamldoc.cpp,
// which reports it), so both check the same thing.
#include "core/domain/specformat.h"
#include "core/domain/validation.h"
#include "core/domain/yamldoc.h"

#include <QString>
#include <QStringBuilder>

namespace gq::fuzz {

// The path to the first difference between two trees, positions included, or an
// empty string when they are the same.
inline QString treeDifference(const YamlNode &a, const YamlNode &b,
                              const QString &path = QStringLiteral("$")) {
    if (a.type() != b.type())
        return path % u": type";
    if (!(a.pos() == b.pos()))
        return path % QStringLiteral(": position %1:%2@%3 vs %4:%5@%6")
                          .arg(a.pos().line)
                          .arg(a.pos().column)
                          .arg(a.pos().offset)
                          .arg(b.pos().line)
                          .arg(b.pos().column)
                          .arg(b.pos().offset);
    if (a.isScalar())
        return a.text() == b.text() && a.isString() == b.isString() ? QString() : path % u": scalar";
    if (a.size() != b.size())
        return path % u": size";
    for (std::size_t i = 0; i < a.items().size(); ++i) {
        if (QString d = treeDifference(a.items()[i], b.items()[i], path % u'[' % QString::number(i) % u']');
            !d.isEmpty())
            return d;
    }
    for (std::size_t i = 0; i < a.entries().size(); ++i) {
        const YamlNode::Entry &x = a.entries()[i];
        const YamlNode::Entry &y = b.entries()[i];
        if (x.key != y.key || !(x.keyPos == y.keyPos))
            return path % u'.' % x.key % u": key or its position";
        if (QString d = treeDifference(x.value, y.value, path % u'.' % x.key); !d.isEmpty())
            return d;
    }
    return {};
}

// The plain block reader beside yaml-cpp (yamlfastpath.cpp) must give exactly what
// yaml-cpp gives whenever it reads a text: the same documents, objects, positions.
inline QString checkFastPathAgrees(const QByteArray &input) {
    YamlLoadLimits slow;
    slow.plainFastPath = false;
    auto a = loadYaml(input);
    auto b = loadYaml(input, slow);
    if (a.has_value() != b.has_value())
        return a ? QStringLiteral("the plain reader accepts what yaml-cpp refuses: ") % b.error().message
                 : QStringLiteral("the plain reader refuses what yaml-cpp reads: ") % a.error().message;
    if (!a)
        return a.error().message == b.error().message && a.error().line == b.error().line
                   ? QString()
                   : QStringLiteral("the readers' errors differ: ") % a.error().message % u" | " %
                         b.error().message;
    if (a->documents.size() != b->documents.size() || a->objects.size() != b->objects.size())
        return QStringLiteral("the readers find different documents or objects");
    for (qsizetype i = 0; i < a->documents.size(); ++i) {
        if (QString d = treeDifference(a->documents[i], b->documents[i]); !d.isEmpty())
            return QStringLiteral("the readers' trees differ at ") % d;
    }
    for (qsizetype i = 0; i < a->objects.size(); ++i) {
        const YamlObject &x = a->objects[i];
        const YamlObject &y = b->objects[i];
        if (x.documentIndex != y.documentIndex || x.itemIndex != y.itemIndex ||
            x.impliedKind != y.impliedKind)
            return QStringLiteral("the readers' objects differ");
    }
    return {};
}

// Returns an empty string when the input behaves, otherwise what went wrong.
inline QString checkYamlProperties(const QByteArray &input) {
    if (QString d = checkFastPathAgrees(input); !d.isEmpty())
        return d;
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
