#include "core/reportpdf/chargebackpdf.h"

#include "core/domain/atomicfile.h"
#include "core/report/chargebackformat.h"
#include "core/report/money.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDateTime>
#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>

namespace gq {

namespace {

// Geometry in millimetres on A4 portrait (210 x 297) with 18 mm margins; the painter
// works in device units of a 300 dpi writer.
constexpr int kDpi = 300;
constexpr double kMargin = 18;
constexpr double kPageW = 210, kPageH = 297;
constexpr double kRowH = 6.2;     // one table row
constexpr double kHeaderH = 52;   // title and facts above the table on page 1
constexpr double kTopOther = 14;  // the running title on later pages
constexpr double kFooterH = 12;   // page number
constexpr double kTableHeadH = 8; // column headings

double px(double mm) {
    return mm / 25.4 * kDpi;
}

int rowsBetween(double top) {
    const double bottom = kPageH - kMargin - kFooterH;
    return int((bottom - (top + kTableHeadH)) / kRowH);
}

QString localTime(qint64 t, const QTimeZone &tz) {
    return QDateTime::fromSecsSinceEpoch(t, tz).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

struct Column {
    QString title;
    double width; // mm
    bool right;
};

class Painter {
    Q_DECLARE_TR_FUNCTIONS(gq::ChargebackPdf)
public:
    QString chargedPer() const {
        const QString kind = subjectKind(m_report);
        if (kind == QLatin1String("clusterqueue"))
            return tr("Kueue ClusterQueue (each namespace's usage to its LocalQueue's ClusterQueue)");
        if (kind == QLatin1String("localqueue"))
            return tr("Kueue LocalQueue (each namespace's usage to its LocalQueue)");
        return m_report.by == GroupBy::User ? tr("user") : tr("namespace");
    }

    static QString rateText(const RateCard &rates) {
        const QString cur = rates.currency.isEmpty() ? QString() : QLatin1Char(' ') + rates.currency;
        if (rates.isFlat())
            return tr("%1 per GPU-hour").arg(formatRate(rates.defaultMicros) + cur);
        const QStringList parts =
            QStringList{tr("default %1").arg(formatRate(rates.defaultMicros))} + rates.exceptions();
        return tr("%1 per GPU-hour").arg(parts.join(QStringLiteral("; ")) + cur);
    }

    Painter(QPdfWriter &writer, const ChargebackReport &report, int pages)
        : m_writer(writer)
        , m_report(report)
        , m_pages(pages)
        , m_p(&writer) {
        // DejaVu for Latin, Noto CJK SC for Chinese (both installed by scripts/install-deps.sh).
        m_base.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC")});
        m_base.setPointSizeF(9);
        const QString kind = subjectKind(report);
        const QString subject = kind == QLatin1String("clusterqueue") ? tr("ClusterQueue")
                                : kind == QLatin1String("localqueue") ? tr("LocalQueue")
                                : report.by == GroupBy::User          ? tr("User")
                                                                      : tr("Namespace");
        m_columns = {
            {subject, 50, false},
            {tr("GPU-hours"), 24, true},
            {tr("Rate"), 18, true},
            {report.rates.currency.isEmpty() ? tr("Cost") : tr("Cost (%1)").arg(report.rates.currency), 24,
             true},
            {tr("Used"), 29, false},
            {tr("Idle share"), 29, false}};
    }

    bool ok() const { return m_p.isActive(); }

    void paint() {
        int line = 0;
        for (int page = 1; page <= m_pages; ++page) {
            if (page > 1)
                m_writer.newPage();
            double y = page == 1 ? header() : runningTitle();
            y = tableHead(y);
            const int capacity =
                page == 1 ? rowsBetween(kMargin + kHeaderH) : rowsBetween(kMargin + kTopOther);
            for (int i = 0; i < capacity && line < m_report.lines.size(); ++i, ++line)
                y = row(y, line);
            if (line == m_report.lines.size() && page == m_pages)
                totalRow(y);
            footer(page);
        }
        m_p.end();
    }

private:
    QFont font(double pt, bool bold = false) const {
        QFont f = m_base;
        f.setPointSizeF(pt);
        f.setBold(bold);
        return f;
    }

    void text(double x, double y, double w, double h, const QString &s, Qt::Alignment align) {
        const QFontMetricsF fm(m_p.font(), &m_writer);
        const QString shown = fm.elidedText(s, Qt::ElideRight, px(w) - px(1.5));
        m_p.drawText(QRectF(px(x), px(y), px(w), px(h)), int(align | Qt::AlignVCenter), shown);
    }

    double header() {
        double y = kMargin;
        m_p.setFont(font(16, true));
        text(kMargin, y, kPageW - 2 * kMargin, 10, tr("GPU chargeback %1").arg(m_report.month.label()),
             Qt::AlignLeft);
        y += 12;
        m_p.setFont(font(9.5));
        const QTimeZone &tz = m_report.month.tz;
        const QStringList facts{
            tr("Period: %1 to %2 (%3)")
                .arg(localTime(m_report.month.range.start, tz), localTime(m_report.month.range.end, tz),
                     QString::fromUtf8(tz.id())),
            tr("Charged per %1").arg(chargedPer()),
            tr("Rate: %1").arg(rateText(m_report.rates)),
            tr("Charged: GPU-hours held (allocated), whether or not the GPUs were busy."),
            m_report.utilizationRecorded
                ? tr("Used = held - idle, from the idle spans the controller recorded; not recorded where "
                     "a subject has none.")
                : tr("Used and idle share: not recorded (no idle spans in the usage database for this "
                     "month)."),
            tr("Generated: %1").arg(localTime(m_report.generatedAt, tz))};
        for (const QString &f : facts) {
            text(kMargin, y, kPageW - 2 * kMargin, 5.5, f, Qt::AlignLeft);
            y += 6;
        }
        return kMargin + kHeaderH;
    }

    double runningTitle() {
        m_p.setFont(font(9, true));
        text(kMargin, kMargin, kPageW - 2 * kMargin, 6, tr("GPU chargeback %1").arg(m_report.month.label()),
             Qt::AlignLeft);
        return kMargin + kTopOther;
    }

    double tableHead(double y) {
        m_p.setFont(font(9, true));
        for (int i = 0; i < m_columns.size(); ++i)
            cell(i, y, kTableHeadH, m_columns.at(i).title);
        m_p.setPen(QPen(Qt::black, px(0.3)));
        m_p.drawLine(QPointF(px(kMargin), px(y + kTableHeadH)),
                     QPointF(px(kMargin + tableWidth()), px(y + kTableHeadH)));
        return y + kTableHeadH;
    }

    // A left-aligned column after a right-aligned one keeps a gap from its numbers.
    void cell(int i, double y, double h, const QString &value) {
        double x = kMargin;
        for (int c = 0; c < i; ++c)
            x += m_columns.at(c).width;
        const Column &c = m_columns.at(i);
        const double pad = c.right ? 0 : (i == 0 ? 1 : 5);
        text(x + pad, y, c.width - pad, h, value, c.right ? Qt::AlignRight : Qt::AlignLeft);
    }

    void cells(double y, const QStringList &values) {
        for (int i = 0; i < m_columns.size(); ++i)
            if (!values.value(i).isEmpty())
                cell(i, y, kRowH, values.at(i));
    }

    double tableWidth() const {
        double w = 0;
        for (const Column &c : m_columns)
            w += c.width;
        return w;
    }

    double row(double y, int index) {
        const ChargebackLine &l = m_report.lines.at(index);
        if (index % 2 == 1)
            m_p.fillRect(QRectF(px(kMargin), px(y), px(tableWidth()), px(kRowH)), QColor(0xf0, 0xf2, 0xf5));
        m_p.setFont(font(9));
        m_p.setPen(Qt::black);
        cells(y, {l.subject, formatHoursE4(l.hoursE4),
                  lineRate(l) + (l.mixedRate ? QStringLiteral("*") : QString()), formatCents(l.costCents),
                  l.usedE4() ? formatHoursE4(*l.usedE4()) : QString(),
                  l.idlePerMille() ? formatShare(*l.idlePerMille()) : QString()});
        if (!l.idleE4) {
            // Said in grey: a fact about the data, not a value.
            m_p.setPen(QColor(0x66, 0x66, 0x66));
            cell(4, y, kRowH, tr("not recorded"));
            cell(5, y, kRowH, tr("not recorded"));
            m_p.setPen(Qt::black);
        }
        return y + kRowH;
    }

    void totalRow(double y) {
        m_p.setPen(QPen(Qt::black, px(0.3)));
        m_p.drawLine(QPointF(px(kMargin), px(y)), QPointF(px(kMargin + tableWidth()), px(y)));
        m_p.setFont(font(9, true));
        cells(y + 0.5, {tr("Total"), formatHoursE4(m_report.totalHoursE4), QString(),
                        formatCents(m_report.totalCents), QString(), QString()});
        double note = y + kRowH + 3;
        m_p.setFont(font(8));
        if (std::any_of(m_report.lines.cbegin(), m_report.lines.cend(),
                        [](const ChargebackLine &l) { return l.mixedRate; })) {
            text(kMargin, note, kPageW - 2 * kMargin, 5,
                 tr("* effective rate (cost / GPU-hours) of a subject charged several rates"), Qt::AlignLeft);
            note += 5;
        }
        if (m_report.lines.isEmpty())
            text(kMargin, note, kPageW - 2 * kMargin, 5, tr("No GPU-hours were recorded in this month."),
                 Qt::AlignLeft);
    }

    void footer(int page) {
        m_p.setFont(font(8));
        m_p.setPen(QColor(0x66, 0x66, 0x66));
        text(kMargin, kPageH - kMargin - 6, kPageW - 2 * kMargin, 6,
             tr("Page %1 of %2").arg(page).arg(m_pages), Qt::AlignRight);
        m_p.setPen(Qt::black);
    }

    QPdfWriter &m_writer;
    const ChargebackReport &m_report;
    int m_pages;
    QPainter m_p;
    QFont m_base;
    QList<Column> m_columns;
};

} // namespace

int ChargebackPdfLayout::pagesFor(int subjects) const {
    // The total takes a row and the rows on the last page.
    const int rows = subjects + 1;
    if (rows <= firstPageRows)
        return 1;
    return 1 + (rows - firstPageRows + otherPageRows - 1) / otherPageRows;
}

ChargebackPdfLayout chargebackPdfLayout() {
    return {rowsBetween(kMargin + kHeaderH) - 1, rowsBetween(kMargin + kTopOther) - 1};
}

Result<ChargebackPdf> renderChargebackPdf(const ChargebackReport &report) {
    ChargebackPdf out;
    out.pages = chargebackPdfLayout().pagesFor(int(report.lines.size()));
    QBuffer buffer(&out.bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(kDpi);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF()));
        writer.setTitle(Painter::tr("GPU chargeback %1").arg(report.month.label()));
        writer.setCreator(QStringLiteral("gpuquota"));
        Painter painter(writer, report, out.pages);
        if (!painter.ok())
            return Error::make(Error::Kind::Internal, QStringLiteral("cannot paint the PDF"));
        painter.paint();
    }
    if (out.bytes.isEmpty())
        return Error::make(Error::Kind::Internal, QStringLiteral("the PDF came out empty"));
    return out;
}

Result<int> writeChargebackPdf(const ChargebackReport &report, const QString &path) {
    auto pdf = renderChargebackPdf(report);
    if (!pdf)
        return pdf.error();
    if (auto r = writeFileAtomically(path, pdf->bytes); !r)
        return r.error();
    return pdf->pages;
}

} // namespace gq
