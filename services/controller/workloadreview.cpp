// AdmissionWebhook::reviewWorkload: the user label of a workload's GPU pod template,
// checked against the creator when the template is written (podtrust.h), so that the
// controllers that later create its pods (trusted) cannot be used to label pods for
// someone else.
#include "services/controller/admissionwebhook.h"
#include "services/controller/clampplan.h"
#include "services/controller/podtrust.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace gq {

namespace {

QString templateLabel(const QJsonObject &pod, const QString &label) {
    return pod.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("labels"))
        .toObject()
        .value(label)
        .toString();
}

// The trust rules' answer for a user label the review's creator sets (podtrust.h).
httpd::Response labelAnswer(const QString &uid, const QJsonObject &request, const QString &label,
                            const AdmissionWebhook::Options &options) {
    const LabelVerdict verdict = checkUserLabel(Creator::fromReview(request), label, options.userLabel,
                                                options.trust, options.identity);
    if (!verdict.allowed)
        return admissionAnswer(uid, false, 403, verdict.warning);
    return admissionAnswer(uid, true, 0, {}, verdict.warning);
}

} // namespace

httpd::Response AdmissionWebhook::reviewWorkload(const QByteArray &body, const Options &options) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    const QJsonObject request = doc.object().value(QLatin1String("request")).toObject();
    const QString uid = request.value(QLatin1String("uid")).toString();
    if (err.error != QJsonParseError::NoError || uid.isEmpty() ||
        doc.object().value(QLatin1String("apiVersion")).toString() != QLatin1String("admission.k8s.io/v1"))
        return httpd::Response::text(
            400,
            QStringLiteral("malformed AdmissionReview: an admission.k8s.io/v1 review with request.uid\n"));
    const QString operation = request.value(QLatin1String("operation")).toString();
    if (operation != QLatin1String("CREATE") && operation != QLatin1String("UPDATE"))
        return admissionAnswer(uid, true);
    const QJsonObject pod = podTemplateOf(request.value(QLatin1String("object")).toObject());
    if (pod.isEmpty() || clampplan::gpusInUse({pod}).isEmpty())
        return admissionAnswer(uid, true); // no GPU template: nothing to charge
    const QString label = templateLabel(pod, options.userLabel);
    if (operation == QLatin1String("UPDATE")) {
        const QJsonObject old = podTemplateOf(request.value(QLatin1String("oldObject")).toObject());
        if (!old.isEmpty() && !clampplan::gpusInUse({old}).isEmpty() &&
            templateLabel(old, options.userLabel) == label)
            return admissionAnswer(uid, true); // scaled, restarted, status: the label stays as checked
    }
    return labelAnswer(uid, request, label, options);
}

httpd::Response AdmissionWebhook::reviewPodUpdate(const QJsonObject &request, const Options &options) {
    const QString uid = request.value(QLatin1String("uid")).toString();
    const QJsonObject pod = request.value(QLatin1String("object")).toObject();
    const QJsonObject old = request.value(QLatin1String("oldObject")).toObject();
    const QString label = templateLabel(pod, options.userLabel);
    if (label == templateLabel(old, options.userLabel) || clampplan::gpusInUse({pod}).isEmpty())
        return admissionAnswer(uid, true);
    return labelAnswer(uid, request, label, options);
}

} // namespace gq
