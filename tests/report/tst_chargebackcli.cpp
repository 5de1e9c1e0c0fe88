#include "tests/usage/usagebackend.h"
#include "tests/clirun.h"

#include "app/demo/demodata.h"
#include "core/usage/timewindow.h"
#include "core/usage/usagestore.h"
#include "tests/usagetestdata.h"
#ifdef GQ_WITH_PDF
#include "core/reportpdf/chargebackpdf.h"
#endif

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gq;

// `gpuquota report chargeback` as a user runs it, against a real database (this suite
// is built twice: SQLite and PostgreSQL) filled with the demo generator's November:
// the GPU-hours per subject equal `gpuquota usage --period month` to the last printed
// digit, the CSV's columns add up to its TOTAL row, bad flags exit 2 naming the flag
// and write nothing, and the PDF has the expected pages and, read back with
// pdftotext, the totals under English and Chinese headings.
class TestChargebackCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void equalsUsageVerb_data();
    void equalsUsageVerb();
    void csvAddsUp();
    void ratesFileChargesMigLess();
    void modelRatesAndIdleShare_data();
    void modelRatesAndIdleShare();
    void badFlags_data();
    void badFlags();
    void pdf_data();
    void pdf();

private:
    using Run = gq::test::CliRun;
    Run gq(const QStringList &args, const QString &lang = QStringLiteral("C.UTF-8")) const;
    QStringList report(const QStringList &extra) const {
        return QStringList{QStringLiteral("report"),  QStringLiteral("chargeback"),
                           QStringLiteral("--db"),    m_url,
                           QStringLiteral("--month"), QStringLiteral("2026-11")} +
               extra;
    }
    // subject -> gpu_hours text, from either verb's CSV.
    static QMap<QString, QString> hoursColumn(const QString &csv, int subjectCol, int hoursCol);
    QString writeFile(const QString &name, const QByteArray &data) const;

    gq::test::UsageTestBackend m_backend{"gq_chargeback"};
    QTemporaryDir m_dir;
    QString m_bin;
    QString m_url;
    static constexpr int kUsers = 40;
    static constexpr int kNamespaces = 8;
};

QString TestChargebackCli::writeFile(const QString &name, const QByteArray &data) const {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
        return {};
    return path;
}

TestChargebackCli::Run TestChargebackCli::gq(const QStringList &args, const QString &lang) const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LC_ALL"), lang);
    env.insert(QStringLiteral("LANGUAGE"), lang.section(QLatin1Char('.'), 0, 0));
    return gq::test::runCli(m_bin, args, env, 120000);
}

QMap<QString, QString> TestChargebackCli::hoursColumn(const QString &csv, int subjectCol, int hoursCol) {
    QMap<QString, QString> out;
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList f = lines[i].split(QLatin1Char(','));
        if (f.value(0) != QLatin1String("TOTAL"))
            out.insert(f.value(subjectCol), f.value(hoursCol));
    }
    return out;
}

