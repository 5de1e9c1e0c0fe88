#include "core/usage/rollupwriter.h"

#include "core/usage/bulkstatements.h"
#include "core/usage/pgcopy.h"
#include "core/usage/rollups.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>
#include <QtEndian>

#include <algorithm>
#include <bit>
#include <cmath>
#include <future>
#include <memory>
#include <optional>
#include <system_error>

namespace gq {

namespace {
constexpr int kBatchRows = 200; // rows per multi-row statement on the per-row path
// Bulk statements. SQLite: one native single-row statement per batch (see
// SqliteStatement; through Qt, binding cost grew with the square of the parameters
// per multi-row statement). PostgreSQL gets one array per column, so only the
// statement text size bounds a batch.
constexpr int kSqliteBulkRollupRows = 64; // x 3 columns
constexpr int kPgBulkRollupRows = 50000;
// Rows per native multi-row statement of writeSqlite() (x 3 parameters).
constexpr int kSqliteCellsPerStatement = 50;

// COPY's binary format: integers in network byte order.
template <typename T> void appendBigEndian(QByteArray &out, T v) {
    const T be = qToBigEndian(v);
    out.append(reinterpret_cast<const char *>(&be), sizeof be);
}
} // namespace

Result<void> RollupWriter::flush(const RollupDelta &delta) {
    QSqlDatabase db = m_conn.database();
    auto flush = [&](const RollupMap &map, const QString &table, const QString &column) -> Result<void> {
        if (map.isEmpty())
            return {};
        const QString time =
            table.endsWith(QLatin1String("_day")) ? QStringLiteral("day_s") : QStringLiteral("hour_s");
        const QString head =
            QStringLiteral("INSERT INTO %1 (%2, %3, gpu_seconds) VALUES ").arg(table, column, time);
        const QString tail = QStringLiteral(" ON CONFLICT (%2, %3) DO UPDATE SET gpu_seconds = "
                                            "%1.gpu_seconds + excluded.gpu_seconds")
                                 .arg(table, column, time);
        auto sqlFor = [&](int rows) -> QString {
            QStringList values;
            values.reserve(rows);
            for (int i = 0; i < rows; ++i)
                values << QStringLiteral("(?, ?, ?)");
            return head + values.join(QLatin1Char(',')) + tail;
        };
        QSqlQuery full(db);
        bool fullPrepared = false;
        std::vector<std::pair<RollupKey, double>> batch;
        batch.reserve(kBatchRows);
        auto run = [&](QSqlQuery &q) -> Result<void> {
            int i = 0;
            for (const auto &[key, v] : batch) {
                q.bindValue(i++, nonNull(key.first));
                q.bindValue(i++, key.second);
                q.bindValue(i++, v);
            }
            return m_conn.exec(q, QStringLiteral("updating %1").arg(table));
        };
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            batch.emplace_back(it.key(), it.value());
            if (int(batch.size()) == kBatchRows) {
                if (!fullPrepared) {
                    if (auto r = m_conn.prepare(full, sqlFor(kBatchRows)); !r)
                        return r;
                    fullPrepared = true;
                }
                if (auto r = run(full); !r)
                    return r;
                batch.clear();
            }
        }
        if (!batch.empty()) {
            QSqlQuery rest(db);
            if (auto r = m_conn.prepare(rest, sqlFor(int(batch.size()))); !r)
                return r;
            if (auto r = run(rest); !r)
                return r;
        }
        return {};
    };
    if (auto r = flush(delta.nsHour, QStringLiteral("rollup_ns_hour"), QStringLiteral("ns")); !r)
        return r;
    if (auto r = flush(delta.userHour, QStringLiteral("rollup_user_hour"), QStringLiteral("user_name")); !r)
        return r;
    if (auto r = flush(delta.nsDay, QStringLiteral("rollup_ns_day"), QStringLiteral("ns")); !r)
        return r;
    return flush(delta.userDay, QStringLiteral("rollup_user_day"), QStringLiteral("user_name"));
}

