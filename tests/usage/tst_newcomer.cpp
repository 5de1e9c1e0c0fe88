// The newcomer allowance's rules (core/usage/newcomer.h), as tables: the limit and the
// words across its start and its end (by itself and ended early), its end across DST
// changes in the budget's zone (calendar days, not 24-hour steps), the starts and ends a
// pass audits, the policy's text form, and the budget decision under it (x factor,
// unlimited).
#include "core/usage/newcomer.h"
#include "core/usage/timewindow.h"

#include <QTest>

#include <cmath>

using namespace gq;

namespace {
qint64 at(const char *rfc3339) {
    return parseInstant(QString::fromLatin1(rfc3339)).value();
}
const QTimeZone kBerlin("Europe/Berlin");
} // namespace

class TestNewcomer : public QObject {
    Q_OBJECT

private slots:
    void limitAcrossStartAndEnd_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("endedEarly"); // "" or RFC 3339
        QTest::addColumn<QString>("t");
        QTest::addColumn<double>("limit"); // -1: unlimited
        QTest::addColumn<QString>("text");
        // dana's first interval: 2026-12-08T10:00:00+01:00, a day budget of 8 GPU-h in Berlin.
        QTest::newRow("before the first interval") << "7d:x3"
                                                   << ""
                                                   << "2026-12-08T09:59:59+01:00" << 8.0 << "";
        QTest::newRow("at the first interval")
            << "7d:x3"
            << ""
            << "2026-12-08T10:00:00+01:00" << 24.0 << "newcomer allowance until 12-14";
        QTest::newRow("last second of the 7th day")
            << "7d:x3"
            << ""
            << "2026-12-14T23:59:59+01:00" << 24.0 << "newcomer allowance until 12-14";
        QTest::newRow("ends by itself at midnight") << "7d:x3"
                                                    << ""
                                                    << "2026-12-15T00:00:00+01:00" << 8.0 << "";
        QTest::newRow("unlimited") << "7d:unlimited"
                                   << ""
                                   << "2026-12-09T12:00:00+01:00" << -1.0 << "newcomer allowance until 12-14";
        QTest::newRow("unlimited, after") << "7d:unlimited"
                                          << ""
                                          << "2026-12-15T00:00:01+01:00" << 8.0 << "";
        QTest::newRow("before an early end")
            << "7d:x3"
            << "2026-12-10T12:00:00+01:00"
            << "2026-12-10T11:59:59+01:00" << 24.0 << "newcomer allowance until 12-10";
        QTest::newRow("at an early end") << "7d:x3"
                                         << "2026-12-10T12:00:00+01:00"
                                         << "2026-12-10T12:00:00+01:00" << 8.0 << "";
        QTest::newRow("an end after the end changes nothing")
            << "1d:x2"
            << "2026-12-20T00:00:00+01:00"
            << "2026-12-08T23:59:59+01:00" << 16.0 << "newcomer allowance until 12-08";
        QTest::newRow("policy off") << "off"
                                    << ""
                                    << "2026-12-08T10:00:00+01:00" << 8.0 << "";
    }
    void limitAcrossStartAndEnd() {
        QFETCH(QString, policy);
        QFETCH(QString, endedEarly);
        QFETCH(QString, t);
        QFETCH(double, limit);
        QFETCH(QString, text);
        const auto p = NewcomerPolicy::parse(policy);
        QVERIFY(p);
        NewcomerAllowance a =
            newcomerAllowance(QStringLiteral("dana"), at("2026-12-08T10:00:00+01:00"), *p, kBerlin);
        if (!endedEarly.isEmpty())
            a.endedAt = parseInstant(endedEarly).value();
        const qint64 when = parseInstant(t).value();
        const double got = newcomerLimit(8, *p, a, when);
        if (limit < 0)
            QVERIFY(std::isinf(got));
        else
            QCOMPARE(got, limit);
        QCOMPARE(newcomerText(a, when, kBerlin), text);
    }

    void endAcrossDst_data() {
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QString>("since");
        QTest::addColumn<int>("days");
        QTest::addColumn<QString>("end");
        // Autumn: 2026-10-25 has 25 hours in Berlin; the end is local midnight, 169 h after
        // the first midnight, not 168.
        QTest::newRow("Berlin, over the autumn change")
            << "Europe/Berlin"
            << "2026-10-20T15:00:00+02:00" << 7 << "2026-10-26T23:00:00Z";
        QTest::newRow("Berlin, starting on the 25-hour day, second 02:30")
            << "Europe/Berlin"
            << "2026-10-25T02:30:00+01:00" << 1 << "2026-10-25T23:00:00Z";
        QTest::newRow("Berlin, starting on the 25-hour day, first 02:30")
            << "Europe/Berlin"
            << "2026-10-25T02:30:00+02:00" << 1 << "2026-10-25T23:00:00Z";
        // Spring: 2027-03-28 has 23 hours.
        QTest::newRow("Berlin, over the spring change")
            << "Europe/Berlin"
            << "2027-03-25T09:00:00+01:00" << 7 << "2027-03-31T22:00:00Z";
        QTest::newRow("Berlin, ending as the 23-hour day begins")
            << "Europe/Berlin"
            << "2027-03-21T23:30:00+01:00" << 7 << "2027-03-27T23:00:00Z";
        QTest::newRow("New York, over its autumn change")
            << "America/New_York"
            << "2026-10-31T20:00:00-04:00" << 3 << "2026-11-03T05:00:00Z";
        QTest::newRow("UTC") << "UTC"
                             << "2026-12-07T10:00:00Z" << 7 << "2026-12-14T00:00:00Z";
        QTest::newRow("the zone decides the day: 23:30 in Berlin is the next day in UTC")
            << "Europe/Berlin"
            << "2026-12-07T23:30:00Z" << 1 << "2026-12-08T23:00:00Z";
    }
    void endAcrossDst() {
        QFETCH(QString, zone);
        QFETCH(QString, since);
        QFETCH(int, days);
        QFETCH(QString, end);
        const QTimeZone tz(zone.toUtf8());
        QVERIFY(tz.isValid());
        const qint64 s = parseInstant(since).value();
        const qint64 e = newcomerEnd(s, days, tz);
        QCOMPARE(formatInstantUtc(e), end);
        const NewcomerPolicy p{days, 2};
        const NewcomerAllowance a = newcomerAllowance(QStringLiteral("erin"), s, p, tz);
        QCOMPARE(newcomerLimit(5, p, a, e - 1), 10.0);
        QCOMPARE(newcomerLimit(5, p, a, e), 5.0);
    }

    // The decision itself at the allowance's edges when a DST change lies inside it, in the
    // budget's zone (Berlin): the end is local midnight, so a 24-hour-step end would be an
    // hour early in autumn and an hour late in spring.
    void decisionAcrossDst_data() {
        QTest::addColumn<QString>("since");
        QTest::addColumn<QString>("t");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<double>("limit");
        QTest::addColumn<QString>("text");
        const QString autumn = QStringLiteral("2026-10-20T15:00:00+02:00");
        const QString spring = QStringLiteral("2027-03-25T09:00:00+01:00");
        QTest::newRow("autumn: its first second") << autumn << "2026-10-20T15:00:00+02:00"
                                                  << "allowed" << 24.0 << "newcomer allowance until 10-26";
        QTest::newRow("autumn: 23:30 on 10-26, past 168 h from the first midnight")
            << autumn << "2026-10-26T23:30:00+01:00"
            << "allowed" << 24.0 << "newcomer allowance until 10-26";
        QTest::newRow("autumn: its last second") << autumn << "2026-10-26T23:59:59+01:00"
                                                 << "allowed" << 24.0 << "newcomer allowance until 10-26";
        QTest::newRow("autumn: local midnight") << autumn << "2026-10-27T00:00:00+01:00"
                                                << "denied" << 8.0 << "";
        QTest::newRow("spring: its last second") << spring << "2027-03-31T23:59:59+02:00"
                                                 << "allowed" << 24.0 << "newcomer allowance until 03-31";
        QTest::newRow("spring: local midnight, 167 h after the first")
            << spring << "2027-04-01T00:00:00+02:00"
            << "denied" << 8.0 << "";
        QTest::newRow("spring: before the first interval") << spring << "2027-03-25T08:59:59+01:00"
                                                           << "denied" << 8.0 << "";
    }
    void decisionAcrossDst() {
        QFETCH(QString, since);
        QFETCH(QString, t);
        QFETCH(QString, outcome);
        QFETCH(double, limit);
        QFETCH(QString, text);
        Budget b;
        b.subject = QStringLiteral("erin");
        b.limitGpuHours = 8;
        b.tz = QStringLiteral("Europe/Berlin");
        NewcomerTerms terms;
        terms.policy = *NewcomerPolicy::parse(QStringLiteral("7d:x3"));
        terms.allowance = newcomerAllowance(b.subject, parseInstant(since).value(), terms.policy, kBerlin);
        const qint64 now = parseInstant(t).value();
        const Decision d =
            decideNewcomer(b, periodContaining(now, Period::Day, kBerlin), 2, 0,
                           AdmissionRequest{AdmissionRequest::Kind::NewJob, 4, 4}, 0, terms, now);
        QCOMPARE(outcomeName(d.outcome), outcome);
        QCOMPARE(d.limit, limit);
        QCOMPARE(newcomerText(d), text);
    }

    void eventsToAudit_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QStringList>("events"); // "user start|end|early-end"
        QTest::newRow("nothing yet") << "2026-12-01T00:00:00Z"
                                     << "2026-12-07T00:00:00Z" << QStringList{};
        QTest::newRow("both start") << "2026-12-07T00:00:00Z"
                                    << "2026-12-08T12:00:00Z" << QStringList{"anna start", "ben start"};
        QTest::newRow("ben ended early") << "2026-12-09T00:00:00Z"
                                         << "2026-12-10T00:00:00Z" << QStringList{"ben early-end"};
        QTest::newRow("anna ends by itself") << "2026-12-10T00:00:00Z"
                                             << "2026-12-20T00:00:00Z" << QStringList{"anna end"};
        QTest::newRow("a pass that covers everything")
            << "2026-12-01T00:00:00Z"
            << "2026-12-31T00:00:00Z" << QStringList{"anna start", "ben start", "ben early-end", "anna end"};
        QTest::newRow("the end instant belongs to the pass that reaches it")
            << "2026-12-13T23:00:00Z"
            << "2026-12-14T00:00:00Z" << QStringList{"anna end"};
    }
    void eventsToAudit() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QStringList, events);
        const NewcomerPolicy p{7, 0};
        const QTimeZone utc = QTimeZone::utc();
        NewcomerAllowance anna =
            newcomerAllowance(QStringLiteral("anna"), at("2026-12-07T08:00:00Z"), p, utc);
        NewcomerAllowance ben = newcomerAllowance(QStringLiteral("ben"), at("2026-12-08T08:00:00Z"), p, utc);
        ben.endedAt = at("2026-12-09T09:00:00Z");
        QStringList got;
        for (const NewcomerEvent &e : newcomerEvents({anna, ben}, at(qPrintable(from)), at(qPrintable(to))))
            got << e.user + (e.start   ? QStringLiteral(" start")
                             : e.early ? QStringLiteral(" early-end")
                                       : QStringLiteral(" end"));
        QCOMPARE(got, events);
    }

    void policyText_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("parsed"); // "" for an error
        QTest::newRow("unlimited") << "7d:unlimited"
                                   << "7d:unlimited";
        QTest::newRow("factor") << "14d:x3"
                                << "14d:x3";
        QTest::newRow("fraction") << " 10D:X1.5 "
                                  << "10d:x1.5";
        QTest::newRow("off") << "off"
                             << "off";
        QTest::newRow("no days") << "0d:x3"
                                 << "";
        QTest::newRow("a factor that is no allowance") << "7d:x1"
                                                       << "";
        QTest::newRow("no kind") << "7d"
                                 << "";
        QTest::newRow("too long") << "400d:x2"
                                  << "";
    }
    void policyText() {
        QFETCH(QString, text);
        QFETCH(QString, parsed);
        const auto p = NewcomerPolicy::parse(text);
        if (parsed.isEmpty()) {
            QVERIFY(!p);
            QCOMPARE(p.error().field, QStringLiteral("newcomer"));
        } else {
            QVERIFY2(p, qPrintable(p ? QString() : p.error().message));
            QCOMPARE(p->toString(), parsed);
        }
    }

    // decideNewcomer(): the budget decision under the allowance, x factor and unlimited,
    // for a new job and for running work, at the allowance's edges; namespace budgets
    // and users without one are decided as before.
    void decisionUnderTheAllowance_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<bool>("namespaceBudget");
        QTest::addColumn<QString>("t");
        QTest::addColumn<bool>("running"); // else a new job of 4 GPUs x 4 h
        QTest::addColumn<double>("used");
        QTest::addColumn<QString>("outcome");
        QTest::addColumn<double>("limit");
        QTest::addColumn<bool>("unlimited");
        QTest::addColumn<QString>("text");
        const QString in = QStringLiteral("2026-12-09T12:00:00+01:00");
        const QString lastSecond = QStringLiteral("2026-12-14T23:59:59+01:00");
        const QString after = QStringLiteral("2026-12-15T00:00:00+01:00");
        const QString until = QStringLiteral("newcomer allowance until 12-14");
        // A day budget of 8 GPU-h (+1 boost) in Berlin; dana first seen 12-08 10:00.
        QTest::newRow("x3: a job over the plain budget fits")
            << "7d:x3" << false << in << false << 2.0 << "allowed" << 25.0 << false << until;
        QTest::newRow("x3: too much even for the allowance")
            << "7d:x3" << false << in << false << 10.0 << "denied" << 25.0 << false << until;
        QTest::newRow("x3: running over 9 is no overrun")
            << "7d:x3" << false << in << true << 20.0 << "allowed" << 25.0 << false << until;
        QTest::newRow("x3: its last second")
            << "7d:x3" << false << lastSecond << false << 2.0 << "allowed" << 25.0 << false << until;
        QTest::newRow("x3: ended by itself")
            << "7d:x3" << false << after << false << 2.0 << "denied" << 9.0 << false << "";
        QTest::newRow("unlimited: any job")
            << "7d:unlimited" << false << in << false << 100.0 << "allowed" << 9.0 << true << until;
        QTest::newRow("unlimited: running far over")
            << "7d:unlimited" << false << in << true << 100.0 << "allowed" << 9.0 << true << until;
        QTest::newRow("unlimited: ended by itself")
            << "7d:unlimited" << false << after << true << 100.0 << "denied" << 9.0 << false << "";
        QTest::newRow("a namespace budget is not raised")
            << "7d:x3" << true << in << false << 2.0 << "denied" << 9.0 << false << "";
        QTest::newRow("no policy") << "off" << false << in << false << 2.0 << "denied" << 9.0 << false << "";
    }
    void decisionUnderTheAllowance() {
        QFETCH(QString, policy);
        QFETCH(bool, namespaceBudget);
        QFETCH(QString, t);
        QFETCH(bool, running);
        QFETCH(double, used);
        QFETCH(QString, outcome);
        QFETCH(double, limit);
        QFETCH(bool, unlimited);
        QFETCH(QString, text);
        Budget b;
        b.scope = namespaceBudget ? BudgetScope::Namespace : BudgetScope::User;
        b.subject = QStringLiteral("dana");
        b.limitGpuHours = 8;
        b.tz = QStringLiteral("Europe/Berlin");
        NewcomerTerms terms;
        terms.policy = *NewcomerPolicy::parse(policy);
        terms.allowance = newcomerAllowance(
            QStringLiteral("dana"), at("2026-12-08T10:00:00+01:00"),
            terms.policy.enabled() ? terms.policy : *NewcomerPolicy::parse(QStringLiteral("7d:x3")), kBerlin);
        const qint64 now = at(qPrintable(t));
        const TimeRange day = periodContaining(now, Period::Day, kBerlin);
        const AdmissionRequest req = running ? AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}
                                             : AdmissionRequest{AdmissionRequest::Kind::NewJob, 4, 4};
        const Decision d = decideNewcomer(b, day, used, 4, req, 1, terms, now);
        QCOMPARE(outcomeName(d.outcome), outcome);
        QCOMPARE(d.limit, limit);
        QCOMPARE(d.unlimited, unlimited);
        QCOMPARE(newcomerText(d), text);
        QCOMPARE(d.budget.limitGpuHours, 8.0); // the budget as set
        QCOMPARE(d.overLimit(), !unlimited && used > limit);
        if (!text.isEmpty())
            QVERIFY2(d.message.contains(text), qPrintable(d.message));
        // With the user's budget beside a namespace's, an unlimited allowance never decides.
        if (unlimited) {
            Decision ns = decide(b, day, 0, 0, AdmissionRequest{AdmissionRequest::Kind::Running, 0, 0}, 0);
            QVERIFY(ns.allowed());
            ns.remaining = 1;
            QCOMPARE(combine({d, ns}, req).remaining, 1.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestNewcomer)
#include "tst_newcomer.moc"
