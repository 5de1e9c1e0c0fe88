#include "app/cli/cliargs.h"

namespace gq::cli {
namespace {

QString &verbName() {
    static QString name;
    return name;
}

const QList<Flag> &globalFlags() {
    static const QList<Flag> globals{valueFlag(QStringLiteral("kubeconfig")),
                                     valueFlag(QStringLiteral("context"))};
    return globals;
}

// "-5", "-0.5": a negative number is a word, not a flag.
bool isNumber(const QString &arg) {
    bool ok = false;
    (void)arg.toDouble(&ok);
    return ok;
}

const Flag *findFlag(const QList<Flag> &flags, const QString &name, QChar shortName) {
    for (const QList<Flag> *set : {&flags, &globalFlags()})
        for (const Flag &f : *set)
            if (shortName.isNull() ? f.name == name : f.shortName == shortName)
                return &f;
    // -o is --output wherever a verb has one.
    if (shortName == QLatin1Char('o'))
        for (const Flag &f : flags)
            if (f.name == QLatin1String("output"))
                return &f;
    return nullptr;
}

QString unknownFlag(const QString &shown) {
    const QString verb = currentVerb();
    return verb.isEmpty() ? QStringLiteral("unknown flag %1").arg(shown)
                          : QStringLiteral("unknown flag %1 (see gpuquota %2 --help)").arg(shown, verb);
}

// One flag word at args[i] (and its value words, i moves past them) into `a`.
void takeFlag(const QStringList &args, qsizetype &i, const QList<Flag> &flags, Args &a) {
    const QString &arg = args.at(i);
    QString value;
    bool hasValue = false;
    const Flag *flag = nullptr;
    QString shown;
    if (arg.startsWith(QLatin1String("--"))) {
        QString name = arg.mid(2);
        if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
            value = name.mid(eq + 1);
            name.truncate(eq);
            hasValue = true;
        }
        shown = QStringLiteral("--") + name;
        flag = findFlag(flags, name, {});
    } else {
        shown = arg.left(2);
        flag = findFlag(flags, {}, arg.at(1));
        if (arg.size() > 2) {
            value = arg.mid(arg.at(2) == QLatin1Char('=') ? 3 : 2);
            hasValue = true;
        }
    }
    if (!flag) {
        a.unknownFlag = shown;
        a.error = unknownFlag(shown);
        return;
    }
    const QString name = flag->name;
    switch (flag->kind) {
    case Flag::Kind::Switch:
        if (hasValue && !flag->valueAfterEquals) {
            a.error = QStringLiteral("--%1 takes no value").arg(name);
            return;
        }
        value = hasValue ? value : flag->bareValue;
        break;
    case Flag::Kind::Value:
        if (!hasValue) {
            if (i + 1 >= args.size()) {
                a.error = QStringLiteral("flag --%1 needs a value").arg(name);
                return;
            }
            value = args.at(++i);
        }
        break;
    case Flag::Kind::Values:
        if (!hasValue) {
            if (i + 1 >= args.size() || args.at(i + 1).startsWith(QLatin1Char('-'))) {
                a.error = QStringLiteral("flag --%1 needs a value").arg(name);
                return;
            }
            value = args.at(++i);
        }
        a.lists[name] << value;
        while (i + 1 < args.size() && !args.at(i + 1).startsWith(QLatin1Char('-')))
            a.lists[name] << args.at(++i);
        a.values.insert(name, a.lists[name].last());
        return;
    }
    a.values.insert(name, value);
    a.lists[name] << value;
}

} // namespace

Args parseFlags(const QStringList &args, const QList<Flag> &flags) {
    Args a;
    bool endOfFlags = false;
    for (qsizetype i = 0; i < args.size() && a.error.isEmpty(); ++i) {
        const QString &arg = args.at(i);
        if (!endOfFlags && arg == QLatin1String("--")) {
            endOfFlags = true;
            continue;
        }
        if (endOfFlags || !arg.startsWith(QLatin1Char('-')) || arg.size() == 1 || isNumber(arg)) {
            a.positional << arg;
            continue;
        }
        takeFlag(args, i, flags, a);
    }
    return a;
}

QList<Flag> valueFlags(const QStringList &names) {
    QList<Flag> flags;
    flags.reserve(names.size());
    for (const QString &n : names)
        flags << valueFlag(n, n == QLatin1String("output") ? QChar(u'o') : QChar());
    return flags;
}

void setCurrentVerb(const QString &verb) {
    verbName() = verb;
}

QString currentVerb() {
    return verbName();
}

} // namespace gq::cli
