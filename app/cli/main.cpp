// gpuquota: the command-line companion of the console (also installed as
// kubectl-gpuquota). main() only dispatches; every verb is in its own cmd_*.cpp.
#include "app/cli/verbs.h"

#include "gq_version.h"

#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace gq::cli {

std::vector<Verb> &verbRegistry() {
    static std::vector<Verb> verbs;
    return verbs;
}

static void printHelp(QTextStream &out) {
    auto verbs = verbRegistry();
    std::sort(verbs.begin(), verbs.end(), [](const Verb &a, const Verb &b) {
        return a.order != b.order ? a.order < b.order : a.name < b.name;
    });
    out << "Usage: gpuquota [--kubeconfig FILE] [--context NAME] VERB [ARGS...]\n\n"
        << "GPU Quota Console command line: validate and format quota manifests, inspect\n"
        << "and apply them on a cluster, and account GPU-hours.\n\nVerbs:\n";
    for (const Verb &v : verbs)
        out << "  " << v.synopsis.leftJustified(44) << ' ' << v.summary << '\n';
    out << "\nOptions:\n  --help     show this help\n  --version  show the version\n"
        << "\nExit codes: 0 success, 1 failure (invalid input, denied, conflict), 2 usage error.\n";
}

} // namespace gq::cli

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuquota"));
    QCoreApplication::setOrganizationName(QStringLiteral("gpuquota"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GQ_VERSION_STRING));

    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = QCoreApplication::arguments().mid(1);

    // Global options may come before the verb; they are passed on to the verb.
    QStringList globals;
    while (!args.isEmpty() && args.first().startsWith(QLatin1Char('-'))) {
        const QString a = args.first();
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            gq::cli::printHelp(out);
            return gq::cli::Ok;
        }
        if (a == QLatin1String("--version")) {
            out << "gpuquota " << GQ_VERSION_STRING << '\n';
            return gq::cli::Ok;
        }
        if ((a == QLatin1String("--kubeconfig") || a == QLatin1String("--context")) && args.size() >= 2) {
            globals << args.takeFirst() << args.takeFirst();
            continue;
        }
        if (a.startsWith(QLatin1String("--kubeconfig=")) || a.startsWith(QLatin1String("--context="))) {
            globals << args.takeFirst();
            continue;
        }
        err << "gpuquota: unknown option '" << a << "' (see gpuquota --help)\n";
        return gq::cli::UsageError;
    }
    if (args.isEmpty()) {
        gq::cli::printHelp(err);
        return gq::cli::UsageError;
    }
    const QString verbName = args.takeFirst();
    for (const gq::cli::Verb &v : gq::cli::verbRegistry()) {
        if (v.name == verbName)
            return v.run(globals + args);
    }
    err << "gpuquota: unknown verb '" << verbName << "' (see gpuquota --help)\n";
    return gq::cli::UsageError;
}