void TestChargebackCli::initTestCase() {
    QVERIFY(m_dir.isValid());
    GQ_PREPARE_USAGE_BACKEND(m_backend);
    m_bin = gq::test::gpuquotaBinary();
    QVERIFY2(QFile::exists(m_bin), qPrintable(m_bin));
    m_url = m_backend.freshUrl();
    auto store = UsageStore::open(m_url);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    // Mid-October to late November: rows cross the month's start in every zone tested,
    // and everything has ended before the month does (so `now` does not matter).
    DemoSpec spec;
    spec.users = kUsers;
    spec.namespaces = kNamespaces;
    spec.days = 45;
    spec.seed = 16;
    spec.end = *parseInstant(QStringLiteral("2026-11-28T00:00:00Z"));
    QString error;
    generateDemoUsage(spec, [&](std::vector<UsageInterval> &&chunk) {
        for (UsageInterval &iv : chunk)
            if (!iv.end)
                iv.end = spec.end; // closed, so the month's figures never move
        auto r = (*store)->insertBulk(chunk);
        if (!r)
            error = r.error().toString();
        return bool(r);
    });
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // February 2027, apart from the demo's November: intervals on known GPU models and
    // the idle spans the controller's recorder writes (inserted as it would, by SQL).
    const auto feb = [](int day, int hour) {
        return QDateTime(QDate(2027, 2, day), QTime(hour, 0), Qt::UTC).toSecsSinceEpoch();
    };
    const auto on = [](UsageInterval iv, const char *model) {
        iv.node = QStringLiteral("node-1");
        iv.gpuModel = QString::fromLatin1(model);
        return iv;
    };
    using gq::test::interval;
    for (const UsageInterval &iv :
         {on(interval(QStringLiteral("infer"), QStringLiteral("dana"), QStringLiteral("p0"), 1,
                      QDateTime(QDate(2027, 1, 31), QTime(22, 0), Qt::UTC).toSecsSinceEpoch(), feb(1, 2)),
             "NVIDIA-H100-80GB-HBM3"),
          on(interval(QStringLiteral("infer"), QStringLiteral("dana"), QStringLiteral("p1"), 2, feb(2, 10),
                      feb(2, 15)),
             "NVIDIA-H100-80GB-HBM3"),
          on(interval(QStringLiteral("infer"), QStringLiteral("dana"), QStringLiteral("p2"), 1, feb(3, 0),
                      feb(3, 4)),
             "Tesla-T4"),
          on(interval(QStringLiteral("batch"), QStringLiteral("eve"), QStringLiteral("p3"), 1, feb(4, 0),
                      feb(4, 3)),
             "")}) {
        auto r = (*store)->upsertInterval(iv);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    }
    // p1 idle 2 h of its 10 GPU-h; p0 idle from 23:00 to 01:00, of which 1 h in February.
    QSqlQuery q((*store)->database());
    QVERIFY(q.prepare(QStringLiteral("INSERT INTO idle_spans (ns, pod_name, node, gpu_uuid, start_s, end_s, "
                                     "wasted_gpu_seconds) VALUES (?, ?, 'node-1', ?, ?, ?, ?)")));
    const QList<QVariantList> spans{{QStringLiteral("infer"), QStringLiteral("p1"), QStringLiteral("GPU-1"),
                                     feb(2, 11), feb(2, 13), 7200.0},
                                    {QStringLiteral("infer"), QStringLiteral("p0"), QStringLiteral("GPU-2"),
                                     QDateTime(QDate(2027, 1, 31), QTime(23, 0), Qt::UTC).toSecsSinceEpoch(),
                                     feb(1, 1), 7200.0}};
    for (const QVariantList &row : spans) {
        for (const QVariant &v : row)
            q.addBindValue(v);
        QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
    }
}

void TestChargebackCli::cleanupTestCase() {
    const QString err = m_backend.dropSchemas();
    QVERIFY2(err.isEmpty(), qPrintable(err));
}

void TestChargebackCli::equalsUsageVerb_data() {
    QTest::addColumn<QString>("by");
    QTest::addColumn<QString>("zone");
    for (const char *by : {"namespace", "user"})
        for (const char *zone : {"UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata"})
            QTest::addRow("%s %s", by, zone) << QString::fromLatin1(by) << QString::fromLatin1(zone);
}

