#pragma once

// Text output every verb shares: one stdout and one stderr stream, and errors printed
// as "error: ..." with the exit code to return; and the one way verbs with
// subcommands find theirs.

#include "core/domain/error.h"
#include "app/cli/verbs.h"

#include <QStringList>
#include <QTextStream>

namespace gq::cli {

QTextStream &out();
QTextStream &err();
int fail(const QString &message, int code = Failed);
// A usage error exits 2 whatever `code` says.
int failWith(const Error &e, int code = Failed);
// Takes the subcommand ("list" in `audit --context C list ...`) out of args: the first
// word that is neither an option nor the value of a global --kubeconfig / --context.
// Empty when there is none.
QString takeSubcommand(QStringList &args);

} // namespace gq::cli
