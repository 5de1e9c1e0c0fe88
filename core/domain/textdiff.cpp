#include "core/domain/textdiff.h"

#include <QHash>

#include <algorithm>
#include <vector>

namespace gq {

namespace {

enum class Op { Equal, Insert, Delete };

struct Edit {
    Op op;
    int a; // index into the left sequence (Equal/Delete)
    int b; // index into the right sequence (Equal/Insert)
};

// Above this edit distance the diff stops looking for a minimal script and reports
// the rest as replaced: the trace grows with D^2 and nobody reads such a diff anyway.
constexpr int kMaxEditDistance = 2000;

// Myers' O(ND) greedy diff on interned sequences. Returns the edit script in order.
std::vector<Edit> myers(const std::vector<int> &a, const std::vector<int> &b) {
    const int n = int(a.size());
    const int m = int(b.size());
    std::vector<Edit> script;

    // Common prefix and suffix never take part in the search.
    int pre = 0;
    while (pre < n && pre < m && a[pre] == b[pre])
        ++pre;
    int suf = 0;
    while (suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf])
        ++suf;
    for (int i = 0; i < pre; ++i)
        script.push_back({Op::Equal, i, i});

    const int an = n - pre - suf;
    const int bm = m - pre - suf;
    auto A = [&](int i) { return a[pre + i]; };
    auto B = [&](int j) { return b[pre + j]; };

    std::vector<Edit> middle;
    if (an == 0 || bm == 0) {
        for (int i = 0; i < an; ++i)
            middle.push_back({Op::Delete, pre + i, -1});
        for (int j = 0; j < bm; ++j)
            middle.push_back({Op::Insert, -1, pre + j});
    } else {
        const int maxD = std::min(an + bm, kMaxEditDistance);
        std::vector<std::vector<int>> trace; // trace[d][k + d] = furthest x on diagonal k
        std::vector<int> v(2 * size_t(maxD) + 3, 0);
        const int off = maxD + 1;
        int found = -1;
        for (int d = 0; d <= maxD && found < 0; ++d) {
            for (int k = -d; k <= d; k += 2) {
                int x;
                if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1]))
                    x = v[off + k + 1];
                else
                    x = v[off + k - 1] + 1;
                int y = x - k;
                while (x < an && y < bm && A(x) == B(y)) {
                    ++x;
                    ++y;
                }
                v[off + k] = x;
                if (x >= an && y >= bm) {
                    found = d;
                    break;
                }
            }
            trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
        }
        if (found < 0) {
            for (int i = 0; i < an; ++i)
                middle.push_back({Op::Delete, pre + i, -1});
            for (int j = 0; j < bm; ++j)
                middle.push_back({Op::Insert, -1, pre + j});
        } else {
            int x = an;
            int y = bm;
            for (int d = found; d > 0; --d) {
                const std::vector<int> &prev = trace[size_t(d - 1)];
                auto at = [&](int k) { return prev[size_t(k + d - 1)]; };
                const int k = x - y;
                const bool down = (k == -d || (k != d && at(k - 1) < at(k + 1)));
                const int prevK = down ? k + 1 : k - 1;
                const int prevX = at(prevK);
                const int prevY = prevX - prevK;
                while (x > prevX && y > prevY) {
                    --x;
                    --y;
                    middle.push_back({Op::Equal, pre + x, pre + y});
                }
                if (down)
                    middle.push_back({Op::Insert, -1, pre + prevY});
                else
                    middle.push_back({Op::Delete, pre + prevX, -1});
                x = prevX;
                y = prevY;
            }
            while (x > 0 && y > 0) {
                --x;
                --y;
                middle.push_back({Op::Equal, pre + x, pre + y});
            }
            std::reverse(middle.begin(), middle.end());
        }
    }
    script.insert(script.end(), middle.begin(), middle.end());
    for (int i = 0; i < suf; ++i)
        script.push_back({Op::Equal, n - suf + i, m - suf + i});
    return script;
}

// Maps equal strings to equal small integers so the diff compares ints.
class Interner {
public:
    std::vector<int> intern(const QStringList &lines) {
        std::vector<int> ids;
        ids.reserve(size_t(lines.size()));
        for (const QString &l : lines) {
            auto it = m_ids.constFind(l);
            if (it == m_ids.constEnd())
                it = m_ids.insert(l, int(m_ids.size()));
            ids.push_back(*it);
        }
        return ids;
    }

private:
    QHash<QString, int> m_ids;
};

// A changed region of `other` relative to base, in both coordinate systems.
struct Hunk {
    int b0, b1; // base range
    int o0, o1; // other range
};

