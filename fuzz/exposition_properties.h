#pragma once

// The properties every input must have when it goes through the exposition parser and
// the dcgm-exporter mapping. Shared by the libFuzzer target (fuzz/fuzz_exposition.cpp,
// which aborts on a violation) and the regression replay (tests/metrics/tst_exposition.cpp,
// which reports it).
#include "core/metrics/exposition.h"
#include "core/metrics/gpusample.h"

#include <QString>

#include <cmath>

namespace gq::fuzz {

inline QString exposeValue(double v) {
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    return QString::number(v, 'g', 17);
}

inline bool sameValue(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Empty when the input behaves, otherwise what went wrong.
inline QString checkExpositionProperties(const QByteArray &input) {
    using namespace gq::metrics;
    const Exposition e = parseExposition(input);
    if (e.issueCount < e.issues.size() || e.issues.size() > Exposition::kMaxIssues)
        return QStringLiteral("issue count below the kept issues");
    for (const ParseIssue &i : e.issues) {
        if (i.message.isEmpty())
            return QStringLiteral("issue without a message");
        if (i.line < 1 || i.line > e.lines || i.column < 1)
            return QStringLiteral("issue position out of range: %1").arg(i.toString());
    }
    // What was kept prints and parses back to the same samples, without issues.
    QString text;
    for (const Sample &s : e.samples) {
        if (s.line < 1 || s.line > e.lines)
            return QStringLiteral("sample line out of range");
        text += seriesText(s) + u' ' + exposeValue(s.value);
        if (s.timestampMs)
            text += u' ' + QString::number(*s.timestampMs);
        text += u'\n';
    }
    const Exposition back = parseExposition(text.toUtf8());
    if (back.issueCount != 0)
        return QStringLiteral("re-parse of the kept samples reports: %1")
            .arg(back.issues.value(0).toString());
    if (back.samples.size() != e.samples.size())
        return QStringLiteral("re-parse kept %1 of %2 samples")
            .arg(back.samples.size())
            .arg(e.samples.size());
    for (qsizetype i = 0; i < e.samples.size(); ++i) {
        const Sample &a = e.samples.at(i), &b = back.samples.at(i);
        if (a.name != b.name || a.labels != b.labels || !sameValue(a.value, b.value) ||
            a.timestampMs != b.timestampMs)
            return QStringLiteral("sample %1 differs after a round trip").arg(i);
    }
    // The mapping copes with whatever came out, and says "unknown", never a made-up 0.
    const GpuSnapshot snap = gpusFromSamples(e.samples, e.help);
    for (const GpuSample &g : snap.gpus) {
        if (g.shared != (g.holders.size() > 1))
            return QStringLiteral("shared flag disagrees with the holders");
        for (const auto &v : {g.utilPct, g.fbUsedMib, g.fbFreeMib, g.powerW, g.tempC})
            if (v && std::isnan(*v))
                return QStringLiteral("NaN reading instead of unknown");
    }
    return {};
}

} // namespace gq::fuzz
