#pragma once

// The YAML tree: loading (documents, lists, positions, errors, limits), emitting,
// JSON conversion, field-path lookup, text edits and the text-preserving `fmt`.
// Also replays fuzz/regressions/yaml through the fuzzer's property check.
#include "tests/coretestdata.h"
#include "core/domain/specformat.h"
#include "core/domain/validation.h"
#include "fuzz/yaml_properties.h"
#include "core/domain/yamldoc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace gq;

class TestYamlDoc : public QObject {
    Q_OBJECT
private slots:
    void singleDocument();
    void severalDocuments();
    void listsAreFlattened();
    void positions();
    void positionsCountCharacters();
    void stringness_data();
    void stringness();
    void parseErrorsHavePositions_data();
    void parseErrorsHavePositions();
    void limits();
    void deepNestingSaysTooDeep_data();
    void deepNestingSaysTooDeep();
    void nodeLimitCountsOnlyAliasCopies();
    void duplicateKeyInBigMap();
    void bigMapLookupsStayCorrect();
    void echoedValuesAreElided();
    void bigMapToJson();
    void treeEditing();
    void emitKeepsOrderAndTypes();
    void emitRoundTrip();
    void jsonConversion();
    void locate_data();
    void locate();
    void textEdits();
    void scalarEdits_data();
    void scalarEdits();
    void fmtKeepsEverythingElse();
    void fmtCases_data();
    void fmtCases();
    void fuzzRegressions_data();
    void fuzzRegressions();
};
