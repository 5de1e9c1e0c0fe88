// `gpuquota validate` and `gpuquota fmt`: offline checks of ResourceQuota / LimitRange
// manifests, the same rules the console applies before anything is sent to a cluster.
#include "app/cli/cliargs.h"
#include "app/cli/verbs.h"

#include "core/domain/atomicfile.h"
#include "core/domain/boundedread.h"
#include "core/domain/specformat.h"
#include "core/domain/validation.h"
#include "core/domain/yamldoc.h"

#include <QFile>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace gq::cli {

namespace {

// Raw byte output: fmt must print exactly the bytes it computed.
void writeOut(const QByteArray &bytes) {
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), stdout);
}
void writeErr(const QString &text) {
    const QByteArray b = text.toUtf8();
    std::fwrite(b.constData(), 1, std::size_t(b.size()), stderr);
}

// How a file is named in messages.
QString displayName(const QString &file) {
    return file == u"-" ? QStringLiteral("<stdin>") : file;
}

struct Input {
    QString shownName; // displayName() of the file given
    QByteArray text;
};

// Reads a file or stdin ("-"). On failure prints why and returns nullopt.
std::optional<Input> readInput(const QString &name) {
    auto text = readInputFile(name);
    if (!text) {
        writeErr(QStringLiteral("gpuquota: %1\n").arg(text.error().message));
        return std::nullopt;
    }
    return Input{displayName(name), std::move(*text)};
}

// True when the text holds at least one line that is not blank, a comment or a
// document marker: an empty manifest validates nothing and must not pass as valid.
// Scans in place and stops at the first such line (splitting a 16 MiB manifest into
// lines cost more than a tenth of validating it).
bool hasAnyObject(const QByteArray &text) {
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf('\n', start);
        if (end < 0)
            end = text.size();
        const QByteArrayView line = QByteArrayView(text).sliced(start, end - start).trimmed();
        if (!line.isEmpty() && !line.startsWith('#') && line != "---" && line != "...")
            return true;
        start = end + 1;
    }
    return false;
}

int usage(const QString &verb, const QString &message) {
    writeErr(QStringLiteral("gpuquota %1: %2 (see gpuquota %1 --help)\n").arg(verb, message));
    return UsageError;
}

// The verb's flags through the one parser; the exit code when the verb is done already
// (a usage error, no FILE given), nullopt to go on with the FILE operands in args.positional
// ("-" is one, and after "--" everything is).
std::optional<int> parseSpecArgs(const QStringList &rawArgs, const QString &verb, const QList<Flag> &flags,
                                 Args &args) {
    args = parseFlags(rawArgs, flags);
    if (!args.unknownFlag.isEmpty())
        return usage(verb, QStringLiteral("unknown option '%1'").arg(args.unknownFlag));
    if (!args.error.isEmpty())
        return usage(verb, args.error);
    if (args.positional.isEmpty())
        return usage(verb, QStringLiteral("no FILE given"));
    return std::nullopt;
}

const char *const kValidateHelp =
    "Checks ResourceQuota and LimitRange manifests (one or several YAML documents, or a\n"
    "List) the way the Kubernetes API server does, plus the GPU rules of this project.\n"
    "FILE may be - for standard input.\n"
    "\n"
    "Prints one line per problem:  FILE:LINE:COL: field.path: message\n"
    "\n"
    "Options:\n"
    "  --no-gpu-policy      only the API server's rules: accept nvidia.com/gpu and\n"
    "                       limits.nvidia.com/gpu in a quota (never enforced) and\n"
    "                       fractional GPU quotas\n"
    "  --skip-other-kinds   ignore objects that are not ResourceQuota / LimitRange\n"
    "                       instead of reporting them\n"
    "  -q, --quiet          print nothing on success\n"
    "\n"
    "Exit codes: 0 every object is valid, 1 an object is invalid or a file is not YAML,\n"
    "2 usage error or unreadable file.\n";

int runValidate(const QStringList &rawArgs) {
    Args args;
    if (const auto done = parseSpecArgs(rawArgs, QStringLiteral("validate"),
                                        {switchFlag(QStringLiteral("no-gpu-policy")),
                                         switchFlag(QStringLiteral("skip-other-kinds")),
                                         switchFlag(QStringLiteral("quiet"), u'q')},
                                        args))
        return *done;
    ValidationOptions options;
    options.gpuPolicy = !args.has(QStringLiteral("no-gpu-policy"));
    options.ignoreOtherKinds = args.has(QStringLiteral("skip-other-kinds"));
    const bool quiet = args.has(QStringLiteral("quiet"));
    const QStringList &files = args.positional;

    bool unreadable = false;
    bool invalid = false;
    int objectsChecked = 0;
    for (const QString &file : std::as_const(files)) {
        const std::optional<Input> in = readInput(file);
        if (!in) {
            unreadable = true;
            continue;
        }
        if (!hasAnyObject(in->text)) {
            writeOut(QStringLiteral("%1: no objects (the file is empty or holds only comments)\n")
                         .arg(in->shownName)
                         .toUtf8());
            invalid = true;
            continue;
        }
        int checked = 0;
        const QList<Error> errors = validateYamlText(in->text, options, &checked);
        objectsChecked += checked;
        for (const Error &e : errors)
            writeOut(formatDiagnostic(in->shownName, e).toUtf8() + '\n');
        if (!errors.isEmpty()) {
            invalid = true;
        } else if (checked == 0 && !options.ignoreOtherKinds) {
            // An empty List validates nothing, like an empty file.
            writeOut(QStringLiteral("%1: no objects (an empty List)\n").arg(in->shownName).toUtf8());
            invalid = true;
        } else if (checked == 0 && !quiet) {
            writeErr(QStringLiteral("gpuquota validate: %1: no ResourceQuota or LimitRange found\n")
                         .arg(in->shownName));
        }
    }
    if (unreadable)
        return UsageError;
    if (invalid)
        return Failed;
    if (!quiet)
        writeErr(QStringLiteral("gpuquota validate: %1 object(s) in %2 file(s) valid\n")
                     .arg(objectsChecked)
                     .arg(files.size()));
    return Ok;
}

