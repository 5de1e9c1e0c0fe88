#pragma once

// The one argument parser of every verb. A verb lists its flags (one line each) and
// gets the values, the positional words and, on a usage error, the message to print
// with exit code 2. Every verb spells flags the same way:
//   --name VALUE, --name=VALUE, -x VALUE, -xVALUE, -x=VALUE (a one-letter alias),
//   --switch (no value), "--" ends the flags, "-" and negative numbers are words.
// The global --kubeconfig and --context (main() passes them on) are known to every verb;
// -o is --output wherever a verb has one. --help / -h never reach a verb: main() answers.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gq::cli {

struct Flag {
    enum class Kind {
        Value,  // one value: the next word (or after '=')
        Switch, // no value; --name=VALUE only where valueAfterEquals
        Values, // one or more words up to the next flag; may be repeated (--scrape A B)
    };
    QString name;         // "namespace"
    QChar shortName = {}; // 'n'; none when null
    Kind kind = Kind::Value;
    QString bareValue = QStringLiteral("true"); // a Switch's value when given bare
    bool valueAfterEquals = false;              // a Switch that also takes --name=VALUE (--dry-run=server)
};

// Shorthands that keep a verb's flag table one line a flag.
[[nodiscard]] inline Flag valueFlag(const QString &name, QChar shortName = {}) {
    return Flag{name, shortName, Flag::Kind::Value};
}
[[nodiscard]] inline Flag switchFlag(const QString &name, QChar shortName = {}, const QString &bare = {},
                                     bool valueAfterEquals = false) {
    return Flag{name, shortName, Flag::Kind::Switch, bare.isEmpty() ? QStringLiteral("true") : bare,
                valueAfterEquals};
}
[[nodiscard]] inline Flag valuesFlag(const QString &name) {
    return Flag{name, {}, Flag::Kind::Values};
}

struct Args {
    QHash<QString, QString> values;    // the last value of each flag given (a switch: its bareValue)
    QHash<QString, QStringList> lists; // every value of each flag, in order
    QStringList positional;
    QString error;       // a usage error naming the flag; empty when the arguments parsed
    QString unknownFlag; // the flag as given, when `error` is that it is unknown

    [[nodiscard]] bool has(const QString &k) const { return values.contains(k); }
    [[nodiscard]] QString value(const QString &k, const QString &fallback = {}) const {
        return values.value(k, fallback);
    }
    [[nodiscard]] QStringList all(const QString &k) const { return lists.value(k); }
};

// Parses `args` (the verb's words, globals included) against `flags` plus the globals.
[[nodiscard]] Args parseFlags(const QStringList &args, const QList<Flag> &flags);
// Every name a Value flag, "output" with -o: what most verbs need.
[[nodiscard]] QList<Flag> valueFlags(const QStringList &names);

// The verb main() runs ("budget"), for "see gpuquota VERB --help" in usage errors.
void setCurrentVerb(const QString &verb);
[[nodiscard]] QString currentVerb();

} // namespace gq::cli
