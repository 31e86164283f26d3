// Golden scenario tests (house style G19, tier 3): every directory under tests/scenarios/ that
// holds an `expected.json` is one case. The case's manifests (`cluster.yaml`, or the files named in
// `source.txt`) go through the public pipeline exactly as `kpsim simulate -o json` runs it:
// io::ReadManifests -> ExpandWorkloads -> Admit -> Simulate -> report::RenderSimulationJson. The
// rendered JSON must match `expected.json` as a subset; see tests/scenarios/README.md for the
// matching rules.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "kpsim/admission.h"
#include "kpsim/engine.h"
#include "kpsim/engine_options.h"
#include "kpsim/feature_gates.h"
#include "kpsim/io.h"
#include "kpsim/report.h"
#include "kpsim/results.h"
#include "kpsim/sim_time.h"

namespace kpsim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path ScenarioRoot() { return fs::path(KPSIM_SOURCE_DIR) / "tests" / "scenarios"; }

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// One scenario directory, e.g. "preemption/fewest-victims-tiebreak".
struct ScenarioCase {
  std::string name;  // path relative to tests/scenarios, with '/'
  fs::path dir;
};

// Lets gtest print a case by its name (e.g. in failure messages and --gtest_list_tests)
// instead of dumping the struct's raw bytes.
void PrintTo(const ScenarioCase& c, std::ostream* os) { *os << c.name; }

std::vector<ScenarioCase> DiscoverCases() {
  std::vector<ScenarioCase> cases;
  std::error_code ec;
  if (!fs::exists(ScenarioRoot(), ec)) return cases;
  for (const auto& entry : fs::recursive_directory_iterator(ScenarioRoot(), ec)) {
    if (!entry.is_regular_file() || entry.path().filename() != "expected.json") continue;
    const fs::path dir = entry.path().parent_path();
    cases.push_back({fs::relative(dir, ScenarioRoot()).generic_string(), dir});
  }
  std::sort(cases.begin(), cases.end(),
            [](const ScenarioCase& a, const ScenarioCase& b) { return a.name < b.name; });
  return cases;
}

// Splits `text` on whitespace; '#' starts a comment to the end of the line.
std::vector<std::string> Tokens(const std::string& text) {
  std::vector<std::string> tokens;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string word;
    while (words >> word) tokens.push_back(word);
  }
  return tokens;
}

// Parses a Go duration ("90s", "1h30m", "500ms", "1.5s") into simulated microseconds.
Expected<SimDuration> ParseGoDuration(const std::string& text) {
  static const std::regex kPart(R"(([0-9]+(?:\.[0-9]*)?)(ns|us|ms|s|m|h))");
  if (text.empty()) return MakeError(ErrorCode::kInvalidArgument, "empty duration");
  double micros = 0;
  auto begin = std::sregex_iterator(text.begin(), text.end(), kPart);
  std::size_t consumed = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    if (static_cast<std::size_t>(it->position()) != consumed) break;
    consumed += static_cast<std::size_t>(it->length());
    const double value = std::stod((*it)[1].str());
    const std::string unit = (*it)[2].str();
    const double scale = unit == "ns"   ? 1e-3
                         : unit == "us" ? 1.0
                         : unit == "ms" ? 1e3
                         : unit == "s"  ? 1e6
                         : unit == "m"  ? 60e6
                                        : 3600e6;
    micros += value * scale;
  }
  if (consumed != text.size()) {
    return MakeError(ErrorCode::kInvalidArgument, "bad duration \"" + text + "\"");
  }
  return SimDuration(static_cast<std::int64_t>(std::llround(micros)));
}

