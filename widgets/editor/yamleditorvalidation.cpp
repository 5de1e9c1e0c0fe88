#include "widgets/editor/yamleditor.h"
#include "widgets/editor/yamleditor_p.h"

#include "core/domain/textdiff.h"
#include "core/domain/validation.h"
#include "core/domain/yamldoc.h"

#include <QFontMetrics>
#include <QLabel>
#include <QTextBlock>

#include <algorithm>
#include <climits>

// Validation while typing (debounced, on the thread pool through the editor's
// JobTracker) and Apply's synchronous validateNow(); how problems show: markers that
// follow the edits, and the one-line summary below the text.

namespace gq {

namespace {

// Leftover merge-conflict markers (from a rebase with conflicts) are the first thing to
// fix, and the YAML parser would only report the first of them, and cryptically.
QList<Error> conflictMarkerErrors(const QString &text) {
    QList<Error> errors;
    const QStringList lines = splitLines(text);
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].startsWith(QStringLiteral("<<<<<<<")) && isConflictMarker(lines[i])) {
            Error e =
                Error::make(Error::Kind::Invalid,
                            YamlEditor::tr("unresolved merge conflict: keep your lines or the server's, "
                                           "then delete the <<<<<<<, ======= and >>>>>>> markers"));
            e.line = i + 1;
            e.column = 1;
            errors.append(e);
        }
    }
    return errors;
}

QList<Error> runValidation(const YamlEditor::Validator &validator, const QString &text) {
    QList<Error> errors = conflictMarkerErrors(text);
    if (errors.isEmpty() && validator)
        errors = validator(text);
    std::stable_sort(errors.begin(), errors.end(), [](const Error &a, const Error &b) {
        // Errors without a position go last; the rest in reading order.
        const int la = a.line > 0 ? a.line : INT_MAX;
        const int lb = b.line > 0 ? b.line : INT_MAX;
        return la != lb ? la < lb : a.column < b.column;
    });
    return errors;
}

} // namespace

QList<Error> YamlEditor::defaultValidate(const QString &text) {
    // The same checks as `gpuquota validate`, so the editor and the CLI never disagree.
    int objects = 0;
    QList<Error> errors = validateYamlText(text.toUtf8(), {}, &objects);
    if (errors.isEmpty() && objects == 0) {
        Error e = Error::make(Error::Kind::Invalid,
                              tr("no object: expected a ResourceQuota or LimitRange manifest"));
        e.line = 1;
        errors.append(e);
    }
    return errors;
}

// --- validation ---------------------------------------------------------------

void YamlEditor::onTextChanged() {
    m_validation.cancel(); // any result still on its way is for older text
    setPending(true);
    m_debounce.start();
    saveDraftSoon();
}

void YamlEditor::startValidation() {
    m_validation.cancel(); // only the newest text's result counts
    setPending(true);
    const QString text = toPlainText();
    m_validation.run([text, validator = m_validator] { return runValidation(validator, text); },
                     [this, text](const QList<Error> &errors) { applyValidation(text, errors); });
}

QList<Error> YamlEditor::validateNow() {
    m_debounce.stop();
    m_validation.cancel();
    const QString text = toPlainText();
    applyValidation(text, runValidation(m_validator, text));
    return m_errors;
}

void YamlEditor::applyValidation(const QString &text, const QList<Error> &errors) {
    Q_UNUSED(text)
    const bool changed = errors != m_errors;
    m_errors = errors;
    m_markers.clear();
    for (const Error &e : std::as_const(m_errors))
        m_markers.append(markerFor(e));
    m_summaryIndex = 0;
    setPending(false);
    updateExtraSelections();
    m_gutter->update();
    if (changed)
        emit errorsChanged(m_errors);
    updateSummary();
    emitValidityIfChanged();
    emit validationFinished(m_errors.isEmpty());
}

void YamlEditor::setPending(bool pending) {
    m_pending = pending;
}

void YamlEditor::emitValidityIfChanged() {
    const bool valid = m_errors.isEmpty();
    if (valid != m_lastValid) {
        m_lastValid = valid;
        emit validityChanged(valid);
    }
}

QList<Error> YamlEditor::errorsOnLine(int line) const {
    // By marker, not Error::line: markers move with the text typed since validation.
    QList<Error> out;
    for (qsizetype i = 0; i < m_errors.size() && i < m_markers.size(); ++i) {
        if (!m_markers[i].isNull() && m_markers[i].block().blockNumber() == line - 1)
            out.append(m_errors[i]);
    }
    return out;
}

