#pragma once

namespace gq {

// `gpuquota-console --version` and `--self-test`: what an installer check (CI, a
// packager, an admin after installing) runs to see that the bundle works without a
// display, a cluster or a database.
namespace selftest {

// True when argv asks for --version; it is answered before QApplication exists, so it
// needs no display.
[[nodiscard]] bool wantsVersion(int argc, char **argv);
[[nodiscard]] int printVersion();

// True when argv asks for --self-test; the caller then selects the offscreen platform
// (unless QT_QPA_PLATFORM says otherwise) before constructing QApplication.
[[nodiscard]] bool wantsSelfTest(int argc, char **argv);
// Opens an in-memory SQLite usage database and writes to it, loads the Chinese
// catalogue, renders one usage chart offscreen; prints one line per check. 0 if all
// passed, 1 otherwise. Needs a QApplication.
[[nodiscard]] int run();

} // namespace selftest
} // namespace gq
