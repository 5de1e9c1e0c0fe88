#pragma once

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace gq::metrics {

// One label of a series. Names and values are interned by the parser, so the many
// repeats in a scrape (modelName, Hostname, UUID) share one string each.
struct Label {
    QString name;
    QString value;
    friend bool operator==(const Label &, const Label &) = default;
};
using Labels = QList<Label>;

// The value of `name` in `labels`, or a null QString when the label is absent.
// (Label sets are small: a linear scan beats a hash here.)
[[nodiscard]] QString labelValue(const Labels &labels, QStringView name);
[[nodiscard]] bool hasLabel(const Labels &labels, QStringView name);

// One sample of the text exposition format, or one series of a Prometheus vector: the
// same shape, so the GPU model reads both.
struct Sample {
    QString name;
    Labels labels;
    double value = 0;
    std::optional<qint64> timestampMs;
    int line = 0; // 1-based line in the exposition text; 0 when not from text
};

// A line the parser could not read. It is skipped; the rest of the text is kept.
struct ParseIssue {
    int line = 0;   // 1-based
    int column = 0; // 1-based byte column where the problem was found
    QString message;
    [[nodiscard]] QString toString() const; // "line 12, column 5: message"
};

struct Exposition {
    QList<Sample> samples;        // in text order, duplicates removed (the first one is kept)
    QHash<QString, QString> help; // metric family -> HELP text, unescaped
    QHash<QString, QString> type; // metric family -> TYPE word (gauge, counter, ...)
    QList<ParseIssue> issues;     // at most kMaxIssues; issueCount has the full count
    int issueCount = 0;
    int lines = 0;

    static constexpr int kMaxIssues = 1000;
};

// Parses the Prometheus text exposition format (version 0.0.4) as dcgm-exporter and
// Prometheus itself write it: comments, # HELP (with \\ and \n escapes) and # TYPE,
// label values with \\, \" and \n escapes (an unknown escape is kept as written, as
// Prometheus' scraper does), optional trailing commas and blanks inside braces,
// NaN / +Inf / -Inf (any case), optional integer millisecond timestamps, CRLF line
// ends. A malformed line is reported with its line number and skipped; a series that
// repeats an earlier one (same name, same label set in any order, same timestamp) is
// reported and the earlier sample kept. Invalid UTF-8 in a label value or HELP text
// makes that line malformed.
[[nodiscard]] Exposition parseExposition(QByteArrayView text);

// "name{a=\"x\",b=\"y\"}" with values escaped as in the exposition format.
[[nodiscard]] QString seriesText(const Sample &sample);

} // namespace gq::metrics
