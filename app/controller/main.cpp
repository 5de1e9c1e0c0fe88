// gpuquota-controller: records GPU usage from the cluster into the usage database
// (and, through the hook points of ControllerRuntime, enforces budgets). main() only
// reads the options and composes; the logic is in services/.
#include "controllerconfig.h"
#include "controllerparts.h"
#include "controllerruntime.h"
#include "gq_version.h"
#include "quitonsignal.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTextStream>

#include <cstdio>

namespace {

constexpr int kExitUsage = 2;

void printHelp(QTextStream &out) {
    out << "Usage: gpuquota-controller --config FILE [--check-config]\n"
           "       gpuquota-controller --version\n\n"
           "Watches the pods of a Kubernetes cluster and records every GPU a pod holds as a\n"
           "usage interval in the gpuquota database (see packaging/controller.example.yaml).\n\n"
           "  --config FILE   the configuration file (required)\n"
           "  --check-config  validate the configuration and exit (0 valid, 2 invalid)\n"
           "  --version       show the version\n\n"
           "Exit codes: 0 success, 1 failure while running, 2 usage or configuration error.\n";
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gpuquota-controller"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GQ_VERSION_STRING));
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
    const gq::ControllerConfigResult loaded = gq::loadControllerConfig(configPath);
    if (!loaded.config) {
        for (const gq::Error &e : loaded.errors)
            err << gq::formatConfigError(configPath, e) << '\n';
        err << "gpuquota-controller: " << loaded.errors.size() << " problem(s) in " << configPath
            << "; nothing started\n";
        return kExitUsage;
    }
    if (checkOnly) {
        out << configPath << ": valid\n";
        return 0;
    }
    err.flush();

    gq::ControllerRuntime runtime(*loaded.config);
    // Enforcement, the webhook, leader election, alerts and self-service around it
    // (controllerparts.h); their configuration sections are read here, before anything runs.
    auto parts = gq::ControllerParts::create(runtime);
    if (!parts) {
        const gq::Error &e = parts.error();
        if (e.causes.isEmpty()) {
            err << gq::formatConfigError(configPath, e) << '\n';
        } else {
            for (const gq::Error::Cause &c : e.causes)
                err << configPath << ": " << c.field << ": " << c.message << '\n';
        }
        err << "gpuquota-controller: " << std::max<qsizetype>(1, e.causes.size()) << " problem(s) in "
            << configPath << "; nothing started\n";
        return e.kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    if (auto r = runtime.start(); !r) {
        err << "gpuquota-controller: " << r.error().toString() << '\n';
        return r.error().kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    if (auto r = (*parts)->start(); !r) {
        err << "gpuquota-controller: " << r.error().toString() << '\n';
        return r.error().kind == gq::Error::Kind::Config ? kExitUsage : 1;
    }
    // SIGTERM (a rolling update, kubectl delete pod): give the Lease up first, so the
    // next replica leads at once instead of after the lease duration.
    gq::QuitOnSignal quitOnSignal;
    const int rc = app.exec();
    QEventLoop drain;
    (*parts)->shutdown([&drain] { drain.quit(); });
    drain.exec();
    return rc;
}
