#pragma once

#include "core/domain/textdiff.h"

#include <QDialog>
#include <QString>

class QLabel;
class QLayout;
class QPushButton;
class QFrame;
class QTabWidget;
class QScrollArea;

namespace gq {

class DiffPane;
class DiffView;

// Shown when the object under an open edit changed on the server (a 409 Conflict on
// apply, or a watch event). Three aligned columns — what you started from, yours,
// the server's now — and three ways out, none of them silent:
//  * Rebase: apply your change (base -> yours) on top of the server's copy. Clean
//    merges return Rebased; overlapping edits are listed and the user may take the
//    text with conflict markers to the editor (RebasedWithConflicts, which the
//    editor flags as errors so Apply stays refused until they are resolved).
//  * Overwrite: only after an explicit inline confirmation; returns your text, to be
//    applied with the server's resourceVersion.
//  * Discard mine: returns the server's text.
// Non-blocking: use open() and listen to resolved() (or finished()).
class ConflictDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Resolution { Cancelled, Rebased, RebasedWithConflicts, Overwrite, DiscardMine };
    Q_ENUM(Resolution)

    explicit ConflictDialog(QWidget *parent = nullptr);

    // base = the text the edit started from; mine = the editor's text; server = the
    // server's current object as YAML.
    void setVersions(const QString &base, const QString &mine, const QString &server);
    // e.g. "ResourceQuota team-a/gpu-quota"; and why we are here (409, watch event).
    void setObjectDescription(const QString &description, const QString &reason = {});

    [[nodiscard]] Resolution resolution() const { return m_resolution; }
    // The text to continue with; see Resolution. Empty when Cancelled.
    [[nodiscard]] QString resultText() const { return m_result; }
    [[nodiscard]] const MergeResult &merge() const { return m_merge; }

public slots:
    void rebase();           // merges; accepts if clean, else shows the conflicts
    void takeConflicts();    // accept with RebasedWithConflicts
    void requestOverwrite(); // shows the inline confirmation
    void confirmOverwrite();
    void cancelOverwrite();
    void discardMine();
    void reject() override;

signals:
    void resolved(gq::ConflictDialog::Resolution resolution, const QString &text);

private:
    QLayout *buildHeadline();
    QWidget *buildTabs(bool dark);
    QWidget *buildConflictPanel(bool dark);
    QWidget *buildConfirmPanel(bool dark);
    QLayout *buildButtons();
    void finish(Resolution resolution, const QString &text);
    void rebuildThreeWay();
    void showConflicts();

    QString m_base;
    QString m_mine;
    QString m_server;
    MergeResult m_merge;
    Resolution m_resolution = Resolution::Cancelled;
    QString m_result;

    QLabel *m_headline = nullptr;
    QLabel *m_explain = nullptr;
    QTabWidget *m_tabs = nullptr;
    DiffPane *m_basePane = nullptr;
    DiffPane *m_minePane = nullptr;
    DiffPane *m_serverPane = nullptr;
    DiffView *m_mineVsServer = nullptr;
    QFrame *m_conflictPanel = nullptr;
    QLabel *m_conflictList = nullptr;
    QScrollArea *m_conflictScroll = nullptr;
    QFrame *m_confirmPanel = nullptr;
    QLabel *m_confirmText = nullptr;
    QPushButton *m_rebaseButton = nullptr;
    QPushButton *m_takeConflictsButton = nullptr;
    QPushButton *m_overwriteButton = nullptr;
    QPushButton *m_discardButton = nullptr;
};

} // namespace gq
