#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/explain.h"
#include "kpsim/report.h"

namespace kpsim::report {
namespace {

using nlohmann::json;

ResourceList Free(std::int64_t milli_cpu, std::int64_t memory) {
  ResourceList r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  return r;
}

ReprieveStep Step(std::string pod, std::int32_t priority, bool reprieved, std::int64_t free_cpu,
                  std::string why) {
  ReprieveStep s;
  s.pod = std::move(pod);
  s.priority = priority;
  s.reprieved = reprieved;
  s.free_after = Free(free_cpu, 1LL << 30);
  s.why = std::move(why);
  return s;
}

// Setup: the chapter's minimize scene. node-a (1000m) runs small-a, small-b (100m, p10) and big
// (600m, p20); api (700m, p100) must preempt; only big is a victim.
ExplainResult Minimize() {
  ExplainResult r;
  r.pod = "default/api";
  r.priority = 100;
  r.eligible = true;
  FilterOutcome f;
  f.node = "node-a";
  f.code = "Unschedulable";
  f.reasons = {"Insufficient cpu"};
  r.filter.push_back(f);
  CandidateOutcome c;
  c.node = "node-a";
  c.victims = {"default/big"};
  c.reprieved = {"default/small-a", "default/small-b"};
  c.free_after_removal = Free(1000, 1LL << 30);
  c.highest_victim_priority = 20;
  c.steps = {Step("default/big", 20, false, 400, "Insufficient cpu"),
             Step("default/small-a", 10, true, 300, "fits with it back"),
             Step("default/small-b", 10, true, 200, "fits with it back")};
  c.steps[0].pdb_violating = true;
  r.candidates.push_back(c);
  r.chosen = ChosenCandidate{"node-a", {"default/big"}, "fewest PDB violations"};
  r.message = "0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential "
              "placement for pod on node node-a, preempting 1 victims";
  return r;
}

TEST(RenderExplainJsonTest, CarriesTheContractFields) {
  const json j = json::parse(RenderExplainJson(Minimize()));
  EXPECT_EQ(j["profile"], "default");
  EXPECT_EQ(j["pod"], "default/api");
  EXPECT_EQ(j["priority"], 100);
  EXPECT_EQ(j["eligible"], true);
  EXPECT_EQ(j["eligibilityMessage"], "");
  ASSERT_EQ(j["filter"].size(), 1u);
  EXPECT_EQ(j["filter"][0]["node"], "node-a");
  EXPECT_EQ(j["filter"][0]["fits"], false);
  EXPECT_EQ(j["filter"][0]["code"], "Unschedulable");
  EXPECT_EQ(j["filter"][0]["reasons"], json::array({"Insufficient cpu"}));
  const json& c = j["candidates"][0];
  EXPECT_EQ(c["node"], "node-a");
  EXPECT_EQ(c["victims"], json::array({"default/big"}));
  EXPECT_EQ(c["pdbViolations"], 0);
  EXPECT_EQ(c["reprieved"], json::array({"default/small-a", "default/small-b"}));
  ASSERT_EQ(c["steps"].size(), 3u);
  EXPECT_EQ(c["steps"][0]["pod"], "default/big");
  EXPECT_EQ(c["steps"][0]["result"], "victim");
  EXPECT_EQ(c["steps"][0]["pdbViolating"], true);
  EXPECT_EQ(c["steps"][0]["freeAfter"]["cpu"], "400m");
  EXPECT_EQ(c["steps"][1]["reprieved"], true);
  EXPECT_EQ(j["chosen"]["node"], "node-a");
  EXPECT_EQ(j["chosen"]["victims"], json::array({"default/big"}));
  EXPECT_EQ(j["chosen"]["decidedBy"], "fewest PDB violations");
  EXPECT_EQ(j["message"], Minimize().message);
  EXPECT_TRUE(j["fitsNode"].is_null());
}

TEST(RenderExplainJsonTest, NoCandidateMeansChosenNull) {
  ExplainResult r;
  r.pod = "default/lazy";
  r.eligible = false;
  r.eligibility_message = "not eligible due to preemptionPolicy=Never.";
  r.message = "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to "
              "preemptionPolicy=Never.";
  const std::string out = RenderExplainJson(r);
  const json j = json::parse(out);
  EXPECT_TRUE(j["chosen"].is_null());
  EXPECT_EQ(j["eligibilityMessage"], "not eligible due to preemptionPolicy=Never.");
  EXPECT_EQ(out, RenderExplainJson(r));
}

TEST(RenderExplainTextTest, ShowsFilterReprieveTableAndDecision) {
  const std::string text = RenderExplainText(Minimize());
  EXPECT_NE(text.find("Pod default/api (priority 100), profile default\n"), std::string::npos);
  EXPECT_NE(text.find("  node-a  Unschedulable  Insufficient cpu\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Preemption: eligible\n"), std::string::npos);
  EXPECT_NE(text.find("Candidate node-a: 1 victim(s) [default/big], 0 PDB violation(s), highest "
                      "victim priority 20\n"),
            std::string::npos);
  EXPECT_NE(text.find("STEP  POD              PRIORITY  PDB-VIOLATING  RESULT     FREE CPU  "
                      "FREE MEMORY  WHY\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1     default/big      20        yes            victim     400m      1Gi"
                      "          Insufficient cpu\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("2     default/small-a  10        no             reprieved  300m"),
            std::string::npos);
  EXPECT_NE(text.find("Chosen: node-a (decided by: fewest PDB violations), victims: default/big\n"),
            std::string::npos);
  EXPECT_NE(text.find("Message: 0/1 nodes are available"), std::string::npos);
  EXPECT_EQ(text, RenderExplainText(Minimize()));
}

TEST(RenderExplainTextTest, FitsWithoutPreemptionSaysSo) {
  ExplainResult r;
  r.pod = "default/web";
  FilterOutcome f;
  f.node = "node-b";
  f.fits = true;
  f.code = "Success";
  r.filter.push_back(f);
  r.fits_node = "node-b";
  r.message = "fits on node node-b";
  const std::string text = RenderExplainText(r);
  EXPECT_NE(text.find("  node-b  fits    -\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Fits on node-b without preemption."), std::string::npos);
  EXPECT_EQ(text.find("Chosen: none"), std::string::npos);
  EXPECT_EQ(json::parse(RenderExplainJson(r))["fitsNode"], "node-b");
}

}  // namespace
}  // namespace kpsim::report
