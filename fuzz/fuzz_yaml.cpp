// libFuzzer target for the YAML loader, the ResourceQuota / LimitRange validator and
// `gpuquota fmt`. Besides "does not crash, leak or trip a sanitizer" it checks the
// properties in yaml_properties.h; a violation aborts so libFuzzer keeps the input.
#include "fuzz/yaml_properties.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > 16 * 1024)
        return 0; // manifests are small; huge inputs only slow the search down
    const QByteArray input(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    const QString problem = gq::fuzz::checkYamlProperties(input);
    if (!problem.isEmpty()) {
        std::fprintf(stderr, "fuzz_yaml: %s\n", qPrintable(problem));
        std::abort();
    }
    return 0;
}
