#include "core/usage/loadedlibpq.h"

#include <dlfcn.h>

namespace gq::loadedlibpq {

void *acquire() {
    return dlopen("libpq.so.5", RTLD_LAZY | RTLD_NOLOAD);
}

void *symbol(void *library, const char *name) {
    return library ? dlsym(library, name) : nullptr;
}

void release(void *library) {
    if (library)
        dlclose(library);
}

} // namespace gq::loadedlibpq
