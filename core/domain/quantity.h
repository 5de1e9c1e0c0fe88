#pragma once

#include "core/domain/result.h"

#include <QMetaType>
#include <QString>
#include <QStringView>

#include <compare>
#include <cstdint>

namespace gq {

// A Kubernetes resource quantity ("500m", "2", "128Gi", "1e3"), with the exact
// semantics of k8s.io/apimachinery/pkg/api/resource: parsing, rounding of values
// below 1n (rounded up), and the canonical text the API server prints.
//
// The value is held exactly as a signed 128-bit count of nano-units (10^-9), so
// arithmetic never touches floating point; values whose magnitude does not fit are
// rejected at parse time with an "out of range" error. As upstream, binary-SI text
// ("9Ei") is instead capped at 2^63-1 units, and digit-less text such as "m" or "-",
// which upstream quietly reads as 0, is rejected here.
class Quantity {
public:
    // The format a quantity remembers from its text; canonical printing uses it.
    enum class Format { DecimalSI, BinarySI, DecimalExponent };

    // __extension__ keeps -Wpedantic quiet about the GCC/Clang 128-bit integer.
    __extension__ typedef __int128 Nanos;

    Quantity() = default; // zero, DecimalSI

    // Parses the whole grammar; on failure the Error (kind Parse) says why, e.g.
    // "unknown suffix 'Gb'; did you mean 'G' or 'Gi'?".
    static Result<Quantity> parse(QStringView text);
    // Same, with the field path put into the Error (e.g. "spec.hard[requests.cpu]").
    static Result<Quantity> parse(QStringView text, const QString &field);

    // Largest magnitude held: 2^127-1 nanos (about 1.7e29 units). INT128_MIN is never
    // produced, so negation is always safe.
    static constexpr Nanos maxNanos() { return ~(static_cast<Nanos>(1) << 127); }

    [[nodiscard]] static QString formatName(Format format); // "DecimalSI", ...

    // fromNanos clamps INT128_MIN to -maxNanos(); nothing else is adjusted.
    static Quantity fromNanos(Nanos nanos, Format format = Format::DecimalSI);
    static Quantity fromMilli(std::int64_t milli, Format format = Format::DecimalSI);
    static Quantity fromInt(std::int64_t value, Format format = Format::DecimalSI);

    // Canonical form, as the API server prints it ("1000m" -> "1", "1.5Gi" -> "1536Mi").
    // Where the server echoes already-canonical input verbatim ("+1", "01", "1E3") we
    // print the normal spelling ("1", "1", "1e3").
    [[nodiscard]] QString toString() const;

    [[nodiscard]] Format format() const { return m_format; }
    [[nodiscard]] Nanos nanos() const { return m_nanos; }
    [[nodiscard]] bool isZero() const { return m_nanos == 0; }
    [[nodiscard]] int sign() const { return m_nanos < 0 ? -1 : (m_nanos > 0 ? 1 : 0); }

    // Exact arithmetic. The result keeps this quantity's format; like apimachinery's
    // Add/Sub, a zero receiver takes the other operand's format. Overflow is an Error.
    [[nodiscard]] Result<Quantity> plus(const Quantity &other) const;
    [[nodiscard]] Result<Quantity> minus(const Quantity &other) const;
    [[nodiscard]] Result<Quantity> times(std::int64_t factor) const;
    [[nodiscard]] Quantity negated() const { return fromNanos(-m_nanos, m_format); }

    // Conversions, rounding away from zero like apimachinery's Value()/MilliValue()
    // ("1500m" -> 2, "-1500m" -> -2), saturating at the int64 limits instead of wrapping.
    [[nodiscard]] std::int64_t value() const;      // whole units (bytes, GPUs)
    [[nodiscard]] std::int64_t milliValue() const; // milli-units (millicores)
    [[nodiscard]] bool isInteger() const;          // true if a whole number of units
    [[nodiscard]] double toDouble() const;         // for display and ratios only

    [[nodiscard]] std::int64_t toBytes() const { return value(); }
    [[nodiscard]] std::int64_t toMillicores() const { return milliValue(); }
    // A whole, non-negative number of devices; "500m" or "-1" is an Invalid error.
    [[nodiscard]] Result<std::int64_t> toGpuCount() const;

    friend bool operator==(const Quantity &a, const Quantity &b) { return a.m_nanos == b.m_nanos; }
    friend std::strong_ordering operator<=>(const Quantity &a, const Quantity &b) {
        return a.m_nanos <=> b.m_nanos;
    }

private:
    Nanos m_nanos = 0;
    Format m_format = Format::DecimalSI;
};

} // namespace gq

Q_DECLARE_METATYPE(gq::Quantity)