Result<void> RollupWriter::write(const RollupAccumulator &acc, Mode mode, PlainTables plain) {
    if (!m_conn.isPostgres())
        return writeSqlite(acc, mode);
    for (int t = 0; t < 4; ++t) {
        const RollupCells &cells = acc.cells(t);
        if (cells.empty())
            continue;
        if (plain.copy && (plain.tables & (1u << t))) {
            // Ordered already (the load's only write), or here.
            std::optional<OrderedCells> own;
            const OrderedCells *ordered = plain.ordered;
            if (!ordered || !(ordered->tables & (1u << t))) {
                auto o = orderPlain(acc, 1u << t, {});
                if (!o)
                    return o.error();
                own = std::move(*o);
                ordered = &*own;
            }
            if (auto r = copyRows(t, acc, *plain.copy, ordered->cells[t]); !r)
                return r;
            continue;
        }
        const std::vector<std::pair<quint64, double>> sorted = cells.sorted();
        QStringList names;
        std::vector<qint64> times;
        std::vector<double> values;
        const size_t chunk = 200000;
        for (size_t i = 0; i < sorted.size(); i += chunk) {
            names.clear();
            times.clear();
            values.clear();
            for (size_t k = i; k < std::min(sorted.size(), i + chunk); ++k) {
                names << acc.subjectName(t, sorted[k].first);
                times.push_back(RollupAccumulator::timeOf(sorted[k].first));
                values.push_back(sorted[k].second);
            }
            if (auto r = writeRows(t, names, times, values, mode); !r)
                return r;
        }
    }
    return {};
}

Result<std::vector<quint32>> RollupWriter::serverOrder(const std::vector<QString> &names) {
    QString list;
    list.reserve(qsizetype(names.size()) * 16);
    list += QLatin1Char('{');
    for (size_t i = 0; i < names.size(); ++i) {
        if (i)
            list += QLatin1Char(',');
        appendPgText(list, names[i]);
    }
    list += QLatin1Char('}');
    QSqlQuery q(m_conn.database());
    q.setForwardOnly(true);
    if (auto r =
            m_conn.prepare(q, QStringLiteral("SELECT CAST(n AS BIGINT) - 1 FROM unnest(CAST(? AS TEXT[])) "
                                             "WITH ORDINALITY AS u(name, n) ORDER BY name"));
        !r)
        return r.error();
    q.addBindValue(list);
    if (auto r = m_conn.exec(q, QStringLiteral("ordering rollup subjects")); !r)
        return r.error();
    std::vector<quint32> order;
    order.reserve(names.size());
    while (q.next())
        order.push_back(quint32(q.value(0).toLongLong()));
    if (order.size() != names.size())
        return Error::make(Error::Kind::Database,
                           QStringLiteral("ordering rollup subjects: %1 of %2 names came back")
                               .arg(order.size())
                               .arg(names.size()));
    return order;
}

Result<RollupWriter::OrderedCells> RollupWriter::orderPlain(const RollupAccumulator &acc, unsigned tables,
                                                            const std::function<Result<void>()> &meanwhile) {
    // In the order of each table's primary key as the server sorts names (its
    // collation): the key built afterwards (restorePlainRollups) then reads
    // presorted rows, which PostgreSQL sorts in one pass.
    std::vector<quint32> orders[4];
    for (int t = 0; t < 4; ++t) {
        if (!(tables & (1u << t)) || acc.cells(t).empty())
            continue;
        auto order = serverOrder(acc.interner(t).names);
        if (!order)
            return order.error();
        orders[t] = std::move(*order);
    }
    OrderedCells out;
    auto order = [&]() {
        for (int t = 0; t < 4; ++t)
            if ((tables & (1u << t)) && !acc.cells(t).empty()) {
                out.cells[t] = acc.cellsInOrder(t, orders[t]);
                out.tables |= 1u << t;
            }
    };
    if (!meanwhile) {
        order();
        return out;
    }
    std::future<void> ordering;
    try {
        ordering = std::async(std::launch::async, order);
    } catch (const std::system_error &) {
        ordering = std::async(std::launch::deferred, order); // no thread to be had
    }
    auto r = meanwhile();
    ordering.get();
    if (!r)
        return r.error();
    return out;
}

