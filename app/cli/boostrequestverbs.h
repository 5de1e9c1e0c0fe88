#pragma once

#include <QStringList>

// `gpuquota boost request|withdraw|requests|approve|deny` (cmd_boostrequests.cpp),
// dispatched by `gpuquota boost` (cmd_boost.cpp).
namespace gq::cli::boostrequests {

// The user's side, through the controller with their token: ask, withdraw.
int runRequest(const QStringList &argv);
int runWithdraw(const QStringList &argv);
// With --db the admin's list of every request (pending first, with the budget's usage);
// with --server the caller's own.
int runRequests(const QStringList &argv);
// The admin's decision in the usage database; approve grants the boost like `boost grant`.
int runApprove(const QStringList &argv);
int runDeny(const QStringList &argv);

} // namespace gq::cli::boostrequests
