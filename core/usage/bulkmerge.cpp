// BulkLoader::merge: the idempotent half of a CSV import (see bulkloader.h).
#include "core/usage/bulkloader.h"

#include "core/usage/bulkstatements.h"
#include "core/usage/phasetimes.h"
#include "core/usage/rollups.h"
#include "core/usage/usageconnection.h"

#include <QSqlQuery>

#include <cmath>
#include <optional>

namespace gq {

namespace {
QString fromSqliteText(sqlite3_stmt *st, int col) {
    const auto *p = static_cast<const char16_t *>(sqlite3_column_text16(st, col));
    return p ? QString::fromUtf16(p, sqlite3_column_bytes16(st, col) / 2) : QString();
}
} // namespace

Result<void> BulkLoader::merge(UsageStore::BulkLoad &load, const std::vector<UsageInterval> &chunk,
                               MergeCounts &counts) {
    if (auto r = load.settle(); !r)
        return r;
    if (auto r = endStream(); !r)
        return r;
    std::optional<PhaseTimes::Scope> phase(std::in_place, PhaseTimes::Lookup);
    auto stored = lookup(chunk);
    phase.reset();
    if (!stored)
        return stored.error();
    std::vector<UsageInterval> fresh;
    std::vector<Replacement> replaced;
    for (size_t k = 0; k < chunk.size(); ++k) {
        const UsageInterval &iv = chunk[k];
        const std::optional<Stored> &old = (*stored)[k];
        if (!old) {
            fresh.push_back(iv);
            continue;
        }
        // The same comparison as IntervalWriter::upsertInTx.
        const double weight = m_weights.weight(iv.resource);
        if (old->ns == iv.ns && old->user == iv.user && old->podName == iv.podName && old->gpus == iv.gpus &&
            old->end == iv.end && std::abs(old->weight - weight) < 1e-12) {
            ++counts.unchanged;
            continue;
        }
        RollupAccumulator &acc = *load.m_acc;
        if ((old->end && !acc.add(old->ns, old->user, iv.start, *old->end, -old->gpus * old->weight)) ||
            (iv.end && !acc.add(iv.ns, iv.user, iv.start, *iv.end, iv.gpus * weight))) {
            load.m_failed = true;
            return Error::make(Error::Kind::Invalid, QStringLiteral("more than 16 million distinct subjects"),
                               QStringLiteral("user"));
        }
        replaced.push_back({old->id, &iv});
    }
    if (auto r = replace(replaced); !r) {
        load.m_failed = true;
        return r;
    }
    counts.updated += qint64(replaced.size());
    if (auto r = load.add(fresh); !r)
        return r;
    counts.inserted += qint64(fresh.size());
    return {};
}

Result<std::vector<std::optional<BulkLoader::Stored>>>
BulkLoader::lookup(const std::vector<UsageInterval> &chunk) {
    std::vector<std::optional<Stored>> out(chunk.size());
    if (chunk.empty())
        return out;
    if (m_conn.isPostgres()) {
        // One round trip for the whole chunk: its keys as arrays, joined on the unique key.
        auto q = m_conn.cached(QStringLiteral(
            "SELECT s.ord, u.id, u.ns, u.user_name, u.pod_name, u.gpus, u.weight, u.end_s "
            "FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[])) "
            "WITH ORDINALITY AS s(cluster, pod_uid, resource, start_s, ord) JOIN usage_intervals u ON "
            "u.cluster = s.cluster AND u.pod_uid = s.pod_uid AND u.resource = s.resource AND "
            "u.start_s = s.start_s"));
        if (!q)
            return q.error();
        QString cols[4];
        for (QString &c : cols)
            c = QStringLiteral("{");
        for (size_t k = 0; k < chunk.size(); ++k) {
            if (k)
                for (QString &c : cols)
                    c += QLatin1Char(',');
            appendPgText(cols[0], chunk[k].cluster);
            appendPgText(cols[1], chunk[k].podUid);
            appendPgText(cols[2], chunk[k].resource);
            cols[3] += QString::number(chunk[k].start);
        }
        for (int c = 0; c < 4; ++c)
            (*q)->bindValue(c, QString(cols[c] + QLatin1Char('}')));
        if (auto r = m_conn.exec(**q, QStringLiteral("looking up imported intervals")); !r)
            return r.error();
        while ((*q)->next()) {
            const qint64 ord = (*q)->value(0).toLongLong();
            if (ord < 1 || ord > qint64(chunk.size()))
                continue;
            Stored s;
            s.id = (*q)->value(1).toLongLong();
            s.ns = (*q)->value(2).toString();
            s.user = (*q)->value(3).toString();
            s.podName = (*q)->value(4).toString();
            s.gpus = (*q)->value(5).toInt();
            s.weight = (*q)->value(6).toDouble();
            if (!(*q)->value(7).isNull())
                s.end = (*q)->value(7).toLongLong();
            out[size_t(ord - 1)] = std::move(s);
        }
        (*q)->finish();
        return out;
    }
    sqlite3 *h = m_conn.sqliteHandle();
    if (!h)
        return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(h,
                           "SELECT id, ns, user_name, pod_name, gpus, weight, end_s FROM usage_intervals "
                           "WHERE cluster = ? AND pod_uid = ? AND resource = ? AND start_s = ?",
                           -1, &st, nullptr) != SQLITE_OK)
        return Error::make(
            Error::Kind::Database,
            QStringLiteral("preparing a lookup: %1").arg(QString::fromUtf8(sqlite3_errmsg(h))));
    auto bind = [st](int i, const QString &v) {
        sqlite3_bind_text16(st, i, v.utf16(), int(v.size() * 2), SQLITE_STATIC);
    };
    std::optional<Error> failure;
    for (size_t k = 0; k < chunk.size(); ++k) {
        bind(1, chunk[k].cluster);
        bind(2, chunk[k].podUid);
        bind(3, chunk[k].resource);
        sqlite3_bind_int64(st, 4, chunk[k].start);
        const int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            Stored s;
            s.id = sqlite3_column_int64(st, 0);
            s.ns = fromSqliteText(st, 1);
            s.user = fromSqliteText(st, 2);
            s.podName = fromSqliteText(st, 3);
            s.gpus = sqlite3_column_int(st, 4);
            s.weight = sqlite3_column_double(st, 5);
            if (sqlite3_column_type(st, 6) != SQLITE_NULL)
                s.end = sqlite3_column_int64(st, 6);
            out[k] = std::move(s);
        } else if (rc != SQLITE_DONE) {
            failure = Error::make(
                Error::Kind::Database,
                QStringLiteral("looking up an interval: %1").arg(QString::fromUtf8(sqlite3_errmsg(h))));
            break;
        }
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (failure)
        return *failure;
    return out;
}

