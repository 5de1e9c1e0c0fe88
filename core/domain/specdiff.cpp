#include "core/domain/specdiff.h"

namespace gq {

namespace {

SpecChange change(SpecChange::Kind kind, QString path, QString oldValue, QString newValue) {
    SpecChange c;
    c.kind = kind;
    c.path = std::move(path);
    c.oldValue = std::move(oldValue);
    c.newValue = std::move(newValue);
    return c;
}

void diffString(QList<SpecChange> &out, const QString &path, const QString &before, const QString &after) {
    if (before == after)
        return;
    const auto kind = before.isEmpty()  ? SpecChange::Kind::Added
                      : after.isEmpty() ? SpecChange::Kind::Removed
                                        : SpecChange::Kind::Changed;
    out << change(kind, path, before, after);
}

void diffStringMap(QList<SpecChange> &out, const QString &path, const QMap<QString, QString> &before,
                   const QMap<QString, QString> &after) {
    for (auto it = after.constBegin(); it != after.constEnd(); ++it) {
        const QString p = path + u'[' + it.key() + u']';
        const auto old = before.constFind(it.key());
        if (old == before.constEnd())
            out << change(SpecChange::Kind::Added, p, {}, it.value());
        else if (*old != it.value())
            out << change(SpecChange::Kind::Changed, p, *old, it.value());
    }
    for (auto it = before.constBegin(); it != before.constEnd(); ++it) {
        if (!after.contains(it.key()))
            out << change(SpecChange::Kind::Removed, path + u'[' + it.key() + u']', it.value(), {});
    }
}

void diffResources(QList<SpecChange> &out, const QString &path, const ResourceList &before,
                   const ResourceList &after) {
    for (const ResourceList::Entry &e : after) {
        const Quantity *old = before.find(e.name);
        if (old && *old == e.quantity)
            continue;
        SpecChange c =
            change(old ? SpecChange::Kind::Changed : SpecChange::Kind::Added, path + u'[' + e.name + u']',
                   old ? old->toString() : QString(), e.quantity.toString());
        c.resource = e.name;
        if (old)
            c.oldQuantity = *old;
        c.newQuantity = e.quantity;
        out << c;
    }
    for (const ResourceList::Entry &e : before) {
        if (after.contains(e.name))
            continue;
        SpecChange c =
            change(SpecChange::Kind::Removed, path + u'[' + e.name + u']', e.quantity.toString(), {});
        c.resource = e.name;
        c.oldQuantity = e.quantity;
        out << c;
    }
}

QString listText(const QStringList &values) {
    return values.isEmpty() ? QString() : u'[' + values.join(QStringLiteral(", ")) + u']';
}

QString selectorText(const QuotaSpec &q) {
    if (!q.hasScopeSelector)
        return {};
    QStringList parts;
    for (const ScopedResourceSelectorRequirement &r : q.scopeSelector) {
        QString s = r.scopeName + u' ' + r.op;
        if (!r.values.isEmpty())
            s += u' ' + listText(r.values);
        parts << s;
    }
    return parts.isEmpty() ? QStringLiteral("{}") : parts.join(QStringLiteral("; "));
}

void diffMeta(QList<SpecChange> &out, const ObjectMeta &before, const ObjectMeta &after) {
    diffString(out, QStringLiteral("metadata.name"), before.name, after.name);
    diffString(out, QStringLiteral("metadata.generateName"), before.generateName, after.generateName);
    diffString(out, QStringLiteral("metadata.namespace"), before.namespaceName, after.namespaceName);
    diffStringMap(out, QStringLiteral("metadata.labels"), before.labels, after.labels);
    diffStringMap(out, QStringLiteral("metadata.annotations"), before.annotations, after.annotations);
}

QString resourcesText(const ResourceList &list) {
    QStringList parts;
    for (const ResourceList::Entry &e : list)
        parts << e.name + u'=' + e.quantity.toString();
    return u'{' + parts.join(QStringLiteral(", ")) + u'}';
}

QString itemText(const LimitRangeItem &item) {
    QStringList parts;
    parts << QStringLiteral("type=") + item.type;
    if (!item.max.isEmpty())
        parts << QStringLiteral("max=") + resourcesText(item.max);
    if (!item.min.isEmpty())
        parts << QStringLiteral("min=") + resourcesText(item.min);
    if (!item.defaultLimit.isEmpty())
        parts << QStringLiteral("default=") + resourcesText(item.defaultLimit);
    if (!item.defaultRequest.isEmpty())
        parts << QStringLiteral("defaultRequest=") + resourcesText(item.defaultRequest);
    if (!item.maxLimitRequestRatio.isEmpty())
        parts << QStringLiteral("maxLimitRequestRatio=") + resourcesText(item.maxLimitRequestRatio);
    return parts.join(u' ');
}

} // namespace

QString changeKindSymbol(SpecChange::Kind kind) {
    switch (kind) {
    case SpecChange::Kind::Added: return QStringLiteral("+");
    case SpecChange::Kind::Removed: return QStringLiteral("-");
    case SpecChange::Kind::Changed: return QStringLiteral("~");
    }
    return QStringLiteral("?");
}

QString SpecDiff::toText() const {
    QString out;
    for (const SpecChange &c : changes) {
        out += changeKindSymbol(c.kind) + u' ' + c.path + QStringLiteral(": ");
        switch (c.kind) {
        case SpecChange::Kind::Added: out += c.newValue; break;
        case SpecChange::Kind::Removed: out += c.oldValue; break;
        case SpecChange::Kind::Changed: out += c.oldValue + QStringLiteral(" -> ") + c.newValue; break;
        }
        out += u'\n';
    }
    return out;
}

SpecDiff diffQuota(const QuotaSpec &before, const QuotaSpec &after) {
    SpecDiff d;
    diffMeta(d.changes, before.meta, after.meta);
    diffResources(d.changes, QStringLiteral("spec.hard"), before.hard, after.hard);
    if (before.scopes != after.scopes)
        diffString(d.changes, QStringLiteral("spec.scopes"), listText(before.scopes), listText(after.scopes));
    diffString(d.changes, QStringLiteral("spec.scopeSelector"), selectorText(before), selectorText(after));
    return d;
}

SpecDiff diffLimitRange(const LimitRangeSpec &before, const LimitRangeSpec &after) {
    SpecDiff d;
    diffMeta(d.changes, before.meta, after.meta);
    const qsizetype common = std::min(before.limits.size(), after.limits.size());
    for (qsizetype i = 0; i < common; ++i) {
        const LimitRangeItem &a = before.limits[i];
        const LimitRangeItem &b = after.limits[i];
        const QString path = QStringLiteral("spec.limits[") + QString::number(i) + u']';
        diffString(d.changes, path + QStringLiteral(".type"), a.type, b.type);
        diffResources(d.changes, path + QStringLiteral(".max"), a.max, b.max);
        diffResources(d.changes, path + QStringLiteral(".min"), a.min, b.min);
        diffResources(d.changes, path + QStringLiteral(".default"), a.defaultLimit, b.defaultLimit);
        diffResources(d.changes, path + QStringLiteral(".defaultRequest"), a.defaultRequest,
                      b.defaultRequest);
        diffResources(d.changes, path + QStringLiteral(".maxLimitRequestRatio"), a.maxLimitRequestRatio,
                      b.maxLimitRequestRatio);
    }
    for (qsizetype i = common; i < after.limits.size(); ++i)
        d.changes << change(SpecChange::Kind::Added,
                            QStringLiteral("spec.limits[") + QString::number(i) + u']', {},
                            itemText(after.limits[i]));
    for (qsizetype i = common; i < before.limits.size(); ++i)
        d.changes << change(SpecChange::Kind::Removed,
                            QStringLiteral("spec.limits[") + QString::number(i) + u']',
                            itemText(before.limits[i]), {});
    return d;
}

} // namespace gq
