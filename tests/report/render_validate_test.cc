#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/io.h"
#include "kpsim/report.h"
#include "testing/builders.h"

namespace kpsim::report {
namespace {

using nlohmann::json;
using testing::MakePod;
using testing::MakePriorityClass;
using testing::ToObject;

// Setup: a class, a pod using it, a pod naming a missing class, and a node; plus one decode
// error and one ignored Deployment.
struct Fixture {
  io::ReadResult read;
  AdmissionResult admission;
  Fixture() {
    const std::vector<Object> objects = {
        ToObject(MakePriorityClass("high").Value(1000).Build(), 1),
        ToObject(MakePod("web").PriorityClass("high").Build(), 2),
        ToObject(MakePod("api").PriorityClass("gold").Build(), 3),
        ToObject(testing::MakeNode("node-a").Cpu("2").Build(), 4)};
    admission = Admit(objects, FeatureGates{});
    io::DecodeError e;
    e.kind = "Pod";
    e.name = "default/broken";
    e.source = SourceRef{"test.yaml", 5, 40};
    e.message = "test.yaml:40: Pod default/broken: spec.containers[0].resources.requests.cpu: "
                "quantities must match the regular expression";
    read.errors.push_back(e);
    read.ignored.push_back(
        io::IgnoredObject{"Deployment", "apps/v1", "default/web", {"test.yaml", 6, 50}});
  }
};

TEST(RenderValidateJsonTest, OneObjectPerOutcomeWithTheContractFields) {
  const Fixture f;
  const json j = json::parse(RenderValidateJson(f.read, f.admission));
  ASSERT_EQ(j["objects"].size(), 4u);
  const json& pc = j["objects"][0];
  EXPECT_EQ(pc["kind"], "PriorityClass");
  EXPECT_EQ(pc["name"], "high");
  EXPECT_EQ(pc["operation"], "CREATE");
  EXPECT_EQ(pc["admitted"], true);
  EXPECT_TRUE(pc["priority"].is_null());
  const json& web = j["objects"][1];
  EXPECT_EQ(web["name"], "default/web");
  EXPECT_EQ(web["priority"], 1000);
  EXPECT_EQ(web["priorityClassName"], "high");
  EXPECT_EQ(web["preemptionPolicy"], "PreemptLowerPriority");
  EXPECT_EQ(web["message"], "");
  EXPECT_EQ(web["source"], SourceRef({"test.yaml", 2, 0}).ToString());
  const json& api = j["objects"][2];
  EXPECT_EQ(api["admitted"], false);
  EXPECT_EQ(api["message"], "pods \"api\" is forbidden: no PriorityClass with name gold was found");
  EXPECT_TRUE(api["priority"].is_null());
  ASSERT_EQ(j["rejected"].size(), 1u);
  EXPECT_EQ(j["rejected"][0]["name"], "default/broken");
  ASSERT_EQ(j["ignored"].size(), 1u);
  EXPECT_EQ(j["ignored"][0]["kind"], "Deployment");
  EXPECT_EQ(j["summary"]["rejected"], 2);
  EXPECT_EQ(j["summary"]["admitted"], 3);
}

TEST(RenderValidateJsonTest, KeysKeepTheirOrderAndOutputIsByteIdentical) {
  const Fixture f;
  const std::string a = RenderValidateJson(f.read, f.admission);
  EXPECT_EQ(a, RenderValidateJson(f.read, f.admission));
  EXPECT_LT(a.find("\"objects\""), a.find("\"rejected\""));
  EXPECT_LT(a.find("\"kind\""), a.find("\"operation\""));
  EXPECT_EQ(a.substr(0, 16), "{\n  \"objects\": [");
}

TEST(RenderValidateTextTest, ListsEachObjectTheRejectionsAndASummary) {
  const Fixture f;
  const std::string text = RenderValidateText(f.read, f.admission);
  EXPECT_NE(text.find("CREATE Pod default/web (priority 1000, class high, preemptionPolicy "
                      "PreemptLowerPriority)"),
            std::string::npos);
  EXPECT_NE(text.find("REJECT Pod default/api"), std::string::npos);
  EXPECT_NE(text.find("pods \"api\" is forbidden: no PriorityClass with name gold was found"),
            std::string::npos);
  EXPECT_NE(text.find("requests.cpu: quantities must match"), std::string::npos);
  EXPECT_NE(text.find("Deployment default/web"), std::string::npos);
  EXPECT_NE(text.find("5 objects: 3 admitted, 2 rejected, 1 ignored"), std::string::npos);
  EXPECT_EQ(text, RenderValidateText(f.read, f.admission));
}

}  // namespace
}  // namespace kpsim::report