Result<void> RollupWriter::copyRows(int table, const RollupAccumulator &acc, PgCopy &copy,
                                    const std::vector<std::pair<quint64, double>> &sorted) {
    const RollupTable &t = kRollupTables[table];
    // Binary format (#31 item 7): the server parses no numbers, and the client formats
    // none; a double's bits go over unchanged, as exact as its shortest text.
    const QByteArray sql = QByteArrayLiteral("COPY ") + t.name + " (" + t.subjectColumn + ", " +
                           t.timeColumn + ", gpu_seconds) FROM STDIN (FORMAT binary)";
    // One COPY sent in pieces: the data stays small next to the cells it describes,
    // and the server stores one piece while the next is made.
    constexpr size_t kPiece = 100000;
    if (auto r = copy.start(sql); !r)
        return r;
    QByteArray data;
    data.reserve(qsizetype(kPiece) * 48);
    data.append("PGCOPY\n\377\r\n\0", 11);
    appendBigEndian(data, quint32(0)); // flags
    appendBigEndian(data, quint32(0)); // header extension length
    for (size_t i = 0; i == 0 || i < sorted.size(); i += kPiece) {
        for (size_t k = i; k < std::min(sorted.size(), i + kPiece); ++k) {
            const QByteArray &name = acc.subjectUtf8(table, sorted[k].first);
            appendBigEndian(data, quint16(3));
            appendBigEndian(data, quint32(name.size()));
            data += name;
            appendBigEndian(data, quint32(8));
            appendBigEndian(data, quint64(RollupAccumulator::timeOf(sorted[k].first)));
            appendBigEndian(data, quint32(8));
            appendBigEndian(data, std::bit_cast<quint64>(sorted[k].second));
        }
        if (i + kPiece >= sorted.size())
            appendBigEndian(data, quint16(0xFFFF)); // the end: -1 fields
        if (auto r = copy.put(data); !r) {
            copy.abort();
            return r;
        }
        data.clear();
    }
    return copy.end();
}

QString RollupWriter::upsertTail(int table, Mode mode) {
    const RollupTable &t = kRollupTables[table];
    return QStringLiteral(" ON CONFLICT (%1, %2) DO UPDATE SET gpu_seconds = %3excluded.gpu_seconds")
        .arg(QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn),
             mode == Mode::Add ? QLatin1String(t.name) + QStringLiteral(".gpu_seconds + ") : QString());
}

Result<void> RollupWriter::writeSqlite(const RollupAccumulator &acc, Mode mode) {
    // Each table in primary-key order (SQLite compares names bytewise): each insert
    // lands next to the previous one in the key's B-tree. The next table's cells are
    // ordered on a helper thread while this one writes (#31 item 7); both only read
    // the accumulator.
    auto ordered = [&acc](int t) { return acc.cellsInOrder(t, acc.byteOrder(t)); };
    std::future<std::vector<std::pair<quint64, double>>> next;
    for (int t = 0; t < 4; ++t) {
        if (acc.cells(t).empty())
            continue;
        std::vector<std::pair<quint64, double>> cells = next.valid() ? next.get() : ordered(t);
        int following = t + 1;
        while (following < 4 && acc.cells(following).empty())
            ++following;
        if (following < 4) {
            try {
                next = std::async(std::launch::async, ordered, following);
            } catch (const std::system_error &) {
                // No thread to be had: the next table is ordered when its turn comes.
            }
        }
        if (auto r = writeSqlite(t, acc, cells, mode); !r) {
            if (next.valid())
                next.wait();
            return r;
        }
    }
    return {};
}

