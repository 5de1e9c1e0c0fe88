#include "app/cli/clioutput.h"

namespace gq::cli {

QTextStream &out() {
    static QTextStream s(stdout);
    return s;
}

QTextStream &err() {
    static QTextStream s(stderr);
    return s;
}

int fail(const QString &message, int code) {
    err() << "error: " << message << '\n';
    err().flush();
    return code;
}

int failWith(const Error &e, int code) {
    return fail(e.toString(), e.kind == Error::Kind::Usage ? UsageError : code);
}

QString takeSubcommand(QStringList &args) {
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &arg = args.at(i);
        if (arg == QLatin1String("--kubeconfig") || arg == QLatin1String("--context"))
            ++i;
        else if (!arg.startsWith(QLatin1Char('-')))
            return args.takeAt(i);
    }
    return {};
}

} // namespace gq::cli