Result<void> BulkLoader::replace(const std::vector<Replacement> &rows) {
    if (rows.empty())
        return {};
    if (m_conn.isPostgres()) {
        auto q = m_conn.cached(QStringLiteral(
            "UPDATE usage_intervals AS u SET ns = s.ns, user_name = s.user_name, pod_name = s.pod_name, "
            "gpus = s.gpus, weight = s.weight, end_s = s.end_s, source = s.source FROM unnest(CAST(? AS "
            "BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS INTEGER[]), "
            "CAST(? AS DOUBLE PRECISION[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[])) AS s(id, ns, user_name, "
            "pod_name, gpus, weight, end_s, source) WHERE u.id = s.id"));
        if (!q)
            return q.error();
        QString cols[8];
        for (QString &c : cols)
            c = QStringLiteral("{");
        for (size_t k = 0; k < rows.size(); ++k) {
            const UsageInterval &iv = *rows[k].row;
            if (k)
                for (QString &c : cols)
                    c += QLatin1Char(',');
            cols[0] += QString::number(rows[k].id);
            appendPgText(cols[1], iv.ns);
            appendPgText(cols[2], iv.user);
            appendPgText(cols[3], iv.podName);
            cols[4] += QString::number(iv.gpus);
            cols[5] += QString::number(m_weights.weight(iv.resource), 'g', 17);
            cols[6] += iv.end ? QString::number(*iv.end) : QStringLiteral("NULL");
            appendPgText(cols[7], iv.source);
        }
        for (int c = 0; c < 8; ++c)
            (*q)->bindValue(c, QString(cols[c] + QLatin1Char('}')));
        auto r = m_conn.exec(**q, QStringLiteral("updating imported intervals"));
        (*q)->finish();
        return r;
    }
    sqlite3 *h = m_conn.sqliteHandle();
    if (!h)
        return Error::make(Error::Kind::Internal, QStringLiteral("no native SQLite handle"));
    SqliteStatement st(h, "UPDATE usage_intervals SET ns = ?, user_name = ?, pod_name = ?, gpus = ?, "
                          "weight = ?, end_s = ?, source = ? WHERE id = ?");
    if (!st.ok())
        return Error::make(Error::Kind::Database, QStringLiteral("preparing an update: %1").arg(st.error()));
    for (const Replacement &r : rows) {
        const UsageInterval &iv = *r.row;
        st.text(1, iv.ns);
        st.text(2, iv.user);
        st.text(3, iv.podName);
        st.integer(4, iv.gpus);
        st.real(5, m_weights.weight(iv.resource));
        if (iv.end)
            st.integer(6, *iv.end);
        else
            st.null(6);
        st.text(7, iv.source);
        st.integer(8, r.id);
        if (!st.step())
            return Error::make(Error::Kind::Database,
                               QStringLiteral("updating an interval: %1").arg(st.error()));
    }
    return {};
}

} // namespace gq
