#include "alertconfig.h"

#include "timewindow.h"
#include "yamldoc.h"

#include <QSet>

namespace gq {

namespace {

// Collects every problem of the section, each with its key path and line.
class Reader {
public:
    QList<Error> problems;

    void fail(const YamlNode &node, const QString &field, const QString &message, int line = 0) {
        Error e = Error::make(Error::Kind::Invalid, message, field);
        e.line = line > 0 ? line : node.pos().line;
        e.column = node.pos().column;
        problems << e;
    }

    // Unknown keys are problems (a typo must not silently disable a setting).
    void keys(const YamlNode &map, const QString &path, const QSet<QString> &known) {
        for (const YamlNode::Entry &e : map.entries())
            if (!known.contains(e.key))
                fail(e.value, path + QLatin1Char('.') + e.key,
                     QStringLiteral("unknown key (known: %1)").arg(sorted(known)), e.keyPos.line);
    }

    bool map(const YamlNode &node, const QString &field) {
        if (node.isMap())
            return true;
        fail(node, field, QStringLiteral("expected a map"));
        return false;
    }

    std::optional<QString> text(const YamlNode &node, const QString &field) {
        if (node.isScalar())
            return node.text().trimmed();
        fail(node, field, QStringLiteral("expected a single value"));
        return std::nullopt;
    }

    std::optional<bool> boolean(const YamlNode &node, const QString &field) {
        const auto t = text(node, field);
        if (!t)
            return std::nullopt;
        if (*t == QLatin1String("true"))
            return true;
        if (*t == QLatin1String("false"))
            return false;
        fail(node, field, QStringLiteral("expected true or false, not '%1'").arg(elided(*t)));
        return std::nullopt;
    }

    std::optional<qint64> duration(const YamlNode &node, const QString &field) {
        const auto t = text(node, field);
        if (!t)
            return std::nullopt;
        auto d = parseDuration(*t, field);
        if (!d || *d <= 0) {
            fail(
                node, field,
                QStringLiteral("expected a positive duration like 10m, 1h or 90s, not '%1'").arg(elided(*t)));
            return std::nullopt;
        }
        return *d;
    }

    std::optional<int> integer(const YamlNode &node, const QString &field, int min, int max) {
        const auto t = text(node, field);
        if (!t)
            return std::nullopt;
        bool ok = false;
        const int v = t->toInt(&ok);
        if (!ok || v < min || v > max) {
            fail(node, field,
                 QStringLiteral("expected a whole number from %1 to %2, not '%3'")
                     .arg(min)
                     .arg(max)
                     .arg(elided(*t)));
            return std::nullopt;
        }
        return v;
    }

    std::optional<QList<int>> percents(const YamlNode &node, const QString &field) {
        if (!node.isSequence() || node.size() == 0) {
            fail(node, field, QStringLiteral("expected a list of percentages like [80, 100]"));
            return std::nullopt;
        }
        QList<int> out;
        for (size_t i = 0; i < node.items().size(); ++i)
            if (auto v = integer(node.items()[i], QStringLiteral("%1[%2]").arg(field).arg(i), 1, 1000))
                out << *v;
            else
                return std::nullopt;
        return out;
    }

    std::optional<QString> url(const YamlNode &node, const QString &field, const QStringList &schemes) {
        auto t = text(node, field);
        if (!t)
            return std::nullopt;
        for (const QString &s : schemes)
            if (t->startsWith(s + QStringLiteral("://")) && t->size() > s.size() + 3)
                return t;
        fail(node, field,
             QStringLiteral("expected a URL starting with %1://")
                 .arg(schemes.join(QStringLiteral(":// or "))));
        return std::nullopt;
    }

