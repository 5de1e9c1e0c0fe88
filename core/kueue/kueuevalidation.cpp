// Kueue's validation of resourceGroups, as its webhook and CRD schema apply it
// (pkg/webhooks/clusterqueue_webhook.go and cohort_webhook.go): the rules an edit made in
// the console or the CLI should fail locally, with the field named, before the API server
// is asked.
#include "core/kueue/kueuemodel.h"

#include <QJsonArray>
#include <QSet>

namespace gq::kueue {

namespace {

constexpr int kMaxResources = 64; // coveredResources and flavors per group, as the CRD caps them
constexpr int kMaxFlavors = 64;

QString at(const QString &base, int i) {
    return QStringLiteral("%1[%2]").arg(base).arg(i);
}

struct GroupCheck {
    bool hasCohort = false;
    QString cohortWord; // "a cohort" / "a parent" in messages
    QSet<QString> seenResources;
    QSet<QString> seenFlavors;
    QList<Problem> problems;

    void add(const QString &field, const QString &message) { problems.append(Problem{field, message}); }

    std::optional<Quantity> quantity(const QJsonObject &res, const char *key, const QString &field) {
        if (!res.contains(QLatin1String(key)))
            return std::nullopt;
        const QJsonValue v = res.value(QLatin1String(key));
        const QString text = v.isDouble() ? QString::number(v.toDouble(), 'g', 17) : v.toString();
        auto q = Quantity::parse(text, field);
        if (!q) {
            add(field, q.error().message);
            return std::nullopt;
        }
        if (q->sign() < 0) {
            add(field, QStringLiteral("must be greater than or equal to 0"));
            return std::nullopt;
        }
        return *q;
    }

    void checkResource(const QJsonObject &res, const QString &rField) {
        const auto nominal = quantity(res, "nominalQuota", rField + QStringLiteral(".nominalQuota"));
        if (!res.contains(QLatin1String("nominalQuota")))
            add(rField + QStringLiteral(".nominalQuota"), QStringLiteral("Required value"));
        const QString borrowField = rField + QStringLiteral(".borrowingLimit");
        const QString lendField = rField + QStringLiteral(".lendingLimit");
        quantity(res, "borrowingLimit", borrowField);
        const auto lending = quantity(res, "lendingLimit", lendField);
        if (res.contains(QLatin1String("borrowingLimit")) && !hasCohort)
            add(borrowField, QStringLiteral("must be nil when %1 is empty").arg(cohortWord));
        if (res.contains(QLatin1String("lendingLimit")) && !hasCohort)
            add(lendField, QStringLiteral("must be nil when %1 is empty").arg(cohortWord));
        if (lending && nominal && *lending > *nominal)
            add(lendField, QStringLiteral("must be less than or equal to the nominalQuota (%1)")
                               .arg(nominal->toString()));
    }

    void checkFlavor(const QJsonObject &flavor, const QStringList &covered, const QString &fField) {
        const QString name = flavor.value(QLatin1String("name")).toString();
        if (name.isEmpty())
            add(fField + QStringLiteral(".name"), QStringLiteral("Required value"));
        else if (seenFlavors.contains(name))
            add(fField + QStringLiteral(".name"),
                QStringLiteral("Duplicate value: \"%1\" (a flavor can be in one resource group only)")
                    .arg(name));
        seenFlavors.insert(name);
        const QJsonArray resources = flavor.value(QLatin1String("resources")).toArray();
        QStringList names;
        for (const QJsonValue &r : resources)
            names.append(r.toObject().value(QLatin1String("name")).toString());
        if (names != covered)
            add(fField + QStringLiteral(".resources"),
                QStringLiteral("must have the same names as the resource group's coveredResources, in the "
                               "same order (coveredResources: [%1], resources: [%2])")
                    .arg(covered.join(QStringLiteral(", ")), names.join(QStringLiteral(", "))));
        for (int r = 0; r < resources.size(); ++r)
            checkResource(resources.at(r).toObject(), at(fField + QStringLiteral(".resources"), r));
    }

    void checkGroup(const QJsonObject &group, const QString &gField) {
        QStringList covered;
        const QJsonArray coveredJson = group.value(QLatin1String("coveredResources")).toArray();
        for (int c = 0; c < coveredJson.size(); ++c) {
            const QString name = coveredJson.at(c).toString();
            if (seenResources.contains(name))
                add(at(gField + QStringLiteral(".coveredResources"), c),
                    QStringLiteral("Duplicate value: \"%1\" (a resource can be in one resource group only)")
                        .arg(name));
            seenResources.insert(name);
            covered.append(name);
        }
        if (covered.isEmpty())
            add(gField + QStringLiteral(".coveredResources"), QStringLiteral("Required value"));
        if (covered.size() > kMaxResources)
            add(gField + QStringLiteral(".coveredResources"),
                QStringLiteral("Too many: %1: must have at most %2 items")
                    .arg(covered.size())
                    .arg(kMaxResources));
        const QJsonArray flavors = group.value(QLatin1String("flavors")).toArray();
        if (flavors.isEmpty())
            add(gField + QStringLiteral(".flavors"), QStringLiteral("Required value"));
        if (flavors.size() > kMaxFlavors)
            add(gField + QStringLiteral(".flavors"),
                QStringLiteral("Too many: %1: must have at most %2 items")
                    .arg(flavors.size())
                    .arg(kMaxFlavors));
        for (int f = 0; f < flavors.size(); ++f)
            checkFlavor(flavors.at(f).toObject(), covered, at(gField + QStringLiteral(".flavors"), f));
    }
};

} // namespace

QList<Problem> validateQueueSpec(const QJsonObject &object, bool cohortObject) {
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    GroupCheck check;
    if (cohortObject) {
        check.hasCohort = !spec.value(QLatin1String("parentName")).toString().isEmpty() ||
                          !spec.value(QLatin1String("parent")).toString().isEmpty();
        check.cohortWord = QStringLiteral("spec.parentName");
    } else {
        check.hasCohort = !spec.value(QLatin1String("cohortName")).toString().isEmpty() ||
                          !spec.value(QLatin1String("cohort")).toString().isEmpty();
        check.cohortWord = QStringLiteral("spec.cohortName");
    }
    const QJsonArray groups = spec.value(QLatin1String("resourceGroups")).toArray();
    for (int g = 0; g < groups.size(); ++g)
        check.checkGroup(groups.at(g).toObject(), at(QStringLiteral("spec.resourceGroups"), g));
    return check.problems;
}

} // namespace gq::kueue
