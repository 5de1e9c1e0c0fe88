#include "core/kueue/kueuereader.h"

#include "core/kube/kubeclient.h"

#include <QHash>
#include <QJsonArray>

namespace gq::kueue {

namespace {

template <typename T> Result<T> waitFor(QFuture<Result<T>> f) {
    f.waitForFinished();
    return f.result();
}

Result<QList<QJsonObject>> listAll(KubeClient &client, const QString &plural, const QString &version,
                                   const QString &ns) {
    auto list = waitFor(client.list(resource(plural, version), ns));
    if (!list)
        return list.error();
    return list->items;
}

} // namespace

KubeResource resource(const QString &plural, const QString &version) {
    static const QStringList namespaced{QStringLiteral("localqueues"), QStringLiteral("workloads")};
    static const QHash<QString, QString> kinds{
        {QStringLiteral("clusterqueues"), QStringLiteral("ClusterQueue")},
        {QStringLiteral("cohorts"), QStringLiteral("Cohort")},
        {QStringLiteral("localqueues"), QStringLiteral("LocalQueue")},
        {QStringLiteral("resourceflavors"), QStringLiteral("ResourceFlavor")},
        {QStringLiteral("workloads"), QStringLiteral("Workload")}};
    return KubeResource{QString::fromUtf16(kGroup), version, plural, kinds.value(plural),
                        namespaced.contains(plural)};
}

Result<QString> detectVersion(KubeClient &client) {
    KubeRequest request;
    request.path = QStringLiteral("/apis/") + QString::fromUtf16(kGroup);
    auto answer = waitFor(client.send(request));
    if (!answer) {
        if (answer.error().kind == Error::Kind::NotFound)
            return Error::make(Error::Kind::NotFound,
                               QStringLiteral("Kueue is not installed: the API server does not serve %1")
                                   .arg(QString::fromUtf16(kGroup)));
        return answer.error();
    }
    QStringList served;
    for (const QJsonValue &v : answer->json().value(QLatin1String("versions")).toArray())
        served.append(v.toObject().value(QLatin1String("version")).toString());
    if (auto picked = pickVersion(served))
        return *picked;
    return Error::make(Error::Kind::Invalid,
                       QStringLiteral("%1 serves %2; this version reads %3")
                           .arg(QString::fromUtf16(kGroup), served.join(QStringLiteral(", ")),
                                supportedVersions().join(QStringLiteral(", "))));
}

Result<Snapshot> readSnapshot(KubeClient &client, const QString &ns) {
    auto version = detectVersion(client);
    if (!version)
        return version.error();
    Snapshot s;
    s.apiVersion = *version;
    auto cqs = listAll(client, QStringLiteral("clusterqueues"), *version, QString());
    if (!cqs)
        return cqs.error();
    for (const QJsonObject &o : std::as_const(*cqs)) {
        auto cq = parseClusterQueue(o);
        if (!cq)
            return Error::make(
                cq.error().kind,
                QStringLiteral("ClusterQueue %1: %2")
                    .arg(
                        o.value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString(),
                        cq.error().message));
        s.clusterQueues.push_back(std::move(*cq));
    }
    auto lqs = listAll(client, QStringLiteral("localqueues"), *version, ns);
    if (!lqs)
        return lqs.error();
    for (const QJsonObject &o : std::as_const(*lqs))
        s.localQueues.push_back(parseLocalQueue(o));
    auto wls = listAll(client, QStringLiteral("workloads"), *version, ns);
    if (!wls)
        return wls.error();
    for (const QJsonObject &o : std::as_const(*wls))
        s.workloads.push_back(parseWorkload(o));
    if (auto cohorts = listAll(client, QStringLiteral("cohorts"), *version, QString()))
        for (const QJsonObject &o : std::as_const(*cohorts))
            if (auto c = parseCohort(o))
                s.cohorts.push_back(std::move(*c));
    if (auto flavors = listAll(client, QStringLiteral("resourceflavors"), *version, QString()))
        for (const QJsonObject &o : std::as_const(*flavors))
            s.flavors.push_back(parseResourceFlavor(o));
    return s;
}

Result<std::vector<LocalQueue>> readLocalQueues(KubeClient &client) {
    auto version = detectVersion(client);
    if (!version)
        return version.error();
    auto lqs = listAll(client, QStringLiteral("localqueues"), *version, QString());
    if (!lqs)
        return lqs.error();
    std::vector<LocalQueue> out;
    for (const QJsonObject &o : std::as_const(*lqs))
        out.push_back(parseLocalQueue(o));
    return out;
}

} // namespace gq::kueue
