#include "widgets/editor/conflictdialog.h"

#include "widgets/editor/diffview.h"
#include "core/domain/yamldoc.h"

#include <QDialogButtonBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace gq {

namespace {

QFrame *makePanel(QWidget *parent, const QString &name, const QColor &bg, const QColor &border) {
    auto *f = new QFrame(parent);
    f->setObjectName(name);
    f->setFrameShape(QFrame::StyledPanel);
    f->setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 4px; }")
                         .arg(name, bg.name(), border.name()));
    return f;
}

// "spec.hard[requests.cpu]" for keys that contain dots or slashes, like the
// validator's field paths.
QString joinPath(const QString &prefix, const QString &key) {
    if (prefix.isEmpty())
        return key;
    if (key.contains(QLatin1Char('.')) || key.contains(QLatin1Char('/')))
        return prefix + QLatin1Char('[') + key + QLatin1Char(']');
    return prefix + QLatin1Char('.') + key;
}

// The field path of the key or value written on a 1-based line, or empty.
bool fieldAtLine(const YamlNode &node, int line, const QString &prefix, QString *out) {
    if (node.isMap()) {
        for (const YamlNode::Entry &e : node.entries()) {
            const QString path = joinPath(prefix, e.key);
            if (e.keyPos.line == line || (e.value.isScalar() && e.value.pos().line == line)) {
                *out = path;
                return true;
            }
            if (fieldAtLine(e.value, line, path, out))
                return true;
        }
    } else if (node.isSequence()) {
        for (size_t i = 0; i < node.items().size(); ++i) {
            const YamlNode &item = node.items()[i];
            const QString path = prefix + QStringLiteral("[%1]").arg(i);
            if (fieldAtLine(item, line, path, out))
                return true;
            if (item.pos().line == line) {
                *out = path;
                return true;
            }
        }
    }
    return false;
}

QString fieldAtLine(const QString &text, int line) {
    const Result<YamlDocument> doc = loadYaml(text.toUtf8());
    if (!doc)
        return {};
    QString path;
    for (const YamlNode &root : doc->documents) {
        if (fieldAtLine(root, line, QString(), &path))
            return path;
    }
    return {};
}

QString codeBlock(const QStringList &lines, const QString &emptyText) {
    if (lines.isEmpty())
        return QStringLiteral("<i>") + emptyText.toHtmlEscaped() + QStringLiteral("</i>");
    return QStringLiteral("<pre style=\"margin:0\">") + lines.join(QLatin1Char('\n')).toHtmlEscaped() +
           QStringLiteral("</pre>");
}

} // namespace

ConflictDialog::ConflictDialog(QWidget *parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("conflictDialog"));
    setWindowTitle(tr("The object changed on the server"));
    setModal(true);
    resize(1100, 700);

    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buildHeadline());
    layout->addWidget(buildTabs(dark), 1);
    layout->addWidget(buildConflictPanel(dark));
    layout->addWidget(buildConfirmPanel(dark));
    layout->addLayout(buildButtons());

    connect(m_rebaseButton, &QPushButton::clicked, this, &ConflictDialog::rebase);
    connect(m_takeConflictsButton, &QPushButton::clicked, this, &ConflictDialog::takeConflicts);
    connect(m_overwriteButton, &QPushButton::clicked, this, &ConflictDialog::requestOverwrite);
    connect(m_discardButton, &QPushButton::clicked, this, &ConflictDialog::discardMine);

    setObjectDescription(QString());
}

QLayout *ConflictDialog::buildHeadline() {
    auto *top = new QHBoxLayout;
    auto *icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(32, 32));
    icon->setAlignment(Qt::AlignTop);
    auto *texts = new QVBoxLayout;
    m_headline = new QLabel(this);
    m_headline->setObjectName(QStringLiteral("conflictHeadline"));
    QFont hf = m_headline->font();
    hf.setBold(true);
    hf.setPointSizeF(hf.pointSizeF() * 1.15);
    m_headline->setFont(hf);
    m_headline->setWordWrap(true);
    m_explain = new QLabel(this);
    m_explain->setObjectName(QStringLiteral("conflictExplanation"));
    m_explain->setWordWrap(true);
    m_explain->setText(tr("Someone changed this object after you started editing. Nothing has been "
                          "applied. Compare the three versions and choose how to continue."));
    texts->addWidget(m_headline);
    texts->addWidget(m_explain);
    top->addWidget(icon);
    top->addLayout(texts, 1);

    return top;
}

