#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace {

struct Message {
    QString context;
    QString source;
    QStringList translations; // one per numerus form, or one
    QString type;             // "", "unfinished", "obsolete", "vanished"
    qint64 line = 0;
};

struct Catalogue {
    QList<Message> messages;
    QString error;
};

Catalogue readTs(const QString &path) {
    Catalogue cat;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        cat.error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
        return cat;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message current;
    bool inMessage = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("context")) {
                context.clear();
            } else if (name == QLatin1String("name") && !inMessage) {
                context = xml.readElementText();
            } else if (name == QLatin1String("message")) {
                inMessage = true;
                current = Message{};
                current.context = context;
                current.line = xml.lineNumber();
            } else if (name == QLatin1String("source") && inMessage) {
                current.source = xml.readElementText();
            } else if (name == QLatin1String("translation") && inMessage) {
                current.type = xml.attributes().value(QLatin1String("type")).toString();
                // Numerus messages hold <numerusform> children; plain ones hold text.
                QString text;
                while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        text += xml.text();
                    else if (xml.isStartElement() && xml.name() == QLatin1String("numerusform"))
                        current.translations << xml.readElementText();
                }
                if (current.translations.isEmpty())
                    current.translations << text;
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            cat.messages << current;
            inMessage = false;
        }
    }
    if (xml.hasError())
        cat.error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return cat;
}

QSet<QString> keys(const Catalogue &cat) {
    QSet<QString> out;
    for (const auto &m : cat.messages)
        out.insert(m.context + QLatin1String("\x1f") + m.source);
    return out;
}

QString describe(const QSet<QString> &set) {
    QStringList list(set.begin(), set.end());
    list.sort();
    for (auto &s : list)
        s.replace(QLatin1Char('\x1f'), QLatin1String(" :: "));
    return list.join(QLatin1String("\n  "));
}

QSet<QString> placeholders(const QString &text) {
    static const QRegularExpression re(QStringLiteral("%(L?)(\\d+|n)"));
    QSet<QString> out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out.insert(it.next().captured(2));
    return out;
}

// What makes a catalogue unfit to ship: a message still marked unfinished (or
// obsolete, vanished), an empty translation or numerus form, and a translation whose
// placeholders (%1, %L1, %n) differ from its source's.
QStringList problemsIn(const Catalogue &cat) {
    QStringList problems;
    for (const auto &m : cat.messages) {
        const QString where = QStringLiteral("line %1 (%2: \"%3\")").arg(m.line).arg(m.context, m.source);
        if (!m.type.isEmpty())
            problems << QStringLiteral("%1 is marked %2").arg(where, m.type);
        if (m.translations.isEmpty())
            problems << QStringLiteral("%1 has no translation").arg(where);
        for (const auto &t : m.translations) {
            if (t.trimmed().isEmpty()) {
                problems << QStringLiteral("%1 has no translation").arg(where);
                continue;
            }
            // A lost or invented %1 would show raw placeholders or drop a value.
            if (placeholders(t) != placeholders(m.source))
                problems << QStringLiteral("%1 has different placeholders: \"%2\"").arg(where, t);
        }
    }
    return problems;
}

// CI=true (or 1, yes): set by CI services and by scripts/test-all.sh.
bool onCi() {
    const QString ci = qEnvironmentVariable("CI").trimmed().toLower();
    return !ci.isEmpty() && ci != QLatin1String("false") && ci != QLatin1String("0") &&
           ci != QLatin1String("no");
}

// lupdate: GQ_LUPDATE from the environment if set (also to name a missing one on
// purpose), else the one CMake found, else Qt's binaries folder or the PATH.
QString findLupdate() {
    if (qEnvironmentVariableIsSet("GQ_LUPDATE"))
        return QFileInfo(qEnvironmentVariable("GQ_LUPDATE")).isExecutable()
                   ? qEnvironmentVariable("GQ_LUPDATE")
                   : QString();
    const QStringList candidates = {
        QStringLiteral(GQ_LUPDATE),
        QLibraryInfo::path(QLibraryInfo::BinariesPath) + QLatin1String("/lupdate"),
        QStandardPaths::findExecutable(QStringLiteral("lupdate6")),
        QStandardPaths::findExecutable(QStringLiteral("lupdate-qt6")),
    };
    for (const auto &c : candidates)
        if (!c.isEmpty() && QFileInfo(c).isExecutable())
            return c;
    return {};
}

const QString kTsDir = QStringLiteral(GQ_SOURCE_DIR "/translations");

} // namespace