    std::optional<QString> address(const YamlNode &node, const QString &field) {
        auto t = text(node, field);
        if (t && !AlertRecipients::isAddress(*t)) {
            fail(node, field,
                 QStringLiteral("'%1' is not an email address (name@example.org)").arg(elided(*t)));
            return std::nullopt;
        }
        return t;
    }

private:
    static QString sorted(const QSet<QString> &set) {
        QStringList l(set.begin(), set.end());
        l.sort();
        return l.join(QStringLiteral(", "));
    }
};

void readEmail(Reader &r, const YamlNode &n, AlertConfig &c) {
    const QString p = QStringLiteral("alerts.email");
    if (!r.map(n, p))
        return;
    r.keys(n, p,
           {QStringLiteral("smtp"), QStringLiteral("from"), QStringLiteral("starttls"),
            QStringLiteral("user"), QStringLiteral("passwordFile"), QStringLiteral("passwordEnv")});
    if (const YamlNode *v = n.find(u"smtp")) {
        if (auto u =
                r.url(*v, p + QStringLiteral(".smtp"), {QStringLiteral("smtp"), QStringLiteral("smtps")}))
            c.smtp.url = *u;
    } else {
        r.fail(n, p + QStringLiteral(".smtp"), QStringLiteral("missing: the SMTP server (smtp://host:587)"));
    }
    if (const YamlNode *v = n.find(u"from")) {
        if (auto a = r.address(*v, p + QStringLiteral(".from")))
            c.smtp.from = *a;
    } else {
        r.fail(n, p + QStringLiteral(".from"), QStringLiteral("missing: the sender address"));
    }
    if (const YamlNode *v = n.find(u"starttls"))
        if (auto b = r.boolean(*v, p + QStringLiteral(".starttls")))
            c.smtp.requireTls = *b;
    if (const YamlNode *v = n.find(u"user"))
        if (auto t = r.text(*v, p + QStringLiteral(".user")))
            c.smtp.user = *t;
    if (const YamlNode *v = n.find(u"passwordFile"))
        if (auto t = r.text(*v, p + QStringLiteral(".passwordFile")))
            c.smtp.passwordFile = *t;
    if (const YamlNode *v = n.find(u"passwordEnv"))
        if (auto t = r.text(*v, p + QStringLiteral(".passwordEnv")))
            c.smtp.passwordEnv = *t;
    if (!c.smtp.passwordFile.isEmpty() && !c.smtp.passwordEnv.isEmpty())
        r.fail(*n.find(u"passwordEnv"), p + QStringLiteral(".passwordEnv"),
               QStringLiteral("give passwordFile or passwordEnv, not both"));
    if (!c.smtp.user.isEmpty() && c.smtp.passwordFile.isEmpty() && c.smtp.passwordEnv.isEmpty())
        r.fail(*n.find(u"user"), p + QStringLiteral(".user"),
               QStringLiteral("a user needs passwordFile or passwordEnv (a password is never written here)"));
}

void readWebhook(Reader &r, const YamlNode &n, AlertConfig &c) {
    const QString p = QStringLiteral("alerts.webhook");
    if (!r.map(n, p))
        return;
    r.keys(n, p, {QStringLiteral("url"), QStringLiteral("secretFile"), QStringLiteral("secretEnv")});
    if (const YamlNode *v = n.find(u"url")) {
        if (auto u = r.url(*v, p + QStringLiteral(".url"), {QStringLiteral("https"), QStringLiteral("http")}))
            c.webhook.url = *u;
    } else {
        r.fail(n, p + QStringLiteral(".url"), QStringLiteral("missing: where to POST"));
    }
    if (const YamlNode *v = n.find(u"secretFile"))
        if (auto t = r.text(*v, p + QStringLiteral(".secretFile")))
            c.webhook.secretFile = *t;
    if (const YamlNode *v = n.find(u"secretEnv"))
        if (auto t = r.text(*v, p + QStringLiteral(".secretEnv")))
            c.webhook.secretEnv = *t;
    if (!c.webhook.secretFile.isEmpty() && !c.webhook.secretEnv.isEmpty())
        r.fail(*n.find(u"secretEnv"), p + QStringLiteral(".secretEnv"),
               QStringLiteral("give secretFile or secretEnv, not both"));
}

void readTop(Reader &r, const YamlNode &n, AlertConfig &c) {
    const QString p = QStringLiteral("alerts");
    r.keys(n, p,
           {QStringLiteral("enabled"), QStringLiteral("language"), QStringLiteral("thresholds"),
            QStringLiteral("budgetThresholds"), QStringLiteral("boostLeadTime"),
            QStringLiteral("databaseDownAfter"), QStringLiteral("idleAfter"),
            QStringLiteral("recipientsFile"), QStringLiteral("userEmailDomain"),
            QStringLiteral("userEmailAnnotation"), QStringLiteral("admins"), QStringLiteral("email"),
            QStringLiteral("webhook"), QStringLiteral("retry")});
    const auto field = [&](const char *k) -> QString { return p + QLatin1Char('.') + QLatin1String(k); };
    if (const YamlNode *v = n.find(u"enabled"))
        if (auto b = r.boolean(*v, field("enabled")))
            c.enabled = *b;
    if (const YamlNode *v = n.find(u"language"))
        if (auto t = r.text(*v, field("language"))) {
            if (*t == QLatin1String("en") || *t == QLatin1String("zh_CN"))
                c.language = *t;
            else
                r.fail(*v, field("language"),
                       QStringLiteral("expected en or zh_CN, not '%1'").arg(elided(*t)));
        }
    if (const YamlNode *v = n.find(u"thresholds"))
        if (auto t = r.percents(*v, field("thresholds")))
            c.rules.thresholds = *t;
    if (const YamlNode *v = n.find(u"budgetThresholds"); v && r.map(*v, field("budgetThresholds")))
        for (const YamlNode::Entry &e : v->entries()) {
            const QString f = field("budgetThresholds") + QLatin1Char('.') + e.key;
            const QStringList parts = e.key.split(QLatin1Char('/'));
            const bool scopeOk =
                parts.value(0) == QLatin1String("user") || parts.value(0) == QLatin1String("namespace");
            const bool periodOk =
                parts.size() == 2 || (parts.size() == 3 && parsePeriod(parts[2]).has_value());
            if (!scopeOk || !periodOk || parts.value(1).isEmpty()) {
                r.fail(e.value, f,
                       QStringLiteral("expected a key user/NAME, namespace/NAME or scope/NAME/PERIOD"),
                       e.keyPos.line);
                continue;
            }
            if (auto t = r.percents(e.value, f))
                c.rules.budgetThresholds.insert(e.key, *t);
        }
    if (const YamlNode *v = n.find(u"boostLeadTime"))
        if (auto d = r.duration(*v, field("boostLeadTime")))
            c.rules.boostLeadSeconds = *d;
    if (const YamlNode *v = n.find(u"databaseDownAfter"))
        if (auto d = r.duration(*v, field("databaseDownAfter")))
            c.rules.databaseDownSeconds = *d;
    if (const YamlNode *v = n.find(u"idleAfter"))
        if (auto d = r.duration(*v, field("idleAfter")))
            c.rules.idleHoldSeconds = *d;
    if (const YamlNode *v = n.find(u"recipientsFile"))
        if (auto t = r.text(*v, field("recipientsFile")))
            c.recipientsFile = *t;
    if (const YamlNode *v = n.find(u"userEmailDomain"))
        if (auto t = r.text(*v, field("userEmailDomain")))
            c.userEmailDomain = *t;
    if (const YamlNode *v = n.find(u"userEmailAnnotation"))
        if (auto t = r.text(*v, field("userEmailAnnotation")))
            c.userEmailAnnotation = *t;
    if (const YamlNode *v = n.find(u"admins")) {
        if (!v->isSequence())
            r.fail(*v, field("admins"), QStringLiteral("expected a list of email addresses"));
        else
            for (size_t i = 0; i < v->items().size(); ++i)
                if (auto a = r.address(v->items()[i], QStringLiteral("alerts.admins[%1]").arg(i)))
                    c.admins << *a;
    }
    if (const YamlNode *v = n.find(u"email"))
        readEmail(r, *v, c);
    if (const YamlNode *v = n.find(u"webhook"))
        readWebhook(r, *v, c);
    if (const YamlNode *v = n.find(u"retry"); v && r.map(*v, field("retry"))) {
        r.keys(*v, field("retry"),
               {QStringLiteral("maxAttempts"), QStringLiteral("initial"), QStringLiteral("max")});
        if (const YamlNode *m = v->find(u"maxAttempts"))
            if (auto i = r.integer(*m, QStringLiteral("alerts.retry.maxAttempts"), 1, 100))
                c.maxAttempts = *i;
        if (const YamlNode *m = v->find(u"initial"))
            if (auto d = r.duration(*m, QStringLiteral("alerts.retry.initial")))
                c.retryInitialSeconds = *d;
        if (const YamlNode *m = v->find(u"max"))
            if (auto d = r.duration(*m, QStringLiteral("alerts.retry.max")))
                c.retryMaxSeconds = *d;
    }
    if (c.enabled && !c.smtp.enabled() && !c.webhook.enabled() && r.problems.isEmpty())
        r.fail(n, p, QStringLiteral("alerts are enabled but neither email nor webhook is configured"));
}

// Every problem of the section, each with its field and position; c is complete when
// there is none.
QList<Error> readAlerts(const YamlNode &alerts, AlertConfig &c) {
    if (alerts.isNull())
        return {};
    Reader r;
    if (r.map(alerts, QStringLiteral("alerts")))
        readTop(r, alerts, c);
    return r.problems;
}

} // namespace

QList<Error> alertConfigProblems(const YamlNode &alerts) {
    AlertConfig c;
    return readAlerts(alerts, c);
}

Result<AlertConfig> parseAlertConfig(const YamlNode &alerts) {
    AlertConfig c;
    const QList<Error> problems = readAlerts(alerts, c);
    if (problems.isEmpty())
        return c;
    if (!alerts.isMap())
        return problems.first(); // not a map: nothing else was read
    Error first = problems.first();
    for (const Error &p : problems)
        first.causes.append({p.field, QStringLiteral("line %1: %2").arg(p.line).arg(p.message), QString()});
    return first;
}

Result<AlertConfig> parseAlertConfig(const QByteArray &yaml) {
    auto root = parseYamlNode(yaml);
    if (!root)
        return root.error();
    if (const YamlNode *section = root->find(u"alerts"))
        return parseAlertConfig(*section);
    return AlertConfig{};
}

} // namespace gq