// Three aligned columns (started from / yours / server now) and the two-way diff.
QWidget *ConflictDialog::buildTabs(bool dark) {
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("conflictTabs"));

    auto *threeWay = new QWidget(m_tabs);
    auto *tw = new QVBoxLayout(threeWay);
    tw->setContentsMargins(4, 4, 4, 4);
    auto *legend = new QLabel(threeWay);
    auto swatch = [dark](DiffPane::Tint t, const QString &label) {
        return QStringLiteral("<span style=\"background:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
            .arg(DiffPane::tintColor(t, true, dark).name(), label.toHtmlEscaped());
    };
    legend->setText(swatch(DiffPane::Tint::Added, tr("your changes")) + QStringLiteral("&nbsp;&nbsp;&nbsp;") +
                    swatch(DiffPane::Tint::Changed, tr("the server's changes")) +
                    QStringLiteral("&nbsp;&nbsp;&nbsp;") +
                    swatch(DiffPane::Tint::Conflict, tr("both changed the same lines")));
    tw->addWidget(legend);
    auto *splitter = new QSplitter(Qt::Horizontal, threeWay);
    splitter->setChildrenCollapsible(false);
    auto column = [splitter](const QString &name, const QString &title) {
        QLabel *label = nullptr;
        DiffPane *pane = addTitledPane(splitter, name, label);
        label->setText(title);
        return pane;
    };
    m_basePane = column(QStringLiteral("conflictBase"), tr("What you started from"));
    m_minePane = column(QStringLiteral("conflictMine"), tr("Yours"));
    m_serverPane = column(QStringLiteral("conflictServer"), tr("The server's now"));
    m_basePane->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_minePane->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    syncScrolling({m_basePane, m_minePane, m_serverPane});
    tw->addWidget(splitter, 1);
    m_tabs->addTab(threeWay, tr("Three-way"));

    m_mineVsServer = new DiffView(m_tabs);
    m_mineVsServer->setObjectName(QStringLiteral("conflictMineVsServer"));
    m_mineVsServer->setTitles(tr("The server's now"), tr("Yours"));
    m_tabs->addTab(m_mineVsServer, tr("Yours vs the server's"));

    return m_tabs;
}

// Conflicts found by a rebase: listed, with the way forward.
QWidget *ConflictDialog::buildConflictPanel(bool dark) {
    m_conflictPanel = makePanel(this, QStringLiteral("conflictPanel"),
                                dark ? QColor(0x3a, 0x1f, 0x22) : QColor(0xff, 0xf1, 0xef),
                                dark ? QColor(0x8e, 0x2f, 0x33) : QColor(0xf0, 0xa8, 0x9e));
    auto *cp = new QVBoxLayout(m_conflictPanel);
    m_conflictList = new QLabel(m_conflictPanel);
    m_conflictList->setObjectName(QStringLiteral("conflictList"));
    m_conflictList->setTextFormat(Qt::RichText);
    m_conflictList->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_conflictList->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_conflictScroll = new QScrollArea(m_conflictPanel);
    m_conflictScroll->setFrameShape(QFrame::NoFrame);
    m_conflictScroll->setWidgetResizable(true);
    m_conflictScroll->setWidget(m_conflictList);
    m_conflictScroll->setStyleSheet(
        QStringLiteral("QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }"));
    m_conflictPanel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    cp->addWidget(m_conflictScroll);
    auto *cpButtons = new QHBoxLayout;
    cpButtons->addStretch(1);
    m_takeConflictsButton = new QPushButton(tr("Resolve in the Editor"), m_conflictPanel);
    m_takeConflictsButton->setObjectName(QStringLiteral("takeConflictsButton"));
    m_takeConflictsButton->setToolTip(tr("Open the merged text with conflict markers in the editor. "
                                         "Apply stays disabled until every marker is resolved."));
    cpButtons->addWidget(m_takeConflictsButton);
    cp->addLayout(cpButtons);
    m_conflictPanel->hide();

    return m_conflictPanel;
}