void TestChargebackCli::equalsUsageVerb() {
    QFETCH(QString, by);
    QFETCH(QString, zone);
    const QTimeZone tz = *parseZone(zone);
    const TimeRange month =
        periodContaining(*parseInstant(QStringLiteral("2026-11-15T12:00:00Z")), Period::Month, tz);
    const Run usage =
        gq({QStringLiteral("usage"), QStringLiteral("--db"), m_url, QStringLiteral("--by"), by,
            QStringLiteral("--period"), QStringLiteral("month"), QStringLiteral("--from"),
            formatInstant(month.start, tz), QStringLiteral("--to"), formatInstant(month.end, tz),
            QStringLiteral("--tz"), zone, QStringLiteral("-o"), QStringLiteral("csv")});
    QVERIFY2(usage.code == 0, qPrintable(usage.err));
    const Run charge =
        gq(report({QStringLiteral("--tz"), zone, QStringLiteral("--by"), by, QStringLiteral("--rate"),
                   QStringLiteral("2.50"), QStringLiteral("-o"), QStringLiteral("csv")}));
    QVERIFY2(charge.code == 0, qPrintable(charge.err));
    const auto expected = hoursColumn(usage.out, 1, 2);
    QCOMPARE(expected.size(), by == QLatin1String("user") ? kUsers : kNamespaces);
    QCOMPARE(hoursColumn(charge.out, 0, 1), expected);
}

void TestChargebackCli::csvAddsUp() {
    const Run r = gq(report({QStringLiteral("--tz"), QStringLiteral("Europe/Berlin"), QStringLiteral("--by"),
                             QStringLiteral("user"), QStringLiteral("--rate"), QStringLiteral("2.5"),
                             QStringLiteral("-o"), QStringLiteral("csv")}));
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("subject,gpu_hours,rate,cost"));
    QCOMPARE(lines.size(), kUsers + 2);
    qint64 hours = 0, cents = 0, lastCost = std::numeric_limits<qint64>::max();
    for (qsizetype i = 1; i + 1 < lines.size(); ++i) {
        const QStringList f = lines[i].split(QLatin1Char(','));
        QCOMPARE(f.size(), 4);
        QVERIFY2(f[1].indexOf(QLatin1Char('.')) == f[1].size() - 5, qPrintable(lines[i])); // 4 decimals
        QVERIFY2(f[3].indexOf(QLatin1Char('.')) == f[3].size() - 3, qPrintable(lines[i])); // 2 decimals
        QCOMPARE(f[2], QStringLiteral("2.50"));
        const qint64 h = QString(f[1]).remove(QLatin1Char('.')).toLongLong();
        const qint64 c = QString(f[3]).remove(QLatin1Char('.')).toLongLong();
        QCOMPARE(c, (h * 25 + 500) / 1000); // hours x 2.50, half up, in cents
        QVERIFY2(c <= lastCost, "rows are sorted by cost, highest first");
        lastCost = c;
        hours += h;
        cents += c;
    }
    const QStringList total = lines.last().split(QLatin1Char(','));
    QCOMPARE(total.size(), 4);
    QCOMPARE(total[0], QStringLiteral("TOTAL"));
    QCOMPARE(QString(total[1]).remove(QLatin1Char('.')).toLongLong(), hours);
    QCOMPARE(total[2], QString());
    QCOMPARE(QString(total[3]).remove(QLatin1Char('.')).toLongLong(), cents);
    QVERIFY(hours > 0);
}

