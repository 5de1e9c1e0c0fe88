// libFuzzer target for the Quantity parser. Besides "does not crash or trip a
// sanitizer", it checks the properties in quantity_properties.h (canonical round trip,
// exact arithmetic); a violation aborts so libFuzzer keeps the input as a crasher.
#include "fuzz/quantity_properties.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 4096)
        return 0; // the grammar is short; huge inputs only slow the search down
    const QString input =
        QString::fromUtf8(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const QString problem = gq::fuzz::checkQuantityProperties(input);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "fuzz_quantity: %s\n  input: '%s'\n", qPrintable(problem), qPrintable(input));
        std::abort();
    }
    return 0;
}
