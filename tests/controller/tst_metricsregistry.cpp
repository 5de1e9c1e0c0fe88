// The metrics registry: names and escapes as the exposition format wants them, read
// back by our own parser (core/metrics); promtool checks a whole scrape in
// tst_selfservice.
#include "core/metrics/exposition.h"
#include "services/controller/metricsregistry.h"

#include <QtTest>

#include <thread>

using namespace gq;

class TestMetricsRegistry : public QObject {
    Q_OBJECT

private slots:
    void namesAreChecked() {
        MetricsRegistry r;
        QVERIFY(
            r.describe(QStringLiteral("gq_things"), MetricsRegistry::Type::Gauge, QStringLiteral("Things.")));
        QVERIFY(!r.describe(QStringLiteral("gq things"), MetricsRegistry::Type::Gauge, QStringLiteral("x")));
        QVERIFY(!r.describe(QStringLiteral("1gq"), MetricsRegistry::Type::Gauge, QStringLiteral("x")));
        QVERIFY(
            !r.describe(QStringLiteral("gq_events"), MetricsRegistry::Type::Counter, QStringLiteral("x")));
        QVERIFY(r.describe(QStringLiteral("gq_events_total"), MetricsRegistry::Type::Counter,
                           QStringLiteral("x")));
        QVERIFY(!r.describe(QStringLiteral("gq_things"), MetricsRegistry::Type::Counter,
                            QStringLiteral("Things.")));
        r.set(QStringLiteral("gq_unknown"), {}, 1); // ignored
        QVERIFY(!r.render().contains("gq_unknown"));
    }

    void escapesRoundTrip() {
        MetricsRegistry r;
        r.describe(QStringLiteral("gq_used"), MetricsRegistry::Type::Gauge,
                   QStringLiteral("A \\ help\nline."));
        const QString odd = QStringLiteral("team \"a\"\\b\nc 团队");
        r.set(QStringLiteral("gq_used"),
              {{QStringLiteral("namespace"), odd}, {QStringLiteral("period"), QStringLiteral("day")}}, 2.5);
        r.set(QStringLiteral("gq_used"),
              {{QStringLiteral("period"), QStringLiteral("day")},
               {QStringLiteral("namespace"), QStringLiteral("b")}},
              0.1);
        r.set(QStringLiteral("gq_used"),
              {{QStringLiteral("bad-label"), QStringLiteral("x")},
               {QStringLiteral("namespace"), QStringLiteral("c")}},
              1e-7);
        const metrics::Exposition e = metrics::parseExposition(r.render());
        QCOMPARE(e.issueCount, 0);
        QCOMPARE(e.help.value(QStringLiteral("gq_used")), QStringLiteral("A \\ help\nline."));
        QCOMPARE(e.type.value(QStringLiteral("gq_used")), QStringLiteral("gauge"));
        QCOMPARE(e.samples.size(), 3);
        bool found = false;
        for (const metrics::Sample &s : e.samples) {
            if (metrics::labelValue(s.labels, u"namespace") == odd) {
                QCOMPARE(s.value, 2.5);
                found = true;
            }
            QVERIFY(!metrics::hasLabel(s.labels, u"bad-label"));
            if (metrics::labelValue(s.labels, u"namespace") == QLatin1String("b"))
                QCOMPARE(s.value, 0.1);
            if (metrics::labelValue(s.labels, u"namespace") == QLatin1String("c"))
                QCOMPARE(s.value, 1e-7);
        }
        QVERIFY(found);
    }

    void countersOnlyGrow() {
        MetricsRegistry r;
        r.describe(QStringLiteral("gq_sent_total"), MetricsRegistry::Type::Counter, QStringLiteral("Sent."));
        r.add(QStringLiteral("gq_sent_total"), {{QStringLiteral("channel"), QStringLiteral("email")}});
        r.add(QStringLiteral("gq_sent_total"), {{QStringLiteral("channel"), QStringLiteral("email")}}, -5);
        r.set(QStringLiteral("gq_sent_total"), {{QStringLiteral("channel"), QStringLiteral("email")}}, 0);
        QCOMPARE(
            r.value(QStringLiteral("gq_sent_total"), {{QStringLiteral("channel"), QStringLiteral("email")}}),
            1.0);
    }

    void replaceAllDropsGoneSeries() {
        MetricsRegistry r;
        r.describe(QStringLiteral("gq_left"), MetricsRegistry::Type::Gauge, QStringLiteral("Left."));
        r.replaceAll(QStringLiteral("gq_left"), {{{{QStringLiteral("namespace"), QStringLiteral("a")}}, 1},
                                                 {{{QStringLiteral("namespace"), QStringLiteral("b")}}, 2}});
        r.replaceAll(QStringLiteral("gq_left"), {{{{QStringLiteral("namespace"), QStringLiteral("b")}}, 3}});
        const QByteArray text = r.render();
        QVERIFY(!text.contains("namespace=\"a\""));
        QVERIFY(text.contains("gq_left{namespace=\"b\"} 3\n"));
    }

    void emptyMetricShowsZero() {
        MetricsRegistry r;
        registerControllerMetrics(r);
        const metrics::Exposition e = metrics::parseExposition(r.render());
        QCOMPARE(e.issueCount, 0);
        QVERIFY(e.type.contains(QLatin1String(metricnames::kClampsActive)));
        QVERIFY(e.type.contains(QLatin1String(metricnames::kClampsNotEnforced)));
        QVERIFY(e.type.contains(QLatin1String(metricnames::kReconcileLag)));
    }

    // Issue 31 item 16: the per-user gauges (and every other labelled metric) show no
    // unlabelled `0` sample before their first series; unlabelled ones still do.
    void labelledMetricsShowNoUnlabelledZero() {
        MetricsRegistry r;
        registerControllerMetrics(r);
        const QByteArray text = r.render();
        for (const char *name :
             {metricnames::kUserUsed, metricnames::kUserRemaining, metricnames::kUserLimit,
              metricnames::kNamespaceUsed, metricnames::kAlertsSent, metricnames::kSelfServiceRequests}) {
            QVERIFY2(text.contains(QByteArray(QByteArray("# TYPE ") + name)), name);
            QVERIFY2(!text.contains(QByteArray(QByteArray("\n") + name + " 0\n")), name);
        }
        QVERIFY(text.contains(QByteArray(QByteArray("\n") + metricnames::kClampsActive + " 0\n")));
        r.add(QLatin1String(metricnames::kAlertsSent),
              {{QStringLiteral("channel"), QStringLiteral("email")}});
        QVERIFY(r.render().contains(
            QByteArray(QByteArray(metricnames::kAlertsSent) + "{channel=\"email\"} 1\n")));
        QCOMPARE(metrics::parseExposition(text).issueCount, 0);
    }

    void feedsFromThreads() {
        MetricsRegistry r;
        r.describe(QStringLiteral("gq_n_total"), MetricsRegistry::Type::Counter, QStringLiteral("N."));
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&r] {
                for (int i = 0; i < 1000; ++i) {
                    r.add(QStringLiteral("gq_n_total"), {});
                    (void)r.render();
                }
            });
        for (auto &t : threads)
            t.join();
        QCOMPARE(r.value(QStringLiteral("gq_n_total")), 4000.0);
    }
};

QTEST_GUILESS_MAIN(TestMetricsRegistry)
#include "tst_metricsregistry.moc"
