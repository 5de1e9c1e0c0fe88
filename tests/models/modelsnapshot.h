#pragma once

#include <QAbstractItemModel>
#include <QStringList>

namespace gq::test {

// A model printed as text, one line per row with cells separated by " | ", the
// header first: the snapshot the model tests compare against.
inline QString snapshot(const QAbstractItemModel &model, int role = Qt::DisplayRole) {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)
        header << model.headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1String(" | "));
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model.columnCount(); ++c)
            cells << model.index(r, c).data(role).toString();
        lines << cells.join(QLatin1String(" | "));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace gq::test
