#include "core/domain/quantity.h"

#include <QStringBuilder>

#include <array>
#include <limits>
#include <string>

namespace gq {

namespace {

using Nanos = Quantity::Nanos;
__extension__ typedef unsigned __int128 UNanos;

constexpr UNanos kMaxMagnitude = static_cast<UNanos>(Quantity::maxNanos());
constexpr std::int64_t kNanosPerUnit = 1'000'000'000;
constexpr std::int64_t kNanosPerMilli = 1'000'000;
// apimachinery caps binary-SI input at 2^63-1 (in units) instead of failing.
constexpr UNanos kBinaryCapNanos =
    static_cast<UNanos>(std::numeric_limits<std::int64_t>::max()) * static_cast<UNanos>(kNanosPerUnit);

struct Suffix {
    const char16_t *text;
    int base; // 10 or 2
    int exponent;
};

// Exact spellings only; lookup is case-sensitive like the API server's.
constexpr std::array<Suffix, 15> kSuffixes{{
    {u"n", 10, -9},
    {u"u", 10, -6},
    {u"m", 10, -3},
    {u"k", 10, 3},
    {u"M", 10, 6},
    {u"G", 10, 9},
    {u"T", 10, 12},
    {u"P", 10, 15},
    {u"E", 10, 18},
    {u"Ki", 2, 10},
    {u"Mi", 2, 20},
    {u"Gi", 2, 30},
    {u"Ti", 2, 40},
    {u"Pi", 2, 50},
    {u"Ei", 2, 60},
}};

bool isAsciiDigit(QChar c) {
    return c >= u'0' && c <= u'9';
}

// Long input is elided: an error must not repeat a 5 MB value.
QString quoted(QStringView text) {
    return u'\'' + elided(text) + u'\'';
}

Error parseError(QStringView text, const QString &why) {
    return Error::make(Error::Kind::Parse, QStringLiteral("invalid quantity ") % quoted(text) % u": " % why);
}

// People write storage sizes the way other tools print them ("10GB", "512mb", "2KiB");
// point them at the two spellings Kubernetes accepts for that magnitude.
QString suffixHint(QStringView suffix) {
    const QChar first = suffix.front();
    const QStringView rest = suffix.mid(1);
    const bool byteish = rest.isEmpty() || rest.compare(u"b", Qt::CaseInsensitive) == 0 ||
                         rest.compare(u"i", Qt::CaseInsensitive) == 0 ||
                         rest.compare(u"ib", Qt::CaseInsensitive) == 0;
    if (byteish) {
        switch (first.toLower().unicode()) {
        case u'k': return QStringLiteral("did you mean 'k' or 'Ki'?");
        case u'm': return QStringLiteral("did you mean 'M' or 'Mi'?");
        case u'g': return QStringLiteral("did you mean 'G' or 'Gi'?");
        case u't': return QStringLiteral("did you mean 'T' or 'Ti'?");
        case u'p': return QStringLiteral("did you mean 'P' or 'Pi'?");
        case u'e': return QStringLiteral("did you mean 'E' or 'Ei'?");
        default: break;
        }
    }
    if (suffix.compare(u"b", Qt::CaseInsensitive) == 0)
        return QStringLiteral("byte counts take no unit; write the plain number");
    if (suffix == u"i")
        return QStringLiteral("did you mean 'Ki', 'Mi' or 'Gi'?");
    return QStringLiteral("expected one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei "
                          "or an exponent such as e3 or E-2");
}

// Decimal digits most significant first, as small integers; long enough for any input.
using Digits = std::basic_string<unsigned char>;

void multiplySmall(Digits &digits, unsigned factor) {
    unsigned carry = 0;
    for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
        const unsigned v = static_cast<unsigned>(*it) * factor + carry;
        *it = static_cast<unsigned char>(v % 10);
        carry = v / 10;
    }
    while (carry != 0) {
        digits.insert(digits.begin(), static_cast<unsigned char>(carry % 10));
        carry /= 10;
    }
}

// digits * 10^shift, rounded away from zero to an integer; false if above `limit`.
bool scaleToInteger(const Digits &digits, std::int64_t shift, UNanos limit, UNanos &out) {
    const auto len = static_cast<std::int64_t>(digits.size());
    std::int64_t keep = len + shift; // digits left of the decimal point
    if (keep <= 0) {
        out = 1; // a non-zero value below one nano rounds up to 1n
        return true;
    }
    UNanos v = 0;
    for (std::int64_t i = 0; i < keep; ++i) {
        const unsigned d = i < len ? digits[static_cast<std::size_t>(i)] : 0;
        if (v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    // Trailing zeros were stripped, so any dropped digit is non-zero: round up.
    if (keep < len) {
        if (v == limit)
            return false;
        ++v;
    }
    out = v;
    return true;
}

// 128-bit division is a library call; most quantities fit 64 bits, so use those there.
template <typename U> int writeDigits(U v, char16_t *end) {
    int n = 0;
    do {
        *--end = static_cast<char16_t>(u'0' + static_cast<int>(v % 10));
        v /= 10;
        ++n;
    } while (v != 0);
    return n;
}

QString unsignedToString(UNanos v) {
    char16_t buf[48];
    const int n = v <= std::numeric_limits<std::uint64_t>::max()
                      ? writeDigits(static_cast<std::uint64_t>(v), buf + 48)
                      : writeDigits(v, buf + 48);
    return QString(reinterpret_cast<const QChar *>(buf + 48 - n), n);
}

UNanos magnitude(Nanos n) {
    return n < 0 ? static_cast<UNanos>(-n) : static_cast<UNanos>(n);
}

// Largest exponent (a multiple of 3) that leaves an integer mantissa, as apimachinery's
// AsCanonicalBytes does; input is a magnitude in nanos.
template <typename U> void canonicalDecimalT(U m, UNanos &mantissa, int &exponent) {
    exponent = -9;
    while (m % 1000 == 0) {
        m /= 1000;
        exponent += 3;
    }
    mantissa = m;
}

// Exponent -9 is itself a multiple of 3, so stripping whole groups of three zeros
// gives the same answer as stripping every zero and multiplying back up.
void canonicalDecimal(UNanos m, UNanos &mantissa, int &exponent) {
    if (m <= std::numeric_limits<std::uint64_t>::max())
        canonicalDecimalT(static_cast<std::uint64_t>(m), mantissa, exponent);
    else
        canonicalDecimalT(m, mantissa, exponent);
}

QString decimalSuffix(int exponent, Quantity::Format format) {
    if (exponent == 0)
        return {};
    if (format == Quantity::Format::DecimalSI) {
        for (const Suffix &s : kSuffixes) {
            if (s.base == 10 && s.exponent == exponent)
                return QString::fromUtf16(s.text);
        }
    }
    // DecimalExponent, or a DecimalSI magnitude beyond 'E' (upstream falls back to eN).
    return u'e' + QString::number(exponent);
}

Result<Quantity> checkedResult(bool overflow, Nanos n, Quantity::Format format, const char16_t *op) {
    if (overflow || n < -Quantity::maxNanos())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("quantity overflow: the result of ") % QStringView(op) %
                               QStringLiteral(" is out of range (magnitude must stay below about 1.7e29)"));
    return Quantity::fromNanos(n, format);
}

} // namespace

Result<Quantity> Quantity::parse(QStringView text, const QString &field) {
    auto r = parse(text);
    if (!r)
        r.error().field = field;
    return r;
}

namespace {

// The number before the suffix: its sign, integer and fraction digits.
struct QuantityNumber {
    bool negative = false;
    QStringView intPart, fracPart;
};

// What the suffix multiplies by: base^exponent, and the format it implies.
struct QuantityScale {
    int base = 10;
    std::int64_t exponent = 0;
    Quantity::Format format = Quantity::Format::DecimalSI;
};

// An exponent suffix (e3, E-2): true when the suffix is one, false when it is not one at
// all, an error when it looks like one but is malformed or out of range.
Result<bool> parseExponentSuffix(QStringView text, QStringView suffix, QuantityScale &scale) {
    if (suffix.front() != u'e' && suffix.front() != u'E')
        return false;
    QStringView e = suffix.mid(1);
    bool expNegative = false;
    if (!e.isEmpty() && (e.front() == u'+' || e.front() == u'-')) {
        expNegative = e.front() == u'-';
        e = e.mid(1);
    }
    bool allDigits = !e.isEmpty();
    for (QChar c : e)
        allDigits = allDigits && isAsciiDigit(c);
    if (!allDigits) {
        const bool looksNumeric = e.isEmpty() || isAsciiDigit(e.front()) || e.front() == u'.';
        if (looksNumeric)
            return parseError(text, QStringLiteral("malformed exponent ") % quoted(suffix) %
                                        QStringLiteral("; expected an integer such as e3 or E-2"));
        return false;
    }
    std::int64_t v = 0;
    for (QChar c : e) {
        v = v * 10 + (c.unicode() - u'0');
        if (v > std::numeric_limits<std::int32_t>::max())
            return parseError(text, QStringLiteral("exponent ") % quoted(suffix) %
                                        QStringLiteral(" is out of range"));
    }
    scale.exponent = expNegative ? -v : v;
    scale.format = Quantity::Format::DecimalExponent;
    return true;
}

// Suffix: exact table entry, or an exponent.
Result<QuantityScale> parseSuffix(QStringView text, QStringView suffix) {
    QuantityScale scale;
    for (const Suffix &s : kSuffixes) {
        if (suffix == QStringView(s.text)) {
            scale.base = s.base;
            scale.exponent = s.exponent;
            scale.format = s.base == 2 ? Quantity::Format::BinarySI : Quantity::Format::DecimalSI;
            return scale;
        }
    }
    auto exponent = parseExponentSuffix(text, suffix, scale);
    if (!exponent)
        return exponent.error();
    if (*exponent)
        return scale;
    for (QChar c : suffix) {
        if (!c.isLetter() && !isAsciiDigit(c))
            return parseError(text, QStringLiteral("unexpected character ") % quoted(QStringView(&c, 1)));
    }
    return parseError(text, QStringLiteral("unknown suffix ") % quoted(suffix) % u"; " % suffixHint(suffix));
}

// Significant digits D and a power of ten: value = D * 10^shift * 2^binary.
Result<Quantity> quantityOf(QStringView text, const QuantityNumber &number, QuantityScale scale) {
    Digits digits; // short inputs stay in the small-string buffer: no allocation
    for (QChar c : number.intPart) {
        if (digits.empty() && c == u'0')
            continue;
        digits.push_back(static_cast<unsigned char>(c.unicode() - u'0'));
    }
    for (QChar c : number.fracPart) {
        if (digits.empty() && c == u'0')
            continue;
        digits.push_back(static_cast<unsigned char>(c.unicode() - u'0'));
    }
    if (digits.empty())
        return Quantity::fromNanos(0, scale.format);

    std::int64_t shift = 9 - static_cast<std::int64_t>(number.fracPart.size());
    if (scale.base == 10)
        shift += scale.exponent;
    else
        for (std::int64_t b = scale.exponent; b > 0; b -= 10)
            multiplySmall(digits, 1024);
    while (digits.back() == 0) {
        digits.pop_back();
        ++shift;
    }

    UNanos mag = 0;
    const UNanos limit = scale.base == 2 ? kBinaryCapNanos : kMaxMagnitude;
    if (!scaleToInteger(digits, shift, limit, mag)) {
        if (scale.base != 2)
            return parseError(text,
                              QStringLiteral("out of range; the magnitude must stay below about 1.7e29"));
        mag = kBinaryCapNanos;
    }
    // Upstream shows a binary value below one unit in decimal-SI from the start.
    if (scale.format == Quantity::Format::BinarySI && mag < static_cast<UNanos>(kNanosPerUnit))
        scale.format = Quantity::Format::DecimalSI;
    const Nanos n = static_cast<Nanos>(mag);
    return Quantity::fromNanos(number.negative ? -n : n, scale.format);
}

} // namespace

Result<Quantity> Quantity::parse(QStringView text) {
    if (text.isEmpty())
        return Error::make(
            Error::Kind::Parse,
            QStringLiteral("invalid quantity: empty; expected a number such as '500m' or '2Gi'"));
    for (QChar c : text) {
        if (c.isSpace())
            return parseError(text, QStringLiteral("whitespace is not allowed anywhere in a quantity"));
    }

    QuantityNumber number;
    qsizetype pos = 0;
    const qsizetype end = text.size();
    if (text[pos] == u'+' || text[pos] == u'-') {
        number.negative = text[pos] == u'-';
        ++pos;
        if (pos < end && (text[pos] == u'+' || text[pos] == u'-'))
            return parseError(text, QStringLiteral("more than one sign"));
    }

    const qsizetype intStart = pos;
    while (pos < end && isAsciiDigit(text[pos]))
        ++pos;
    number.intPart = text.sliced(intStart, pos - intStart);
    if (pos < end && text[pos] == u'.') {
        ++pos;
        const qsizetype fracStart = pos;
        while (pos < end && isAsciiDigit(text[pos]))
            ++pos;
        number.fracPart = text.sliced(fracStart, pos - fracStart);
        if (pos < end && text[pos] == u'.')
            return parseError(text, QStringLiteral("more than one decimal point"));
    }
    if (number.intPart.isEmpty() && number.fracPart.isEmpty())
        return parseError(text, QStringLiteral("missing digits; a quantity starts with a number such as "
                                               "'1', '0.5' or '.5'"));
    if (pos < end && (text[pos] == u'+' || text[pos] == u'-'))
        return parseError(text, QStringLiteral("unexpected '") % text[pos] %
                                    QStringLiteral("' after the number; a sign may only come first"));
    QuantityScale scale; // no suffix: decimal units
    if (const QStringView suffix = text.sliced(pos); !suffix.isEmpty()) {
        auto parsed = parseSuffix(text, suffix);
        if (!parsed)
            return parsed.error();
        scale = *parsed;
    }
    return quantityOf(text, number, scale);
}

Quantity Quantity::fromNanos(Nanos nanos, Format format) {
    Quantity q;
    q.m_nanos = nanos < -maxNanos() ? -maxNanos() : nanos;
    q.m_format = format;
    return q;
}

Quantity Quantity::fromMilli(std::int64_t milli, Format format) {
    return fromNanos(static_cast<Nanos>(milli) * kNanosPerMilli, format);
}

Quantity Quantity::fromInt(std::int64_t value, Format format) {
    return fromNanos(static_cast<Nanos>(value) * kNanosPerUnit, format);
}

QString Quantity::formatName(Format format) {
    switch (format) {
    case Format::DecimalSI: return QStringLiteral("DecimalSI");
    case Format::BinarySI: return QStringLiteral("BinarySI");
    case Format::DecimalExponent: return QStringLiteral("DecimalExponent");
    }
    return {};
}

QString Quantity::toString() const {
    if (m_nanos == 0)
        return QStringLiteral("0");
    const UNanos mag = magnitude(m_nanos);
    const QString sign = m_nanos < 0 ? QStringLiteral("-") : QString();
    Format format = m_format;

    if (format == Format::BinarySI) {
        constexpr UNanos kUnit = kNanosPerUnit;
        // Below 1024, or fractional, binary would round or confuse: print decimal-SI.
        if (mag < 1024 * kUnit || mag % kUnit != 0) {
            format = Format::DecimalSI;
        } else {
            UNanos units = mag / kUnit;
            int power = 0;
            while (units % 1024 == 0) {
                units /= 1024;
                ++power;
            }
            if (power == 0)
                return sign + unsignedToString(units);
            if (power <= 6) {
                for (const Suffix &s : kSuffixes) {
                    if (s.base == 2 && s.exponent == power * 10)
                        return sign + unsignedToString(units) + QString::fromUtf16(s.text);
                }
            }
            // No binary suffix beyond Ei: upstream falls back to exact decimal exponent form.
            format = Format::DecimalExponent;
        }
    }

    UNanos mantissa = 0;
    int exponent = 0;
    canonicalDecimal(mag, mantissa, exponent);
    return sign + unsignedToString(mantissa) + decimalSuffix(exponent, format);
}

Result<Quantity> Quantity::plus(const Quantity &other) const {
    Nanos r = 0;
    const bool overflow = __builtin_add_overflow(m_nanos, other.m_nanos, &r);
    return checkedResult(overflow, r, m_nanos == 0 ? other.m_format : m_format, u"an addition");
}

Result<Quantity> Quantity::minus(const Quantity &other) const {
    Nanos r = 0;
    const bool overflow = __builtin_sub_overflow(m_nanos, other.m_nanos, &r);
    return checkedResult(overflow, r, m_nanos == 0 ? other.m_format : m_format, u"a subtraction");
}

Result<Quantity> Quantity::times(std::int64_t factor) const {
    // By magnitudes rather than __builtin_mul_overflow: clang lowers the 128-bit form to
    // __muloti4, which libgcc (what the fuzz build links) does not provide.
    const UNanos a = magnitude(m_nanos);
    const UNanos b =
        factor < 0 ? static_cast<UNanos>(-static_cast<Nanos>(factor)) : static_cast<UNanos>(factor);
    const bool overflow = b != 0 && a > kMaxMagnitude / b;
    const bool negative = (m_nanos < 0) != (factor < 0);
    const Nanos r = overflow ? 0 : static_cast<Nanos>(a * b);
    return checkedResult(overflow, negative ? -r : r, m_format, u"a multiplication");
}

namespace {
// ceil(|n| / divisor) with n's sign (away from zero), saturated to int64.
std::int64_t scaledAwayFromZero(Nanos n, std::int64_t divisor) {
    const UNanos mag = magnitude(n);
    const auto d = static_cast<UNanos>(divisor);
    UNanos q = mag / d + (mag % d != 0 ? 1 : 0);
    constexpr auto kMax = static_cast<UNanos>(std::numeric_limits<std::int64_t>::max());
    if (n >= 0)
        return q > kMax ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(q);
    if (q > kMax)
        return std::numeric_limits<std::int64_t>::min();
    return -static_cast<std::int64_t>(q);
}
} // namespace

std::int64_t Quantity::value() const {
    return scaledAwayFromZero(m_nanos, kNanosPerUnit);
}

std::int64_t Quantity::milliValue() const {
    return scaledAwayFromZero(m_nanos, kNanosPerMilli);
}

bool Quantity::isInteger() const {
    return m_nanos % kNanosPerUnit == 0;
}

double Quantity::toDouble() const {
    // Split so the integral part keeps full precision before the float conversion.
    const Nanos whole = m_nanos / kNanosPerUnit;
    const Nanos frac = m_nanos % kNanosPerUnit;
    return static_cast<double>(whole) + static_cast<double>(frac) / static_cast<double>(kNanosPerUnit);
}

Result<std::int64_t> Quantity::toGpuCount() const {
    if (m_nanos < 0)
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a GPU count cannot be negative, got ") % quoted(toString()));
    if (!isInteger())
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("a GPU count must be a whole number, got ") % quoted(toString()));
    if (m_nanos / kNanosPerUnit > std::numeric_limits<std::int64_t>::max())
        return Error::make(Error::Kind::Invalid, QStringLiteral("GPU count ") % quoted(toString()) %
                                                     QStringLiteral(" is too large"));
    return static_cast<std::int64_t>(m_nanos / kNanosPerUnit);
}

} // namespace gq
