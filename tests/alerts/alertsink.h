#pragma once

// The real receivers of alerts (tests/alerts/alertsinks.py: an aiosmtpd SMTP server or an
// HTTP sink) as a test starts them, and what they received. A suite using it defines
// GQ_PYTHON (Debian's python3, where python3-aiosmtpd lives) and GQ_ALERT_SINKS (the
// script's path).

#include "tests/freeport.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#if !defined(GQ_PYTHON) || !defined(GQ_ALERT_SINKS)
#error "define GQ_PYTHON and GQ_ALERT_SINKS (see tests/alerts/CMakeLists.txt)"
#endif

namespace gq::test {

// One sink process: started, killed with the object.
class Sink {
public:
    Sink(const QString &mode, int port, const QString &dir, const QStringList &extra = {}) {
        m_proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_proc.start(QStringLiteral(GQ_PYTHON),
                     QStringList{QStringLiteral(GQ_ALERT_SINKS), mode, QString::number(port), dir} + extra);
    }
    ~Sink() {
        m_proc.kill();
        m_proc.waitForFinished(5000);
    }
    Sink(const Sink &) = delete;
    Sink &operator=(const Sink &) = delete;
    bool waitReady() {
        while (!m_proc.canReadLine())
            if (!m_proc.waitForReadyRead(15000))
                return false;
        return m_proc.readLine().startsWith("ready ");
    }

private:
    QProcess m_proc;
};

// What a sink wrote, e.g. files(dir, "mail-*.eml"), in name order.
inline QStringList files(const QString &dir, const QString &pattern) {
    QStringList out = QDir(dir).entryList({pattern}, QDir::Files, QDir::Name);
    for (QString &f : out)
        f = dir + QLatin1Char('/') + f;
    return out;
}

inline QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A message the SMTP sink received: its first header `name` (the message's first line
// included), its Subject decoded, and the decoded body of its part of `contentType`
// ("text/plain", "text/html").
inline QString headerOf(const QByteArray &mail, const QByteArray &name) {
    const QByteArray text = "\r\n" + mail;
    const qsizetype found = text.indexOf(QByteArray("\r\n" + name + ": "));
    if (found < 0)
        return {};
    const qsizetype at = found + name.size() + 4;
    return QString::fromUtf8(text.mid(at, text.indexOf("\r\n", at) - at));
}

inline QString subjectOf(const QByteArray &mail) {
    const qsizetype at = mail.indexOf("\r\nSubject: =?UTF-8?B?") + 21;
    return QString::fromUtf8(QByteArray::fromBase64(mail.mid(at, mail.indexOf("?=", at) - at)));
}

inline QString mailPart(const QByteArray &mail, const QByteArray &contentType) {
    const qsizetype at = mail.indexOf(QByteArray("Content-Type: " + contentType));
    const qsizetype start = mail.indexOf("\r\n\r\n", at) + 4;
    const qsizetype end = mail.indexOf("--", start);
    return QString::fromUtf8(QByteArray::fromBase64(mail.mid(start, end - start)));
}

} // namespace gq::test
