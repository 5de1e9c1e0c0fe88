// Windows version of loadedlibpq.h. Not compiled on this project's CI (Debian); built by
// .github/workflows/windows.yml with MSVC.
#include "core/usage/loadedlibpq.h"

#include <windows.h>

namespace gq::loadedlibpq {

void *acquire() {
    // Only a module already in the process; the flags-0 form adds a reference.
    HMODULE module = nullptr;
    if (!GetModuleHandleExW(0, L"libpq.dll", &module))
        return nullptr;
    return module;
}

void *symbol(void *library, const char *name) {
    return library ? reinterpret_cast<void *>(GetProcAddress(static_cast<HMODULE>(library), name)) : nullptr;
}

void release(void *library) {
    if (library)
        FreeLibrary(static_cast<HMODULE>(library));
}

} // namespace gq::loadedlibpq
