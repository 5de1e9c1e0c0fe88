#include "tests/robustness/badinputs.h"

namespace gq::test::badinputs {

QByteArray manyKeysMap(int keys) {
    QByteArray y = kQuotaHead;
    for (int i = 0; i < keys; ++i)
        y += "    requests.example.com/r" + QByteArray::number(i) + ": 1\n";
    return y;
}

// One line of JSON: a spec.hard of `keys` resources, each value padded to reach a size.
QByteArray oneLineJson(int keys, int padding) {
    QByteArray j = R"({"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{)";
    const QByteArray value = QByteArray(padding, '0') + '1';
    for (int i = 0; i < keys; ++i)
        j += (i ? ",\"" : "\"") + QByteArray("requests.example.com/r") + QByteArray::number(i) + "\":\"" +
             value + '"';
    return j + "}}}";
}

QByteArray flowNesting(int levels) {
    return "a: " + QByteArray("{a: ").repeated(levels) + '1' + QByteArray("}").repeated(levels) + '\n';
}

QByteArray blockNesting(int levels) {
    QByteArray y;
    for (int i = 0; i < levels; ++i)
        y += QByteArray(i * 2, ' ') + "a:\n";
    return y + QByteArray(levels * 2, ' ') + "b: 1\n";
}

QByteArray quotaList(int n) {
    QByteArray y = "apiVersion: v1\nkind: List\nitems:\n";
    for (int i = 0; i < n; ++i)
        y += "- apiVersion: v1\n  kind: ResourceQuota\n  metadata:\n    name: q" + QByteArray::number(i) +
             "\n  spec:\n    hard:\n      requests.nvidia.com/gpu: 4\n      cpu: 10\n";
    return y;
}

QByteArray manyScopes(int scopes, int resources) {
    QByteArray y = "apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  scopes:\n";
    y += QByteArray("  - NotTerminating\n").repeated(scopes) + "  hard:\n";
    for (int i = 0; i < resources; ++i)
        y += "    requests.example.com/r" + QByteArray::number(i) + ": 1\n";
    return y;
}

QByteArray aliasBomb() {
    QByteArray y = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    const char *names = "abcdefghij";
    for (int i = 1; i < 10; ++i) {
        y += QByteArray(1, names[i]) + ": &" + QByteArray(1, names[i]) + " [";
        for (int j = 0; j < 10; ++j)
            y += QByteArray(j ? ", *" : "*") + QByteArray(1, names[i - 1]);
        y += "]\n";
    }
    return y;
}

QByteArray manyDocuments(int n) {
    QByteArray y;
    for (int i = 0; i < n; ++i)
        y += "---\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q" + QByteArray::number(i) +
             "\nspec:\n  hard:\n    requests.nvidia.com/gpu: 2\n";
    return y;
}

QByteArray garbage(int n) {
    QByteArray b(n, Qt::Uninitialized);
    quint32 x = 2463534242u;
    for (int i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b[i] = char(x);
    }
    return b;
}

QList<Case> allCases() {
    const QByteArray &tooDeep = kTooDeep;
    const QByteArray json200k = oneLineJson(200000, 0);  // 6.6 MB
    const QByteArray json50m = oneLineJson(200000, 220); // 50 MB
    const QByteArray hugeQuantity = kQuotaHead + "    cpu: '" + QByteArray(5000000, '1') + "x'\n";
    QList<Case> cases = {
        // Big but legitimate: linear work, within the budget.
        {"80k-key map", manyKeysMap(80000), 0, "1 object(s) in 1 file(s) valid", 0,
         "requests.example.com/r79999", -1, true},
        {"200k-key one-line JSON under the limit", json200k, 0, "1 object(s) in 1 file(s) valid", 0,
         "requests.example.com/r199999", -1, true},
        {"100k-quota List", quotaList(100000), 0, "100000 object(s) in 1 file(s) valid", 0, "name: q99999",
         -1, true},
        {"100k scopes x 100k resources", manyScopes(100000, 100000), 0, "1 object(s) in 1 file(s) valid", 0,
         "NotTerminating", -1, true},
        {"1000 documents", manyDocuments(1000), 0, "1000 object(s) in 1 file(s) valid", 0, "name: q999"},
        // Too big: refused before parsing.
        {"200k-key one-line JSON over the limit", json50m, 2, "larger than the 16 MiB input limit", 2,
         "larger than the 16 MiB input limit", 4096},
        // Too deep: the depth limit's message, whoever notices first.
        {"flow nesting 497", flowNesting(497), 1, tooDeep, 1, tooDeep, 4096},
        {"flow nesting 1000", flowNesting(1000), 1, tooDeep, 1, tooDeep, 4096},
        {"flow nesting 3000", flowNesting(3000), 1, tooDeep, 1, tooDeep, 4096},
        {"block nesting 497", blockNesting(497), 1, tooDeep, 1, tooDeep, 4096},
        {"block nesting 1000", blockNesting(1000), 1, tooDeep, 1, tooDeep, 4096},
        {"block nesting 3000", blockNesting(3000), 1, tooDeep, 1, tooDeep, 4096},
        {"sequence nesting 1000", "a: " + QByteArray("[").repeated(1000) + QByteArray("]").repeated(1000), 1,
         tooDeep, 1, tooDeep, 4096},
        // A huge bad value is shown cut, not repeated whole.
        {"5 MB quantity", hugeQuantity, 1, "… (5000001 bytes)': unknown suffix", 0, {}, -1},
        // (An implicit key is at most 1024 characters in YAML; longer ones need "? ".)
        {"5 MB key",
         kQuotaHead + "    ? " + QByteArray(5000000, 'k') + "\n    : 1\n",
         1,
         "… (5000000 bytes)",
         0,
         {},
         4096},
        {"5 MB duplicate key",
         kQuotaHead + "    ? " + QByteArray(2000000, 'k') + "\n    : 1\n    ? " + QByteArray(2000000, 'k') +
             "\n    : 2\n",
         1, "… (2000000 bytes)\" already defined at line 7", 1, "already defined at line 7", 4096},
        // Malformed text.
        {"tab indentation", kQuotaHead + "\trequests.nvidia.com/gpu: 4\n", 1, "invalid YAML", 1,
         "invalid YAML", 4096},
        {"byte-order mark", "\xEF\xBB\xBF" + kValid, 0, "1 object(s) in 1 file(s) valid", 0,
         "nvidia.com/gpu: 4"},
        {"CRLF line ends", QByteArray(kValid).replace("\n", "\r\n"), 0, "valid", 0, "nvidia.com/gpu: 4"},
        {"binary garbage", garbage(1 << 20), 1, "not UTF-8 text", 1, "not UTF-8 text", 4096},
        {"NUL bytes", kValid + QByteArray(100, '\0'), 1, "not UTF-8 text: byte 0x00", 1, "byte 0x00", 4096},
        {"invalid UTF-8", kQuotaHead + "    cpu: \"\xC3\x28\"\n", 1, "not UTF-8 text: byte 0xc3", 1, "0xc3",
         4096},
        // yaml-cpp ends a quoted scalar left open at the end of the text; the value is then
        // wrong, and validate says so.
        {"unterminated double quote", kQuotaHead + "    cpu: \"4\n", 1, "whitespace is not allowed", 0, {}},
        {"unterminated single quote", kQuotaHead + "    cpu: '4\n", 1, "whitespace is not allowed", 0, {}},
        {"unterminated quote mid-file",
         "kind: \"ResourceQuota\napiVersion: v1\nmetadata: {name: q}\n",
         1,
         "Unsupported value",
         0,
         {},
         -1,
         false,
         "kind: gpuquota applies ResourceQuota, LimitRange and Namespace objects"},
        {"unterminated flow map", "{apiVersion: v1, kind: ResourceQuota", 1, "invalid YAML", 1,
         "invalid YAML", 4096},
        {"stray comma after flow map", "{a: 1},", 1, "invalid YAML", 1, "invalid YAML", 4096},
        {"huge number", kQuotaHead + "    cpu: 1e400\n", 1, "out of range", 0, {}, 4096},
        {"huge integer",
         kQuotaHead + "    cpu: " + QByteArray(400, '9') + "\n",
         1,
         "out of range",
         0,
         {},
         4096},
        {"duplicate key deep inside",
         "apiVersion: v1\nkind: List\nitems:\n- kind: ResourceQuota\n  metadata:\n    name: q\n  spec:\n"
         "    hard:\n      cpu: 1\n      memory: 1Gi\n      cpu: 2\n",
         1, "mapping key \"cpu\" already defined at line 9", 1, "already defined at line 9", 4096},
        {"alias bomb", aliasBomb(), 1, "too large: its aliases expand to more than", 1, "too large", 4096},
        {"alias to an unknown anchor", "a: *nothing\n", 1, "the referenced anchor is not defined", 1,
         "anchor is not defined", 4096},
        {"map as a key", "? {a: 1}\n: x\n", 1, "mapping keys must be scalars", 1, "keys must be scalars",
         4096},
        {"empty file", QByteArray(), 1, "no objects", 1, "no objects", 4096},
        {"only comments", "# nothing\n---\n# still nothing\n", 1, "no objects", 1, "no objects", 4096},
        {"a scalar document",
         "hello\n",
         1,
         "expected a Kubernetes object (a map), found a scalar",
         0,
         {},
         4096},
        {"a list document", "- 1\n- 2\n", 1, "found a list", 0, {}, 4096},
        {"spec.hard is a list",
         kQuotaHead.left(kQuotaHead.size() - 1) + " [1, 2, 3]\n",
         1,
         "must be a map of resource names to quantities",
         0,
         {},
         4096},
        {"1M-item flow list as a quantity",
         kQuotaHead + "    cpu: [" + QByteArray("1,").repeated(1000000) + "1]\n",
         1,
         "must be a quantity",
         0,
         {},
         4096,
         true},
        {"unknown kind",
         "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n",
         1,
         "Unsupported value: \"Pod\"",
         0,
         {},
         4096,
         false,
         "kind: gpuquota applies ResourceQuota, LimitRange and Namespace objects"},
    };

    // --- added for the 124-input suite: every row names the field and the line ---
    const QByteArray at7 = "input.yaml:7:";
    cases += QList<Case>{
        // Quantities.
        {"negative GPU",
         quotaWith("requests.nvidia.com/gpu: -1"),
         1,
         at7 + "30: spec.hard[requests.nvidia.com/gpu]: Invalid value: \"-1\": must be greater than or equal "
               "to 0",
         0,
         {},
         4096},
        {"fractional GPU",
         quotaWith("requests.nvidia.com/gpu: 500m"),
         1,
         at7 + "30: spec.hard[requests.nvidia.com/gpu]: Invalid value: \"500m\": must be an integer",
         0,
         {},
         4096},
        {"fractional MIG slice",
         quotaWith("requests.nvidia.com/mig-1g.10gb: 1.5"),
         1,
         "spec.hard[requests.nvidia.com/mig-1g.10gb]: Invalid value: \"1500m\": must be an integer",
         0,
         {},
         4096},
        {"hex quantity",
         quotaWith("cpu: 0x10"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \"0x10\"",
         0,
         {},
         4096},
        {"quantity with a space",
         quotaWith("cpu: '1 '"),
         1,
         "whitespace is not allowed anywhere in a quantity",
         0,
         {},
         4096},
        {"two decimal points",
         quotaWith("cpu: 1.5.5"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \"1.5.5\"",
         0,
         {},
         4096},
        {"NaN quantity",
         quotaWith("cpu: .nan"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \".nan\"",
         0,
         {},
         4096},
        {"infinite quantity",
         quotaWith("cpu: .inf"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \".inf\"",
         0,
         {},
         4096},
        {"boolean quantity",
         quotaWith("cpu: true"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \"true\"",
         0,
         {},
         4096},
        {"missing quantity", quotaWith("cpu:"), 1, at7 + "5: spec.hard[cpu]: Required value", 0, {}, 4096},
        {"empty quantity",
         quotaWith("cpu: ''"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: \"\"",
         0,
         {},
         4096},
        {"lower-case binary suffix", quotaWith("memory: 1gi"), 1, "did you mean 'G' or 'Gi'?", 0, {}, 4096},
        {"full-width digit",
         quotaWith("cpu: \xEF\xBC\x94"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value",
         0,
         {},
         4096},
        {"exponent out of range", quotaWith("cpu: 1e1000000"), 1, "out of range", 0, {}, 4096},
        {"quantity as a map",
         quotaWith("cpu: {a: 1}"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: must be a quantity",
         0,
         {},
         4096},
        {"quantity as a list",
         quotaWith("cpu: [1, 2]"),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value: must be a quantity",
         0,
         {},
         4096},
        {"binary-tagged quantity",
         quotaWith("cpu: !!binary aGVsbG8="),
         1,
         at7 + "10: spec.hard[cpu]: Invalid value",
         0,
         {},
         4096},
        {"1 MB quantity",
         quotaWith("cpu: " + QByteArray(1000000, '9') + "x"),
         1,
         "… (1000001 bytes)",
         0,
         {},
         4096},
        // Resource names.
        {"limits of an extended resource",
         quotaWith("limits.nvidia.com/gpu: 2"),
         1,
         at7 + "5: spec.hard[limits.nvidia.com/gpu]: Invalid value",
         0,
         {},
         4096},
        {"upper-case resource prefix",
         quotaWith("NVIDIA.com/gpu: 2"),
         1,
         at7 + "5: spec.hard[NVIDIA.com/gpu]: Invalid value",
         0,
         {},
         4096},
        {"empty resource name part",
         quotaWith("nvidia.com/: 2"),
         1,
         "spec.hard[nvidia.com/]: Invalid value",
         0,
         {},
         4096},
        {"two slashes in a resource name",
         quotaWith("a.com/b/c: 2"),
         1,
         "spec.hard[a.com/b/c]: Invalid value",
         0,
         {},
         4096},
        {"unknown standard resource",
         quotaWith("cpuz: 2"),
         1,
         "spec.hard[cpuz]: Invalid value: \"cpuz\"",
         0,
         {},
         4096},
        {"resource name part over 63",
         quotaWith("requests.example.com/" + QByteArray(300, 'a') + ": 1"),
         1,
         "name part must be no more than 63 characters",
         0,
         {},
         4096},
        {"1 MB resource name",
         quotaWith("requests.example.com/" + QByteArray(1000000, 'a') + ": 1"),
         1,
         "bytes)",
         0,
         {},
         4096},
        {"count/ with no resource",
         quotaWith("count/: 1"),
         1,
         "spec.hard[count/]: Invalid value",
         0,
         {},
         4096},
        {"merge key as a resource",
         quotaWith("<<: {cpu: 1}"),
         1,
         "spec.hard[<<]: Invalid value",
         0,
         {},
         4096},
    };
    cases += objectCases();
    return cases;
}

} // namespace gq::test::badinputs
