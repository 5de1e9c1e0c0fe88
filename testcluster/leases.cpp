#include "testcluster/admission.h"
#include "testcluster/resourcemath.h"

#include <QJsonValue>
#include <QRegularExpression>

// Leases (coordination.k8s.io/v1), for leader election: stored, listed, watched and
// updated with resourceVersion by the generic CRUD like every other kind; what is
// theirs alone is here: MicroTime decoding and the spec's validation, as upstream's
// pkg/apis/coordination/validation.

namespace gq::tc {

namespace {

// metav1.MicroTime on the wire: RFC 3339 with exactly six fractional digits.
const QLatin1String kMicroTimeLayout("2006-01-02T15:04:05.000000Z07:00");

bool isMicroTime(const QString &text) {
    static const QRegularExpression re(
        QStringLiteral("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}(Z|[+-]\\d{2}:\\d{2})$"));
    return re.match(text).hasMatch();
}

} // namespace

std::optional<ApiError> checkLeaseDecodable(const QJsonObject &object) {
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    for (const char *field : {"acquireTime", "renewTime"}) {
        const QJsonValue v = spec.value(QLatin1String(field));
        if (v.isUndefined() || v.isNull())
            continue;
        if (!v.isString() || !isMicroTime(v.toString()))
            return ApiError::badRequest(
                QStringLiteral("Lease in version \"v1\" cannot be handled as a Lease: parsing time \"%1\" as "
                               "\"%2\": cannot parse \"%1\" as \"%2\"")
                    .arg(v.isString() ? v.toString() : QStringLiteral("?"), kMicroTimeLayout));
    }
    for (const char *field : {"leaseDurationSeconds", "leaseTransitions"}) {
        const QJsonValue v = spec.value(QLatin1String(field));
        if (!v.isUndefined() && !v.isNull() && !v.isDouble())
            return ApiError::badRequest(
                QStringLiteral("Lease in version \"v1\" cannot be handled as a Lease: json: cannot unmarshal "
                               "string into Go struct field LeaseSpec.spec.%1 of type int32")
                    .arg(QLatin1String(field)));
    }
    return std::nullopt;
}

void validateLease(const QJsonObject &object, QList<FieldError> &errors) {
    const QJsonObject spec = object.value(QLatin1String("spec")).toObject();
    const QJsonValue duration = spec.value(QLatin1String("leaseDurationSeconds"));
    if (duration.isDouble() && duration.toInteger() <= 0)
        errors.append(invalid(QStringLiteral("spec.leaseDurationSeconds"),
                              QString::number(duration.toInteger()),
                              QStringLiteral("must be greater than 0")));
    const QJsonValue transitions = spec.value(QLatin1String("leaseTransitions"));
    if (transitions.isDouble() && transitions.toInteger() < 0)
        errors.append(invalid(QStringLiteral("spec.leaseTransitions"),
                              QString::number(transitions.toInteger()),
                              QStringLiteral("must be greater than or equal to 0")));
}

} // namespace gq::tc
