#pragma once

// The libpq that Qt's PostgreSQL driver plugin has already loaded into this process,
// for the calls QtSql does not offer (COPY, LISTEN/NOTIFY). Never loads a copy of its
// own: a different libpq must not touch the driver's connection. One implementation
// per platform, chosen in CMake: loadedlibpq_posix.cpp (dlopen RTLD_NOLOAD of
// libpq.so.5) and loadedlibpq_win.cpp (GetModuleHandleEx of libpq.dll).

namespace gq::loadedlibpq {

// A counted reference to the loaded libpq, or nullptr when it is not loaded.
void *acquire();
// A function of that libpq by name, or nullptr.
void *symbol(void *library, const char *name);
// Gives back a reference from acquire() (nullptr is fine).
void release(void *library);

} // namespace gq::loadedlibpq
