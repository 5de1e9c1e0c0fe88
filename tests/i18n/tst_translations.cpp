#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
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

const QString kTsDir = QStringLiteral(GQ_SOURCE_DIR "/translations");

} // namespace

class TstTranslations : public QObject {
    Q_OBJECT
private slots:
    void chineseIsComplete() {
        const auto cat = readTs(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"));
        QVERIFY2(cat.error.isEmpty(), qPrintable(cat.error));
        QVERIFY(cat.messages.size() > 100);
        QStringList problems;
        for (const auto &m : cat.messages) {
            const QString where = QStringLiteral("line %1 (%2: \"%3\")").arg(m.line).arg(m.context, m.source);
            if (!m.type.isEmpty())
                problems << QStringLiteral("%1 is marked %2").arg(where, m.type);
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
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
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
    void cataloguesAreCurrent() {
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        const QString copy = tmp.filePath(QStringLiteral("gpuquota_zh_CN.ts"));
        QVERIFY(QFile::copy(kTsDir + QLatin1String("/gpuquota_zh_CN.ts"), copy));
        QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
        const QString src = QStringLiteral(GQ_SOURCE_DIR);
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(GQ_LUPDATE),
                      {QStringLiteral("-no-obsolete"), QStringLiteral("-locations"), QStringLiteral("none"),
                       QStringLiteral("-I"), src, src + QLatin1String("/services"),
                       src + QLatin1String("/models"), src + QLatin1String("/widgets"),
                       src + QLatin1String("/app/console"), src + QLatin1String("/core/alerts"),
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
