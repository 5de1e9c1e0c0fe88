#pragma once

// Inputs shared by the core domain suites (tests/core): spec fixture files, the
// inputs kept in fuzz/regressions/, and quantities written as text.

#include "core/domain/quantity.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

namespace gq::test {

// The text of tests/fixtures/specs/<name>, empty when it cannot be read.
inline QByteArray specFixture(const char *name) {
    QFile f(QStringLiteral(GQ_TEST_FIXTURES "/specs/") + QString::fromLatin1(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A quantity the test knows to be valid.
inline Quantity q(const char *text) {
    return *Quantity::parse(QString::fromLatin1(text));
}

// fuzz/regressions/<target>: crashers the fuzzer found and hand-picked edge cases.
inline QString fuzzRegressionDir(const QString &target) {
    // GQ_TEST_FIXTURES is <source>/tests/fixtures; the corpus lives beside the fuzzers.
    return QDir::cleanPath(QStringLiteral(GQ_TEST_FIXTURES "/../../fuzz/regressions/") + target);
}

// For a _data function: a column "bytes" and one row per file kept for target, named
// after the file. Fails the test when the directory is missing or nearly empty.
inline void addFuzzRegressionRows(const QString &target) {
    QTest::addColumn<QByteArray>("bytes");
    const QDir dir(fuzzRegressionDir(target));
    QVERIFY2(dir.exists(), qPrintable(dir.path()));
    const auto files = dir.entryInfoList(QDir::Files, QDir::Name);
    // The directory ships with hand-picked cases; an empty replay would prove nothing.
    QVERIFY2(files.size() >= 10, qPrintable(QStringLiteral("too few regression inputs in ") + dir.path()));
    for (const QFileInfo &info : files) {
        QFile f(info.filePath());
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(info.filePath()));
        QTest::newRow(qPrintable(info.fileName())) << f.readAll();
    }
}

} // namespace gq::test
