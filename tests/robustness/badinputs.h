#pragma once

// The hostile and malformed manifests of tst_badinputs: 124 inputs, each run through
// `gpuquota validate`, `fmt` and `apply --dry-run=server` (against the test cluster).
// A data table: one row per input with what validate and fmt must answer; apply answers
// what validate does, or applies (server dry run) what validate finds valid.
//
// Messages name the field and the line (`input.yaml:LINE:COL: spec.hard[cpu]: ...`):
// the rows check that prefix wherever the input has a field to name.

#include <QByteArray>
#include <QList>

namespace gq::test::badinputs {

struct Case {
    const char *name;
    QByteArray text;
    int validateRc;
    QByteArray validateMessage;
    int fmtRc;
    QByteArray fmtMessage;
    qint64 maxOutput = -1;        // bytes of stdout + stderr for validate, -1: not checked
    bool heavy = false;           // large but legitimate: allowed the debug build's slowdown
    QByteArray applyMessage = {}; // what apply says when it differs from validate
};

inline const QByteArray kQuotaHead =
    "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n";
inline const QByteArray kLimitRangeHead =
    "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: l\nspec:\n  limits:\n";
inline const QByteArray kValid = kQuotaHead + "    requests.nvidia.com/gpu: 4\n";

inline QByteArray quotaWith(const QByteArray &line) {
    return kQuotaHead + "    " + line + '\n';
}
inline QByteArray quotaObject(const QByteArray &metadata, const QByteArray &spec) {
    return "apiVersion: v1\nkind: ResourceQuota\nmetadata: " + metadata + "\nspec: " + spec + '\n';
}
inline QByteArray limitRangeWith(const QByteArray &items) {
    return kLimitRangeHead + items;
}

QByteArray manyKeysMap(int keys);
QByteArray oneLineJson(int keys, int padding);
QByteArray flowNesting(int levels);
QByteArray blockNesting(int levels);
QByteArray quotaList(int n);
QByteArray manyScopes(int scopes, int resources);
QByteArray aliasBomb();
QByteArray manyDocuments(int n);
QByteArray garbage(int n);

inline const QByteArray kTooDeep = "nested too deeply (more than 64 levels)";

// Every row; defined in badinputs.cpp.
QList<Case> allCases();
// The rows about objects, metadata, scopes, LimitRanges, Lists and encodings
// (badinputs_objects.cpp); part of allCases().
QList<Case> objectCases();

} // namespace gq::test::badinputs
