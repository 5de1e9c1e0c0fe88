#pragma once

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace gq::cli {

// Exit codes shared by every verb.
enum ExitCode : int { Ok = 0, Failed = 1, UsageError = 2 };

// One `gpuquota VERB`. Each verb lives in its own cmd_*.cpp file and registers
// itself with GQ_REGISTER_VERB, so adding a verb never touches main.cpp.
struct Verb {
    QString name;     // "validate"
    QString synopsis; // "validate FILE..."
    QString summary;  // one line for --help
    int order = 100;  // position in --help
    // args excludes the program name and the verb; global options
    // (--kubeconfig, --context) are passed through in args untouched.
    std::function<int(const QStringList &args)> run;
    // True when this run draws (a PDF): main() then starts a QGuiApplication on the
    // offscreen platform, which fonts need; every other run stays Qt Core only.
    std::function<bool(const QStringList &args)> needsGui = {};
    // What `gpuquota VERB --help` prints after the synopsis and summary: flags, defaults,
    // exit codes. main() answers --help / -h for every verb (and sub-command) alike; a verb
    // never sees them. Its flags go through the one parser in cliargs.h.
    QString help = {};
};

std::vector<Verb> &verbRegistry();

struct VerbRegistrar {
    explicit VerbRegistrar(Verb verb) { verbRegistry().push_back(std::move(verb)); }
};

} // namespace gq::cli

#define GQ_CLI_CONCAT2(a, b) a##b
#define GQ_CLI_CONCAT(a, b) GQ_CLI_CONCAT2(a, b)
#define GQ_REGISTER_VERB(...)                                                                                \
    static const ::gq::cli::VerbRegistrar GQ_CLI_CONCAT(gqVerbRegistrar_, __LINE__) {                        \
        ::gq::cli::Verb {                                                                                    \
            __VA_ARGS__                                                                                      \
        }                                                                                                    \
    }
