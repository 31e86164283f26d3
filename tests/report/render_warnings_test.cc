// Warnings are a first-class output: a `warnings` array in the JSON of all three commands, a
// Warnings section in text and HTML, in pipeline order (reader, admission, engine, command line).

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kpsim/explain.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"

namespace kpsim::report {
namespace {

using json = nlohmann::json;

Warning MakeWarning(std::string file, int line, int document, std::string object,
                    std::string code, std::string message) {
  Warning w;
  w.source.file = std::move(file);
  w.source.line = line;
  w.source.document = document;
  w.object = std::move(object);
  w.code = std::move(code);
  w.message = std::move(message);
  return w;
}

struct Inputs {
  io::ReadResult read;
  AdmissionResult admission;
  SimulationResult simulation;
  Inputs() {
    read.warnings.push_back(
        MakeWarning("dump/logs.txt", 0, 0, "", "SkippedFile", "not a manifest"));
    admission.warnings.push_back(MakeWarning("snap.yaml", 12, 3, "Pod default/web",
                                             "KeptAgainstAdmission", "kept as an existing object"));
    simulation.warnings.push_back(MakeWarning("", 0, 0, "", "EngineNote", "from the engine"));
  }
};

TEST(WarningTextTest, LocationObjectMessageAndCode) {
  EXPECT_EQ(WarningText(MakeWarning("snap.yaml", 12, 3, "Pod default/web", "KeptAgainstAdmission",
                                    "kept")),
            "snap.yaml:12 (document 3): Pod default/web: kept [KeptAgainstAdmission]");
  EXPECT_EQ(WarningText(MakeWarning("", 0, 0, "", "NoObjects", "nothing")), "nothing [NoObjects]");
  EXPECT_EQ(WarningText(MakeWarning("list.json", 0, 4, "", "X", "m")), "list.json (item 4): m [X]");
}

// Setup: 13 KeptAgainstAdmission warnings (a dump without its PriorityClasses warns once per pod)
// among a SkippedFile and 11 EngineNotes. Expect: the first 10 of each code in input order, then a
// line per capped code with how many more (3 and 1); the text report's header counts every
// warning and the JSON lists every one.
TEST(WarningLinesTest, AtMostTenOfACodeThenHowManyMore) {
  std::vector<Warning> warnings;
  warnings.push_back(MakeWarning("dump/logs.txt", 0, 0, "", "SkippedFile", "not a manifest"));
  for (int i = 0; i < 13; ++i) {
    warnings.push_back(MakeWarning("dump.json", 0, i + 1, "Pod default/p" + std::to_string(i), "KeptAgainstAdmission",
                                   "kept"));
    if (i < 11) warnings.push_back(MakeWarning("", 0, 0, "", "EngineNote", "note " + std::to_string(i)));
  }
  const std::vector<std::string> lines = WarningLines(warnings, "-o json lists every one");
  ASSERT_EQ(lines.size(), 1u + 10u + 10u + 2u);
  EXPECT_EQ(lines[0], "dump/logs.txt: not a manifest [SkippedFile]");
  EXPECT_EQ(lines[1], "dump.json (item 1): Pod default/p0: kept [KeptAgainstAdmission]");
  EXPECT_EQ(lines[20], "note 9 [EngineNote]");
  EXPECT_EQ(lines[21], "... and 3 more [KeptAgainstAdmission] warnings like these (-o json lists every one)");
  EXPECT_EQ(lines[22], "... and 1 more [EngineNote] warning like these (-o json lists every one)");
  for (const std::string& line : lines) EXPECT_EQ(line.find("Pod default/p10"), std::string::npos) << line;
  EXPECT_EQ(WarningLines(warnings, "", 100).size(), warnings.size()) << "under the cap, every one";
  EXPECT_EQ(WarningLines(warnings).back(), "... and 1 more [EngineNote] warning like these")
      << "no place to read the rest named (stderr: a sweep's runs have no JSON of their own)";
  Inputs in;
  in.admission.warnings.clear();
  for (const Warning& w : warnings) {
    if (w.code == "KeptAgainstAdmission") in.admission.warnings.push_back(w);
  }
  RunReport report{&in.read, &in.admission, &in.simulation, nullptr, {}};
  const std::string text = RenderSimulationText(report);
  EXPECT_NE(text.find("Warnings (15):"), std::string::npos) << text;
  EXPECT_NE(text.find("... and 3 more [KeptAgainstAdmission] warnings"), std::string::npos) << text;
  EXPECT_EQ(json::parse(RenderSimulationJson(report))["warnings"].size(), 15u);
}

TEST(RenderWarningsTest, SimulateJsonListsEveryStageInPipelineOrder) {
  const Inputs in;
  RunReport report{&in.read, &in.admission, &in.simulation, nullptr, {}};
  report.extra_warnings.push_back(MakeWarning("", 0, 0, "", "IgnoredFlag", "--max-attempts"));
  const json out = json::parse(RenderSimulationJson(report));
  ASSERT_EQ(out["warnings"].size(), 4u);
  EXPECT_EQ(out["warnings"][0]["code"], "SkippedFile");
  EXPECT_EQ(out["warnings"][0]["file"], "dump/logs.txt");
  EXPECT_TRUE(out["warnings"][0]["object"].is_null());
  EXPECT_EQ(out["warnings"][1]["code"], "KeptAgainstAdmission");
  EXPECT_EQ(out["warnings"][1]["object"], "Pod default/web");
  EXPECT_EQ(out["warnings"][1]["line"], 12);
  EXPECT_EQ(out["warnings"][1]["document"], 3);
  EXPECT_EQ(out["warnings"][1]["source"], "snap.yaml:12");
  EXPECT_EQ(out["warnings"][2]["code"], "EngineNote");
  EXPECT_TRUE(out["warnings"][2]["file"].is_null());
  EXPECT_EQ(out["warnings"][3]["code"], "IgnoredFlag");

  const std::string text = RenderSimulationText(report);
  EXPECT_NE(text.find("\nWarnings (4):\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  snap.yaml:12 (document 3): Pod default/web: kept as an existing object "
                      "[KeptAgainstAdmission]\n"),
            std::string::npos);
  EXPECT_NE(text.find("4 warnings"), std::string::npos);

  const std::string html = RenderSimulationHtml(report);
  EXPECT_NE(html.find("KeptAgainstAdmission"), std::string::npos);
  EXPECT_NE(html.find(">Warnings<"), std::string::npos);
}

TEST(RenderWarningsTest, NoWarningsMeansAnEmptyArrayAndNoSection) {
  const json out = json::parse(RenderSimulationJson(RunReport{}));
  ASSERT_TRUE(out["warnings"].is_array());
  EXPECT_TRUE(out["warnings"].empty());
  EXPECT_EQ(RenderSimulationText(RunReport{}).find("Warnings"), std::string::npos);
}

TEST(RenderWarningsTest, ValidateHasReaderAndAdmissionWarnings) {
  const Inputs in;
  const json out = json::parse(RenderValidateJson(in.read, in.admission));
  ASSERT_EQ(out["warnings"].size(), 2u);
  EXPECT_EQ(out["summary"]["warnings"], 2);
  const std::string text = RenderValidateText(in.read, in.admission);
  EXPECT_NE(text.find("Warnings (2):"), std::string::npos);
  EXPECT_NE(text.find("2 warnings"), std::string::npos);
}

TEST(RenderWarningsTest, ExplainPutsInputWarningsBeforeItsOwn) {
  const Inputs in;
  ExplainResult explain;
  explain.pod = "default/web";
  explain.warnings.push_back(MakeWarning("", 0, 0, "", "EngineNote", "own"));
  const std::vector<Warning> input = CollectWarnings(&in.read, &in.admission);
  const json out = json::parse(RenderExplainJson(explain, input));
  ASSERT_EQ(out["warnings"].size(), 3u);
  EXPECT_EQ(out["warnings"][0]["code"], "SkippedFile");
  EXPECT_EQ(out["warnings"][2]["code"], "EngineNote");
  EXPECT_NE(RenderExplainText(explain, input).find("Warnings (3):"), std::string::npos);
  EXPECT_NE(RenderExplainHtml(explain, input).find("SkippedFile"), std::string::npos);
}

}  // namespace
}  // namespace kpsim::report
