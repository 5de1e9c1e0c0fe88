#include "core/domain/specformat.h"

#include "core/domain/quantity.h"
#include "core/domain/yamldoc.h"

#include <QSet>

namespace gq {

namespace {

// The form fmt writes. apimachinery prints a binary-SI value that is no multiple of 1024
// as a plain integer, which reads back as decimal SI and then prints differently
// (62.5Ki -> 64000 -> 64k, same value). Writing the second form keeps fmt idempotent;
// that form is a fixed point (tst_quantity::binaryFractionFlipsOnceLikeUpstream).
QString settledForm(const Quantity &q) {
    const QString first = q.toString();
    const auto again = Quantity::parse(first);
    return again ? again->toString() : first;
}

struct Collector {
    const QByteArray &text;
    QList<TextEdit> edits;
    QSet<int> offsets; // an aliased scalar is visited once per alias
    int changed = 0;
    int skipped = 0;

    void resourceMap(const YamlNode *map) {
        if (!map || !map->isMap())
            return;
        for (const YamlNode::Entry &e : map->entries()) {
            if (!e.value.isScalar())
                continue;
            auto q = Quantity::parse(e.value.text());
            if (!q)
                continue;
            const QString canonical = settledForm(*q);
            if (canonical == e.value.text())
                continue;
            TextEdit edit;
            if (!scalarEdit(text, e.value, canonical, &edit)) {
                ++skipped;
                continue;
            }
            if (offsets.contains(edit.offset))
                continue;
            offsets.insert(edit.offset);
            edits << edit;
            ++changed;
        }
    }
};

} // namespace

Result<FormatResult> formatQuantities(const QByteArray &yaml) {
    auto doc = loadYaml(yaml);
    if (!doc)
        return doc.error();
    Collector c{yaml, {}, {}, 0, 0};
    for (const YamlObject &obj : doc->objects) {
        const QString kind = obj.kind();
        const YamlNode &root = obj.root;
        if (!root.isMap())
            continue;
        if (kind == u"ResourceQuota") {
            if (const YamlNode *spec = root.find(u"spec"))
                c.resourceMap(spec->find(u"hard"));
            if (const YamlNode *status = root.find(u"status")) {
                c.resourceMap(status->find(u"hard"));
                c.resourceMap(status->find(u"used"));
            }
        } else if (kind == u"LimitRange") {
            const YamlNode *spec = root.find(u"spec");
            const YamlNode *limits = spec ? spec->find(u"limits") : nullptr;
            if (!limits || !limits->isSequence())
                continue;
            for (const YamlNode &item : limits->items()) {
                for (const char16_t *key :
                     {u"max", u"min", u"default", u"defaultRequest", u"maxLimitRequestRatio"})
                    c.resourceMap(item.find(QStringView(key)));
            }
        }
    }
    auto text = applyTextEdits(yaml, c.edits);
    if (!text)
        return text.error();
    return FormatResult{*text, c.changed, c.skipped};
}

} // namespace gq
