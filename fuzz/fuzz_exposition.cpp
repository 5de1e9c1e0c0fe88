// libFuzzer target for the Prometheus text exposition parser and the dcgm-exporter
// mapping on top. Besides "does not crash or trip a sanitizer", it checks the
// properties in exposition_properties.h (kept samples round-trip, issue positions in
// range); a violation aborts so libFuzzer keeps the input as a crasher.
#include "fuzz/exposition_properties.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 65536)
        return 0; // line structure repeats; big inputs only slow the search
    const QByteArray input(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const QString problem = gq::fuzz::checkExpositionProperties(input);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "fuzz_exposition: %s\n", qPrintable(problem));
        std::abort();
    }
    return 0;
}