const char *const kFmtHelp =
    "Prints ResourceQuota and LimitRange manifests with every quantity in the canonical\n"
    "form the API server uses (1000m -> 1, 1.5Gi -> 1536Mi, 0.5 -> 500m). Everything else\n"
    "is left byte for byte: comments, key order, quoting, indentation, other objects.\n"
    "FILE may be - for standard input. Several files are printed one after the other.\n"
    "\n"
    "Options:\n"
    "  -w, --write   rewrite the files in place instead of printing them\n"
    "  -l, --list    only list the files whose formatting would change\n"
    "  --check       like --list, and exit 1 if any file would change\n"
    "\n"
    "Exit codes: 0 done, 1 a file is not YAML or holds no objects (as for validate), could\n"
    "not be written (the original is kept as it was) or --check found changes, 2 usage\n"
    "error or unreadable file.\n";

int runFmt(const QStringList &rawArgs) {
    Args args;
    if (const auto done =
            parseSpecArgs(rawArgs, QStringLiteral("fmt"),
                          {switchFlag(QStringLiteral("write"), u'w'),
                           switchFlag(QStringLiteral("list"), u'l'), switchFlag(QStringLiteral("check"))},
                          args))
        return *done;
    const bool write = args.has(QStringLiteral("write"));
    const bool check = args.has(QStringLiteral("check"));
    const bool list = check || args.has(QStringLiteral("list"));
    const QStringList &files = args.positional;
    if (write && files.contains(QStringLiteral("-")))
        return usage(QStringLiteral("fmt"), QStringLiteral("--write cannot rewrite standard input"));

    bool unreadable = false;
    bool unwritable = false;
    bool failed = false;
    bool wouldChange = false;
    for (const QString &file : std::as_const(files)) {
        const std::optional<Input> in = readInput(file);
        if (!in) {
            unreadable = true;
            continue;
        }
        // Like validate: a file of no objects (empty documents, only comments) is an
        // error, found before formatting millions of empty documents for nothing.
        if (!hasAnyObject(in->text)) {
            writeErr(
                QStringLiteral("gpuquota fmt: %1: no objects (the file is empty or holds only comments)\n")
                    .arg(in->shownName));
            failed = true;
            continue;
        }
        auto result = formatQuantities(in->text);
        if (!result) {
            writeErr(formatDiagnostic(in->shownName, result.error()) + u'\n');
            failed = true;
            continue;
        }
        if (result->skipped > 0)
            writeErr(QStringLiteral("gpuquota fmt: %1: %2 quantity(ies) left as written (block or escaped "
                                    "scalars)\n")
                         .arg(in->shownName)
                         .arg(result->skipped));
        const bool changed = result->text != in->text;
        if (list) {
            if (changed) {
                writeOut(in->shownName.toUtf8() + '\n');
                wouldChange = true;
            }
            continue;
        }
        if (!write) {
            writeOut(result->text);
            continue;
        }
        if (!changed)
            continue;
        if (auto saved = writeFileAtomically(file, result->text); !saved) {
            writeErr(QStringLiteral("gpuquota fmt: cannot write %1: %2\n").arg(file, saved.error().message));
            unwritable = true;
        }
    }
    std::fflush(stdout);
    if (unreadable)
        return UsageError;
    if (failed || unwritable || (check && wouldChange))
        return Failed;
    return Ok;
}

} // namespace

GQ_REGISTER_VERB(QStringLiteral("validate"), QStringLiteral("validate FILE..."),
                 QStringLiteral("check ResourceQuota / LimitRange manifests like the API server"), 10,
                 runValidate, {}, QString::fromLatin1(kValidateHelp));
GQ_REGISTER_VERB(QStringLiteral("fmt"), QStringLiteral("fmt [-w] FILE..."),
                 QStringLiteral("print manifests with canonical quantities, comments kept"), 11, runFmt, {},
                 QString::fromLatin1(kFmtHelp));

} // namespace gq::cli