std::vector<Hunk> hunksOf(const std::vector<Edit> &script) {
    std::vector<Hunk> hunks;
    int bpos = 0;
    int opos = 0;
    size_t i = 0;
    while (i < script.size()) {
        if (script[i].op == Op::Equal) {
            ++bpos;
            ++opos;
            ++i;
            continue;
        }
        Hunk h{bpos, bpos, opos, opos};
        while (i < script.size() && script[i].op != Op::Equal) {
            if (script[i].op == Op::Delete)
                ++h.b1;
            else
                ++h.o1;
            ++i;
        }
        bpos = h.b1;
        opos = h.o1;
        hunks.push_back(h);
    }
    return hunks;
}

// Whether two edits of the base, [a0,a1) and [b0,b1), must be resolved together.
bool collide(int a0, int a1, int b0, int b1) {
    if (a0 < b1 && b0 < a1)
        return true;
    if (a0 == a1 && b0 == b1)
        return a0 == b0;
    if (a0 == a1)
        return b0 < a0 && a0 < b1;
    if (b0 == b1)
        return a0 < b0 && b0 < a1;
    return false;
}

QList<QString> slice(const QStringList &lines, LineRange r) {
    return lines.mid(r.begin, r.size());
}

// "  requests.cpu" for "  requests.cpu: 8": indentation and key, empty if no key.
QStringView lineKey(QStringView line) {
    for (qsizetype i = 0; i < line.size(); ++i) {
        if (line[i] == QLatin1Char(':') && (i + 1 == line.size() || line[i + 1] == QLatin1Char(' ')))
            return line.left(i);
    }
    return {};
}

// Share of characters in a common prefix and suffix, in thousandths.
int similarity(QStringView a, QStringView b) {
    const qsizetype n = std::max(a.size(), b.size());
    if (n == 0)
        return 999;
    const qsizetype m = std::min(a.size(), b.size());
    qsizetype p = 0;
    while (p < m && a[p] == b[p])
        ++p;
    qsizetype s = 0;
    while (s < m - p && a[a.size() - 1 - s] == b[b.size() - 1 - s])
        ++s;
    return int((p + s) * 999 / n);
}

// Lays out one run of deleted and inserted lines as rows. Lines are paired up as
// Changed rows, as many as possible, but a deleted and an inserted line with the same
// YAML key are paired even when that costs another pair: "gpu: 4" must sit next to
// "gpu: 8", not next to a new "limits.cpu" line that happens to come first.
void pairHunk(const QStringList &left, const QStringList &right, const QList<int> &dels,
              const QList<int> &ins, LineDiff &out) {
    const qsizetype nd = dels.size();
    const qsizetype ni = ins.size();
    auto emitPositional = [&] {
        const qsizetype paired = std::min(nd, ni);
        for (qsizetype k = 0; k < paired; ++k) {
            out.rows.append({DiffRow::Kind::Changed, dels[k], ins[k]});
            ++out.changed;
        }
        for (qsizetype k = paired; k < nd; ++k) {
            out.rows.append({DiffRow::Kind::Removed, dels[k], -1});
            ++out.removed;
        }
        for (qsizetype k = paired; k < ni; ++k) {
            out.rows.append({DiffRow::Kind::Added, -1, ins[k]});
            ++out.added;
        }
    };
    if (nd == 0 || ni == 0 || nd * ni > 40000) {
        emitPositional();
        return;
    }
    auto score = [&](qsizetype d, qsizetype i) {
        const QString &a = left[dels[d]];
        const QString &b = right[ins[i]];
        const QStringView ka = lineKey(a);
        const bool sameKey = !ka.isEmpty() && ka == lineKey(b);
        return 1000 + (sameKey ? 2000 : 0) + similarity(a, b);
    };
    // best[d][i]: the highest total score for the suffixes dels[d..], ins[i..].
    const qsizetype w = ni + 1;
    std::vector<int> best(size_t((nd + 1) * w), 0);
    auto at = [&](qsizetype d, qsizetype i) -> int & { return best[size_t(d * w + i)]; };
    for (qsizetype d = nd - 1; d >= 0; --d) {
        for (qsizetype i = ni - 1; i >= 0; --i)
            at(d, i) = std::max({score(d, i) + at(d + 1, i + 1), at(d + 1, i), at(d, i + 1)});
    }
    qsizetype d = 0;
    qsizetype i = 0;
    while (d < nd || i < ni) {
        if (d < nd && i < ni && at(d, i) == score(d, i) + at(d + 1, i + 1)) {
            out.rows.append({DiffRow::Kind::Changed, dels[d++], ins[i++]});
            ++out.changed;
        } else if (d < nd && (i == ni || at(d, i) == at(d + 1, i))) {
            out.rows.append({DiffRow::Kind::Removed, dels[d++], -1});
            ++out.removed;
        } else {
            out.rows.append({DiffRow::Kind::Added, -1, ins[i++]});
            ++out.added;
        }
    }
}

} // namespace

