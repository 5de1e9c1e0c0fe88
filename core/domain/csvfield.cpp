#include "core/domain/csvfield.h"

namespace gq {

namespace {
QString quoted(QString v) {
    v.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + v + QLatin1Char('"');
}
} // namespace

bool isFormulaLike(const QString &value) {
    qsizetype i = 0;
    while (i < value.size() && value.at(i) == QLatin1Char('\''))
        ++i;
    if (i >= value.size())
        return false;
    const QChar c = value.at(i);
    return c == QLatin1Char('=') || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('@') ||
           c == QLatin1Char('\t') || c == QLatin1Char('\r');
}

QString csvField(const QString &value) {
    if (isFormulaLike(value))
        return quoted(QLatin1Char('\'') + value);
    for (const QChar c : value)
        if (c == QLatin1Char(',') || c == QLatin1Char('"') || c == QLatin1Char('\n') ||
            c == QLatin1Char('\r'))
            return quoted(value);
    return value;
}

} // namespace gq
