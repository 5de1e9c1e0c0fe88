// gpuquota: the command-line companion of the console (also installed as
// kubectl-gpuquota). main() only dispatches; every verb is in its own cmd_*.cpp.
#include "app/cli/cliargs.h"
#include "app/cli/settingsdefaults.h"
#include "app/cli/verbs.h"

#include "services/settings/consolesettings.h"
#include "gq_version.h"
#include "core/domain/processguard.h"

#include <QCoreApplication>
#include <QTextStream>
#ifdef GQ_CLI_GUI
#include <QGuiApplication>
#endif

#include <algorithm>
#include <cstdio>
#include <memory>

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
    out << "Usage: gpuquota [--kubeconfig FILE] [--context NAME] [--request-timeout T] [--settings-file "
           "FILE]\n"
           "                VERB [ARGS...]\n\n"
        << "GPU Quota Console command line: validate and format quota manifests, inspect\n"
        << "and apply them on a cluster, and account GPU-hours.\n\nVerbs:\n";
    for (const Verb &v : verbs)
        out << "  " << v.synopsis.leftJustified(44) << ' ' << v.summary << '\n';
    out << "\nOptions:\n  --help     show this help\n  --version  show the version\n"
        << "  --request-timeout T  cluster verbs: how long one server request may take, retries included\n"
        << "             (30s, 1m, plain seconds; 0: no limit; default 30 s per attempt, 60 s in all)\n"
        << "  --settings-file FILE  the console's settings, for defaults (default "
        << gq::ConsoleSettings::defaultFilePath() << ");\n"
        << "             --db defaults to the usage database set there for the context in use\n"
        << "\nExit codes: 0 success, 1 failure (invalid input, denied, conflict), 2 usage error.\n";
}

// `gpuquota VERB --help` (or -h anywhere before a "--"), for every verb: the synopsis,
// the summary and the verb's help text.
static bool wantsHelp(const QStringList &args) {
    for (const QString &a : args) {
        if (a == QLatin1String("--"))
            return false;
        if (a == QLatin1String("--help") || a == QLatin1String("-h"))
            return true;
    }
    return false;
}

static void printVerbHelp(QTextStream &out, const Verb &v) {
    out << "Usage: gpuquota " << v.synopsis << "\n\n" << v.summary << ".\n";
    if (!v.help.isEmpty())
        out << '\n' << v.help;
    out << "\nGlobal options (--kubeconfig, --context, --settings-file, ...): see gpuquota --help.\n";
}

// The verb's arguments, read from argv before any application object exists: the
// verb decides whether it needs Qt Gui (see Verb::needsGui).
static std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv) {
#ifdef GQ_CLI_GUI
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QLatin1String("--kubeconfig") || a == QLatin1String("--context")) {
            ++i;
            continue;
        }
        if (a.startsWith(QLatin1Char('-')))
            continue;
        QStringList rest;
        for (int j = i + 1; j < argc; ++j)
            rest << QString::fromLocal8Bit(argv[j]);
        for (const Verb &v : verbRegistry()) {
            if (v.name == a && v.needsGui && v.needsGui(rest)) {
                // A command line never shows a window, whatever the session offers.
                qputenv("QT_QPA_PLATFORM", "offscreen");
                return std::make_unique<QGuiApplication>(argc, argv);
            }
        }
        break;
    }
#endif
    return std::make_unique<QCoreApplication>(argc, argv);
}

} // namespace gq::cli

int main(int argc, char **argv) {
    gq::protectProcessSecrets();
    const std::unique_ptr<QCoreApplication> app = gq::cli::makeApplication(argc, argv);
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
        // The console's settings file for defaults (--db); not passed on to the verb.
        if (a == QLatin1String("--settings-file") && args.size() >= 2) {
            args.takeFirst();
            gq::cli::setSettingsFile(args.takeFirst());
            continue;
        }
        if (a.startsWith(QLatin1String("--settings-file="))) {
            gq::cli::setSettingsFile(args.takeFirst().mid(int(qstrlen("--settings-file="))));
            continue;
        }
        if ((a == QLatin1String("--kubeconfig") || a == QLatin1String("--context") ||
             a == QLatin1String("--request-timeout")) &&
            args.size() >= 2) {
            globals << args.takeFirst() << args.takeFirst();
            continue;
        }
        if (a.startsWith(QLatin1String("--kubeconfig=")) || a.startsWith(QLatin1String("--context=")) ||
            a.startsWith(QLatin1String("--request-timeout="))) {
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
        if (v.name != verbName)
            continue;
        if (gq::cli::wantsHelp(args)) {
            gq::cli::printVerbHelp(out, v);
            return gq::cli::Ok;
        }
        gq::cli::setCurrentVerb(verbName);
        return v.run(globals + args);
    }
    err << "gpuquota: unknown verb '" << verbName << "' (see gpuquota --help)\n";
    return gq::cli::UsageError;
}
