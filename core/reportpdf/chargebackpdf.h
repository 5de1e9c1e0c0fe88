#pragma once

#include "core/report/chargeback.h"
#include "core/domain/result.h"

#include <QByteArray>
#include <QString>

namespace gq {

// The chargeback as a printable A4 PDF (QPdfWriter): a header with the month, the
// zone, the grouping and the rate, then the table (paginated, its header repeated on
// every page), the totals and "Page N of M". Texts in the application's language
// (the installed translator); numbers in the C locale, as in the CSV. Needs a
// QGuiApplication (fonts); safe on a worker thread.
struct ChargebackPdf {
    QByteArray bytes;
    int pages = 0;
};
[[nodiscard]] Result<ChargebackPdf> renderChargebackPdf(const ChargebackReport &report);
// Renders and writes `path` all or nothing; returns the page count.
[[nodiscard]] Result<int> writeChargebackPdf(const ChargebackReport &report, const QString &path);

// How many table rows (subjects plus the total) fit on the first and on every further
// page: what decides the page count, shared with the tests.
struct ChargebackPdfLayout {
    int firstPageRows = 0;
    int otherPageRows = 0;
    [[nodiscard]] int pagesFor(int subjects) const;
};
[[nodiscard]] ChargebackPdfLayout chargebackPdfLayout();

} // namespace gq
