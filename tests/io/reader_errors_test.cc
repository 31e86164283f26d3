// Every error path of the manifest reader (house style G20): decode errors name file, document,
// line, object and field; syntax errors are file errors; the other objects still decode.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "kpsim/io.h"
#include "reader_test_util.h"

namespace kpsim::io {
namespace {

using testing_util::OnlyError;

TEST(ReaderErrorTest, BadQuantityNamesFileLineDocumentObjectAndField) {
  // Setup: the bad cpu is on line 14 of document 3.
  const ReadResult r = ReadManifestText(R"(kind: Namespace
metadata: {name: default}
---
kind: Node
metadata: {name: n1}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: default
spec:
  containers:
  - resources: {requests: {cpu: 1.5.5}}
---
kind: Pod
metadata: {name: ok}
)",
                                        "cluster.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  const DecodeError& e = r.errors[0];
  EXPECT_EQ(e.message,
            "cluster.yaml:14 (document 3): Pod default/web: "
            "spec.containers[0].resources.requests.cpu: quantities must match the regular "
            "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(e.kind, "Pod");
  EXPECT_EQ(e.name, "default/web");
  EXPECT_EQ(e.field, "spec.containers[0].resources.requests.cpu");
  EXPECT_EQ(e.source.file, "cluster.yaml");
  EXPECT_EQ(e.source.document, 3);
  EXPECT_EQ(e.source.line, 7);  // where the object starts
  // The other objects still decode.
  ASSERT_EQ(r.objects.size(), 3u);
  EXPECT_EQ(r.objects[2].meta().name, "ok");
}

TEST(ReaderErrorTest, BadQuantitySuffix) {
  const DecodeError e =
      OnlyError("kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {memory: 1mi}}\n");
  EXPECT_EQ(e.message,
            "c.yaml:3 (document 1): Node n1: status.allocatable.memory: unable to parse "
            "quantity's suffix");
}

TEST(ReaderErrorTest, QuantityOfWrongType) {
  const DecodeError e = OnlyError("kind: Pod\nmetadata: {name: p}\nspec: {overhead: {cpu: [1]}}\n");
  EXPECT_EQ(e.field, "spec.overhead.cpu");
  EXPECT_NE(e.message.find("expected a quantity (a string or a number), got a list"),
            std::string::npos);
}

TEST(ReaderErrorTest, NumberWhereAStringIsExpected) {
  const DecodeError e = OnlyError("kind: Pod\nmetadata:\n  name: p\n  labels: {version: 1.0}\n");
  EXPECT_EQ(e.message,
            "c.yaml:4 (document 1): Pod default/p: metadata.labels.version: expected a string, "
            "got a number (YAML reads the plain scalar 1.0 that way; quote it to make it a "
            "string)");
}

TEST(ReaderErrorTest, YamlBooleanSpellingWhereAStringIsExpected) {
  // Setup: `no` is a boolean in YAML 1.1, as Kubernetes reads it (the "Norway problem").
  const DecodeError e = OnlyError("kind: Node\nmetadata: {name: n1, labels: {country: no}}\n");
  EXPECT_EQ(e.field, "metadata.labels.country");
  EXPECT_NE(e.message.find("got a boolean"), std::string::npos);
}

TEST(ReaderErrorTest, JsonNumberWhereAStringIsExpected) {
  const DecodeError e = OnlyError(R"({"kind": "Pod", "metadata": {"name": 5}})", "p.json");
  EXPECT_EQ(e.message, "p.json: Pod: metadata.name: expected a string, got a number");
}

TEST(ReaderErrorTest, StringWhereAnIntegerIsExpected) {
  const DecodeError e = OnlyError("kind: Pod\nmetadata: {name: p}\nspec: {priority: \"100\"}\n");
  EXPECT_EQ(e.field, "spec.priority");
  EXPECT_NE(e.message.find("expected an integer, got a string"), std::string::npos);
}

TEST(ReaderErrorTest, IntegerOutOfInt32Range) {
  const DecodeError e = OnlyError("kind: PriorityClass\nmetadata: {name: pc}\nvalue: 3000000000\n");
  EXPECT_EQ(e.field, "value");
  EXPECT_EQ(e.name, "pc");
  EXPECT_NE(e.message.find("out of range"), std::string::npos);
}

TEST(ReaderErrorTest, IntegerBeyondInt64) {
  const DecodeError e = OnlyError(
      "kind: Pod\nmetadata: {name: p}\nspec: {terminationGracePeriodSeconds: "
      "99999999999999999999}\n");
  EXPECT_NE(e.message.find("does not fit a 64-bit integer"), std::string::npos);
}

TEST(ReaderErrorTest, StringWhereABooleanIsExpected) {
  const DecodeError e =
      OnlyError("kind: Node\nmetadata: {name: n1}\nspec: {unschedulable: \"x\"}\n");
  EXPECT_EQ(e.field, "spec.unschedulable");
  EXPECT_NE(e.message.find("expected a boolean, got a string"), std::string::npos);
}

TEST(ReaderErrorTest, ListWhereAnObjectIsExpected) {
  const DecodeError e = OnlyError("kind: Pod\nmetadata: {name: p}\nspec: [1, 2]\n");
  EXPECT_EQ(e.field, "spec");
  EXPECT_NE(e.message.find("expected an object, got a list"), std::string::npos);
}

TEST(ReaderErrorTest, ObjectWhereAListIsExpected) {
  const DecodeError e = OnlyError("kind: Pod\nmetadata: {name: p}\nspec: {containers: {a: 1}}\n");
  EXPECT_EQ(e.field, "spec.containers");
  EXPECT_NE(e.message.find("expected a list, got an object"), std::string::npos);
}

struct EnumCase {
  std::string_view name;
  std::string_view yaml;
  std::string_view field;
  std::string_view message;
};

constexpr EnumCase kEnumCases[] = {
    {"TaintEffect", "kind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: k, effect: Never}]}\n",
     "spec.taints[0].effect",
     "Unsupported value: \"Never\": supported values: \"NoExecute\", \"NoSchedule\", "
     "\"PreferNoSchedule\""},
    {"TaintWithoutEffect", "kind: Node\nmetadata: {name: n1}\nspec: {taints: [{key: k}]}\n",
     "spec.taints[0].effect", "Required value"},
    {"TolerationOperator",
     "kind: Pod\nmetadata: {name: p}\nspec: {tolerations: [{key: k, operator: Gt}]}\n",
     "spec.tolerations[0].operator",
     "Unsupported value: \"Gt\": supported values: \"Equal\", "
     "\"Exists\""},
    {"TolerationEffect",
     "kind: Pod\nmetadata: {name: p}\nspec: {tolerations: [{key: k, effect: Sometimes}]}\n",
     "spec.tolerations[0].effect", "Unsupported value: \"Sometimes\""},
    {"LabelSelectorOperator",
     "kind: PodDisruptionBudget\nmetadata: {name: b}\n"
     "spec: {selector: {matchExpressions: [{key: a, operator: Gt, values: ['1']}]}}\n",
     "spec.selector.matchExpressions[0].operator", "Unsupported value: \"Gt\""},
    {"NodeSelectorOperator",
     "kind: Pod\nmetadata: {name: p}\nspec:\n  affinity:\n    nodeAffinity:\n"
     "      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
     "        - matchExpressions: [{key: a, operator: Near}]\n",
     "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
     "nodeSelectorTerms[0].matchExpressions[0].operator",
     "Unsupported value: \"Near\""},
    {"DisruptionMode",
     "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n"
     "spec: {disruptionMode: Some}\n",
     "spec.disruptionMode", "Unsupported value: \"Some\""},
    {"PdbNotAPercentage",
     "kind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {minAvailable: \"5\"}\n",
     "spec.minAvailable",
     "invalid value for IntOrString: invalid type: string is not a percentage"},
    {"PdbBadPercentage",
     "kind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {maxUnavailable: \"x%\"}\n",
     "spec.maxUnavailable",
     "invalid value for IntOrString: invalid value \"x%\": strconv.Atoi: parsing \"x\": "
     "invalid syntax"},
    {"BadTimestamp", "kind: Pod\nmetadata: {name: p, creationTimestamp: yesterday}\n",
     "metadata.creationTimestamp", "RFC 3339"},
    {"BadGangMinCount",
     "apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: g}\n"
     "spec: {schedulingPolicy: {gang: {minCount: many}}}\n",
     "spec.schedulingPolicy.gang.minCount", "expected an integer, got a string"},
};

class ReaderFieldErrorTest : public testing::TestWithParam<EnumCase> {};

TEST_P(ReaderFieldErrorTest, NamesTheFieldAndTheProblem) {
  const DecodeError e = OnlyError(GetParam().yaml);
  EXPECT_EQ(e.field, GetParam().field);
  EXPECT_NE(e.message.find(GetParam().message), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(std::string(GetParam().field) + ": "), std::string::npos) << e.message;
}

INSTANTIATE_TEST_SUITE_P(Fields, ReaderFieldErrorTest, testing::ValuesIn(kEnumCases),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(ReaderErrorTest, DocumentWithoutKindIsADecodeError) {
  const DecodeError e = OnlyError("apiVersion: v1\nmetadata: {name: x}\n");
  EXPECT_EQ(e.field, "kind");
  EXPECT_TRUE(e.message.starts_with("c.yaml:1 (document 1): x: kind: Object 'Kind' is missing"))
      << e.message;
}

TEST(ReaderErrorTest, KindListItemWithoutKindIsADecodeError) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "List", "items": [{"kind": "Namespace", "metadata": {"name": "a"}},
          {"metadata": {"name": "b"}}]})",
      "l.json");
  ASSERT_EQ(r.objects.size(), 1u);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_TRUE(r.errors[0].message.starts_with("l.json (item 2): b: kind: Object 'Kind' is missing"))
      << r.errors[0].message;
  EXPECT_EQ(r.errors[0].source.document, 2);
}

