#include "services/controller/podtrust.h"

#include "core/domain/yamldoc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>

namespace gq {

namespace {

QStringList readList(const YamlNode &v, const QString &field, QList<Error> *errors) {
    QStringList out;
    if (!v.isSequence()) {
        addConfigError(errors, field, v.pos(), QStringLiteral("must be a list of names"));
        return out;
    }
    for (const YamlNode &item : v.items()) {
        if (!item.isScalar() || item.text().trimmed().isEmpty())
            addConfigError(errors, field, item.pos(), QStringLiteral("each entry must be a non-empty name"));
        else
            out.append(item.text().trimmed());
    }
    return out;
}

bool matches(const QString &pattern, const QString &name) {
    if (!pattern.contains(QLatin1Char('*')))
        return pattern == name;
    const QRegularExpression re(QRegularExpression::anchoredPattern(
        QRegularExpression::escape(pattern).replace(QLatin1String("\\*"), QLatin1String(".*"))));
    return re.match(name).hasMatch();
}

bool trusted(const Creator &creator, const TrustRules &trust) {
    for (const QString &p : trust.labelSetters)
        if (matches(p, creator.username))
            return true;
    for (const QString &g : trust.labelSetterGroups)
        if (creator.groups.contains(g))
            return true;
    return false;
}

LabelVerdict refuse(const TrustRules &trust, const QString &why) {
    if (trust.mode == TrustRules::Mode::Warn)
        return LabelVerdict{true, why};
    return LabelVerdict{false, why};
}

} // namespace

TrustRules parseTrustRules(const YamlNode &node, QList<Error> *errors) {
    TrustRules rules;
    if (node.isNull())
        return rules;
    if (!node.isMap()) {
        addConfigError(errors, QStringLiteral("trust"), node.pos(),
                       QStringLiteral("must be a map, e.g. {mode: warn}"));
        return rules;
    }
    static const QStringList known = {QStringLiteral("mode"), QStringLiteral("labelSetters"),
                                      QStringLiteral("labelSetterGroups"),
                                      QStringLiteral("minExpectedHours")};
    for (const YamlNode::Entry &e : node.entries()) {
        const QString field = QStringLiteral("trust.") + e.key;
        const YamlNode &v = e.value;
        if (e.key == QLatin1String("mode")) {
            const QString m = v.isScalar() ? v.text() : QString();
            if (m == QLatin1String("enforce"))
                rules.mode = TrustRules::Mode::Enforce;
            else if (m == QLatin1String("warn"))
                rules.mode = TrustRules::Mode::Warn;
            else if (m == QLatin1String("off"))
                rules.mode = TrustRules::Mode::Off;
            else
                addConfigError(errors, field, v.pos(),
                               QStringLiteral("must be enforce, warn or off (got \"%1\")").arg(m));
        } else if (e.key == QLatin1String("labelSetters")) {
            rules.labelSetters = readList(v, field, errors);
        } else if (e.key == QLatin1String("labelSetterGroups")) {
            rules.labelSetterGroups = readList(v, field, errors);
        } else if (e.key == QLatin1String("minExpectedHours")) {
            bool ok = false;
            const double h = v.isScalar() ? v.text().toDouble(&ok) : 0;
            if (!ok || !std::isfinite(h) || h < 0 || h > 24 * 366)
                addConfigError(errors, field, v.pos(),
                               QStringLiteral("must be a number of hours from 0 to 8784"));
            else
                rules.minExpectedHours = h;
        } else {
            addConfigError(
                errors, field, e.keyPos,
                QStringLiteral("unknown key (known here: %1)").arg(known.join(QStringLiteral(", "))));
        }
    }
    return rules;
}

Result<double> expectedHours(const QJsonObject &pod, double defaultHours, const TrustRules &trust) {
    static const QString annotation = QStringLiteral("gpuquota.io/expected-hours");
    const QJsonValue annotated = pod.value(QLatin1String("metadata"))
                                     .toObject()
                                     .value(QLatin1String("annotations"))
                                     .toObject()
                                     .value(annotation);
    const QJsonValue deadlineValue =
        pod.value(QLatin1String("spec")).toObject().value(QLatin1String("activeDeadlineSeconds"));
    const double deadline =
        deadlineValue.isDouble() && deadlineValue.toDouble() > 0 ? deadlineValue.toDouble() / 3600.0 : 0;
    double hours = defaultHours;
    if (annotated.isString()) {
        bool ok = false;
        hours = annotated.toString().toDouble(&ok);
        if (!ok || !std::isfinite(hours) || hours <= 0)
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("annotation %1: \"%2\" is not a positive number of hours")
                                   .arg(annotation, annotated.toString()),
                               annotation);
    } else if (deadline > 0) {
        hours = deadline;
    }
    if (trust.mode == TrustRules::Mode::Off)
        return hours;
    // A floor, unless the deadline ends the pod before it.
    const double floor = deadline > 0 ? std::min(trust.minExpectedHours, deadline) : trust.minExpectedHours;
    return std::max(hours, floor);
}