// Overwrite asks inline: no second modal dialog, no nested event loop.
QWidget *ConflictDialog::buildConfirmPanel(bool dark) {
    m_confirmPanel = makePanel(this, QStringLiteral("confirmOverwritePanel"),
                               dark ? QColor(0x3b, 0x33, 0x14) : QColor(0xff, 0xf8, 0xd5),
                               dark ? QColor(0x7a, 0x62, 0x10) : QColor(0xe3, 0xc5, 0x5a));
    auto *op = new QHBoxLayout(m_confirmPanel);
    m_confirmText = new QLabel(m_confirmPanel);
    m_confirmText->setObjectName(QStringLiteral("confirmOverwriteText"));
    m_confirmText->setWordWrap(true);
    QLabel *warn = m_confirmText;
    auto *yes = new QPushButton(tr("Yes, Overwrite the Server's Changes"), m_confirmPanel);
    yes->setObjectName(QStringLiteral("confirmOverwriteButton"));
    auto *no = new QPushButton(tr("Cancel"), m_confirmPanel);
    no->setObjectName(QStringLiteral("cancelOverwriteButton"));
    op->addWidget(warn, 1);
    op->addWidget(no);
    op->addWidget(yes);
    m_confirmPanel->hide();

    connect(yes, &QPushButton::clicked, this, &ConflictDialog::confirmOverwrite);
    connect(no, &QPushButton::clicked, this, &ConflictDialog::cancelOverwrite);
    return m_confirmPanel;
}

QLayout *ConflictDialog::buildButtons() {
    auto *buttons = new QHBoxLayout;
    m_discardButton = new QPushButton(tr("Discard Mine"), this);
    m_discardButton->setObjectName(QStringLiteral("discardButton"));
    m_discardButton->setToolTip(tr("Throw away your edit and continue with the server's version."));
    m_overwriteButton = new QPushButton(tr("Overwrite…"), this);
    m_overwriteButton->setObjectName(QStringLiteral("overwriteButton"));
    m_overwriteButton->setToolTip(tr("Apply your version over the server's (asks for confirmation)."));
    m_rebaseButton = new QPushButton(tr("Rebase My Change onto the Server's"), this);
    m_rebaseButton->setObjectName(QStringLiteral("rebaseButton"));
    m_rebaseButton->setToolTip(tr("Apply the changes you made on top of the server's current version."));
    m_rebaseButton->setDefault(true);
    auto *cancel = new QPushButton(tr("Keep Editing"), this);
    cancel->setObjectName(QStringLiteral("cancelButton"));
    cancel->setToolTip(tr("Close this view without changing anything; your text stays in the editor."));
    buttons->addWidget(m_discardButton);
    buttons->addWidget(m_overwriteButton);
    buttons->addStretch(1);
    buttons->addWidget(cancel);
    buttons->addWidget(m_rebaseButton);

    connect(cancel, &QPushButton::clicked, this, &ConflictDialog::reject);
    return buttons;
}

void ConflictDialog::setObjectDescription(const QString &description, const QString &reason) {
    if (description.isEmpty())
        m_headline->setText(tr("The object changed on the server while you were editing it"));
    else
        m_headline->setText(tr("%1 changed on the server while you were editing it").arg(description));
    QString explain = tr("Nothing has been applied. Compare the three versions and choose how to continue.");
    if (!reason.isEmpty())
        explain = reason + QLatin1Char(' ') + explain;
    m_explain->setText(explain);
}