TEST(ReaderErrorTest, JsonItemErrorNamesTheItem) {
  const ReadResult r = ReadManifestText(
      R"({"kind": "PodList", "apiVersion": "v1", "items": [
          {"metadata": {"name": "a", "namespace": "n"}, "spec": {"priority": 1.5}}]})",
      "pods.json");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message,
            "pods.json (item 1): Pod n/a: spec.priority: expected an integer, got a number");
  EXPECT_EQ(r.errors[0].source.line, 0);
}

TEST(ReaderErrorTest, ScalarDocumentIsADecodeError) {
  const ReadResult r = ReadManifestText("just a string\n", "s.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "s.yaml:1 (document 1): expected an object, got a string");
}

TEST(ReaderErrorTest, ItemsThatAreNotAListAreADecodeError) {
  const DecodeError e = OnlyError("kind: PodList\nitems: {a: 1}\n");
  EXPECT_EQ(e.field, "items");
  EXPECT_EQ(e.kind, "PodList");
}

TEST(ReaderErrorTest, YamlSyntaxErrorIsAFileErrorAndKeepsOtherDocuments) {
  const ReadResult r = ReadManifestText(R"(kind: Namespace
metadata: {name: before}
---
kind: Pod
metadata: {name: [unclosed
---
kind: Namespace
metadata: {name: after}
)",
                                        "bad.yaml");
  ASSERT_EQ(r.file_errors.size(), 1u);
  const Error& e = r.file_errors[0];
  EXPECT_EQ(e.code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(e.file, "bad.yaml");
  EXPECT_EQ(e.document, 2);
  EXPECT_GE(e.line, 5);
  EXPECT_TRUE(e.message.starts_with("bad.yaml:" + std::to_string(e.line) +
                                    " (document 2): "
                                    "YAML syntax error: "))
      << e.message;
  EXPECT_EQ(e.ToString(), e.message);
  ASSERT_EQ(r.objects.size(), 2u);
  EXPECT_EQ(r.objects[0].meta().name, "before");
  EXPECT_EQ(r.objects[1].meta().name, "after");
}

TEST(ReaderErrorTest, JsonSyntaxErrorIsAFileErrorWithLine) {
  const ReadResult r = ReadManifestText("{\n  \"kind\": \"Pod\",\n  \"metadata\": }\n", "p.json");
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].line, 3);
  EXPECT_TRUE(r.file_errors[0].message.starts_with("p.json:3: JSON syntax error: "))
      << r.file_errors[0].message;
  EXPECT_TRUE(r.objects.empty());
}

TEST(ReaderErrorTest, MissingFileIsANotFoundFileError) {
  const ReadResult r = ReadManifests({"/nonexistent/kpsim/cluster.yaml"});
  ASSERT_EQ(r.file_errors.size(), 1u);
  EXPECT_EQ(r.file_errors[0].code, ErrorCode::kNotFound);
  EXPECT_EQ(r.file_errors[0].message, "/nonexistent/kpsim/cluster.yaml: no such file or directory");
}

TEST(ReaderErrorTest, BinaryGarbageNeverCrashes) {
  // Setup: inputs that are neither valid YAML nor valid JSON objects.
  for (std::string_view text : {std::string_view("\x01\x02\xff\xfe", 4), std::string_view("[1, 2"),
                                std::string_view("- - - -\n  : :\n"), std::string_view("{}"),
                                std::string_view("[]"), std::string_view("")}) {
    const ReadResult r = ReadManifestText(text, "g");
    EXPECT_TRUE(r.objects.empty());
  }
}

}  // namespace
}  // namespace kpsim::io
