#pragma once

namespace gq {

// Keeps secrets held in memory (bearer tokens, client keys, database passwords) out
// of core files and away from other processes of the same user: no core dumps
// (RLIMIT_CORE 0) and not dumpable, so ptrace attach and /proc/PID/mem are refused.
// GQ_ALLOW_CORE_DUMPS=1 in the environment leaves both alone, for debugging a crash.
// Call first thing in main(). Where the platform has no such switches it does nothing.
void protectProcessSecrets();

} // namespace gq