void ConflictDialog::setVersions(const QString &base, const QString &mine, const QString &server) {
    m_base = base;
    m_mine = mine;
    m_server = server;
    m_merge = merge3(m_base, m_mine, m_server, {tr("yours"), tr("server")});
    m_resolution = Resolution::Cancelled;
    m_result.clear();
    m_conflictPanel->hide();
    m_confirmPanel->hide();
    rebuildThreeWay();
    m_mineVsServer->setTexts(m_server, m_mine);
    m_rebaseButton->setText(m_merge.clean() ? tr("Rebase My Change onto the Server's")
                                            : tr("Rebase My Change onto the Server's…"));
}

void ConflictDialog::rebuildThreeWay() {
    const QStringList b = splitLines(m_base);
    const QStringList o = splitLines(m_mine);
    const QStringList t = splitLines(m_server);
    QList<DiffPane::Row> baseRows;
    QList<DiffPane::Row> mineRows;
    QList<DiffPane::Row> serverRows;
    auto fill = [](QList<DiffPane::Row> &rows, const QStringList &lines, LineRange r, int height,
                   DiffPane::Tint tint, const QStringList &against = {}, LineRange againstRange = {}) {
        for (int i = 0; i < height; ++i) {
            DiffPane::Row row;
            if (i < r.size()) {
                row.text = lines[r.begin + i];
                row.number = r.begin + i + 1;
                row.tint = tint;
                if (tint != DiffPane::Tint::None && i < againstRange.size())
                    row.marks = diffInline(against[againstRange.begin + i], row.text).right;
            } else {
                row.tint = tint == DiffPane::Tint::None ? DiffPane::Tint::None : DiffPane::Tint::Filler;
            }
            rows.append(row);
        }
    };
    for (const MergeChunk &c : merge3Chunks(b, o, t)) {
        const int h = std::max({c.base.size(), c.ours.size(), c.theirs.size()});
        using T = DiffPane::Tint;
        switch (c.kind) {
        case MergeChunk::Kind::Stable:
            fill(baseRows, b, c.base, h, T::None);
            fill(mineRows, o, c.ours, h, T::None);
            fill(serverRows, t, c.theirs, h, T::None);
            break;
        case MergeChunk::Kind::Ours:
            fill(baseRows, b, c.base, h, c.base.size() ? T::Filler : T::None);
            fill(mineRows, o, c.ours, h, T::Added, b, c.base);
            fill(serverRows, t, c.theirs, h, T::None);
            break;
        case MergeChunk::Kind::Theirs:
            fill(baseRows, b, c.base, h, c.base.size() ? T::Filler : T::None);
            fill(mineRows, o, c.ours, h, T::None);
            fill(serverRows, t, c.theirs, h, T::Changed, b, c.base);
            break;
        case MergeChunk::Kind::Both:
            fill(baseRows, b, c.base, h, c.base.size() ? T::Filler : T::None);
            fill(mineRows, o, c.ours, h, T::Added, b, c.base);
            fill(serverRows, t, c.theirs, h, T::Changed, b, c.base);
            break;
        case MergeChunk::Kind::Conflict:
            fill(baseRows, b, c.base, h, T::Conflict);
            fill(mineRows, o, c.ours, h, T::Conflict, b, c.base);
            fill(serverRows, t, c.theirs, h, T::Conflict, b, c.base);
            break;
        }
    }
    // The base column shows lines that changed as plain text on a neutral filler: a
    // filler tint there would read as "missing", so keep text rows untinted.
    for (DiffPane::Row &r : baseRows) {
        if (r.number > 0 && r.tint == DiffPane::Tint::Filler)
            r.tint = DiffPane::Tint::None;
    }
    m_basePane->setRows(baseRows);
    m_minePane->setRows(mineRows);
    m_serverPane->setRows(serverRows);
}