void TestChargebackCli::ratesFileChargesMigLess() {
    const QString flat = writeFile(QStringLiteral("flat.yaml"), "default: 2.50\n");
    const QString mig = writeFile(QStringLiteral("mig.yaml"), "currency: EUR\ndefault: 2.50\nresources:\n"
                                                              "  nvidia.com/mig-1g.10gb: 0.50\n"
                                                              "  nvidia.com/mig-3g.40gb: 0.50\n");
    const QStringList common{QStringLiteral("--by"), QStringLiteral("user"), QStringLiteral("-o"),
                             QStringLiteral("csv")};
    const Run a = gq(report(common + QStringList{QStringLiteral("--rates"), flat}));
    const Run b = gq(report(common + QStringList{QStringLiteral("--rates"), mig}));
    const Run c = gq(report(common + QStringList{QStringLiteral("--rate"), QStringLiteral("2.5")}));
    QVERIFY2(a.code == 0 && b.code == 0 && c.code == 0, qPrintable(a.err + b.err + c.err));
    QCOMPARE(a.out, c.out); // a file with one rate is --rate
    // Same hours, less money where MIG slices were held.
    QCOMPARE(hoursColumn(b.out, 0, 1), hoursColumn(a.out, 0, 1));
    const QString totalA = a.out.trimmed().section(QLatin1Char('\n'), -1);
    const QString totalB = b.out.trimmed().section(QLatin1Char('\n'), -1);
    QCOMPARE(totalA.section(QLatin1Char(','), 1, 1), totalB.section(QLatin1Char(','), 1, 1));
    QVERIFY2(totalB.section(QLatin1Char(','), 3, 3).toDouble() <
                 totalA.section(QLatin1Char(','), 3, 3).toDouble(),
             qPrintable(totalA + QLatin1String(" vs ") + totalB));
    // The JSON says where the money went and that nothing about utilization is known.
    const Run json =
        gq(report({QStringLiteral("--rates"), mig, QStringLiteral("-o"), QStringLiteral("json")}));
    QVERIFY2(json.code == 0, qPrintable(json.err));
    QVERIFY(json.out.contains(QStringLiteral("\"utilization\": \"not recorded\"")));
    QVERIFY(json.out.contains(QStringLiteral("\"used_gpu_hours\": null")));
    QVERIFY(json.out.contains(QStringLiteral("\"currency\": \"EUR\"")));
}

// Rates per GPU model: each (resource, model) part is charged its own rate and the
// line's cost is their sum; `rate` is then the effective rate with four decimals. The
// idle spans give "used" and the idle share where a subject has some, on both
// groupings (a span names its pod; its user is the pod's).
void TestChargebackCli::modelRatesAndIdleShare_data() {
    QTest::addColumn<QString>("by");
    QTest::addColumn<QString>("busy");
    QTest::addColumn<QString>("other");
    QTest::newRow("namespace") << "namespace"
                               << "infer"
                               << "batch";
    QTest::newRow("user") << "user"
                          << "dana"
                          << "eve";
}

void TestChargebackCli::modelRatesAndIdleShare() {
    QFETCH(QString, by);
    QFETCH(QString, busy);
    QFETCH(QString, other);
    const QString rates = writeFile(QStringLiteral("models.yaml"), "default: 2.50\n"
                                                                   "resources:\n"
                                                                   "  nvidia.com/gpu: 2.50\n"
                                                                   "models:\n"
                                                                   "  NVIDIA-H100-80GB-HBM3: 4.00\n"
                                                                   "  Tesla-T4: 0.90\n");
    const QStringList args{QStringLiteral("report"),  QStringLiteral("chargeback"),
                           QStringLiteral("--db"),    m_url,
                           QStringLiteral("--month"), QStringLiteral("2027-02"),
                           QStringLiteral("--by"),    by,
                           QStringLiteral("--rates"), rates};
    const Run csv = gq(args + QStringList{QStringLiteral("-o"), QStringLiteral("csv")});
    QVERIFY2(csv.code == 0, qPrintable(csv.err));
    // busy: 12 GPU-h on H100 (2 in February from p0, 10 from p1) x 4.00 + 4 on T4 x 0.90
    // = 51.60 for 16 GPU-h (3.2250 effective); other: 3 GPU-h, no model, 2.50.
    QCOMPARE(csv.out, QStringLiteral("subject,gpu_hours,rate,cost\n"
                                     "%1,16.0000,3.2250,51.60\n"
                                     "%2,3.0000,2.50,7.50\n"
                                     "TOTAL,19.0000,,59.10\n")
                          .arg(busy, other));
    const Run json = gq(args + QStringList{QStringLiteral("-o"), QStringLiteral("json")});
    QVERIFY2(json.code == 0, qPrintable(json.err));
    const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("utilization")).toString(), QStringLiteral("recorded"));
    QCOMPARE(doc.value(QStringLiteral("rates")).toObject().value(QStringLiteral("models")).toObject().size(),
             2);
    const QJsonArray rows = doc.value(QStringLiteral("rows")).toArray();
    QCOMPARE(rows.size(), 2);
    const QJsonObject b = rows.at(0).toObject();
    QCOMPARE(b.value(QStringLiteral("subject")).toString(), busy);
    // Idle: 2 GPU-h of p1 and the February hour of p0's span.
    QCOMPARE(b.value(QStringLiteral("idle_gpu_hours")).toDouble(), 3.0);
    QCOMPARE(b.value(QStringLiteral("used_gpu_hours")).toDouble(), 13.0);
    QCOMPARE(b.value(QStringLiteral("idle_share")).toDouble(), 3.0 / 16.0);
    QCOMPARE(b.value(QStringLiteral("parts")).toArray().size(), 2);
    const QJsonObject o = rows.at(1).toObject();
    QVERIFY(o.value(QStringLiteral("used_gpu_hours")).isNull());
    QVERIFY(o.value(QStringLiteral("idle_share")).isNull());
    const Run table = gq(args);
    QVERIFY2(table.code == 0, qPrintable(table.err));
    QVERIFY2(table.out.contains(QRegularExpression(
                 QStringLiteral("%1 .*3\\.2250 eff .*51\\.60 +13\\.0000 +18\\.8%").arg(busy))),
             qPrintable(table.out));
    QVERIFY2(
        table.out.contains(QRegularExpression(QStringLiteral("%1 .* not recorded +not recorded").arg(other))),
        qPrintable(table.out));
}

