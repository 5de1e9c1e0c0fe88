// gpuquota-controller: records GPU usage from the cluster into the usage database
// (and, through the hook points of ControllerRuntime, enforces budgets). main() only
// reads the options and composes; the logic is in services/.
#include "services/controller/controllercheck.h"
#include "app/controller/controllerparts.h"
#include "services/controller/controllerruntime.h"
#include "gq_version.h"
#include "core/domain/processguard.h"
#include "services/platform/quitonsignal.h"

#include <QCoreApplication>
#include <QTextStream>

#include <utility>

namespace {

constexpr int kExitUsage = 2;

void printHelp(QTextStream &out) {
    out << "Usage: gpuquota-controller --config FILE [--check-config]\n"
           "       gpuquota-controller --version\n\n"
           "Watches the pods of a Kubernetes cluster and records every GPU a pod holds as a\n"
           "usage interval in the gpuquota database (see packaging/controller.example.yaml).\n\n"
           "  --config FILE   the configuration file (required)\n"
           "  --check-config  check the configuration as a start would (its sections, the files\n"
           "                  and secrets it names, the cluster context) and exit (0 valid,\n"
           "                  2 invalid: one FILE:LINE:COL: key: message line per problem)\n"
           "  --version       show the version\n\n"
           "Exit codes: 0 success, 1 failure while running, 2 usage or configuration error.\n";
}

} // namespace

int main(int argc, char **argv) {
    // Tokens, the database password and the SMTP password live in this process.
    gq::protectProcessSecrets();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuquota-controller"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GQ_VERSION_STRING));
    // From the start: a stop signal during start-up waits in its pipe until exec().
    gq::QuitOnSignal quitOnSignal;
    QTextStream out(stdout);
    QTextStream err(stderr);

    QString configPath;
    bool checkOnly = false;
    const QStringList args = QCoreApplication::arguments();
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--version")) {
            out << "gpuquota-controller " << GQ_VERSION_STRING << '\n';
            return 0;
        }
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            printHelp(out);
            return 0;
        }
        if (a == QLatin1String("--check-config")) {
            checkOnly = true;
        } else if (a == QLatin1String("--config") && i + 1 < args.size()) {
            configPath = args.at(++i);
        } else if (a.startsWith(QLatin1String("--config="))) {
            configPath = a.mid(9);
        } else {
            err << "gpuquota-controller: unknown argument " << a << " (see --help)\n";
            return kExitUsage;
        }
    }
    if (configPath.isEmpty()) {
        err << "gpuquota-controller: --config FILE is required (see --help)\n";
        return kExitUsage;
    }
    // The same checks for --check-config and for a start: every problem at once.
    gq::ControllerCheckResult checked = gq::checkControllerConfig(configPath);
    if (!checked.setup) {
        for (const gq::Error &e : checked.errors)
            err << gq::formatConfigError(configPath, e) << '\n';
        err << "gpuquota-controller: " << checked.errors.size() << " problem(s) in " << configPath
            << "; nothing started\n";
        return kExitUsage;
    }
    if (checkOnly) {
        out << configPath << ": valid\n";
        return 0;
    }
    err.flush();

    gq::ControllerRuntime runtime(checked.setup->config);
    // Enforcement, the webhook, leader election, alerts and self-service around it
    // (controllerparts.h).
    auto parts = gq::ControllerParts::create(runtime, *checked.setup);
    if (!parts) {
        err << "gpuquota-controller: " << parts.error().toString() << '\n';
        return parts.error().kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    if (auto r = runtime.start(); !r) {
        err << "gpuquota-controller: " << r.error().toString() << '\n';
        return r.error().kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    if (auto r = (*parts)->start(); !r) {
        err << "gpuquota-controller: " << r.error().toString() << '\n';
        return r.error().kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    // SIGTERM (a rolling update, kubectl delete pod): stop leading, give the Lease up so
    // the next replica leads at once, then leave the one event loop; a second signal
    // leaves at once. Losing the Lease leaves it with exit code 1 (controllerparts.h).
    bool stopping = false;
    quitOnSignal.setHandler([&stopping, &parts] {
        if (std::exchange(stopping, true)) {
            QCoreApplication::exit(0);
            return;
        }
        (*parts)->shutdown([] { QCoreApplication::exit(0); });
    });
    return app.exec();
}