class TstTranslations : public QObject {
    Q_OBJECT
private slots:
    void chineseIsComplete() {
        const auto cat = readTs(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"));
        QVERIFY2(cat.error.isEmpty(), qPrintable(cat.error));
        QVERIFY(cat.messages.size() > 100);
        const QStringList problems = problemsIn(cat);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The check above must catch what it is there for: a catalogue with an unfinished
    // string, a lost placeholder (plain and plural) and an empty plural form fails it.
    void completenessCheckCatchesFaults() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString path = tmp.filePath(QStringLiteral("bad.ts"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"(<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>T</name>
    <message>
        <source>fine %1 of %L2</source>
        <translation>%L2 中的 %1</translation>
    </message>
    <message>
        <source>left undone</source>
        <translation type="unfinished">未完成</translation>
    </message>
    <message>
        <source>lost %1 and %2</source>
        <translation>丢了 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n pod(s) in %1</source>
        <translation>
            <numerusform>%1 中的 Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>gone</source>
        <translation type="vanished">没了</translation>
    </message>
</context>
</TS>
)");
        file.close();
        const auto cat = readTs(path);
        QVERIFY2(cat.error.isEmpty(), qPrintable(cat.error));
        QCOMPARE(cat.messages.size(), 6);
        const QString report = problemsIn(cat).join(QLatin1Char('\n'));
        QVERIFY2(!report.contains(QLatin1String("fine %1")), qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("\"left undone\") is marked unfinished")), qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("\"lost %1 and %2\") has different placeholders")),
                 qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("\"%n pod(s) in %1\") has different placeholders")),
                 qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("\"%n item(s)\") has no translation")), qPrintable(report));
        QVERIFY2(report.contains(QLatin1String("\"gone\") is marked vanished")), qPrintable(report));
    }

    void cataloguesHoldTheSameStrings() {
        const auto en = readTs(kTsDir + QLatin1String("/gpuquota_en.ts"));
        const auto zh = readTs(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"));
        QVERIFY2(en.error.isEmpty(), qPrintable(en.error));
        QVERIFY2(zh.error.isEmpty(), qPrintable(zh.error));
        const auto enKeys = keys(en), zhKeys = keys(zh);
        QVERIFY2(enKeys == zhKeys,
                 qPrintable(QStringLiteral("only in en:\n  %1\nonly in zh_CN:\n  %2")
                                .arg(describe(enKeys - zhKeys), describe(zhKeys - enKeys))));
    }

    // Runs lupdate over the console's sources into a copy of the catalogue: if any
    // tr() string was added, changed or removed without updating translations/, the
    // copy's strings differ from the committed ones.
    // Without lupdate that check cannot run: a skip on a developer's machine, a failure
    // on CI (CI=true), which must not pass with the check silently left out.
    void cataloguesAreCurrent() {
        const QString lupdateExe = findLupdate();
        if (lupdateExe.isEmpty()) {
            const char *why =
                "lupdate not found (GQ_LUPDATE, Qt's binaries folder, PATH): install qt6-l10n-tools";
            if (onCi())
                QFAIL(why);
            QSKIP(why);
        }
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString copy = tmp.filePath(QStringLiteral("gpuquota_zh_CN.ts"));
        QVERIFY(QFile::copy(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"), copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        const QString src = QStringLiteral(GQ_SOURCE_DIR);
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(lupdateExe,
                      {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"),
                       QStringLiteral("-I"), src, src + QLatin1String("/services"),
                       src + QLatin1String("/models"), src + QLatin1String("/widgets"),
                       src + QLatin1String("/app/console"), src + QLatin1String("/core/alerts"),
                       src + QLatin1String("/core/reportpdf"), src + QLatin1String("/core/quotas"),
                       QStringLiteral("-ts"), copy});
        QVERIFY2(lupdate.waitForFinished(120000), "lupdate did not finish");
        QVERIFY2(lupdate.exitCode() == 0, lupdate.readAll().constData());
        const auto committed = readTs(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"));
        const auto fresh = readTs(copy);
        QVERIFY2(fresh.error.isEmpty(), qPrintable(fresh.error));
        const auto a = keys(committed), b = keys(fresh);
        QVERIFY2(a == b,
                 qPrintable(QStringLiteral("translations/ is out of date; run the update_translations "
                                           "target and translate.\nnew in the sources:\n  %1\ngone "
                                           "from the sources:\n  %2")
                                .arg(describe(b - a), describe(a - b))));
    }
};

QTEST_GUILESS_MAIN(TstTranslations)
#include "tst_translations.moc"
