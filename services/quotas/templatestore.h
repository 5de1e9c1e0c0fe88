#pragma once

#include "core/domain/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace gq {

// A quota template: one YAML text holding a ResourceQuota and/or a LimitRange
// without a namespace. "new team" ships built in; admins save their own as files.
struct QuotaTemplate {
    QString name;
    QString yaml;
    bool builtIn = false;
};

class TemplateStore final {
public:
    // An empty directory means <AppDataLocation>/templates.
    explicit TemplateStore(QString directory = {});

    [[nodiscard]] QString directory() const { return m_dir; }
    // Built-in first, then the saved ones by name.
    [[nodiscard]] QList<QuotaTemplate> templates() const;
    // Names are file names: letters, digits, '-', '_' and '.'; the text must parse.
    Result<void> save(const QString &name, const QString &yaml) const;

    // The template's objects with metadata.namespace set to ns, as JSON for the API.
    static Result<QList<QJsonObject>> instantiate(const QString &yaml, const QString &ns);

private:
    QString m_dir;
};

} // namespace gq