QString YamlEditor::errorText(const Error &e) const {
    QString where;
    if (e.line > 0 && e.column > 0)
        where = tr("Line %1, column %2").arg(e.line).arg(e.column);
    else if (e.line > 0)
        where = tr("Line %1").arg(e.line);
    const QString what = e.toString();
    return where.isEmpty() ? what : tr("%1: %2").arg(where, what);
}

void YamlEditor::updateSummary() {
    const bool dark = isDarkPalette(palette());
    QPalette pal = m_summary->palette();
    if (m_errors.isEmpty()) {
        m_summary->setText(QStringLiteral("<span style=\"color:%1\">&#10004;</span>&nbsp;")
                               .arg(dark ? QStringLiteral("#7ddc8a") : QStringLiteral("#1a7f37")) +
                           tr("No problems").toHtmlEscaped());
        m_summary->setToolTip(QString());
        pal.setColor(QPalette::Window, palette().color(QPalette::Window));
    } else {
        const Error &e = m_errors[m_summaryIndex % m_errors.size()];
        const int n = int(m_errors.size());
        const QString count = n == 1 ? tr("1 problem") : tr("%1 problems").arg(n);
        // Rich text does not elide by itself: shorten the message to the strip's width.
        const QFontMetrics fm(m_summary->font());
        QFont bold = m_summary->font();
        bold.setBold(true);
        const int used =
            QFontMetrics(bold).horizontalAdvance(count) + fm.horizontalAdvance(QStringLiteral("✖ — ")) + 24;
        const int avail = std::max(80, width() - used);
        const QString message = fm.elidedText(errorText(e), Qt::ElideRight, avail);
        QString html = QStringLiteral("<span style=\"color:%1\">&#10006;</span>&nbsp;<b>")
                           .arg(dark ? QStringLiteral("#ff7b72") : QStringLiteral("#cf222e")) +
                       count.toHtmlEscaped() + QStringLiteral("</b> &mdash; <a href=\"next\">") +
                       message.toHtmlEscaped() + QStringLiteral("</a>");
        m_summary->setText(html);
        QString tip = errorText(e).toHtmlEscaped();
        if (n > 1)
            tip += QStringLiteral("<br><i>") +
                   tr("Click to go there; click again for the next problem.").toHtmlEscaped() +
                   QStringLiteral("</i>");
        m_summary->setToolTip(tip);
        pal.setColor(QPalette::Window, dark ? QColor(0x3a, 0x1f, 0x22) : QColor(0xff, 0xeb, 0xe9));
    }
    m_summary->setPalette(pal);
}

QTextCursor YamlEditor::markerFor(const Error &e) const {
    if (e.line <= 0)
        return {};
    const QTextBlock block = document()->findBlockByNumber(e.line - 1);
    if (!block.isValid())
        return {};
    // The token at the column (a key, a quoted or plain value), or the line's text.
    const QString text = block.text();
    int start = e.column > 0 ? std::min(e.column - 1, int(text.size())) : 0;
    int end = start;
    if (e.column > 0) {
        if (end < text.size() && (text[end] == QLatin1Char('"') || text[end] == QLatin1Char('\''))) {
            const QChar quote = text[end];
            end = int(text.indexOf(quote, end + 1));
            end = end < 0 ? int(text.size()) : end + 1;
        } else {
            while (end < text.size() && !text[end].isSpace() && text[end] != QLatin1Char(',') &&
                   !(text[end] == QLatin1Char(':') && (end + 1 == text.size() || text[end + 1].isSpace())))
                ++end;
        }
    } else {
        while (start < text.size() && text[start].isSpace())
            ++start;
        end = int(text.size());
        while (end > start && text[end - 1].isSpace())
            --end;
    }
    if (end <= start) {
        // Nothing to underline at that spot (end of line, empty line): mark one cell.
        start = std::max(0, std::min(start, int(text.size()) - 1));
        end = std::min(int(text.size()), start + 1);
    }
    QTextCursor c(block);
    c.setPosition(block.position() + start);
    c.setPosition(block.position() + end, QTextCursor::KeepAnchor);
    return c;
}

} // namespace gq