// Applies the flags of `args.txt` (the subset of `kpsim simulate` flags a scenario may set).
Result ApplyArgs(const std::vector<std::string>& args, EngineOptions* options) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::string value;
    if (const auto eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return MakeError(ErrorCode::kInvalidArgument, "flag " + flag + " needs a value");
    }
    if (flag == "--profile") {
      if (value == "default") {
        options->profile = Profile::kDefault;
      } else if (value == "book") {
        options->profile = Profile::kBook;
      } else {
        return MakeError(ErrorCode::kInvalidArgument, "bad --profile " + value);
      }
    } else if (flag == "--seed") {
      options->seed = std::stoull(value);
    } else if (flag == "--until") {
      auto until = ParseGoDuration(value);
      if (!until.ok()) return until.error();
      options->until = *until;
    } else if (flag == "--feature-gates") {
      auto gates = FeatureGates::Parse(value);
      if (!gates.ok()) return gates.error();
      options->gates = *gates;
    } else if (flag == "--candidate-sampling") {
      if (value == "exact") {
        options->candidate_sampling = CandidateSampling::kExact;
      } else if (value == "kubernetes") {
        options->candidate_sampling = CandidateSampling::kKubernetes;
      } else {
        return MakeError(ErrorCode::kInvalidArgument, "bad --candidate-sampling " + value);
      }
    } else if (flag == "--max-attempts") {
      options->max_attempts = std::stoi(value);
    } else if (flag == "--arrival") {
      if (value == "together") {
        options->arrival = Arrival::kTogether;
      } else if (value == "sequential") {
        options->arrival = Arrival::kSequential;
      } else {
        return MakeError(ErrorCode::kInvalidArgument, "bad --arrival " + value);
      }
    } else if (flag == "--origin") {
      auto origin = WallTime::Parse(value);
      if (!origin.ok()) return origin.error();
      options->origin = *origin;
    } else {
      return MakeError(ErrorCode::kInvalidArgument, "unknown flag " + flag);
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------------
// Subset matching (documented in README.md).

class Matcher {
 public:
  // Returns true iff `actual` matches `expected`; records every mismatch when `errors` is set.
  bool Match(const json& expected, const json& actual, const std::string& path) {
    if (expected.is_object() && expected.size() == 1 && expected.contains("$regex")) {
      const std::regex re(expected["$regex"].get<std::string>(), std::regex::ECMAScript);
      if (actual.is_string() && std::regex_match(actual.get<std::string>(), re)) return true;
      return Fail(path, "expected a string matching /" + expected["$regex"].get<std::string>() +
                            "/, got " + actual.dump());
    }
    if (expected.is_object() && expected.size() == 1 && expected.contains("$contains")) {
      const std::string needle = expected["$contains"].get<std::string>();
      if (actual.is_string() && actual.get<std::string>().find(needle) != std::string::npos) {
        return true;
      }
      return Fail(path, "expected a string containing \"" + needle + "\", got " + actual.dump());
    }
    if (expected.is_object()) return MatchObject(expected, actual, path);
    if (expected.is_array()) {
      if (!actual.is_array()) return Fail(path, "expected an array, got " + actual.dump());
      if (expected.size() != actual.size()) {
        return Fail(path, "expected " + std::to_string(expected.size()) + " elements, got " +
                              std::to_string(actual.size()) + ": " + Summary(actual));
      }
      bool ok = true;
      for (std::size_t i = 0; i < expected.size(); ++i) {
        ok = Match(expected[i], actual[i], path + "[" + std::to_string(i) + "]") && ok;
      }
      return ok;
    }
    if (expected.is_number()) {
      if (!actual.is_number())
        return Fail(path, "expected " + expected.dump() + ", got " + actual.dump());
      const double e = expected.get<double>();
      const double a = actual.get<double>();
      if (std::fabs(e - a) <= 1e-9 * std::max(1.0, std::fabs(e))) return true;
      return Fail(path, "expected " + expected.dump() + ", got " + actual.dump());
    }
    if (expected != actual)
      return Fail(path, "expected " + expected.dump() + ", got " + actual.dump());
    return true;
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  static bool EndsWith(const std::string& s, const std::string& suffix) {
    return s.size() > suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  // True iff `pattern` matches `element`, without recording errors.
  static bool Matches(const json& pattern, const json& element) {
    Matcher quiet;
    quiet.record_ = false;
    return quiet.Match(pattern, element, "");
  }

  bool MatchObject(const json& expected, const json& actual, const std::string& path) {
    if (!actual.is_object()) return Fail(path, "expected an object, got " + actual.dump());
    bool ok = true;
    for (const auto& [key, want] : expected.items()) {
      const std::string here = path + "." + key;
      if (want.is_object() && want.size() == 1 && want.contains("$absent")) {
        if (actual.contains(key) && !actual[key].is_null()) {
          ok = Fail(here, "expected absent or null, got " + actual[key].dump());
        }
        continue;
      }
      if (actual.contains(key)) {
        ok = Match(want, actual[key], here) && ok;
        continue;
      }
      // Special suffixes apply to an array `base` of the actual object.
      bool special = false;
      for (const std::string suffix : {"Include", "Contains", "Exclude", "Count"}) {
        if (!EndsWith(key, suffix)) continue;
        const std::string base = key.substr(0, key.size() - suffix.size());
        if (!actual.contains(base) || !actual[base].is_array()) break;
        ok = MatchSpecial(suffix, want, actual[base], path + "." + base, here) && ok;
        special = true;
        break;
      }
      if (!special) ok = Fail(here, "missing in actual");
    }
    return ok;
  }

  bool MatchSpecial(const std::string& suffix, const json& want, const json& items,
                    const std::string& base_path, const std::string& here) {
    if (suffix == "Count") {
      if (want.is_number_integer() && items.size() == want.get<std::size_t>()) return true;
      return Fail(here, "expected " + want.dump() + " elements, got " +
                            std::to_string(items.size()) + ": " + Summary(items));
    }
    if (!want.is_array()) return Fail(here, "must be an array of patterns");
    bool ok = true;
    if (suffix == "Include") {
      // An ordered subsequence.
      std::size_t next = 0;
      for (std::size_t p = 0; p < want.size(); ++p) {
        const std::size_t start = next;
        while (next < items.size() && !Matches(want[p], items[next])) ++next;
        if (next == items.size()) {
          ok = Fail(here + "[" + std::to_string(p) + "]",
                    "pattern " + want[p].dump() + " not found in " + base_path + " after index " +
                        std::to_string(start) + "; actual: " + Summary(items));
          next = start;
          continue;
        }
        ++next;
      }
    } else if (suffix == "Contains") {
      for (std::size_t p = 0; p < want.size(); ++p) {
        const bool found = std::any_of(items.begin(), items.end(),
                                       [&](const json& item) { return Matches(want[p], item); });
        if (!found) {
          ok = Fail(here + "[" + std::to_string(p) + "]", "pattern " + want[p].dump() +
                                                              " matches nothing in " + base_path +
                                                              "; actual: " + Summary(items));
        }
      }
    } else {  // Exclude
      for (std::size_t p = 0; p < want.size(); ++p) {
        for (std::size_t i = 0; i < items.size(); ++i) {
          if (Matches(want[p], items[i])) {
            ok = Fail(here + "[" + std::to_string(p) + "]",
                      "pattern " + want[p].dump() + " must match nothing but matches " + base_path +
                          "[" + std::to_string(i) + "] = " + items[i].dump());
          }
        }
      }
    }
    return ok;
  }

  // A compact, one-line-per-element view of an array for failure messages.
  static std::string Summary(const json& items) {
    std::string out;
    for (const auto& item : items) {
      out += "\n    ";
      if (item.is_object() && item.contains("reason") && item.contains("pod")) {
        out += item.value("time", json()).dump() + " " + item["reason"].dump() + " " +
               item["pod"].dump() + " node=" + item.value("node", json()).dump();
        if (item.contains("by")) out += " by=" + item["by"].dump();
        if (item.contains("message")) out += " " + item["message"].dump();
      } else {
        out += item.dump();
      }
    }
    return out;
  }

  bool Fail(const std::string& path, const std::string& message) {
    if (record_) errors_.push_back((path.empty() ? "$" : "$" + path) + ": " + message);
    return false;
  }

  bool record_ = true;
  std::vector<std::string> errors_;
};

// ---------------------------------------------------------------------------------------------

class ScenarioTest : public testing::TestWithParam<ScenarioCase> {};

// Setup: the case directory's manifests and flags. Expect: the rendered simulation JSON matches
// expected.json, and a second run renders byte-identical JSON.
TEST_P(ScenarioTest, MatchesExpectedJson) {
  const ScenarioCase& c = GetParam();
  std::vector<std::string> paths;
  if (fs::exists(c.dir / "source.txt")) {
    for (const std::string& rel : Tokens(ReadFile(c.dir / "source.txt"))) {
      paths.push_back((fs::path(KPSIM_SOURCE_DIR) / rel).string());
    }
  } else {
    paths.push_back((c.dir / "cluster.yaml").string());
  }
  ASSERT_FALSE(paths.empty()) << c.name << ": source.txt names no file";

  EngineOptions options;
  if (fs::exists(c.dir / "args.txt")) {
    const Result applied = ApplyArgs(Tokens(ReadFile(c.dir / "args.txt")), &options);
    ASSERT_TRUE(applied.ok()) << c.name << "/args.txt: " << applied.error().message;
  }

  const json expected = json::parse(ReadFile(c.dir / "expected.json"), nullptr, false);
  ASSERT_FALSE(expected.is_discarded()) << c.name << "/expected.json is not valid JSON";

  const io::ReadResult read = io::ReadManifests(paths);
  for (const Error& e : read.file_errors) ADD_FAILURE() << c.name << ": " << e.ToString();
  // As the CLI: workloads expand into their controllers' pods before admission.
  const AdmissionResult admission = AdmitInput(read.objects, read.workloads, options.gates, AdmissionMode::kExisting,
                                               options.seed, read.scenarios, read.pod_metrics);
  const SimulationResult simulation = Simulate(admission.state, options);
  const report::RunReport run{&read, &admission, &simulation, &options, {}};
  const std::string rendered = report::RenderSimulationJson(run);

  const json actual = json::parse(rendered, nullptr, false);
  ASSERT_FALSE(actual.is_discarded()) << c.name << ": rendered JSON does not parse:\n" << rendered;

  Matcher matcher;
  if (!matcher.Match(expected, actual, "")) {
    std::string all;
    for (const std::string& e : matcher.errors()) all += "\n  " + e;
    ADD_FAILURE() << c.name << ": " << matcher.errors().size() << " mismatch(es):" << all;
  }

  const SimulationResult again = Simulate(admission.state, options);
  const report::RunReport report_again{&read, &admission, &again, &options, {}};
  EXPECT_EQ(rendered, report::RenderSimulationJson(report_again)) << c.name << ": not deterministic";
}

std::string CaseTestName(const testing::TestParamInfo<ScenarioCase>& info) {
  std::string name = info.param.name;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Golden, ScenarioTest, testing::ValuesIn(DiscoverCases()), CaseTestName);

TEST(ScenarioDiscoveryTest, FindsTheCheckedInCases) {
  // A broken walk must not pass by running nothing.
  EXPECT_GE(DiscoverCases().size(), 20u);
}

// The matcher itself: its rules are what every golden case relies on.
TEST(ScenarioMatcherTest, SubsetObjectsExactArraysAndSpecialKeys) {
  const json actual = json::parse(R"({
    "events": [{"time": 0, "reason": "Scheduled", "pod": "default/a", "node": "n1"},
               {"time": 1.5, "reason": "Preempted", "pod": "default/b", "node": "n1", "by": "default/a"},
               {"time": 30, "reason": "Deleted", "pod": "default/b", "node": null}],
    "pods": [{"pod": "default/a", "state": "Running"}, {"pod": "default/b", "state": "Deleted"}]})");
  auto matches = [&](const char* expected) {
    Matcher m;
    return m.Match(json::parse(expected), actual, "");
  };
  EXPECT_TRUE(matches(R"({"pods": [{"pod": "default/a"}, {"state": "Deleted"}]})"));
  EXPECT_FALSE(matches(R"({"pods": [{"pod": "default/a"}]})"));  // arrays match in length
  EXPECT_TRUE(matches(R"({"eventsInclude": [{"reason": "Scheduled"}, {"time": 30}]})"));
  EXPECT_FALSE(matches(R"({"eventsInclude": [{"time": 30}, {"reason": "Scheduled"}]})"));  // order
  EXPECT_TRUE(matches(R"({"eventsContains": [{"time": 30}, {"reason": "Scheduled"}]})"));
  EXPECT_TRUE(matches(R"({"eventsExclude": [{"reason": "Preempted", "by": "default/b"}]})"));
  EXPECT_FALSE(matches(R"({"eventsExclude": [{"reason": "Preempted"}]})"));
  EXPECT_TRUE(matches(R"({"eventsCount": 3, "podsCount": 2})"));
  EXPECT_TRUE(matches(R"({"eventsInclude": [{"time": 1.5, "pod": {"$regex": "default/[b-z]"}}]})"));
  EXPECT_TRUE(matches(R"({"eventsInclude": [{"node": null, "by": {"$absent": true}}]})"));
  EXPECT_FALSE(matches(R"({"eventsInclude": [{"pod": {"$contains": "zzz"}}]})"));
  EXPECT_FALSE(matches(R"({"missing": 1})"));
}

TEST(ScenarioArgsTest, ParsesGoDurations) {
  EXPECT_EQ(ParseGoDuration("90s")->count(), 90'000'000);
  EXPECT_EQ(ParseGoDuration("1h30m")->count(), 5'400'000'000);
  EXPECT_EQ(ParseGoDuration("500ms")->count(), 500'000);
  EXPECT_FALSE(ParseGoDuration("5 minutes").ok());
}

}  // namespace
}  // namespace kpsim