QStringList splitLines(const QString &text) {
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (lines.last().isEmpty())
        lines.removeLast();
    for (QString &l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    return lines;
}

QList<int> LineDiff::hunkStarts() const {
    QList<int> starts;
    bool inHunk = false;
    for (int i = 0; i < rows.size(); ++i) {
        const bool same = rows[i].kind == DiffRow::Kind::Same;
        if (!same && !inHunk)
            starts.append(i);
        inHunk = !same;
    }
    return starts;
}

LineDiff diffLines(const QStringList &left, const QStringList &right) {
    Interner interner;
    const std::vector<int> a = interner.intern(left);
    const std::vector<int> b = interner.intern(right);
    const std::vector<Edit> script = myers(a, b);

    LineDiff out;
    size_t i = 0;
    while (i < script.size()) {
        if (script[i].op == Op::Equal) {
            out.rows.append({DiffRow::Kind::Same, script[i].a, script[i].b});
            ++i;
            continue;
        }
        QList<int> dels;
        QList<int> ins;
        while (i < script.size() && script[i].op != Op::Equal) {
            if (script[i].op == Op::Delete)
                dels.append(script[i].a);
            else
                ins.append(script[i].b);
            ++i;
        }
        pairHunk(left, right, dels, ins, out);
    }
    return out;
}

LineDiff diffTexts(const QString &left, const QString &right) {
    return diffLines(splitLines(left), splitLines(right));
}

InlineDiff diffInline(QStringView left, QStringView right) {
    // Tokens: runs of letters/digits, runs of spaces, or single other characters, so
    // "16Gi" -> "32Gi" marks the number, not a scatter of letters.
    auto tokenize = [](QStringView s) {
        QList<CharSpan> spans;
        int i = 0;
        const int n = int(s.size());
        while (i < n) {
            const QChar c = s[i];
            int j = i + 1;
            if (c.isLetterOrNumber()) {
                while (j < n && s[j].isLetterOrNumber())
                    ++j;
            } else if (c.isSpace()) {
                while (j < n && s[j].isSpace())
                    ++j;
            }
            spans.append({i, j - i});
            i = j;
        }
        return spans;
    };
    const QList<CharSpan> lt = tokenize(left);
    const QList<CharSpan> rt = tokenize(right);
    QHash<QString, int> ids;
    auto idsOf = [&](QStringView s, const QList<CharSpan> &toks) {
        std::vector<int> out;
        out.reserve(size_t(toks.size()));
        for (const CharSpan &t : toks) {
            const QString key = s.mid(t.start, t.length).toString();
            auto it = ids.constFind(key);
            if (it == ids.constEnd())
                it = ids.insert(key, int(ids.size()));
            out.push_back(*it);
        }
        return out;
    };
    const std::vector<int> a = idsOf(left, lt);
    const std::vector<int> b = idsOf(right, rt);
    const std::vector<Edit> script = myers(a, b);

    InlineDiff out;
    auto add = [](QList<CharSpan> &spans, CharSpan s) {
        if (!spans.isEmpty() && spans.last().start + spans.last().length == s.start)
            spans.last().length += s.length;
        else
            spans.append(s);
    };
    for (const Edit &e : script) {
        if (e.op == Op::Delete)
            add(out.left, lt[e.a]);
        else if (e.op == Op::Insert)
            add(out.right, rt[e.b]);
    }
    return out;
}

QList<MergeChunk> merge3Chunks(const QStringList &base, const QStringList &ours, const QStringList &theirs) {
    Interner interner;
    const std::vector<int> b = interner.intern(base);
    const std::vector<Hunk> ho = hunksOf(myers(b, interner.intern(ours)));
    const std::vector<Hunk> ht = hunksOf(myers(b, interner.intern(theirs)));

    QList<MergeChunk> chunks;
    int pos = 0; // base cursor
    int oc = 0;  // ours cursor at pos
    int tc = 0;  // theirs cursor at pos
    size_t i = 0;
    size_t j = 0;

    auto stable = [&](int upTo) {
        if (upTo <= pos)
            return;
        const int len = upTo - pos;
        chunks.append({MergeChunk::Kind::Stable, {pos, upTo}, {oc, oc + len}, {tc, tc + len}});
        pos = upTo;
        oc += len;
        tc += len;
    };

    while (i < ho.size() || j < ht.size()) {
        // Start the group with the earliest hunk; on a tie an insertion goes first,
        // because an insertion just before another side's change does not collide.
        bool startOurs;
        if (j >= ht.size())
            startOurs = true;
        else if (i >= ho.size())
            startOurs = false;
        else if (ho[i].b0 != ht[j].b0)
            startOurs = ho[i].b0 < ht[j].b0;
        else
            startOurs = ho[i].b0 == ho[i].b1;

        const Hunk &first = startOurs ? ho[i] : ht[j];
        stable(first.b0);
        int g0 = first.b0;
        int g1 = first.b1;
        const size_t i0 = i;
        const size_t j0 = j;
        if (startOurs)
            ++i;
        else
            ++j;
        for (bool grew = true; grew;) {
            grew = false;
            if (i < ho.size() && collide(ho[i].b0, ho[i].b1, g0, g1)) {
                g0 = std::min(g0, ho[i].b0);
                g1 = std::max(g1, ho[i].b1);
                ++i;
                grew = true;
            }
            if (j < ht.size() && collide(ht[j].b0, ht[j].b1, g0, g1)) {
                g0 = std::min(g0, ht[j].b0);
                g1 = std::max(g1, ht[j].b1);
                ++j;
                grew = true;
            }
        }
        // Ranges of ours/theirs covering [g0, g1): their own hunks plus the stable
        // lines around them that the other side's hunks pulled into the group.
        const bool hasOurs = i > i0;
        const bool hasTheirs = j > j0;
        const int oEnd = hasOurs ? ho[i - 1].o1 + (g1 - ho[i - 1].b1) : oc + (g1 - g0);
        const int tEnd = hasTheirs ? ht[j - 1].o1 + (g1 - ht[j - 1].b1) : tc + (g1 - g0);
        MergeChunk c;
        c.base = {g0, g1};
        c.ours = {oc, oEnd};
        c.theirs = {tc, tEnd};
        if (hasOurs && hasTheirs)
            c.kind = slice(ours, c.ours) == slice(theirs, c.theirs) ? MergeChunk::Kind::Both
                                                                    : MergeChunk::Kind::Conflict;
        else
            c.kind = hasOurs ? MergeChunk::Kind::Ours : MergeChunk::Kind::Theirs;
        chunks.append(c);
        pos = g1;
        oc = oEnd;
        tc = tEnd;
    }
    stable(int(base.size()));
    return chunks;
}

MergeResult merge3(const QString &base, const QString &ours, const QString &theirs,
                   const MergeLabels &labels) {
    const QStringList b = splitLines(base);
    const QStringList o = splitLines(ours);
    const QStringList t = splitLines(theirs);
    QStringList out;
    MergeResult result;
    for (const MergeChunk &c : merge3Chunks(b, o, t)) {
        switch (c.kind) {
        case MergeChunk::Kind::Stable: out += slice(b, c.base); break;
        case MergeChunk::Kind::Ours:
        case MergeChunk::Kind::Both: out += slice(o, c.ours); break;
        case MergeChunk::Kind::Theirs: out += slice(t, c.theirs); break;
        case MergeChunk::Kind::Conflict: {
            MergeConflict conflict;
            conflict.line = int(out.size()) + 1;
            conflict.baseLine = c.base.begin + 1;
            conflict.oursLine = c.ours.begin + 1;
            conflict.theirsLine = c.theirs.begin + 1;
            conflict.base = slice(b, c.base);
            conflict.ours = slice(o, c.ours);
            conflict.theirs = slice(t, c.theirs);
            out.append(QStringLiteral("<<<<<<< ") + labels.ours);
            out += conflict.ours;
            out.append(QStringLiteral("======="));
            out += conflict.theirs;
            out.append(QStringLiteral(">>>>>>> ") + labels.theirs);
            result.conflicts.append(conflict);
            break;
        }
        }
    }
    result.text = out.join(QLatin1Char('\n'));
    const bool newline = ours.endsWith(QLatin1Char('\n')) || theirs.endsWith(QLatin1Char('\n'));
    if (newline && !out.isEmpty())
        result.text += QLatin1Char('\n');
    return result;
}

bool isConflictMarker(QStringView line) {
    auto marker = [&](QLatin1StringView m) {
        return line.startsWith(m) && (line.size() == m.size() || line[m.size()] == QLatin1Char(' '));
    };
    return marker(QLatin1StringView("<<<<<<<")) || line == QLatin1StringView("=======") ||
           marker(QLatin1StringView(">>>>>>>"));
}

} // namespace gq
