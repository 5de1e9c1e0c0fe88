#include "core/kube/kubespecs.h"

namespace gq {

namespace {

// Typed list items carry no kind/apiVersion; the specs want them.
QJsonObject withKind(QJsonObject o, const KubeResource &res) {
    if (!o.contains(QLatin1String("kind")))
        o.insert(QStringLiteral("kind"), res.kind);
    if (!o.contains(QLatin1String("apiVersion")))
        o.insert(QStringLiteral("apiVersion"), res.apiVersion());
    return o;
}

template <typename Spec> QFuture<Result<Spec>> one(QFuture<Result<QJsonObject>> f, const KubeResource &res) {
    return f.then([&res](Result<QJsonObject> r) -> Result<Spec> {
        if (!r)
            return r.error();
        return Spec::fromJson(withKind(*r, res));
    });
}

template <typename Spec>
QFuture<Result<QList<Spec>>> many(QFuture<Result<ObjectList>> f, const KubeResource &res) {
    return f.then([&res](Result<ObjectList> r) -> Result<QList<Spec>> {
        if (!r)
            return r.error();
        QList<Spec> out;
        out.reserve(r->items.size());
        for (const QJsonObject &o : r->items) {
            auto spec = Spec::fromJson(withKind(o, res));
            if (!spec)
                return spec.error();
            out.append(std::move(*spec));
        }
        return out;
    });
}

} // namespace

QFuture<Result<QuotaSpec>> getQuota(KubeClient &client, const QString &ns, const QString &name) {
    const auto &res = KubeResource::resourceQuotas();
    return one<QuotaSpec>(client.get(res, ns, name), res);
}

QFuture<Result<QList<QuotaSpec>>> listQuotas(KubeClient &client, const QString &ns) {
    const auto &res = KubeResource::resourceQuotas();
    return many<QuotaSpec>(client.list(res, ns), res);
}

QFuture<Result<QuotaSpec>> createQuota(KubeClient &client, const QuotaSpec &quota,
                                       const WriteOptions &options) {
    const auto &res = KubeResource::resourceQuotas();
    return one<QuotaSpec>(client.create(res, quota.meta.namespaceName, quota.toJson(), options), res);
}

QFuture<Result<QuotaSpec>> replaceQuota(KubeClient &client, const QuotaSpec &quota,
                                        const WriteOptions &options) {
    const auto &res = KubeResource::resourceQuotas();
    return one<QuotaSpec>(client.replace(res, quota.meta.namespaceName, quota.toJson(), options), res);
}

QFuture<Result<LimitRangeSpec>> getLimitRange(KubeClient &client, const QString &ns, const QString &name) {
    const auto &res = KubeResource::limitRanges();
    return one<LimitRangeSpec>(client.get(res, ns, name), res);
}

QFuture<Result<QList<LimitRangeSpec>>> listLimitRanges(KubeClient &client, const QString &ns) {
    const auto &res = KubeResource::limitRanges();
    return many<LimitRangeSpec>(client.list(res, ns), res);
}

QFuture<Result<LimitRangeSpec>> createLimitRange(KubeClient &client, const LimitRangeSpec &limitRange,
                                                 const WriteOptions &options) {
    const auto &res = KubeResource::limitRanges();
    return one<LimitRangeSpec>(
        client.create(res, limitRange.meta.namespaceName, limitRange.toJson(), options), res);
}

QFuture<Result<LimitRangeSpec>> replaceLimitRange(KubeClient &client, const LimitRangeSpec &limitRange,
                                                  const WriteOptions &options) {
    const auto &res = KubeResource::limitRanges();
    return one<LimitRangeSpec>(
        client.replace(res, limitRange.meta.namespaceName, limitRange.toJson(), options), res);
}

} // namespace gq
