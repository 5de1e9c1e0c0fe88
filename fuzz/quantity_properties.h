#pragma once

// The properties every parsed Quantity must have. Shared by the libFuzzer target
// (fuzz/fuzz_quantity.cpp, which aborts on a violation) and the regression replay test
// (tests/core/tst_fuzzregressions.cpp, which reports it), so both check the same thing.
#include "core/domain/quantity.h"

#include <QString>
#include <QStringBuilder>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace gq::fuzz {

// Returns an empty string when `input` behaves, otherwise what went wrong.
inline QString checkQuantityProperties(const QString &input) {
    const auto parsed = Quantity::parse(input);
    if (!parsed)
        return parsed.error().message.isEmpty() ? QStringLiteral("error without a message") : QString();
    const Quantity &q = *parsed;

    // Canonical text: no fraction, no '+', parses back to the same value, prints the same.
    // (Binary-SI text is capped at 2^63-1 like upstream; parse results never exceed it.)
    const QString canonical = q.toString();
    if (canonical.isEmpty() || canonical.startsWith(u'+') || canonical.contains(u'.'))
        return QStringLiteral("canonical text has a fraction, a plus or is empty: ") % canonical;
    const auto again = Quantity::parse(canonical);
    if (!again)
        return QStringLiteral("canonical text does not parse: ") % canonical % u" -> " %
               again.error().message;
    if (again->nanos() != q.nanos())
        return QStringLiteral("canonical text changes the value: ") % canonical % u" -> " % again->toString();
    if (again->toString() != canonical) {
        // apimachinery's own rule, which we mirror: a binary-SI value that is no whole
        // multiple of a power of 1024 prints as a plain integer, and a plain integer
        // reads back as decimal SI, so 62.5Ki -> "64000" -> "64k" (the API server does
        // the same). Only that case may move, and only once.
        const QString second = again->toString();
        const auto third = Quantity::parse(second);
        const bool plainInteger =
            !canonical.isEmpty() &&
            std::all_of(canonical.begin(), canonical.end(), [](QChar c) { return c.isDigit() || c == u'-'; });
        if (q.format() != Quantity::Format::BinarySI || !plainInteger || !third ||
            third->nanos() != q.nanos() || third->toString() != second)
            return QStringLiteral("canonical form is not idempotent: ") % canonical % u" -> " % second;
    }

    // Exact arithmetic: q+q == q*2 (same overflow verdict), (q+q)-q == q, q-q == 0, q*-1 == -q.
    const auto twice = q.plus(q);
    const auto doubled = q.times(2);
    if (twice.has_value() != doubled.has_value())
        return QStringLiteral("q+q and q*2 disagree about overflow for ") % canonical;
    if (twice && twice->nanos() != doubled->nanos())
        return QStringLiteral("q+q != q*2 for ") % canonical;
    if (twice) {
        const auto back = twice->minus(q);
        if (!back || back->nanos() != q.nanos())
            return QStringLiteral("(q+q)-q != q for ") % canonical;
    }
    const auto zero = q.minus(q);
    if (!zero || !zero->isZero())
        return QStringLiteral("q-q != 0 for ") % canonical;
    const auto negated = q.times(-1);
    if (!negated || negated->nanos() != q.negated().nanos())
        return QStringLiteral("q*-1 != -q for ") % canonical;

    // value()/milliValue() round away from zero and keep the sign.
    if ((q.value() < 0) != (q.sign() < 0) || (q.milliValue() < 0) != (q.sign() < 0))
        return QStringLiteral("value()/milliValue() lost the sign of ") % canonical;
    if (q.sign() > 0 && q.value() != std::numeric_limits<std::int64_t>::max() &&
        Quantity::fromInt(q.value()) < q)
        return QStringLiteral("value() rounded down for ") % canonical;
    if (q.sign() < 0 && q.value() != std::numeric_limits<std::int64_t>::min() &&
        Quantity::fromInt(q.value()) > q)
        return QStringLiteral("value() rounded toward zero for ") % canonical;

    // Must not crash or trip a sanitizer; the results themselves are covered by unit tests.
    (void)q.times(std::numeric_limits<std::int64_t>::min());
    (void)q.toDouble();
    (void)q.toGpuCount();
    return {};
}

} // namespace gq::fuzz
