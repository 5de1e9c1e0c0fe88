#include "core/alerts/alertconfig.h"

#include <algorithm>

#include "core/usage/timewindow.h"
#include "core/domain/yamldoc.h"

#include <QSet>
#include <QUrl>

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

    // `key` of `map` (at `path`), when it is there, read by `read` into `out`; a value
    // that does not read is a problem and leaves `out` as it was.
    template <typename T>
    void optional(const YamlNode &map, const QString &path, const char *key, T &out,
                  std::optional<T> (Reader::*read)(const YamlNode &, const QString &)) {
        const QString k = QLatin1String(key);
        if (const YamlNode *v = map.find(k))
            if (auto value = (this->*read)(*v, path + QLatin1Char('.') + k))
                out = *value;
    }

    // A secret is read from a file or from the environment, not both.
    void notBoth(const YamlNode &map, const QString &path, const char *fileKey, const QString &file,
                 const char *envKey, const QString &env) {
        if (file.isEmpty() || env.isEmpty())
            return;
        const QString k = QLatin1String(envKey);
        fail(*map.find(k), path + QLatin1Char('.') + k,
             QStringLiteral("give %1 or %2, not both").arg(QLatin1String(fileKey), k));
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
        for (const QString &s : schemes) {
            if (!t->startsWith(s + QStringLiteral("://")) || t->size() <= s.size() + 3)
                continue;
            // As for `database:`: a password here ends up in ConfigMaps, diffs and logs.
            if (!QUrl(*t).password().isEmpty()) {
                fail(
                    node, field,
                    QStringLiteral("a password in the URL is not accepted (it would end up in the "
                                   "ConfigMap, diffs and logs); use passwordFile / passwordEnv (secretFile / "
                                   "secretEnv for a webhook)"));
                return std::nullopt;
            }
            return t;
        }
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
    r.optional(n, p, "starttls", c.smtp.requireTls, &Reader::boolean);
    r.optional(n, p, "user", c.smtp.user, &Reader::text);
    r.optional(n, p, "passwordFile", c.smtp.passwordFile, &Reader::text);
    r.optional(n, p, "passwordEnv", c.smtp.passwordEnv, &Reader::text);
    r.notBoth(n, p, "passwordFile", c.smtp.passwordFile, "passwordEnv", c.smtp.passwordEnv);
    if (!c.smtp.user.isEmpty() && c.smtp.passwordFile.isEmpty() && c.smtp.passwordEnv.isEmpty())
        r.fail(*n.find(u"user"), p + QStringLiteral(".user"),
               QStringLiteral("a user needs passwordFile or passwordEnv (a password is never written here)"));
}

void readWebhook(Reader &r, const YamlNode &n, AlertConfig &c) {
    const QString p = QStringLiteral("alerts.webhook");
    if (!r.map(n, p))
        return;
    r.keys(n, p,
           {QStringLiteral("url"), QStringLiteral("secretFile"), QStringLiteral("secretEnv"),
            QStringLiteral("timeout")});
    if (const YamlNode *v = n.find(u"url")) {
        if (auto u = r.url(*v, p + QStringLiteral(".url"), {QStringLiteral("https"), QStringLiteral("http")}))
            c.webhook.url = *u;
    } else {
        r.fail(n, p + QStringLiteral(".url"), QStringLiteral("missing: where to POST"));
    }
    r.optional(n, p, "secretFile", c.webhook.secretFile, &Reader::text);
    r.optional(n, p, "secretEnv", c.webhook.secretEnv, &Reader::text);
    r.notBoth(n, p, "secretFile", c.webhook.secretFile, "secretEnv", c.webhook.secretEnv);
    qint64 timeout = c.webhook.timeoutMs / 1000;
    r.optional(n, p, "timeout", timeout, &Reader::duration);
    if (const YamlNode *v = n.find(u"timeout"); v && (timeout < 1 || timeout > 300))
        r.fail(*v, p + QStringLiteral(".timeout"), QStringLiteral("must be between 1s and 300s"));
    c.webhook.timeoutMs = int(std::clamp<qint64>(timeout, 1, 300) * 1000);
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
    r.optional(n, p, "enabled", c.enabled, &Reader::boolean);
    if (const YamlNode *v = n.find(u"language"))
        if (auto t = r.text(*v, field("language"))) {
            if (*t == QLatin1String("en") || *t == QLatin1String("zh_CN"))
                c.language = *t;
            else
                r.fail(*v, field("language"),
                       QStringLiteral("expected en or zh_CN, not '%1'").arg(elided(*t)));
        }
    r.optional(n, p, "thresholds", c.rules.thresholds, &Reader::percents);
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
    r.optional(n, p, "boostLeadTime", c.rules.boostLeadSeconds, &Reader::duration);
    r.optional(n, p, "databaseDownAfter", c.rules.databaseDownSeconds, &Reader::duration);
    r.optional(n, p, "idleAfter", c.rules.idleHoldSeconds, &Reader::duration);
    r.optional(n, p, "recipientsFile", c.recipientsFile, &Reader::text);
    r.optional(n, p, "userEmailDomain", c.userEmailDomain, &Reader::text);
    r.optional(n, p, "userEmailAnnotation", c.userEmailAnnotation, &Reader::text);
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
        r.optional(*v, field("retry"), "initial", c.retryInitialSeconds, &Reader::duration);
        r.optional(*v, field("retry"), "max", c.retryMaxSeconds, &Reader::duration);
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
