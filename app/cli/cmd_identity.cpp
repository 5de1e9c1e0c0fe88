// `gpuquota identity map USERNAME...`: what the controller makes of a Kubernetes
// username (the budget user or namespace self-service shows as "your own"), with the
// same function and the same `identity:` section of the controller's configuration
// (core/usage/identitymapping.h), so an admin can try a mapping before deploying it.
#include "core/usage/identitymapping.h"
#include "app/cli/usageverbs.h"
#include "core/domain/yamldoc.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gq::cli {
namespace {

using namespace usageverbs;

const char *const kIdentityHelp =
    "Usage:\n"
    "  gpuquota identity map USERNAME... [--config FILE] [-o table|json]\n"
    "\n"
    "Prints the budget user (or, for a ServiceAccount, the namespace) each Kubernetes username maps\n"
    "to, and the rule that produced it: \"alice@example.com -> alice (e-mail local part)\". --config\n"
    "reads the identity: section of the controller's configuration file (without it, or without the\n"
    "section: the defaults: e-mail local part, prefix oidc:, https://ISSUER# removed, a ServiceAccount\n"
    "counts for its namespace). Exit 0, 1 when a name cannot be mapped, 2 on bad usage or a\n"
    "configuration error.\n";

// The identity: section of the controller configuration `path`; an error names the
// file, line and key.
Result<IdentityRules> rulesFrom(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error::make(Error::Kind::Usage,
                           QStringLiteral("--config: cannot read %1: %2").arg(path, f.errorString()),
                           QStringLiteral("--config"));
    auto root = parseYamlNode(f.readAll());
    if (!root)
        return Error::make(Error::Kind::Config, QStringLiteral("%1: %2").arg(path, root.error().toString()));
    const YamlNode *section = root->isMap() ? root->find(u"identity") : nullptr;
    if (!section)
        return IdentityRules{};
    QList<Error> errors;
    IdentityRules rules = parseIdentityRules(*section, &errors);
    if (errors.isEmpty())
        return rules;
    QStringList lines;
    for (const Error &e : std::as_const(errors))
        lines.append(QStringLiteral("%1:%2:%3: %4").arg(path).arg(e.line).arg(e.column).arg(e.toString()));
    return Error::make(Error::Kind::Config, lines.join(QLatin1Char('\n')));
}

int runIdentity(const QStringList &argv) {
    const Args a = parseArgs(argv, {QStringLiteral("config"), QStringLiteral("output")});
    if (!a.error.isEmpty())
        return fail(a.error, UsageError);
    if (a.positional.value(0) != QLatin1String("map"))
        return fail(QStringLiteral("unknown or missing subcommand (identity map USERNAME...)"), UsageError);
    const QStringList names = a.positional.mid(1);
    if (names.isEmpty())
        return fail(QStringLiteral("identity map needs at least one USERNAME"), UsageError);
    const QString format = a.value(QStringLiteral("output"), QStringLiteral("table"));
    if (format != QLatin1String("table") && format != QLatin1String("json"))
        return fail(QStringLiteral("-o must be table or json, got '%1'").arg(format), UsageError);
    IdentityRules rules;
    if (a.has(QStringLiteral("config"))) {
        auto read = rulesFrom(a.value(QStringLiteral("config")));
        if (!read)
            return fail(read.error().message, UsageError);
        rules = *read;
    }
    QJsonArray json;
    bool allMapped = true;
    for (const QString &name : names) {
        const auto m = mapIdentity(name, rules);
        allMapped = allMapped && m.has_value();
        json.append(identityJson(name, m));
        if (format == QLatin1String("table"))
            (m ? out() : err()) << (m ? m->explanation : QStringLiteral("error: ") + m.error().message)
                                << '\n';
    }
    if (format == QLatin1String("json"))
        out() << QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
    return allMapped ? Ok : Failed;
}

} // namespace

GQ_REGISTER_VERB(
    QStringLiteral("identity"), QStringLiteral("identity map USERNAME... [--config FILE]"),
    QStringLiteral("which budget user a Kubernetes username is (the controller's identity: rules)"), 66,
    runIdentity, {}, QString::fromLatin1(kIdentityHelp));

} // namespace gq::cli
