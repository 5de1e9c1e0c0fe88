#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace gq {

// Line-based text comparison and three-way merge, for the diff shown before every
// apply and for rebasing an edit onto a server copy that changed underneath it.
// Pure functions over text; the widgets only paint what these return.

// Splits text into lines without their terminators. "a\nb\n" and "a\nb" both give
// {"a","b"}; "" gives {}; "\r\n" line ends are accepted.
[[nodiscard]] QStringList splitLines(const QString &text);

// One row of a side-by-side diff. Indexes are 0-based into the left/right line
// lists; -1 means the row is blank on that side.
struct DiffRow {
    enum class Kind { Same, Added, Removed, Changed };
    Kind kind = Kind::Same;
    int left = -1;
    int right = -1;
    friend bool operator==(const DiffRow &, const DiffRow &) = default;
};

struct LineDiff {
    QList<DiffRow> rows;
    int added = 0;   // rows only on the right
    int removed = 0; // rows only on the left
    int changed = 0; // rows present on both sides with different text
    [[nodiscard]] bool identical() const { return added == 0 && removed == 0 && changed == 0; }
    // Index into rows of the first row of each run of non-Same rows.
    [[nodiscard]] QList<int> hunkStarts() const;
};

// Minimal line diff (Myers). Within a run of deletions followed by insertions, lines
// are paired up as Changed rows so a modified value sits next to its old version.
[[nodiscard]] LineDiff diffLines(const QStringList &left, const QStringList &right);
[[nodiscard]] LineDiff diffTexts(const QString &left, const QString &right);

// Character ranges that differ inside a Changed row, for intra-line highlighting.
struct CharSpan {
    int start = 0;
    int length = 0;
    friend bool operator==(const CharSpan &, const CharSpan &) = default;
};
struct InlineDiff {
    QList<CharSpan> left;
    QList<CharSpan> right;
};
[[nodiscard]] InlineDiff diffInline(QStringView left, QStringView right);

// A region of a three-way comparison. Ranges are [begin, end) line indexes into
// the base, ours and theirs line lists.
struct LineRange {
    int begin = 0;
    int end = 0;
    [[nodiscard]] int size() const { return end - begin; }
    friend bool operator==(const LineRange &, const LineRange &) = default;
};

struct MergeChunk {
    enum class Kind {
        Stable,   // all three agree
        Ours,     // only ours changed the base here: take ours
        Theirs,   // only theirs changed the base here: take theirs
        Both,     // both made the identical change
        Conflict, // both changed overlapping base lines differently
    };
    Kind kind = Kind::Stable;
    LineRange base;
    LineRange ours;
    LineRange theirs;
};

// Splits the three versions into aligned chunks. Two edits conflict only when their
// base ranges overlap (or both insert at the same place); edits to neighbouring lines
// merge cleanly, which is what YAML's one-key-per-line layout wants.
[[nodiscard]] QList<MergeChunk> merge3Chunks(const QStringList &base, const QStringList &ours,
                                             const QStringList &theirs);

struct MergeConflict {
    int line = 0;       // 1-based line of the "<<<<<<<" marker in MergeResult::text
    int baseLine = 0;   // 1-based line in base where the region starts (or would be inserted)
    int oursLine = 0;   // the same for ours
    int theirsLine = 0; // and for theirs
    QStringList base;
    QStringList ours;
    QStringList theirs;
};

struct MergeResult {
    QString text; // the merged text; conflicts appear between git-style markers
    QList<MergeConflict> conflicts;
    [[nodiscard]] bool clean() const { return conflicts.isEmpty(); }
};

struct MergeLabels {
    QString ours = QStringLiteral("yours");
    QString theirs = QStringLiteral("server");
};

// Applies the change base->ours on top of theirs. The result ends with a newline
// when ours or theirs does.
[[nodiscard]] MergeResult merge3(const QString &base, const QString &ours, const QString &theirs,
                                 const MergeLabels &labels = {});

// True if the line is a "<<<<<<<", "=======" or ">>>>>>>" marker left by merge3.
[[nodiscard]] bool isConflictMarker(QStringView line);

} // namespace gq