Creator Creator::fromReview(const QJsonObject &request) {
    const QJsonObject info = request.value(QLatin1String("userInfo")).toObject();
    Creator c;
    c.username = info.value(QLatin1String("username")).toString();
    for (const QJsonValue &g : info.value(QLatin1String("groups")).toArray())
        c.groups.append(g.toString());
    return c;
}

LabelVerdict checkUserLabel(const Creator &creator, const QString &labelValue, const QString &userLabel,
                            const TrustRules &trust, const IdentityRules &identity) {
    if (trust.mode == TrustRules::Mode::Off || creator.username.isEmpty() || trusted(creator, trust))
        return {};
    const QString label = labelValue.trimmed();
    if (creator.username.startsWith(QLatin1String("system:serviceaccount:"))) {
        if (label.isEmpty())
            return {}; // charged to the namespace, which is what a ServiceAccount maps to
        return refuse(trust,
                      QStringLiteral("%1 may not label GPU pods for a user (%2: %3); only trust.labelSetters "
                                     "may")
                          .arg(creator.username, userLabel, label));
    }
    if (creator.username.startsWith(QLatin1String("system:")))
        return {}; // Kubernetes' own components (nodes' mirror pods, ...)
    const Result<IdentityMapping> you = mapIdentity(creator.username, identity);
    if (!you)
        return refuse(
            trust, QStringLiteral("GPU pods are charged to their creator, and %1").arg(you.error().message));
    if (label.isEmpty())
        return refuse(trust, QStringLiteral("a GPU pod must name its user: add the label %1: %2 (%3)")
                                 .arg(userLabel, you->subject, you->explanation));
    if (label != you->subject)
        return refuse(trust,
                      QStringLiteral("%1: %2 names another user: you are %3; only trust.labelSetters may "
                                     "label GPU pods for others")
                          .arg(userLabel, label, you->explanation));
    return {};
}

QJsonObject podTemplateOf(const QJsonObject &object) {
    const QString kind = object.value(QLatin1String("kind")).toString();
    QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    if (kind == QLatin1String("CronJob"))
        spec = spec.value(QLatin1String("jobTemplate")).toObject().value(QLatin1String("spec")).toObject();
    const QJsonObject tmpl = spec.value(QLatin1String("template")).toObject();
    if (tmpl.isEmpty())
        return {};
    return QJsonObject{{QStringLiteral("metadata"), tmpl.value(QLatin1String("metadata"))},
                       {QStringLiteral("spec"), tmpl.value(QLatin1String("spec"))}};
}

} // namespace gq

namespace gq {

httpd::Response admissionAnswer(const QString &uid, bool allowed, int code, const QString &message,
                                const QString &warning) {
    QJsonObject response{{QStringLiteral("uid"), uid}, {QStringLiteral("allowed"), allowed}};
    if (!message.isEmpty())
        response.insert(QStringLiteral("status"),
                        QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}});
    if (!warning.isEmpty())
        response.insert(QStringLiteral("warnings"), QJsonArray{warning});
    const QJsonObject review{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
                             {QStringLiteral("kind"), QStringLiteral("AdmissionReview")},
                             {QStringLiteral("response"), response}};
    return httpd::Response::json(200, QJsonDocument(review));
}

} // namespace gq