void TestChargebackCli::badFlags_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    const QString out = QStringLiteral("--out");
    QTest::newRow("month") << test::words("--month 2026-13 --rate 1") << "--month";
    QTest::newRow("zone") << test::words("--tz Mars/Base --rate 1") << "--tz";
    QTest::newRow("by") << test::words("--by team --rate 1") << "--by";
    QTest::newRow("rate") << test::words("--rate -1") << "--rate";
    QTest::newRow("no rate") << QStringList{} << "--rate";
    QTest::newRow("both rates") << test::words("--rate 1 --rates x.yaml") << "--rates";
    QTest::newRow("rates file") << test::words("--rates BAD") << "--rates";
    QTest::newRow("format") << test::words("--rate 1 -o xml") << "-o";
    QTest::newRow("pdf without out") << test::words("--rate 1 -o pdf") << "--out";
    QTest::newRow("unknown") << test::words("--rate 1 --period month") << "--period";
}

void TestChargebackCli::badFlags() {
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    const QString bad =
        writeFile(QStringLiteral("bad.yaml"), "default: 2.5\nresources:\n  nvidia.com/gpu: abc\n");
    args.replaceInStrings(QStringLiteral("BAD"), bad);
    const QString target = m_dir.filePath(QStringLiteral("never.csv"));
    const bool pdfWithoutOut = QTest::currentDataTag() == QByteArray("pdf without out");
    const Run r = gq(report(pdfWithoutOut ? args : args + QStringList{QStringLiteral("--out"), target}));
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(names), qPrintable(r.err));
    QVERIFY2(!QFile::exists(target), "a refused report writes nothing");
    if (QTest::currentDataTag() == QByteArray("rates file"))
        QVERIFY2(r.err.contains(QStringLiteral(":3: resources.nvidia.com/gpu")), qPrintable(r.err));
}

