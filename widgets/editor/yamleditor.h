#pragma once

#include "services/quotas/draftstore.h"
#include "core/domain/error.h"
#include "core/jobs/jobtracker.h"
#include "core/domain/result.h"

#include <QList>
#include <QPlainTextEdit>
#include <QPointer>
#include <QTextCursor>
#include <QTimer>

#include <functional>

class QAction;
class QLabel;

namespace gq {

class FindBar;
class YamlHighlighter;

// The YAML editor for ResourceQuota / LimitRange manifests: syntax highlighting,
// line numbers, current-line highlight, and validation errors shown where they are
// (wavy underline, gutter icon, tooltip, a one-line problem summary below the text).
// Validation re-runs while typing after a short pause, on a worker thread; a result
// for text that has changed since is dropped (every change cancels the editor's
// JobTracker). validityChanged() follows the latest finished validation so an Apply
// button does not flicker while typing; Apply itself calls validateNow() (synchronous,
// cheap for one manifest) and refuses on errors.
//
// Ctrl+F opens the find bar, Ctrl+Z / Ctrl+Shift+Z undo and redo (canonicalizing is
// one undo step). Optionally bound to a DraftStore so unsaved text autosaves.
class YamlEditor final : public QPlainTextEdit {
    Q_OBJECT
public:
    // Returns every problem in the text. Called on a worker thread with a copy of
    // the text: it must not touch the editor. Errors carry 1-based line/column.
    using Validator = std::function<QList<Error>(const QString &text)>;
    // Rewrites quantities in canonical form ("1000m" -> "1"), nothing else.
    using Canonicalizer = std::function<Result<QString>(const QString &text)>;

    explicit YamlEditor(QWidget *parent = nullptr);
    ~YamlEditor() override;

    // Replaces the text as a fresh start: clears undo history, marks the document
    // unmodified and remembers the text as the baseline (what the edit started from).
    void setYaml(const QString &text);
    [[nodiscard]] QString yaml() const { return toPlainText(); }
    // Replaces the whole text as one undoable edit (restoring a draft, a merge result).
    void replaceAll(const QString &text);
    [[nodiscard]] QString baseline() const { return m_baseline; }
    // True if the text differs from the baseline.
    [[nodiscard]] bool isChanged() const { return toPlainText() != m_baseline; }

    // The defaults use the core loader, validator and formatter.
    void setValidator(Validator validator);
    void setCanonicalizer(Canonicalizer canonicalizer);
    [[nodiscard]] static QList<Error> defaultValidate(const QString &text);
    [[nodiscard]] static Result<QString> defaultCanonicalize(const QString &text);

    // Errors of the last finished validation (of the current text if not pending).
    [[nodiscard]] QList<Error> errors() const { return m_errors; }
    [[nodiscard]] bool hasErrors() const { return !m_errors.isEmpty(); }
    [[nodiscard]] bool isValidationPending() const { return m_pending; }
    // Validates the current text synchronously (Apply calls this) and returns errors.
    QList<Error> validateNow();
    void setValidationDelay(int ms) { m_debounce.setInterval(ms); }

    // Returns false (and leaves the text alone) when the text does not parse.
    bool canonicalizeQuantities();

    Result<void> loadFromFile(const QString &path); // becomes an undoable edit
    Result<void> saveToFile(const QString &path) const;

    // Autosave: while bound, changed text is saved (debounced) under key; returning
    // to the baseline discards the draft. Unbinding flushes what is pending.
    void bindDraft(DraftStore *store, const DraftKey &key, const QString &resourceVersion = {});
    void unbindDraft();

    [[nodiscard]] FindBar *findBar() const { return m_findBar; }
    [[nodiscard]] QAction *canonicalizeAction() const { return m_canonicalizeAction; }
    [[nodiscard]] QAction *findAction() const { return m_findAction; }

    // Moves the cursor to a 1-based line/column and shows it.
    void goToPosition(int line, int column = 0);

    // Gutter/painting helpers used by the internal line-number area.
    [[nodiscard]] int gutterWidth() const;

signals:
    // valid == !hasErrors() after a validation finished; emitted only on change.
    void validityChanged(bool valid);
    void errorsChanged(const QList<gq::Error> &errors);
    // After every finished validation (also when nothing changed), so controls that
    // look at isValidationPending() can refresh.
    void validationFinished(bool valid);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;
    bool viewportEvent(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    friend class YamlEditorGutter;
    void paintGutter(QPaintEvent *event);
    bool gutterToolTip(const QPoint &pos, const QPoint &globalPos);
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void updateExtraSelections();
    void layoutChildren();
    void onTextChanged();
    void startValidation();
    void applyValidation(const QString &text, const QList<Error> &errors);
    void setPending(bool pending);
    void emitValidityIfChanged();
    void updateSummary();
    void saveDraftSoon();
    [[nodiscard]] QList<Error> errorsOnLine(int line) const;
    [[nodiscard]] QTextCursor markerFor(const Error &error) const;
    [[nodiscard]] QString errorText(const Error &e) const;
    void applyPalette();

    QWidget *m_gutter = nullptr;
    QWidget *m_bottom = nullptr;
    QLabel *m_summary = nullptr;
    int m_summaryIndex = 0;
    FindBar *m_findBar = nullptr;
    YamlHighlighter *m_highlighter = nullptr;
    QAction *m_canonicalizeAction = nullptr;
    QAction *m_findAction = nullptr;
    QTimer m_debounce;
    Validator m_validator;
    Canonicalizer m_canonicalizer;
    QString m_baseline;
    QList<Error> m_errors;
    QList<QTextCursor> m_markers; // per error, follows edits until the next validation
    bool m_pending = false;
    bool m_lastValid = true;
    QPointer<DraftStore> m_draftStore;
    DraftKey m_draftKey;
    QString m_draftResourceVersion;
    bool m_draftBound = false;
    // Last member: destroyed first, so no validation result arrives in a half-destroyed editor.
    JobTracker m_validation{this};
};

} // namespace gq
