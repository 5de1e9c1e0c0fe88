#include "core/alerts/alertrecipients.h"

#include "core/domain/yamldoc.h"

#include <QFile>
#include <QRegularExpression>

#include <algorithm>

namespace gq {

bool AlertRecipients::isAddress(const QString &text) {
    static const QRegularExpression re(QStringLiteral("^[^\\s<>@,;\"]+@[^\\s<>@,;\"]+\\.[^\\s<>@,;\"]+$"));
    return re.match(text).hasMatch();
}

namespace {

void addTo(QHash<QString, QStringList> &map, const QString &key, const QString &email) {
    QStringList &list = map[key];
    if (!list.contains(email))
        list << email;
}

Error at(const YamlNode &node, const QString &field, const QString &message) {
    return errorAt(Error::make(Error::Kind::Invalid, message, field), node.pos());
}

// A scalar address or a sequence of them.
Result<QStringList> addresses(const YamlNode &node, const QString &field) {
    QList<const YamlNode *> items;
    if (node.isScalar())
        items << &node;
    else if (node.isSequence())
        for (const YamlNode &i : node.items())
            items << &i;
    else
        return at(node, field, QStringLiteral("expected an email address or a list of them"));
    QStringList out;
    for (const YamlNode *i : items) {
        if (!i->isScalar() || !AlertRecipients::isAddress(i->text().trimmed()))
            return at(
                *i, field,
                QStringLiteral("'%1' is not an email address (name@example.org)").arg(elided(i->text())));
        out << i->text().trimmed();
    }
    return out;
}

} // namespace

void AlertRecipients::addUser(const QString &user, const QString &email) {
    if (isAddress(email))
        addTo(m_users, user, email);
}

void AlertRecipients::addNamespace(const QString &ns, const QString &email) {
    if (isAddress(email))
        addTo(m_namespaces, ns, email);
}

void AlertRecipients::addAdmin(const QString &email) {
    if (isAddress(email) && !m_admins.contains(email))
        m_admins << email;
}

void AlertRecipients::setNamespaceAnnotation(const QString &ns, const QString &value) {
    m_annotated.remove(ns);
    static const QRegularExpression sep(QStringLiteral("[,;\\s]+"));
    for (const QString &part : value.split(sep, Qt::SkipEmptyParts))
        if (isAddress(part))
            addTo(m_annotated, ns, part);
}

QStringList AlertRecipients::forUser(const QString &user) const {
    if (user.isEmpty())
        return {};
    QStringList out = m_users.value(user);
    if (out.isEmpty() && !m_userDomain.isEmpty() && isAddress(user + QLatin1Char('@') + m_userDomain))
        out << user + QLatin1Char('@') + m_userDomain;
    return out;
}

QStringList AlertRecipients::forNamespace(const QString &ns) const {
    if (ns.isEmpty())
        return {};
    QStringList out = m_namespaces.value(ns);
    for (const QString &e : m_annotated.value(ns))
        if (!out.contains(e))
            out << e;
    return out;
}

QStringList AlertRecipients::forAlert(const Alert &a) const {
    QStringList out = forUser(a.user) + forNamespace(a.ns);
    if (a.kind == Alert::Kind::DatabaseUnwritable || a.kind == Alert::Kind::ClampApplied ||
        a.kind == Alert::Kind::ClampLifted || a.kind == Alert::Kind::WebhookNotCalled)
        out += m_admins;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

Result<AlertRecipients> AlertRecipients::fromYaml(const QByteArray &text) {
    auto root = parseYamlNode(text);
    if (!root)
        return root.error();
    AlertRecipients r;
    if (root->isNull())
        return r;
    if (!root->isMap())
        return at(*root, QString(), QStringLiteral("expected a map with users, namespaces and admins"));
    for (const YamlNode::Entry &e : root->entries()) {
        if (e.key == QLatin1String("admins")) {
            auto list = addresses(e.value, e.key);
            if (!list)
                return list.error();
            for (const QString &a : *list)
                r.addAdmin(a);
            continue;
        }
        const bool users = e.key == QLatin1String("users");
        if (!users && e.key != QLatin1String("namespaces")) {
            Error err =
                at(e.value, e.key, QStringLiteral("unknown key (expected users, namespaces, admins)"));
            err.line = e.keyPos.line;
            return err;
        }
        if (!e.value.isMap() && !e.value.isNull())
            return at(e.value, e.key, QStringLiteral("expected a map of names to email addresses"));
        if (e.value.isNull())
            continue;
        for (const YamlNode::Entry &m : e.value.entries()) {
            auto list = addresses(m.value, e.key + QLatin1Char('.') + m.key);
            if (!list)
                return list.error();
            for (const QString &a : *list)
                users ? r.addUser(m.key, a) : r.addNamespace(m.key, a);
        }
    }
    return r;
}

Result<AlertRecipients> AlertRecipients::loadFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot read %1 (%2)").arg(path, f.errorString()));
    auto r = fromYaml(f.read(16 * 1024 * 1024));
    if (!r) {
        Error e = r.error();
        e.message = QStringLiteral("%1: %2").arg(path, e.message);
        return e;
    }
    return r;
}

} // namespace gq