void TestChargebackCli::pdf_data() {
    QTest::addColumn<QString>("lang");
    QTest::addColumn<QString>("by");
    QTest::addColumn<int>("subjects");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("English, users") << "C.UTF-8"
                                    << "user" << int(kUsers)
                                    << QStringList{QStringLiteral("GPU chargeback 2026-11"),
                                                   QStringLiteral("Total"), QStringLiteral("Europe/Berlin"),
                                                   QStringLiteral("not recorded")};
    QTest::newRow("Chinese, users") << "zh_CN.UTF-8"
                                    << "user" << int(kUsers)
                                    << QStringList{QStringLiteral("GPU 费用分摊 2026-11"),
                                                   QStringLiteral("合计"), QStringLiteral("Europe/Berlin"),
                                                   QStringLiteral("未记录")};
    QTest::newRow("Chinese, namespaces")
        << "zh_CN.UTF-8"
        << "namespace" << int(kNamespaces) << QStringList{QStringLiteral("合计"), QStringLiteral("命名空间")};
}

void TestChargebackCli::pdf() {
#ifndef GQ_WITH_PDF
    QSKIP("built without Qt Gui: no PDF");
#else
    QFETCH(QString, lang);
    QFETCH(QString, by);
    QFETCH(int, subjects);
    QFETCH(QStringList, words);
    const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    QVERIFY2(!pdftotext.isEmpty() && !pdfinfo.isEmpty(), "poppler-utils (scripts/install-deps.sh) is needed");
    const QStringList common{QStringLiteral("--tz"),   QStringLiteral("Europe/Berlin"),
                             QStringLiteral("--by"),   by,
                             QStringLiteral("--rate"), QStringLiteral("2.50")};
    const Run csv = gq(report(common + QStringList{QStringLiteral("-o"), QStringLiteral("csv")}));
    QVERIFY2(csv.code == 0, qPrintable(csv.err));
    const QStringList total = csv.out.trimmed().section(QLatin1Char('\n'), -1).split(QLatin1Char(','));

    const QString path = m_dir.filePath(
        QStringLiteral("report-%1.pdf")
            .arg(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('_'))));
    const Run r = gq(report(common + QStringList{QStringLiteral("-o"), QStringLiteral("pdf"),
                                                 QStringLiteral("--out"), path}),
                     lang);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const int pages = chargebackPdfLayout().pagesFor(subjects);
    QCOMPARE(pages, subjects == kUsers ? 2 : 1); // 40 users do not fit on the first page
    QVERIFY2(r.out.contains(QStringLiteral("(%1 page").arg(pages)), qPrintable(r.out));

    QProcess info;
    info.start(pdfinfo, {path});
    QVERIFY(info.waitForFinished(30000));
    QVERIFY2(QString::fromUtf8(info.readAllStandardOutput())
                 .contains(QRegularExpression(QStringLiteral("Pages:\\s+%1\\n").arg(pages))),
             "pdfinfo counts the pages the report says it wrote");

    QProcess text;
    text.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
    QVERIFY(text.waitForFinished(30000));
    // NFKC: Qt's ToUnicode map gives the first code point of a glyph, and Noto CJK
    // shares glyphs between ideographs and the Kangxi radicals (U+2F00..) that sort
    // first, so extracted text has "⽤" for "用"; the page itself shows the ideograph.
    const QString body =
        QString::fromUtf8(text.readAllStandardOutput()).normalized(QString::NormalizationForm_KC);
    for (const QString &w : words)
        QVERIFY2(body.contains(w), qPrintable(QStringLiteral("'%1' missing from:\n%2").arg(w, body)));
    // The totals as the CSV has them, on the total's line.
    const QRegularExpression totalLine(
        QStringLiteral("(Total|合计)\\s+%1\\s+%2")
            .arg(QRegularExpression::escape(total.value(1)), QRegularExpression::escape(total.value(3))));
    QVERIFY2(body.contains(totalLine), qPrintable(body));
    // Every subject made it through the page break.
    for (const QString &subject : hoursColumn(csv.out, 0, 1).keys())
        QVERIFY2(body.contains(subject), qPrintable(subject));
#endif
}

QTEST_GUILESS_MAIN(TestChargebackCli)
#include "tst_chargebackcli.moc"
