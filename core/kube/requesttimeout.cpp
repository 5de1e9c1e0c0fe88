#include "core/kube/requesttimeout.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace gq {

namespace {

Error invalid(const QString &value) {
    return Error::make(Error::Kind::Usage,
                       QStringLiteral("invalid --request-timeout \"%1\": give whole seconds (\"30\") or a "
                                      "number with a unit (ms, s, m, h; e.g. 1s, 2m, 3h); 0 means no timeout")
                           .arg(value.left(40)),
                       QStringLiteral("--request-timeout"));
}

// Nanoseconds per unit, as Go's time.ParseDuration reads them.
double unitNanoseconds(const QString &unit) {
    if (unit == u"ns")
        return 1;
    if (unit == u"us" || unit == u"\u00b5s" || unit == u"\u03bcs")
        return 1e3;
    if (unit == u"ms")
        return 1e6;
    if (unit == u"s")
        return 1e9;
    if (unit == u"m")
        return 60e9;
    if (unit == u"h")
        return 3600e9;
    return -1;
}

} // namespace

Result<int> parseRequestTimeout(const QString &value) {
    const QString v = value.trimmed();
    if (v.isEmpty())
        return invalid(value);
    bool isInt = false;
    const qlonglong seconds = v.toLongLong(&isInt);
    if (isInt) {
        if (seconds < 0)
            return invalid(value);
        return int(std::min<qlonglong>(seconds, INT_MAX / 1000) * 1000);
    }
    // A Go duration: [+]{number unit}+, e.g. "1h30m", "1.5s".
    qsizetype i = 0;
    if (v.at(0) == QLatin1Char('+'))
        ++i;
    else if (v.at(0) == QLatin1Char('-'))
        return invalid(value);
    if (i >= v.size())
        return invalid(value);
    if (v.mid(i) == QLatin1String("0"))
        return 0;
    double ns = 0;
    while (i < v.size()) {
        const qsizetype numStart = i;
        while (i < v.size() && (v.at(i).isDigit() || v.at(i) == QLatin1Char('.')))
            ++i;
        const QString number = v.mid(numStart, i - numStart);
        bool ok = false;
        const double n = number.toDouble(&ok);
        if (number.isEmpty() || number == u"." || !ok)
            return invalid(value);
        const qsizetype unitStart = i;
        while (i < v.size() && !v.at(i).isDigit() && v.at(i) != QLatin1Char('.'))
            ++i;
        const double unit = unitNanoseconds(v.mid(unitStart, i - unitStart));
        if (unit < 0)
            return invalid(value);
        ns += n * unit;
    }
    if (!std::isfinite(ns))
        return invalid(value);
    if (ns == 0)
        return 0;
    return int(std::clamp(std::ceil(ns / 1e6), 1.0, double(INT_MAX)));
}

} // namespace gq