void ConflictDialog::showConflicts() {
    const int n = int(m_merge.conflicts.size());
    const QString headline =
        n == 1 ? tr("Rebasing found 1 conflict: you and the server changed the same lines.")
               : tr("Rebasing found %1 conflicts: you and the server changed the same lines.").arg(n);
    QString html =
        QStringLiteral("<b>") + headline.toHtmlEscaped() + QStringLiteral("</b><table cellspacing=\"6\">");
    html += QStringLiteral("<tr><th align=\"left\">") + tr("Line").toHtmlEscaped() +
            QStringLiteral("</th><th align=\"left\">") + tr("Field").toHtmlEscaped() +
            QStringLiteral("</th><th align=\"left\">") + tr("Started from").toHtmlEscaped() +
            QStringLiteral("</th><th align=\"left\">") + tr("Yours").toHtmlEscaped() +
            QStringLiteral("</th><th align=\"left\">") + tr("The server's now").toHtmlEscaped() +
            QStringLiteral("</th></tr>");
    const QString none = tr("(nothing)");
    for (const MergeConflict &c : m_merge.conflicts) {
        // Name the field, from whichever version has lines there.
        QString field = c.base.isEmpty() ? QString() : fieldAtLine(m_base, c.baseLine);
        if (field.isEmpty() && !c.ours.isEmpty())
            field = fieldAtLine(m_mine, c.oursLine);
        if (field.isEmpty() && !c.theirs.isEmpty())
            field = fieldAtLine(m_server, c.theirsLine);
        html += QStringLiteral("<tr><td valign=\"top\">") + QString::number(c.baseLine) +
                QStringLiteral("</td><td valign=\"top\"><code>") + field.toHtmlEscaped() +
                QStringLiteral("</code>") + QStringLiteral("</td><td valign=\"top\">") +
                codeBlock(c.base, none) + QStringLiteral("</td><td valign=\"top\">") +
                codeBlock(c.ours, none) + QStringLiteral("</td><td valign=\"top\">") +
                codeBlock(c.theirs, none) + QStringLiteral("</td></tr>");
    }
    html += QStringLiteral("</table><p>") +
            tr("Resolve them in the editor (keep one side of each, delete the markers), or choose "
               "Overwrite or Discard Mine.")
                .toHtmlEscaped() +
            QStringLiteral("</p>");
    m_conflictList->setText(html);
    // As tall as the list needs, up to a limit: the three columns keep the space.
    m_conflictScroll->setFixedHeight(std::min(m_conflictList->sizeHint().height() + 4, 220));
    m_confirmPanel->hide();
    m_conflictPanel->show();
    m_tabs->setCurrentIndex(0);
}

void ConflictDialog::rebase() {
    if (m_merge.clean()) {
        finish(Resolution::Rebased, m_merge.text);
        return;
    }
    showConflicts();
}

void ConflictDialog::takeConflicts() {
    if (m_merge.clean())
        finish(Resolution::Rebased, m_merge.text);
    else
        finish(Resolution::RebasedWithConflicts, m_merge.text);
}

void ConflictDialog::requestOverwrite() {
    const LineDiff theirs = diffTexts(m_base, m_server);
    const int lines = theirs.added + theirs.removed + theirs.changed;
    const QString lost =
        lines == 1 ? tr("The server's change since you started editing (1 line) will be lost.")
                   : tr("The server's changes since you started editing (%1 lines) will be lost.").arg(lines);
    m_confirmText->setText(tr("Overwrite replaces the server's version with yours.") + QLatin1Char(' ') +
                           lost + QLatin1Char(' ') + tr("Are you sure?"));
    m_conflictPanel->hide();
    m_confirmPanel->show();
}

void ConflictDialog::confirmOverwrite() {
    // Only reachable through the confirmation panel.
    if (m_confirmPanel->isHidden())
        return;
    finish(Resolution::Overwrite, m_mine);
}

void ConflictDialog::cancelOverwrite() {
    m_confirmPanel->hide();
}

void ConflictDialog::discardMine() {
    finish(Resolution::DiscardMine, m_server);
}

void ConflictDialog::reject() {
    m_resolution = Resolution::Cancelled;
    m_result.clear();
    emit resolved(m_resolution, m_result);
    QDialog::reject();
}

void ConflictDialog::finish(Resolution resolution, const QString &text) {
    m_resolution = resolution;
    m_result = text;
    emit resolved(resolution, text);
    accept();
}

} // namespace gq
