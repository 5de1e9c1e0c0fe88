#pragma once

#include "core/domain/error.h"
#include "core/domain/limitrangespec.h"
#include "core/domain/quotaspec.h"
#include "core/domain/yamldoc.h"

#include <QList>

namespace gq {

// Local validation of ResourceQuota and LimitRange objects, mirroring the API
// server's (pkg/apis/core/validation: ValidateResourceQuota, ValidateLimitRange,
// ValidateObjectMeta), so an edit is rejected here with the same reasons before it
// is ever sent.
//
// Every problem is one Error of kind Invalid (Parse for a quantity that does not
// parse) with:
//   field   the API field path: "metadata.name", "spec.hard[requests.nvidia.com/gpu]",
//           "spec.limits[0].max[cpu]", "spec.scopeSelector.matchExpressions[1].operator"
//   reason  FieldValueInvalid / FieldValueRequired / FieldValueForbidden /
//           FieldValueDuplicate / FieldValueNotSupported (as in a 422 Status cause)
//   line, column  where the spec's source tree came from text (0 otherwise): the
//           key for a bad name, the value for a bad value.
// An empty list means valid.

struct ValidationOptions {
    // Project rules on top of the API server's, because a quota that silently does
    // not enforce anything is worse than an error: extended resources (GPUs) in a
    // quota only with the `requests.` prefix (the API server accepts `nvidia.com/gpu`
    // and `limits.nvidia.com/gpu` but never counts them), and GPU counts in quota
    // must be whole numbers.
    bool gpuPolicy = true;
    // Objects of other kinds (Namespace, Pod, ...) are skipped instead of reported.
    bool ignoreOtherKinds = false;
};

[[nodiscard]] QList<Error> validateQuota(const QuotaSpec &spec, const ValidationOptions &options = {});
[[nodiscard]] QList<Error> validateLimitRange(const LimitRangeSpec &spec,
                                              const ValidationOptions &options = {});

// Decodes and validates one object of any kind: apiVersion must be v1, kind one of
// ResourceQuota / LimitRange (anything else is an error on "kind"); decoding problems
// (wrong shapes, unparsable quantities) are reported alongside validation errors.
[[nodiscard]] QList<Error> validateObject(const YamlObject &object, const ValidationOptions &options = {});

// Everything wrong with a YAML text, as `gpuquota validate` reports it: the parse
// error (one Error with line/column) or the errors of every object, sorted by position.
// *objectsChecked (optional) receives the number of objects validated.
[[nodiscard]] QList<Error> validateYamlText(const QByteArray &text, const ValidationOptions &options = {},
                                            int *objectsChecked = nullptr);

// The kinds validateObject() understands.
[[nodiscard]] bool isSupportedKind(QStringView kind);

// "FILE:LINE:COL: field.path: message" (position and field left out when unknown).
[[nodiscard]] QString formatDiagnostic(const QString &fileName, const Error &error);

} // namespace gq
