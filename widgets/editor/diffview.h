#pragma once

#include "core/domain/textdiff.h"

#include <QColor>
#include <QList>
#include <QPlainTextEdit>
#include <QWidget>

class QLabel;
class QSplitter;

namespace gq {

// One read-only column of an aligned comparison: each row is a line of one version
// (with its own line number) or a blank filler so that corresponding lines of the
// other columns sit side by side. Used by DiffView (two columns) and by the
// three-way view of ConflictDialog.
class DiffPane final : public QPlainTextEdit {
    Q_OBJECT
public:
    enum class Tint { None, Added, Removed, Changed, Conflict, Filler };
    struct Row {
        QString text;
        int number = 0; // 1-based line number in its version; 0 for a filler row
        Tint tint = Tint::None;
        QList<CharSpan> marks; // intra-line differences, drawn stronger
    };

    explicit DiffPane(QWidget *parent = nullptr);
    void setRows(const QList<Row> &rows);
    [[nodiscard]] const QList<Row> &rows() const { return m_rows; }
    [[nodiscard]] int gutterWidth() const;
    [[nodiscard]] static QColor tintColor(Tint tint, bool strong, bool dark);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    friend class DiffPaneGutter;
    void paintGutter(QPaintEvent *event);
    QWidget *m_gutter = nullptr;
    QList<Row> m_rows;
};

// Side-by-side, coloured line diff with intra-line highlights, line numbers and
// synchronized scrolling. Shown before every apply (editor text vs the server's
// current object) and inside the conflict view.
class DiffView final : public QWidget {
    Q_OBJECT
public:
    explicit DiffView(QWidget *parent = nullptr);

    void setTitles(const QString &left, const QString &right);
    void setTexts(const QString &left, const QString &right);
    [[nodiscard]] const LineDiff &diff() const { return m_diff; }
    [[nodiscard]] bool isIdentical() const { return m_diff.identical(); }
    // "2 added, 1 removed, 3 changed" / "No differences" (translated).
    [[nodiscard]] QString summary() const;
    [[nodiscard]] DiffPane *leftPane() const { return m_left; }
    [[nodiscard]] DiffPane *rightPane() const { return m_right; }
    // Index into diff().hunkStarts() of the hunk last navigated to, -1 if none.
    [[nodiscard]] int currentHunk() const { return m_hunk; }

public slots:
    void nextChange();
    void previousChange();

signals:
    void diffChanged();

private:
    void showHunk(int index);

    QLabel *m_leftTitle = nullptr;
    QLabel *m_rightTitle = nullptr;
    QLabel *m_summary = nullptr;
    DiffPane *m_left = nullptr;
    DiffPane *m_right = nullptr;
    LineDiff m_diff;
    int m_hunk = -1;
};

// Keeps the vertical and horizontal scroll positions of several panes in step.
void syncScrolling(const QList<QPlainTextEdit *> &panes);

// Adds a column to `splitter`: a bold title over a DiffPane named `objectName`.
// Returns the pane; `title` is set to the (still empty) title label.
DiffPane *addTitledPane(QSplitter *splitter, const QString &objectName, QLabel *&title);

} // namespace gq
