#pragma once

class QProcess;

namespace gq {

// Ties a child process's life to ours: if the console dies without cleaning up
// (killed, crashed), the child is stopped too, so no orphaned demo server keeps a
// port and a state file. Call before QProcess::start(). Linux: PR_SET_PDEATHSIG;
// Windows: a job object that kills its processes when the console's handle closes;
// elsewhere nothing (the normal stop path still runs).
void stopChildWithParent(QProcess &process);

} // namespace gq
