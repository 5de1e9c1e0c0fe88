#pragma once

// Specification of gq::Quantity against apimachinery's resource.Quantity. Expected values
// come from upstream's quantity_test.go (TestQuantityParse, TestQuantityString,
// TestQuantityParseEmit, TestNegativeValueRoundsAwayFromZero, TestMul, ...) and from
// working through ParseQuantity / CanonicalizeBytes by hand where upstream has no row.
#include "core/domain/quantity.h"

#include <QRandomGenerator>
#include <QTest>

#include <limits>

using gq::Quantity;
using Format = gq::Quantity::Format;

namespace gq {
// Lets QCOMPARE print quantities as their canonical text.
inline char *toString(const Quantity &q) {
    return QTest::toString(q.toString() + QStringLiteral(" [") + Quantity::formatName(q.format()) +
                           QStringLiteral("]"));
}
} // namespace gq

Q_DECLARE_METATYPE(gq::Quantity::Format)

namespace quantitytest {

inline Quantity q(const char *text) {
    auto r = Quantity::parse(QString::fromUtf8(text));
    if (!r)
        qFatal("test setup: %s does not parse: %s", text, qPrintable(r.error().message));
    return *r;
}

inline QString nanosToString(Quantity::Nanos n) {
    const bool neg = n < 0;
    __extension__ typedef unsigned __int128 U;
    U m = neg ? static_cast<U>(-n) : static_cast<U>(n);
    QString s;
    do {
        s.prepend(QChar(u'0' + static_cast<int>(m % 10)));
        m /= 10;
    } while (m != 0);
    return neg ? u'-' + s : s;
}

inline constexpr const char *kMaxNanosText = "170141183460469231731687303715884105727n";

} // namespace quantitytest

using namespace quantitytest;

class TestQuantity : public QObject {
    Q_OBJECT

private slots:
    void parseCanonical_data();
    void parseCanonical();
    void binaryFractionFlipsOnceLikeUpstream();
    void invalid_data();
    void invalid();
    void errorCarriesField();
    void arithmetic_data();
    void arithmetic();
    void zeroTakesOtherFormat();
    void overflow();
    void compareAcrossFormats_data();
    void compareAcrossFormats();
    void valueRounding_data();
    void valueRounding();
    void constructors_data();
    void constructors();
    void binaryWithoutSuffixReparsesAsDecimal();
    void gpuCount();
    void toDoubleIsForDisplay();
    void rangeEdges();
    void randomRoundTrip();
    void addSubRoundTrip();
};