Result<void> RollupWriter::writeSqlite(int table, const RollupAccumulator &acc,
                                       const std::vector<std::pair<quint64, double>> &sorted, Mode mode) {
    const RollupTable &t = kRollupTables[table];
    sqlite3 *h = m_conn.sqliteHandle();
    if (!h)
        return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
    // Two statements for all cells: kSqliteCellsPerStatement rows at a time (a step
    // per row cost more than the insert itself), then one row at a time for the rest.
    // Names are bound as the interner's UTF-8.
    auto prepare = [&](int rows) {
        QString values = QStringLiteral("(?, ?, ?)");
        for (int i = 1; i < rows; ++i)
            values += QStringLiteral(", (?, ?, ?)");
        const QByteArray sql =
            (QStringLiteral("INSERT INTO %1 (%2, %3, gpu_seconds) VALUES ")
                 .arg(QLatin1String(t.name), QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn)) +
             values + upsertTail(table, mode))
                .toUtf8();
        return std::make_unique<SqliteStatement>(h, sql.constData());
    };
    const size_t full = sorted.size() / kSqliteCellsPerStatement * kSqliteCellsPerStatement;
    std::unique_ptr<SqliteStatement> many, one;
    for (size_t k = 0; k < sorted.size();) {
        const bool batch = k < full;
        std::unique_ptr<SqliteStatement> &st = batch ? many : one;
        if (!st) {
            st = prepare(batch ? kSqliteCellsPerStatement : 1);
            if (!st->ok())
                return Error::make(Error::Kind::Database,
                                   QStringLiteral("preparing a statement: %1").arg(st->error()));
        }
        const size_t n = batch ? size_t(kSqliteCellsPerStatement) : 1;
        for (size_t i = 0; i < n; ++i, ++k) {
            const auto &[key, value] = sorted[k];
            const int p = int(i) * 3;
            st->text(p + 1, acc.subjectUtf8(table, key));
            st->integer(p + 2, RollupAccumulator::timeOf(key));
            st->real(p + 3, value);
        }
        if (!st->step())
            return Error::make(Error::Kind::Database,
                               QStringLiteral("updating %1: %2").arg(QLatin1String(t.name), st->error()));
    }
    return {};
}

Result<void> RollupWriter::writeRows(int table, const QStringList &names, const std::vector<qint64> &times,
                                     const std::vector<double> &values, Mode mode) {
    const RollupTable &t = kRollupTables[table];
    const bool pg = m_conn.isPostgres();
    const QString tableName = QString::fromLatin1(t.name);
    const QString tail = upsertTail(table, mode);
    const QString head = QStringLiteral("INSERT INTO %1 (%2, %3, gpu_seconds) ")
                             .arg(tableName, QLatin1String(t.subjectColumn), QLatin1String(t.timeColumn));
    const size_t total = times.size();
    const size_t batch = size_t(pg ? kPgBulkRollupRows : kSqliteBulkRollupRows);
    std::unique_ptr<SqliteStatement> st;
    if (!pg) {
        sqlite3 *h = m_conn.sqliteHandle();
        if (!h)
            return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
        const QByteArray sql = (head + QStringLiteral("VALUES (?, ?, ?)") + tail).toUtf8();
        st = std::make_unique<SqliteStatement>(h, sql.constData());
        if (!st->ok())
            return Error::make(Error::Kind::Database,
                               QStringLiteral("preparing a statement: %1").arg(st->error()));
    }
    for (size_t from = 0; from < total;) {
        const size_t n = std::min(batch, total - from);
        if (pg) {
            auto q =
                m_conn.cached(head +
                              QStringLiteral("SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), "
                                             "CAST(? AS DOUBLE PRECISION[]))") +
                              tail);
            if (!q)
                return q.error();
            QString a, b, c;
            a.reserve(qsizetype(n) * 12);
            b.reserve(qsizetype(n) * 11);
            c.reserve(qsizetype(n) * 20);
            a += QLatin1Char('{');
            b += QLatin1Char('{');
            c += QLatin1Char('{');
            for (size_t k = from; k < from + n; ++k) {
                if (k != from) {
                    a += QLatin1Char(',');
                    b += QLatin1Char(',');
                    c += QLatin1Char(',');
                }
                appendPgText(a, names[qsizetype(k)]);
                b += QString::number(times[k]);
                c += QString::number(values[k], 'g', 17);
            }
            a += QLatin1Char('}');
            b += QLatin1Char('}');
            c += QLatin1Char('}');
            (*q)->bindValue(0, a);
            (*q)->bindValue(1, b);
            (*q)->bindValue(2, c);
            auto r = m_conn.exec(**q, QStringLiteral("updating %1").arg(tableName));
            (*q)->finish();
            if (!r)
                return r;
        } else {
            for (size_t k = from; k < from + n; ++k) {
                st->text(1, names[qsizetype(k)]);
                st->integer(2, times[k]);
                st->real(3, values[k]);
                if (!st->step())
                    return Error::make(Error::Kind::Database,
                                       QStringLiteral("updating %1: %2").arg(tableName, st->error()));
            }
        }
        from += n;
    }
    return {};
}

