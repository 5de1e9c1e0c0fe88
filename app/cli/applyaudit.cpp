#include "applyaudit.h"

#include "auditlog.h"
#include "dburl.h"
#include "platform.h"
#include "settingsdefaults.h"
#include "usagestore.h"
#include "yamldoc.h"

namespace gq::cli {

namespace {

// The part of an object an admin changes: spec (or, for a Namespace, its labels and
// annotations minus the last-applied record) as YAML.
QString auditText(const QJsonObject &object) {
    if (object.isEmpty())
        return {};
    QJsonObject shown;
    if (object.contains(QLatin1String("spec"))) {
        shown.insert(QStringLiteral("spec"), object.value(QLatin1String("spec")));
    } else {
        const QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
        QJsonObject annotations = meta.value(QLatin1String("annotations")).toObject();
        annotations.remove(QStringLiteral("kubectl.kubernetes.io/last-applied-configuration"));
        QJsonObject m;
        if (meta.contains(QLatin1String("labels")))
            m.insert(QStringLiteral("labels"), meta.value(QLatin1String("labels")));
        if (!annotations.isEmpty())
            m.insert(QStringLiteral("annotations"), annotations);
        shown.insert(QStringLiteral("metadata"), m);
    }
    return QString::fromUtf8(emitYaml(YamlNode::fromJson(shown)));
}

QString displayUrl(const QString &url) {
    auto parsed = DbUrl::parse(url);
    return parsed ? parsed->display() : QStringLiteral("the database");
}

} // namespace

ApplyAudit::~ApplyAudit() = default;

Result<std::unique_ptr<ApplyAudit>> ApplyAudit::open(const QString &dbUrl, const QString &kubeconfig,
                                                     const QString &context) {
    std::unique_ptr<ApplyAudit> audit(new ApplyAudit);
    QString url = dbUrl;
    QString from = QStringLiteral("--db");
    if (url.isEmpty()) {
        const SettingsDefaults d = settingsDefaults(kubeconfig, context);
        url = d.usageDatabase;
        from = QStringLiteral("the usage database set for this context in %1").arg(d.file);
    }
    if (url.isEmpty())
        return audit;
    auto store = UsageStore::open(url);
    if (!store)
        return Error::make(store.error().kind,
                           QStringLiteral("cannot open the audit log in %1 (%2): %3; nothing was applied")
                               .arg(displayUrl(url), from, store.error().message));
    audit->m_store = std::move(*store);
    audit->m_url = url;
    return audit;
}

void ApplyAudit::setActor(const QString &given, const QString &clusterUser) {
    m_actor = !given.trimmed().isEmpty() ? given.trimmed()
              : !clusterUser.isEmpty()   ? clusterUser
                                         : platform::osUserName();
}

Result<AuditHead> ApplyAudit::head() const {
    if (!m_store)
        return AuditHead{};
    return AuditLog(*m_store, AuditSigning{}).head();
}

Result<void> ApplyAudit::record(const QString &kind, const QString &ns, const QString &name,
                                const QJsonObject &before, const QJsonObject &after, const QString &note) {
    if (!m_store)
        return {};
    QString action = QStringLiteral("namespace.apply");
    if (kind == QLatin1String("ResourceQuota"))
        action = QStringLiteral("quota.apply");
    else if (kind == QLatin1String("LimitRange"))
        action = QStringLiteral("limitrange.apply");
    const QString object = kind + QLatin1Char('/') + name;
    const QString target = ns.isEmpty() ? object : ns + QLatin1Char('/') + object;
    AuditLog log(*m_store);
    auto r = log.append(m_actor, action, target, auditText(before), auditText(after), note);
    if (!r)
        return r.error();
    return {};
}

} // namespace gq::cli
