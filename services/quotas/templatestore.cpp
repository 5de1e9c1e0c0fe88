#include "services/quotas/templatestore.h"

#include "core/domain/atomicfile.h"

#include "core/domain/yamldoc.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>

namespace gq {

TemplateStore::TemplateStore(QString directory)
    : m_dir(std::move(directory)) {
    if (m_dir.isEmpty())
        m_dir =
            QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/templates");
}

QList<QuotaTemplate> TemplateStore::templates() const {
    QList<QuotaTemplate> out;
    QFile builtIn(QStringLiteral(":/gpuquota/templates/new-team.yaml"));
    if (builtIn.open(QIODevice::ReadOnly))
        out << QuotaTemplate{QStringLiteral("new team"), QString::fromUtf8(builtIn.readAll()), true};
    const QDir dir(m_dir);
    for (const QString &f : dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(f));
        if (file.open(QIODevice::ReadOnly))
            out << QuotaTemplate{f.chopped(5), QString::fromUtf8(file.readAll()), false};
    }
    return out;
}

Result<void> TemplateStore::save(const QString &name, const QString &yaml) const {
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$"));
    if (!valid.match(name).hasMatch())
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("template name \"%1\" may use only letters, digits, '.', '_' and '-'").arg(name),
            QStringLiteral("name"));
    if (auto doc = loadYaml(yaml.toUtf8()); !doc)
        return doc.error();
    if (!QDir().mkpath(m_dir))
        return Error::make(Error::Kind::Io, QStringLiteral("cannot create %1").arg(m_dir));
    const QString path = QDir(m_dir).filePath(name + QStringLiteral(".yaml"));
    if (auto w = writeFileAtomically(path, yaml.toUtf8()); !w)
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write %1: %2").arg(path, w.error().message));
    return {};
}

Result<QList<QJsonObject>> TemplateStore::instantiate(const QString &yaml, const QString &ns) {
    auto doc = loadYaml(yaml.toUtf8());
    if (!doc)
        return doc.error();
    QList<QJsonObject> out;
    for (const YamlObject &o : doc->objects) {
        const QString kind = o.kind();
        if (kind != QLatin1String("ResourceQuota") && kind != QLatin1String("LimitRange")) {
            Error e = Error::make(
                Error::Kind::Invalid,
                QStringLiteral("templates hold ResourceQuota and LimitRange objects, not \"%1\"").arg(kind),
                QStringLiteral("kind"));
            e.line = o.root.pos().line;
            return e;
        }
        QJsonObject json = o.root.toJsonObject();
        QJsonObject meta = json.value(QLatin1String("metadata")).toObject();
        meta.insert(QLatin1String("namespace"), ns);
        json.insert(QLatin1String("metadata"), meta);
        out << json;
    }
    if (out.isEmpty())
        return Error::make(Error::Kind::Invalid, QStringLiteral("the template holds no objects"));
    return out;
}

} // namespace gq