Result<UsageStore::RollupRebuildReport> RollupWriter::rebuild() {
    using RollupRebuildReport = UsageStore::RollupRebuildReport;
    using RollupTableReport = UsageStore::RollupTableReport;
    UsageTx tx(m_conn);
    if (auto r = tx.begin(); !r)
        return r.error();
    RollupRebuildReport report;
    RollupAccumulator fresh(m_days);
    {
        QSqlQuery q(m_conn.database());
        q.setForwardOnly(true);
        if (auto r =
                m_conn.execSql(q, QStringLiteral("SELECT ns, user_name, gpus, weight, start_s, end_s FROM "
                                                 "usage_intervals WHERE end_s IS NOT NULL"));
            !r)
            return r.error();
        while (q.next()) {
            // The stored per-row weight, as the incremental path used when the row was written.
            if (!fresh.add(q.value(0).toString(), q.value(1).toString(), q.value(4).toLongLong(),
                           q.value(5).toLongLong(), q.value(2).toInt() * q.value(3).toDouble()))
                return Error::make(Error::Kind::Invalid,
                                   QStringLiteral("more than 16 million distinct subjects"));
            ++report.intervals;
        }
    }
    constexpr double kTolerance = 1e-3; // GPU-seconds
    for (int t = 0; t < 4; ++t) {
        const RollupTable &tab = kRollupTables[t];
        RollupTableReport tr;
        tr.table = QString::fromLatin1(tab.name);
        // The stored rows, interned with the same ids as the fresh ones.
        std::unordered_map<quint64, double> stored;
        {
            QSqlQuery q(m_conn.database());
            q.setForwardOnly(true);
            if (auto r = m_conn.execSql(
                    q, QStringLiteral("SELECT %1, %2, gpu_seconds FROM %3")
                           .arg(QLatin1String(tab.subjectColumn), QLatin1String(tab.timeColumn), tr.table));
                !r)
                return r.error();
            while (q.next()) {
                quint32 id = 0;
                if (!fresh.interner(t).intern(q.value(0).toString(), id))
                    return Error::make(Error::Kind::Invalid,
                                       QStringLiteral("more than 16 million distinct subjects"));
                stored[RollupAccumulator::keyOf(id, q.value(1).toLongLong())] += q.value(2).toDouble();
            }
        }
        tr.rowsBefore = qint64(stored.size());
        const auto &want = fresh.cells(t);
        QStringList names;
        std::vector<qint64> times;
        std::vector<double> values;
        want.forEach([&](quint64 key, double v) {
            auto it = stored.find(key);
            const double have = it == stored.end() ? 0.0 : it->second;
            if (it == stored.end()) {
                ++tr.added;
            } else if (std::abs(have - v) > kTolerance) {
                ++tr.changed;
            } else {
                return;
            }
            tr.maxAbsDiffGpuHours = std::max(tr.maxAbsDiffGpuHours, std::abs(have - v) / 3600.0);
            names << fresh.subjectName(t, key);
            times.push_back(RollupAccumulator::timeOf(key));
            values.push_back(v);
        });
        if (!names.isEmpty())
            if (auto r = writeRows(t, names, times, values, Mode::Replace); !r)
                return r.error();
        QSqlQuery del(m_conn.database());
        bool delPrepared = false;
        for (const auto &[key, have] : stored) {
            if (want.find(key))
                continue;
            if (std::abs(have) <= kTolerance)
                continue; // replaced intervals leave zero rows behind; they are harmless
            if (!delPrepared) {
                if (auto r = m_conn.prepare(del, QStringLiteral("DELETE FROM %1 WHERE %2 = ? AND %3 = ?")
                                                     .arg(tr.table, QLatin1String(tab.subjectColumn),
                                                          QLatin1String(tab.timeColumn)));
                    !r)
                    return r.error();
                delPrepared = true;
            }
            del.bindValue(0, nonNull(fresh.subjectName(t, key)));
            del.bindValue(1, RollupAccumulator::timeOf(key));
            if (auto r = m_conn.exec(del, QStringLiteral("deleting from %1").arg(tr.table)); !r)
                return r.error();
            ++tr.removed;
            tr.maxAbsDiffGpuHours = std::max(tr.maxAbsDiffGpuHours, std::abs(have) / 3600.0);
        }
        tr.rowsAfter = tr.rowsBefore + tr.added - tr.removed;
        report.tables << tr;
    }
    if (auto r = tx.commit(); !r)
        return r.error();
    return report;
}

} // namespace gq
