// app/api.h: kpsim serve's answers, without a socket. The API must answer exactly what the command
// prints (the same app/run.h code), refuse malformed requests with the field named, and cancel a
// run past its limit.

#include "app/api.h"

#include <chrono>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "app/run.h"
#include "kpsim/io.h"

namespace kpsim::app {
namespace {

using nlohmann::json;

std::string Example(const std::string& name) {
  std::ifstream in(std::string(KPSIM_SOURCE_DIR) + "/examples/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Body(const std::string& name, const std::string& content, const json& options) {
  return json{{"files", json::array({json{{"name", name}, {"content", content}}})}, {"options", options}}.dump();
}

// What the command prints for the same file and flags (app/run.h, as main.cc calls it).
std::string Command(const std::string& name, const std::string& content, CommonFlags common,
                    EngineFlags engine, const ExplainFlags* explain = nullptr) {
  io::ReadResult read = io::ReadManifestTexts({io::NamedText{name, content}});
  const RunOutput out = explain != nullptr ? RunExplain(read, common, engine, *explain)
                                           : RunSimulate(read, common, engine);
  EXPECT_FALSE(out.error.has_value());
  return out.output;
}

TEST(ApiTest, SimulateAnswersWhatTheCommandPrints) {
  const std::string content = Example("cascade.yaml");
  CommonFlags common;
  common.output = "json";
  EngineFlags engine;
  engine.seed = "7";
  engine.until = "15s";
  engine.until_set = true;
  const ApiResponse r = HandleApi("simulate", Body("cascade.yaml", content, {{"seed", 7}, {"until", "15s"}}), {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body, Command("cascade.yaml", content, common, engine));
  EXPECT_EQ(json::parse(r.body)["endReason"], "until");
}

TEST(ApiTest, OptionsSpellTheFlags) {
  const std::string content = Example("book/cascade.yaml");
  CommonFlags common;
  common.output = "text";
  EngineFlags engine;
  engine.profile = "book";
  const ApiResponse r =
      HandleApi("simulate", Body("cascade.yaml", content, {{"profile", "book"}, {"output", "text"}}), {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.content_type, "text/plain; charset=utf-8");
  EXPECT_EQ(r.body, Command("cascade.yaml", content, common, engine));
  // featureGates as an object is the same as the flag's text.
  const std::string gates = Example("podgroups/disruption-all.yaml");
  const ApiResponse as_text =
      HandleApi("simulate", Body("g.yaml", gates, {{"featureGates", "GenericWorkload=true"}}), {});
  const ApiResponse as_object =
      HandleApi("simulate", Body("g.yaml", gates, {{"featureGates", {{"GenericWorkload", true}}}}), {});
  EXPECT_EQ(as_text.status, 200);
  EXPECT_EQ(as_text.body, as_object.body);
  EXPECT_FALSE(json::parse(as_text.body)["groups"].empty());
}

TEST(ApiTest, ExplainAnswersWhatTheCommandPrints) {
  const std::string content = Example("cascade.yaml");
  CommonFlags common;
  common.output = "json";
  ExplainFlags explain;
  explain.pod = "default/api";
  const ApiResponse r = HandleApi("explain", Body("cascade.yaml", content, {{"pod", "default/api"}}), {});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, Command("cascade.yaml", content, common, EngineFlags{}, &explain));
  const ApiResponse missing = HandleApi("explain", Body("cascade.yaml", content, {{"pod", "nope"}}), {});
  EXPECT_EQ(missing.status, 404);
  EXPECT_NE(json::parse(missing.body)["error"].get<std::string>().find("nope"), std::string::npos);
}

TEST(ApiTest, SeveralFilesAreOneInput) {
  // The classes in one file, the pods in another: read in order as the command reads two paths.
  const std::string classes = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: hi\nvalue: 10\n";
  const std::string pods =
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\nstatus:\n  allocatable: {cpu: '1', memory: 1Gi, pods: '10'}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  priorityClassName: hi\n"
      "  containers: [{name: c, resources: {requests: {cpu: 500m}}}]\n";
  const json body = {{"files", json::array({json{{"name", "classes.yaml"}, {"content", classes}},
                                            json{{"name", "pods.yaml"}, {"content", pods}}})}};
  const ApiResponse r = HandleApi("simulate", body.dump(), {});
  ASSERT_EQ(r.status, 200) << r.body;
  const json out = json::parse(r.body);
  EXPECT_TRUE(out["rejected"].empty()) << r.body;
  EXPECT_EQ(out["pods"][0]["priority"], 10);
  EXPECT_EQ(out["pods"][0]["state"], "Running");
}

TEST(ApiTest, MalformedRequestsAreRefusedNamingTheField) {
  const std::string content = Example("cascade.yaml");
  const struct {
    std::string body;
    std::string message;
  } cases[] = {
      {"not json", "the body is not JSON"},
      {"[1]", "the body must be an object"},
      {R"({"files": []})", "files: required"},
      {R"({"files": [{"name": "a.yaml"}]})", "files[0]: must be"},
      {R"({"files": [{"name": "", "content": ""}]})", "files[0]: must be"},
      {R"({"files": [{"name": "a", "content": "x"}], "colour": 1})", "colour: unknown field"},
      {R"({"files": [{"name": "a", "content": "x"}], "options": []})", "options: must be an object"},
      {Body("a", content, {{"colour", "blue"}}), "options.colour: unknown option"},
      {Body("a", content, {{"seed", "x1"}}), "options.seed: invalid seed"},
      {Body("a", content, {{"seed", 1.5}}), "options.seed: must be a string, a whole number or a boolean"},
      {Body("a", content, {{"until", "5x"}}), "options.until:"},
      {Body("a", content, {{"featureGates", "Nope=true"}}), "options.featureGates:"},
      {Body("a", content, {{"output", "pdf"}}), "options.output: pdf not in"},
      {Body("a", content, {{"profile", "fast"}}), "options.profile: fast not in"},
      // Counts say what a count is, as the flags do.
      {Body("a", content, {{"maxAttempts", 0}}), "options.maxAttempts: must be a whole number, at least 1, got \"0\""},
      {Body("a", content, {{"maxNewNodes", "+3"}}), "options.maxNewNodes: must be a whole number, at least 1, got \"+3\""},
      {Body("a", content, {{"maxAttempts", "3000000000"}}),
       "options.maxAttempts: must be a whole number from 1 to 2147483647, got \"3000000000\""},
  };
  for (const auto& c : cases) {
    const ApiResponse r = HandleApi("simulate", c.body, {});
    EXPECT_EQ(r.status, 400) << c.body;
    const json error = json::parse(r.body);
    EXPECT_NE(error["error"].get<std::string>().find(c.message), std::string::npos)
        << c.body << " -> " << r.body;
  }
  for (const json& attempt : {json(0), json(-2), json(true), json("0x1")}) {
    const ApiResponse r = HandleApi("explain", Body("a", content, {{"pod", "default/api"}, {"attempt", attempt}}), {});
    EXPECT_EQ(r.status, 400) << attempt;
    EXPECT_NE(r.body.find("options.attempt: must be a whole number, at least 1, got"), std::string::npos) << r.body;
  }
  EXPECT_EQ(HandleApi("explain", Body("a", content, {{"pod", "default/api"}, {"attempt", "01"}}), {}).status, 200);
  const ApiResponse no_pod = HandleApi("explain", Body("a", content, json::object()), {});
  EXPECT_EQ(no_pod.status, 400);
  EXPECT_NE(no_pod.body.find("options.pod or options.group"), std::string::npos) << no_pod.body;
  EXPECT_EQ(HandleApi("nope", "{}", {}).status, 404);
}

// Setup: texts a count flag, a setting or an option might hold. Expect: decimal digits alone,
// from 1 to the maximum, are counts ("01" is 1); anything else is refused with the message that
// says which rule it broke, and nothing before it (the callers name the flag or field).
TEST(ParseCountTest, DecimalDigitsFromOneToTheMaximum) {
  EXPECT_EQ(*ParseCount("1", 10), 1);
  EXPECT_EQ(*ParseCount("010", 10), 10);
  EXPECT_EQ(*ParseCount("9223372036854775807", std::numeric_limits<std::int64_t>::max()),
            std::numeric_limits<std::int64_t>::max());
  for (const char* text : {"", "0", "00", "-1", "+1", " 1", "1 ", "0x1", "1.0", "1e3", "one"}) {
    const auto n = ParseCount(text, 10);
    ASSERT_FALSE(n.ok()) << text;
    EXPECT_EQ(n.error().message, fmt::format("must be a whole number, at least 1, got \"{}\"", text));
  }
  for (const char* text : {"11", "99999999999999999999999"}) {
    const auto n = ParseCount(text, 10);
    ASSERT_FALSE(n.ok()) << text;
    EXPECT_EQ(n.error().message, fmt::format("must be a whole number from 1 to 10, got \"{}\"", text));
  }
}

// Setup: texts a shard index might hold (--shard, JOB_COMPLETION_INDEX). Expect: the count's
// digits-only rule with 0 allowed, up to the maximum; nothing for any other text.
TEST(ParseIndexTest, DecimalDigitsFromZeroToTheMaximum) {
  EXPECT_EQ(ParseIndex("0", 3), 0);
  EXPECT_EQ(ParseIndex("00", 3), 0);
  EXPECT_EQ(ParseIndex("03", 3), 3);
  for (const char* text : {"", "4", "-0", "-1", "+1", " 1", "1 ", "0x1", "1.0", "99999999999999999999999"}) {
    EXPECT_EQ(ParseIndex(text, 3), std::nullopt) << text;
  }
}

// The flags of a run as given, and of the runs --compare sets beside it (ApplySetting).
std::pair<CommonFlags, EngineFlags> Compared(const CommonFlags& common, const EngineFlags& engine,
                                             std::string_view setting) {
  std::pair<CommonFlags, EngineFlags> out{common, engine};
  std::istringstream words{std::string(setting)};
  for (std::string word; words >> word;) {
    EXPECT_TRUE(ApplySetting(word, out.first, out.second).ok()) << word;
  }
  return out;
}

std::vector<std::string> Ignored(const CommonFlags& common, const EngineFlags& engine) {
  auto options = MakeOptions(common, engine);
  EXPECT_TRUE(options.ok());
  std::vector<std::string> out;
  for (const Warning& w : IgnoredFlagWarnings(common, engine, *options)) out.push_back(w.message);
  return out;
}

// Setup: a book run given --candidate-sampling and a node template without --scale-up. Expect:
// both are called ignored alone; beside compared runs that read them (profile=default reads the
// first, a default run with scaleUp both), they are not; a compared run that reads neither
// (seed=2) changes nothing.
TEST(IgnoredFlagTest, AFlagIsIgnoredOnlyWhenNoComparedRunReadsIt) {
  CommonFlags common;
  EngineFlags engine;
  engine.profile = "book";
  engine.candidate_sampling = "kubernetes";
  engine.candidate_sampling_set = true;
  engine.node_templates = {"templates.yaml"};
  EXPECT_EQ(Ignored(common, engine),
            (std::vector<std::string>{"--candidate-sampling is ignored: the book profile dry-runs every node",
                                      "--node-template is ignored: only --scale-up reads node templates"}));
  const auto read_by = [&](std::vector<std::string_view> settings) {
    std::vector<std::pair<CommonFlags, EngineFlags>> compared;
    for (std::string_view setting : settings) compared.push_back(Compared(common, engine, setting));
    auto flags = FlagsReadByCompared(common, engine, compared);
    if (!flags.ok()) {
      ADD_FAILURE() << flags.error().message;
      return std::vector<std::string>{};
    }
    return *flags;
  };
  EXPECT_EQ(read_by({"seed=2"}), std::vector<std::string>{});
  EXPECT_EQ(read_by({"seed=2", "profile=default"}), std::vector<std::string>{"--candidate-sampling"});
  // (A book run cannot scale up: the compared run is a default one.)
  EXPECT_EQ(read_by({"profile=default scaleUp=true"}),
            (std::vector<std::string>{"--candidate-sampling", "--node-template"}));
  EXPECT_EQ(read_by({"profile=default", "profile=default scaleUp=true"}),
            (std::vector<std::string>{"--candidate-sampling", "--node-template"}));
  EngineFlags beside = engine;
  beside.read_by_compared = read_by({"profile=default", "profile=default scaleUp=true"});
  EXPECT_EQ(beside.read_by_compared, (std::vector<std::string>{"--candidate-sampling", "--node-template"}));
  EXPECT_EQ(Ignored(common, beside), std::vector<std::string>{});
}

// Every key SettingKeyList names is one ApplySetting takes (the messages list them), and
// SettingKeys is the list joined.
TEST(ApplySettingTest, EveryListedKeyIsTaken) {
  std::string joined;
  for (const std::string_view key : SettingKeyList()) {
    CommonFlags common;
    EngineFlags engine;
    const std::string value = key == "disableCaches" || key == "scaleUp"    ? "true"
                              : key == "maxAttempts" || key == "maxNewNodes" ? "3"
                                                                              : "x";
    EXPECT_TRUE(ApplySetting(std::string(key) + "=" + value, common, engine).ok()) << key;
    joined += (joined.empty() ? "" : ", ") + std::string(key);
  }
  EXPECT_EQ(SettingKeys(), joined);
  CommonFlags common;
  EngineFlags engine;
  EXPECT_FALSE(ApplySetting("colour=x", common, engine).ok());
}

// No setting names a file: simulate --compare and the serve API read no path from a setting (the
// API must read no file of the server's). nodeTemplate=FILE is a sweep's alone (SweepSettingPath).
TEST(ApplySettingTest, NoSettingNamesAFile) {
  CommonFlags common;
  EngineFlags engine;
  for (const char* setting : {"nodeTemplate=/etc/passwd", "node-template=pools/a.yaml"}) {
    const Result applied = ApplySetting(setting, common, engine);
    ASSERT_FALSE(applied.ok()) << setting;
    EXPECT_EQ(applied.error().message.rfind("unknown setting", 0), 0u) << applied.error().message;
  }
  EXPECT_TRUE(engine.node_templates.empty());
  EXPECT_EQ(SettingKeys().find("nodeTemplate"), std::string_view::npos);
  const ApiResponse r =
      HandleApi("simulate", Body("cascade.yaml", Example("cascade.yaml"), {{"scaleUp", true}, {"nodeTemplate", "/etc/passwd"}}), {});
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("options.nodeTemplate: unknown option"), std::string::npos) << r.body;
}

TEST(ApiTest, ABodyPastTheLimitIsRefused) {
  ServeLimits limits;
  limits.max_body_bytes = 100;
  const ApiResponse r = HandleApi("simulate", std::string(101, ' '), limits);
  EXPECT_EQ(r.status, 413);
}

TEST(ApiTest, ARunPastItsTimeLimitIsCancelledAndSaysSo) {
  // 300 nodes, each full of low pods, and 300 pending high pods: far longer than no time at all.
  std::string text =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: hi\nvalue: 100\n";
  for (int n = 0; n < 300; ++n) {
    text += fmt::format("---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n{}\nstatus:\n  allocatable: "
                        "{{cpu: '4', memory: 8Gi, pods: '110'}}\n",
                        n);
    for (int p = 0; p < 4; ++p) {
      text += fmt::format("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: lo-{}-{}\nspec:\n  nodeName: n{}\n"
                          "  containers: [{{name: c, resources: {{requests: {{cpu: '1'}}}}}}]\n",
                          n, p, n);
    }
    text += fmt::format("---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: hi-{}\nspec:\n  priorityClassName: hi\n"
                        "  containers: [{{name: c, resources: {{requests: {{cpu: '3'}}}}}}]\n",
                        n);
  }
  ServeLimits limits;
  limits.run_timeout = std::chrono::milliseconds(0);
  const ApiResponse r = HandleApi("simulate", Body("big.yaml", text, json::object()), limits);
  EXPECT_EQ(r.status, 503) << r.body.substr(0, 300);
  EXPECT_NE(r.body.find("cancelled"), std::string::npos);
  // The same run without the limit completes.
  const ApiResponse full = HandleApi("simulate", Body("big.yaml", text, json::object()), {});
  EXPECT_EQ(full.status, 200);
  EXPECT_EQ(json::parse(full.body)["endReason"], "quiescent");
}

TEST(ApiTest, DiffComparesTwoRuns) {
  const std::string content = Example("pdb-protected.yaml");
  const ApiResponse a = HandleApi("simulate", Body("p.yaml", content, json::object()), {});
  const ApiResponse b = HandleApi("simulate", Body("p.yaml", content, {{"profile", "book"}}), {});
  const json body = {{"a", json::parse(a.body)}, {"b", json::parse(b.body)}, {"labels", {"default", "book"}}};
  const ApiResponse d = HandleApi("diff", body.dump(), {});
  ASSERT_EQ(d.status, 200) << d.body;
  const json diff = json::parse(d.body);
  EXPECT_FALSE(diff["identical"].get<bool>());
  EXPECT_EQ(diff["a"]["label"], "default");
  EXPECT_EQ(diff["b"]["profile"], "book");
  EXPECT_EQ(HandleApi("diff", R"({"a": {}})", {}).status, 400);
  // Nesting far past a simulate document's is refused before anything re-serialises it.
  const std::string deep = R"({"a": )" + std::string(100000, '[') + std::string(100000, ']') + R"(, "b": 1})";
  const ApiResponse nested = HandleApi("diff", deep, {});
  EXPECT_EQ(nested.status, 400);
  EXPECT_NE(nested.body.find("nests deeper"), std::string::npos);
  EXPECT_EQ(HandleApi("diff", R"({"a": {}, "b": {}})", {}).status, 400);
}

TEST(ApiTest, ExamplesCarryTheirOptions) {
  const json examples = json::parse(ExamplesResponse().body);
  ASSERT_FALSE(examples.empty());
  bool book = false;
  bool gates = false;
  for (const json& e : examples) {
    EXPECT_FALSE(e["content"].get<std::string>().empty()) << e["name"];
    if (e["name"] == "book/cascade.yaml") book = e["options"]["profile"] == "book";
    if (e["name"] == "podgroups/gang-preempts-two-gangs.yaml") {
      gates = e["options"]["featureGates"] == "GenericWorkload=true,GangScheduling=true";
    }
    // Every bundled example runs under its own options.
    json options = e["options"];
    const ApiResponse r = HandleApi("simulate", Body(e["name"], e["content"], options), {});
    EXPECT_EQ(r.status, 200) << e["name"] << ": " << r.body.substr(0, 200);
  }
  EXPECT_TRUE(book);
  EXPECT_TRUE(gates);
}

}  // namespace
}  // namespace kpsim::app
