#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace gq {

// kubectl apply's memory of what was applied last, and the three-way decision made
// from it. `gpuquota apply` records the applied object in the annotation kubectl uses,
// byte for byte as kubectl 1.32 writes it, so either tool can apply after the other.
// A later apply of a file without a resourceVersion compares, field by field, the
// recorded base, the live object and the file: a field only the server changed keeps
// the server's value, a field only the file changed takes the file's, and a field
// both changed differently is refused (unless forced) rather than silently overwritten.
namespace lastapplied {

inline constexpr QLatin1StringView kAnnotation{"kubectl.kubernetes.io/last-applied-configuration"};

// The annotation's value for an applied object: its JSON without the annotation
// itself (an empty annotations map is kept, as kubectl keeps it), compact, keys
// sorted, <, > and & escaped as Go's encoder does, with a trailing newline.
[[nodiscard]] QString annotationFor(const QJsonObject &applied);

// The object recorded in `live`'s annotation; nullopt when it has none (an object made
// by `create`, `patch` or the console) or it is not a JSON object.
[[nodiscard]] std::optional<QJsonObject> recordedBase(const QJsonObject &live);

// One field changed on both sides since the base, to different values.
struct FieldConflict {
    QString path;                  // "spec.hard[requests.nvidia.com/gpu]", "spec.limits[0].max[cpu]"
    QJsonValue base, server, mine; // Undefined when the field is absent there
    friend bool operator==(const FieldConflict &, const FieldConflict &) = default;
};

// A value as a message shows it: "24", "(none)", compact JSON for lists and maps.
[[nodiscard]] QString displayValue(const QJsonValue &value);

struct MergeResult {
    QJsonObject merged; // `live` with the file's changes: what to write (its resourceVersion is live's)
    QList<FieldConflict> conflicts; // refused fields (empty when forced)
    QList<FieldConflict> forced;    // fields overwritten because force was set
};

// Three-way merge of the file `mine` into `live`, based on `base` (nullopt: live has
// no record; like kubectl, every field the file sets wins and none it omits is
// removed). Compared are the top-level fields other than apiVersion, kind, metadata
// and status (so `spec`), metadata.labels and metadata.annotations; quantities compare
// by value ("1000m" is "1"). Maps merge per key, lists of objects of one length per
// item; any other value is one field. mine's last-applied annotation, when present,
// is what `merged` carries.
[[nodiscard]] MergeResult merge(const std::optional<QJsonObject> &base, const QJsonObject &live,
                                const QJsonObject &mine, bool force);

} // namespace lastapplied
} // namespace gq
