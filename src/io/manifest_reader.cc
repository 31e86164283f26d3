// `ReadManifests` / `ReadManifestText`: files, directories and stdin to api objects.
//
// Pipeline per input: read it (at most `Limits().max_input_bytes`, see ReadBounded), detect the
// format (JSON for `.json` files or text starting with `{` or `[`, YAML otherwise), split YAML
// into documents, parse each (manifest_tree.h: libyaml, simdjson), then walk each document (and
// the items of `List`s) and decode it with decode_objects.h. Exceptions from the parsers and the
// decoders stop here: nothing escapes this file.

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>
#include <vector>

#include "fmt/format.h"
#include "io/decode_config.h"
#include "io/decode_objects.h"
#include "io/decode_quota.h"
#include "io/decode_scenario.h"
#include "io/manifest_node.h"
#include "io/manifest_tree.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using internal::DecodeFailure;
using internal::JsonView;
using internal::NodeType;
using internal::Path;
using internal::ScalarType;
using internal::YamlView;

// PodGroup / CompositePodGroup API versions kpsim models.
bool IsWorkloadApiVersion(std::string_view v) {
  return v == "scheduling.k8s.io/v1alpha2" || v == "scheduling.k8s.io/v1alpha3" ||
         v == "scheduling.k8s.io/v1beta1";
}

std::optional<ObjectKind> ModeledKind(std::string_view kind, std::string_view api_version) {
  if (kind == "Node") return ObjectKind::kNode;
  if (kind == "Pod") return ObjectKind::kPod;
  if (kind == "PriorityClass") return ObjectKind::kPriorityClass;
  if (kind == "PodDisruptionBudget") return ObjectKind::kPodDisruptionBudget;
  if (kind == "Namespace") return ObjectKind::kNamespace;
  if (kind == "Service" && api_version == "v1") return ObjectKind::kService;
  if (kind == "ResourceQuota" && api_version == "v1") return ObjectKind::kResourceQuota;
  if ((kind == "AdmissionConfiguration" || kind == "ResourceQuotaConfiguration") &&
      (api_version == "apiserver.config.k8s.io/v1" || api_version == "apiserver.config.k8s.io/v1alpha1" ||
       api_version == "apiserver.k8s.io/v1alpha1" || api_version == "resourcequota.admission.k8s.io/v1beta1")) {
    return ObjectKind::kAdmissionConfiguration;
  }
  if (kind == "PodGroup" && IsWorkloadApiVersion(api_version)) return ObjectKind::kPodGroup;
  if (kind == "CompositePodGroup" && IsWorkloadApiVersion(api_version)) {
    return ObjectKind::kCompositePodGroup;
  }
  return std::nullopt;
}

// API versions Kubernetes has stopped serving whose objects kpsim still reads, as the version
// that replaced them: the fields kpsim reads have the same shape in both.
struct RemovedApiVersion {
  std::string_view replacement;
  std::string_view removed_in;
};
std::optional<RemovedApiVersion> RemovedVersion(ObjectKind kind, std::string_view api_version) {
  if (kind == ObjectKind::kPodDisruptionBudget && api_version == "policy/v1beta1") {
    return RemovedApiVersion{"policy/v1", "v1.25"};
  }
  if (kind == ObjectKind::kPriorityClass &&
      (api_version == "scheduling.k8s.io/v1beta1" || api_version == "scheduling.k8s.io/v1alpha1")) {
    return RemovedApiVersion{"scheduling.k8s.io/v1", "v1.22"};
  }
  return std::nullopt;
}

// The workload kinds kpsim expands into pods (`ExpandWorkloads`), at their GA API versions.
std::optional<WorkloadKind> ModeledWorkloadKind(std::string_view kind,
                                                std::string_view api_version) {
  if (api_version == "apps/v1") {
    if (kind == "Deployment") return WorkloadKind::kDeployment;
    if (kind == "ReplicaSet") return WorkloadKind::kReplicaSet;
    if (kind == "StatefulSet") return WorkloadKind::kStatefulSet;
    if (kind == "DaemonSet") return WorkloadKind::kDaemonSet;
  }
  if (kind == "Job" && api_version == "batch/v1") return WorkloadKind::kJob;
  return std::nullopt;
}

// A string scalar at `key`, or empty (lenient: used only to name objects).
template <typename V>
std::string PeekString(const V& v, std::string_view key) {
  std::optional<V> c = v.Get(key);
  if (!c || c->type() != NodeType::kScalar || c->scalar_type() != ScalarType::kString) return {};
  return c->text();
}

// The kind (and apiVersion) of objects without `kind` in a file named after their resource, as
// dump tools write them: `kubectl cluster-info dump` (`nodes.json`, `<ns>/pods.json`), sonobuoy
// (`resources/ns/<ns>/Pods.json`), per-namespace trees (`<ns>/pods.yaml`). Matched on the file
// name without its .json/.yaml/.yml extension, ignoring case; only plural resource names, which
// are unambiguous.
struct FileKind {
  std::string_view kind;
  std::string_view api_version;
};
std::optional<FileKind> KindFromFileName(const std::string& file) {
  static constexpr std::pair<std::string_view, FileKind> kTable[] = {
      {"pods", {"Pod", "v1"}},
      {"nodes", {"Node", "v1"}},
      {"namespaces", {"Namespace", "v1"}},
      {"priorityclasses", {"PriorityClass", "scheduling.k8s.io/v1"}},
      {"poddisruptionbudgets", {"PodDisruptionBudget", "policy/v1"}},
      {"deployments", {"Deployment", "apps/v1"}},
      {"replicasets", {"ReplicaSet", "apps/v1"}},
      {"statefulsets", {"StatefulSet", "apps/v1"}},
      {"daemonsets", {"DaemonSet", "apps/v1"}},
      {"jobs", {"Job", "batch/v1"}},
      {"cronjobs", {"CronJob", "batch/v1"}},
      {"events", {"Event", "v1"}},
      {"services", {"Service", "v1"}},
      {"endpoints", {"Endpoints", "v1"}},
      {"configmaps", {"ConfigMap", "v1"}},
      {"secrets", {"Secret", "v1"}},
      {"serviceaccounts", {"ServiceAccount", "v1"}},
      {"replicationcontrollers", {"ReplicationController", "v1"}},
      {"replication-controllers", {"ReplicationController", "v1"}},
      {"persistentvolumes", {"PersistentVolume", "v1"}},
      {"persistentvolumeclaims", {"PersistentVolumeClaim", "v1"}},
      {"storageclasses", {"StorageClass", "storage.k8s.io/v1"}},
      {"limitranges", {"LimitRange", "v1"}},
      {"resourcequotas", {"ResourceQuota", "v1"}},
  };
  std::string name = std::filesystem::path(file).filename().string();
  for (std::string_view ext : {".json", ".yaml", ".yml"}) {
    if (name.size() > ext.size() && name.ends_with(ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  for (char& c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  for (const auto& [stem, kind] : kTable) {
    if (name == stem) return kind;
  }
  return std::nullopt;
}

// The keys of a kube-scheduler-simulator export (its `ResourcesForExport`), in the order kpsim
// reads them: what pods refer to comes first, as the simulator's import applies them.
struct ExportSection {
  std::string_view key;
  std::string_view kind;  // empty: not modelled, counted in a warning
  std::string_view api_version;
};
constexpr ExportSection kExportSections[] = {
    {"namespaces", "Namespace", "v1"},
    {"priorityClasses", "PriorityClass", "scheduling.k8s.io/v1"},
    {"nodes", "Node", "v1"},
    {"pods", "Pod", "v1"},
    {"storageClasses", "", ""},
    {"pvs", "", ""},
    {"pvcs", "", ""},
};

// Lists nested deeper than this are refused (a YAML List containing itself through an anchor
// would otherwise recurse without end).
constexpr int kMaxListDepth = 16;

// Reads one input text and appends to a `ReadResult`.
class TextReader {
 public:
  TextReader(const std::string& file, ReadResult& out)
      : file_(file), out_(out), file_kind_(file == "-" ? std::nullopt : KindFromFileName(file)) {}

  // `padded`: internal::kJsonPadding readable bytes follow `text` (saves the JSON parser a copy).
  void Read(std::string_view text, bool padded = false) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool json = file_.ends_with(".json") || (first != std::string_view::npos &&
                                                   (text[first] == '{' || text[first] == '['));
    if (json) {
      ReadJson(text, padded);
    } else {
      ReadYaml(text);
    }
  }

 private:
  // Where the object being decoded came from, and how to name it in messages.
  struct Origin {
    Origin(int document_in, int line_in, bool yaml_in)
        : document(document_in), line(line_in), yaml(yaml_in) {}
    int document = 0;
    int line = 0;
    bool yaml = false;
    std::string_view section;  // simulator export key ("pods"), empty otherwise
    int depth = 0;             // List nesting
  };

  std::string Location(const Origin& o, int line) const {
    if (o.yaml) {
      return fmt::format("{}:{} (document {})", file_, line > 0 ? line : o.line, o.document);
    }
    if (!o.section.empty()) return fmt::format("{} ({} item {})", file_, o.section, o.document);
    if (o.document > 0) return fmt::format("{} (item {})", file_, o.document);
    return file_;
  }

  void AddWarning(const Origin& origin, std::string object, std::string code,
                  std::string message) {
    Warning w;
    w.source = Source(origin);
    w.object = std::move(object);
    w.code = std::move(code);
    w.message = std::move(message);
    out_.warnings.push_back(std::move(w));
  }

  void AddFileError(ErrorCode code, int document, int line, std::string message) {
    Error e;
    e.code = code;
    e.file = file_;
    e.document = document;
    e.line = line;
    std::string location = file_;
    if (line > 0) location += fmt::format(":{}", line);
    if (document > 0) location += fmt::format(" (document {})", document);
    e.message = fmt::format("{}: {}", location, message);
    out_.file_errors.push_back(std::move(e));
  }

  // --- YAML ---------------------------------------------------------------------------------

  // A document separator line: "---" alone or followed by a space/tab (and maybe content).
  static bool IsSeparator(std::string_view line) {
    if (!line.starts_with("---")) return false;
    return line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r';
  }

  // True if `chunk` holds nothing but blank lines, comments and directives.
  static bool IsBlank(std::string_view chunk) {
    std::size_t pos = 0;
    while (pos < chunk.size()) {
      std::size_t end = chunk.find('\n', pos);
      if (end == std::string_view::npos) end = chunk.size();
      std::string_view line = chunk.substr(pos, end - pos);
      const std::size_t c = line.find_first_not_of(" \t\r");
      if (c != std::string_view::npos && line[c] != '#' && line[c] != '%') return false;
      pos = end + 1;
    }
    return true;
  }

  void ReadYaml(std::string_view text) {
    // Split at separator lines ourselves: every document then parses on its own, so a syntax
    // error loses only its own document and line numbers map back by a fixed offset.
    struct Chunk {
      std::string_view text;
      int first_line = 0;  // 0-based line of the chunk start in the file
    };
    std::vector<Chunk> chunks;
    std::size_t pos = 0;
    std::size_t chunk_start = 0;
    int line_no = 0;
    int chunk_line = 0;
    while (pos <= text.size()) {
      std::size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      if (IsSeparator(text.substr(pos, end - pos)) && pos != chunk_start) {
        chunks.push_back({text.substr(chunk_start, pos - chunk_start), chunk_line});
        chunk_start = pos;
        chunk_line = line_no;
      }
      if (end == text.size()) break;
      pos = end + 1;
      ++line_no;
    }
    chunks.push_back({text.substr(chunk_start), chunk_line});
    // A leading chunk of only comments before the first "---" is not a document.
    if (chunks.size() > 1 && IsBlank(chunks.front().text)) chunks.erase(chunks.begin());

    int document = 0;
    for (const Chunk& chunk : chunks) {
      ++document;
      if (IsBlank(chunk.text)) continue;
      // A List's items are streamed where possible; whatever does not stream as planned (an
      // error, an alias, a guess of the List's kind proved wrong) is read again whole.
      const Checkpoint checkpoint = Save();
      if (!ReadYamlChunk(chunk.text, chunk.first_line, document, true)) {
        Restore(checkpoint);
        ReadYamlChunk(chunk.text, chunk.first_line, document, false);
      }
    }
  }

  // The `kind` of the root mapping as a line `kind: X` at column 0 shows it, or empty: a guess
  // for the items of a List (in kubectl's output `kind` follows `items`), checked once the
  // document is parsed.
  static std::string GuessKind(std::string_view text) {
    std::size_t pos = text.starts_with("kind:") ? 0 : text.find("\nkind:");
    if (pos == std::string_view::npos) return {};
    if (text[pos] == '\n') ++pos;
    std::string_view value = text.substr(pos + 5);
    value = value.substr(0, value.find('\n'));
    if (const std::size_t hash = value.find(" #"); hash != std::string_view::npos) {
      value = value.substr(0, hash);
    }
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!value.empty() && blank(value.front())) value.remove_prefix(1);
    while (!value.empty() && blank(value.back())) value.remove_suffix(1);
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    return std::string(value);
  }

  // One chunk of a YAML stream. `stream`: stream the items of Lists, returning false (with the
  // output partly written: the caller restores it) when that did not go as planned.
  bool ReadYamlChunk(std::string_view text, int first_line, int document, bool stream) {
    bool failed = false;
    Origin list_origin{document, 0, true};
    std::optional<ItemPlan> plan;
    internal::ItemStream items;
    std::string guess;
    if (stream) {
      guess = GuessKind(text);
      items.plan = [&](const internal::Tree& skeleton, bool) {
        const YamlView view(skeleton, 0);
        list_origin = Origin{document, view.line(), true};
        plan = ListPlan(view, guess);
        return plan.has_value();
      };
      items.item = [&](const internal::Tree& item) {
        if (!failed) WalkItem(YamlView(item, 0), list_origin, *plan);
      };
    }
    internal::ParseYamlDocuments(
        text, first_line,
        [&](internal::ParsedDocument&& doc) {
          if (failed) return;
          if (!doc.ok) {
            if (stream) {
              failed = true;
              return;
            }
            AddFileError(ErrorCode::kInvalidArgument, document, doc.error.line,
                         doc.error.message);
            return;
          }
          const YamlView view(doc.tree, 0);
          if (doc.streamed) {
            // The List as a whole must read as the plan guessed.
            if (ListPlan(view, {}) != plan) failed = true;
            return;
          }
          if (view.type() == NodeType::kNull) return;  // empty document
          const Origin origin{document, view.line(), true};
          WalkTop(view, origin);
        },
        stream ? &items : nullptr);
    return !failed && !items.bailed;
  }

  // --- Streamed List items --------------------------------------------------------------------

  // How WalkObject reads the items of a List: the kind and apiVersion they default to.
  struct ItemPlan {
    std::string kind;
    std::string api_version;
    friend bool operator==(const ItemPlan&, const ItemPlan&) = default;
  };

  // The plan when `v` (a top-level document) is a List that WalkTop reads item by item, as
  // WalkTop and WalkObject decide it. `kind_guess`: the kind when `v` has no `kind` entry yet.
  template <typename V>
  std::optional<ItemPlan> ListPlan(const V& v, std::string_view kind_guess) const {
    if (v.type() != NodeType::kMap) return std::nullopt;
    const bool has_kind = v.Get("kind").has_value();
    if (!has_kind && kind_guess.empty() && IsSimulatorExport(v)) return std::nullopt;
    std::string kind = has_kind ? PeekString(v, "kind") : std::string(kind_guess);
    const std::string api_version = PeekString(v, "apiVersion");
    const std::optional<V> items = v.Get("items");
    if (!items || items->type() != NodeType::kSeq) return std::nullopt;
    if (kind.empty()) {
      if (v.Get("spec")) return std::nullopt;
      kind = "List";
    }
    if (!kind.ends_with("List")) return std::nullopt;
    if (kind == "List") return ItemPlan{};
    return ItemPlan{kind.substr(0, kind.size() - 4), api_version};
  }

  // One streamed item of a List read at `list` (as WalkObject's List branch reads it).
  template <typename V>
  void WalkItem(const V& item, const Origin& list, const ItemPlan& plan) {
    Origin origin = list;
    ++origin.depth;
    if (list.yaml) {
      origin.line = item.line();
    } else {
      origin.document = ++streamed_items_;
    }
    WalkObject(item, origin, plan.kind, plan.api_version);
  }

  // What `out_` holds, to undo a read that has to be done again.
  struct Checkpoint {
    std::size_t objects = 0;
    std::size_t errors = 0;
    std::size_t ignored = 0;
    std::size_t file_errors = 0;
    std::size_t warnings = 0;
    std::size_t workloads = 0;
    std::optional<SchedulerConfig> scheduler_config;
  };
  Checkpoint Save() const {
    return Checkpoint{out_.objects.size(),  out_.errors.size(),   out_.ignored.size(),
                      out_.file_errors.size(), out_.warnings.size(), out_.workloads.size(),
                      out_.scheduler_config};
  }
  template <typename T>
  static void Truncate(std::vector<T>& v, std::size_t n) {
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(n), v.end());
  }
  void Restore(const Checkpoint& c) {
    Truncate(out_.objects, c.objects);
    Truncate(out_.errors, c.errors);
    Truncate(out_.ignored, c.ignored);
    Truncate(out_.file_errors, c.file_errors);
    Truncate(out_.warnings, c.warnings);
    Truncate(out_.workloads, c.workloads);
    out_.scheduler_config = c.scheduler_config;
  }

  // --- JSON ---------------------------------------------------------------------------------

  // A stream of JSON documents (`kubectl cluster-info dump` concatenates Lists). One document
  // reads as before (items numbered in messages); several are numbered as documents, with lines.
  void ReadJson(std::string_view text, bool padded) {
    const Checkpoint checkpoint = Save();
    if (ReadJsonStreaming(text, padded)) return;
    Restore(checkpoint);
    ReadJsonWhole(text, padded);
  }

  // ReadJson with the items of Lists streamed; returns false (the output partly written: the
  // caller restores it) when the text does not read as planned or has an error, which
  // ReadJsonWhole then reports.
  bool ReadJsonStreaming(std::string_view text, bool padded) {
    int count = 0;               // documents parsed
    bool failed = false;
    bool first_as_stream = false;  // how document 1 was read: as one of several, or alone
    std::optional<internal::ParsedDocument> pending;  // document 1, until that is known
    Origin list_origin{0, 0, false};
    std::optional<ItemPlan> plan;
    const auto flush_pending = [&] {
      if (!pending) return;
      first_as_stream = true;
      WalkJsonDocument(*pending, 1, true);
      pending.reset();
    };
    internal::ItemStream items;
    items.plan = [&](const internal::Tree& skeleton, bool followed) {
      if (failed) return false;
      flush_pending();
      const bool stream = count > 0 || followed;
      if (count == 0) first_as_stream = stream;
      const JsonView view(skeleton, 0);
      list_origin = stream ? Origin{count + 1, view.line(), true} : Origin{0, 0, false};
      streamed_items_ = 0;
      plan = ListPlan(view, {});
      return plan.has_value();
    };
    items.item = [&](const internal::Tree& item) {
      if (!failed) WalkItem(JsonView(item, 0), list_origin, *plan);
    };
    internal::ParseJsonStream(
        text,
        [&](internal::ParsedDocument&& doc) {
          const int d = ++count;
          if (failed) return;
          if (!doc.ok) {
            failed = true;
            return;
          }
          if (doc.streamed) {
            if (ListPlan(JsonView(doc.tree, 0), {}) != plan) failed = true;
            return;
          }
          if (d == 1) {
            pending = std::move(doc);
            return;
          }
          flush_pending();
          WalkJsonDocument(doc, d, true);
        },
        padded, &items);
    if (failed || items.bailed || count == 0) return false;
    if (pending) {
      first_as_stream = false;
      WalkJsonDocument(*pending, 0, false);
    }
    return first_as_stream == (count > 1);
  }

  // One parsed JSON document (not failed); `document` 0 when it is the only one. A bare array of
  // objects reads like the items of a `List`. Frees the document's tree once read.
  void WalkJsonDocument(internal::ParsedDocument& doc, int document, bool stream) {
    const JsonView view(doc.tree, 0);
    if (view.type() == NodeType::kSeq) {
      view.ForEachItem([&](int index, const JsonView& item) {
        const Origin origin =
            stream ? Origin{document, item.line(), true} : Origin{index + 1, 0, false};
        WalkObject(item, origin, {}, {});
      });
    } else {
      const Origin origin = stream ? Origin{document, view.line(), true} : Origin{0, 0, false};
      WalkTop(view, origin);
    }
    doc.tree = internal::Tree();
  }

  // ReadJson without streaming: every document parsed, then walked.
  void ReadJsonWhole(std::string_view text, bool padded) {
    std::vector<internal::ParsedDocument> docs;
    internal::ParseJsonStream(
        text, [&](internal::ParsedDocument&& doc) { docs.push_back(std::move(doc)); }, padded);
    if (docs.empty()) {
      AddFileError(ErrorCode::kInvalidArgument, 0, 1, "JSON syntax error: empty input");
      return;
    }
    const bool stream = docs.size() > 1;
    for (std::size_t d = 0; d < docs.size(); ++d) {
      internal::ParsedDocument& doc = docs[d];
      const int document = stream ? static_cast<int>(d) + 1 : 0;
      if (!doc.ok) {
        AddFileError(ErrorCode::kInvalidArgument, document, doc.error.line, doc.error.message);
        continue;
      }
      WalkJsonDocument(doc, document, stream);  // frees the document's tree
    }
  }

  // --- Objects ------------------------------------------------------------------------------

  // A top-level document: a kube-scheduler-simulator export, a List, a typed list, or one
  // object.
  template <typename V>
  void WalkTop(const V& v, const Origin& origin) {
    if (IsSimulatorExport(v)) {
      WalkExport(v, origin);
      return;
    }
    WalkObject(v, origin, {}, {});
  }

  // A map without `kind` holding at least one export key with a list (or `schedulerConfig`).
  template <typename V>
  static bool IsSimulatorExport(const V& v) {
    if (v.type() != NodeType::kMap || v.Get("kind")) return false;
    if (std::optional<V> c = v.Get("schedulerConfig"); c && c->type() == NodeType::kMap) {
      return true;
    }
    for (const ExportSection& section : kExportSections) {
      std::optional<V> items = v.Get(section.key);
      if (items && items->type() == NodeType::kSeq) return true;
    }
    return false;
  }

  // The simulator export (`pods, nodes, pvs, pvcs, storageClasses, priorityClasses, namespaces,
  // schedulerConfig`): items typed from their key, sections in `kExportSections` order.
  template <typename V>
  void WalkExport(const V& v, const Origin& origin) {
    std::vector<std::string> unmodelled;
    for (const ExportSection& section : kExportSections) {
      std::optional<V> items = v.Get(section.key);
      if (!items || items->type() == NodeType::kNull) continue;
      if (items->type() != NodeType::kSeq) {
        AddDecodeError(origin, items->line(), "", "", std::string(section.key),
                       "expected a list");
        continue;
      }
      if (section.kind.empty()) {
        int count = 0;
        items->ForEachItem([&](int, const V&) { ++count; });
        if (count > 0) unmodelled.push_back(fmt::format("{} {}", count, section.key));
        continue;
      }
      items->ForEachItem([&](int index, const V& item) {
        Origin item_origin = origin;
        item_origin.section = section.key;
        if (origin.yaml) {
          item_origin.line = item.line();
        } else {
          item_origin.document = index + 1;
        }
        WalkObject(item, item_origin, section.kind, section.api_version);
      });
    }
    if (!unmodelled.empty()) {
      std::string list;
      for (const std::string& u : unmodelled) list += (list.empty() ? "" : ", ") + u;
      AddWarning(origin, "", "NotModelled",
                 fmt::format("simulator export: {} not modelled (kpsim has no volumes); "
                             "skipped",
                             list));
    }
    if (std::optional<V> config = v.Get("schedulerConfig");
        config && config->type() != NodeType::kNull) {
      Origin config_origin = origin;
      if (origin.yaml) config_origin.line = config->line();
      ReadSchedulerConfig(*config, config_origin);
    }
    v.ForEachEntry([&](std::string_view key, const V&) {
      if (key == "schedulerConfig" || key == "//") return;  // "//": a comment, as in examples/
      for (const ExportSection& section : kExportSections) {
        if (key == section.key) return;
      }
      AddWarning(origin, "", "NotModelled",
                 fmt::format("simulator export: key \"{}\" is not one kpsim reads; skipped", key));
    });
  }

  // A KubeSchedulerConfiguration: validated; a valid one replaces any earlier one.
  template <typename V>
  void ReadSchedulerConfig(const V& v, const Origin& origin) {
    static const std::string kKind = "KubeSchedulerConfiguration";
    if (v.type() != NodeType::kMap) {
      const ScalarType scalar =
          v.type() == NodeType::kScalar ? v.scalar_type() : ScalarType::kString;
      AddDecodeError(origin, v.line(), kKind, "", "",
                     fmt::format("expected an object, got {}", internal::TypeWord(v.type(), scalar)));
      return;
    }
    const std::string api_version = PeekString(v, "apiVersion");
    if (!api_version.empty() && api_version != internal::kSchedulerConfigApiVersion) {
      AddDecodeError(origin, v.line(), kKind, "", "apiVersion",
                     fmt::format("no kind \"KubeSchedulerConfiguration\" is registered for "
                                 "version \"{}\" (kube-scheduler reads {})",
                                 api_version, internal::kSchedulerConfigApiVersion));
      return;
    }
    internal::DecodedConfig decoded;
    try {
      decoded = internal::DecodeSchedulerConfig(v);
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kKind, "", failure.field, failure.message);
      return;
    }
    for (const internal::ConfigIssue& e : decoded.errors) {
      AddDecodeError(origin, e.line, kKind, "", e.field, e.message);
    }
    for (internal::ConfigIssue& n : decoded.notes) {
      AddWarning(origin, kKind, std::move(n.field), std::move(n.message));
    }
    if (!decoded.errors.empty()) return;
    decoded.config.source = Source(origin);
    if (out_.scheduler_config) {
      AddWarning(origin, kKind, "SchedulerConfigReplaced",
                 fmt::format("replaces the KubeSchedulerConfiguration read earlier from {}",
                             out_.scheduler_config->source.ToString()));
    }
    out_.scheduler_config = decoded.config;
  }

  // Decodes one object (or expands a list). `default_kind` / `default_api_version` come from a
  // typed list (`PodList` items lack kind and apiVersion).
  template <typename V>
  void WalkObject(const V& v, const Origin& origin, std::string_view default_kind,
                  std::string_view default_api_version) {
    const Path root;
    if (v.type() != NodeType::kMap) {
      const ScalarType scalar =
          v.type() == NodeType::kScalar ? v.scalar_type() : ScalarType::kString;
      AddDecodeError(
          origin, v.line(), "", "", "",
          fmt::format("expected an object, got {}", internal::TypeWord(v.type(), scalar)));
      return;
    }
    std::string kind = PeekString(v, "kind");
    std::string api_version = PeekString(v, "apiVersion");
    if (kind.empty()) {
      // Typed from the list it is in, else (a List without kind) from its shape, else from
      // the file it comes from.
      std::optional<V> maybe_items = v.Get("items");
      if (!default_kind.empty()) {
        kind = std::string(default_kind);
        if (api_version.empty()) api_version = std::string(default_api_version);
      } else if (maybe_items && maybe_items->type() == NodeType::kSeq && !v.Get("spec")) {
        kind = "List";
      } else if (file_kind_) {
        kind = std::string(file_kind_->kind);
        if (api_version.empty()) api_version = std::string(file_kind_->api_version);
      }
    }
    if (api_version.empty()) api_version = std::string(default_api_version);

    std::string name;
    std::string ns;
    if (std::optional<V> meta = v.Get("metadata")) {
      name = PeekString(*meta, "name");
      ns = PeekString(*meta, "namespace");
    }

    if (kind.empty() && api_version.empty() && !v.Get("metadata") && origin.depth == 0 &&
        origin.section.empty()) {
      // Not a Kubernetes object at all (a support bundle's run info, a tool's own config).
      AddWarning(origin, "", "SkippedDocument",
                 "not a Kubernetes object (no kind, apiVersion or metadata); skipped");
      return;
    }
    if (kind.empty()) {
      AddDecodeError(origin, v.line(), "", DisplayName(std::nullopt, ns, name), "kind",
                     "Object 'Kind' is missing (kpsim types an object without kind only from a "
                     "typed list such as PodList, or from a file named after its resource: "
                     "pods.json, nodes.yaml, ...)");
      return;
    }

    if (kind == "KubeSchedulerConfiguration") {
      ReadSchedulerConfig(v, origin);
      return;
    }

    // Lists: `kind: List` (items carry their kind) and typed lists (`PodList`).
    std::optional<V> items = v.Get("items");
    if (kind.ends_with("List") && items) {
      const std::string item_kind =
          kind == "List" ? std::string() : kind.substr(0, kind.size() - 4);
      const std::string item_api_version = kind == "List" ? std::string() : api_version;
      if (items->type() == NodeType::kNull) return;
      if (items->type() != NodeType::kSeq) {
        AddDecodeError(origin, items->line(), kind, name, "items", "expected a list");
        return;
      }
      if (origin.depth >= kMaxListDepth) {
        AddDecodeError(origin, items->line(), kind, name, "items",
                       fmt::format("Lists nested more than {} deep are refused", kMaxListDepth));
        return;
      }
      items->ForEachItem([&](int index, const V& item) {
        Origin item_origin = origin;
        ++item_origin.depth;
        if (origin.yaml) {
          item_origin.line = item.line();
        } else {
          item_origin.document = index + 1;
        }
        WalkObject(item, item_origin, item_kind, item_api_version);
      });
      return;
    }

    if (kind == "Sweep" && api_version == "kpsim.io/v1alpha1") {
      // A `kpsim sweep` spec beside the manifests it names (a directory input may hold it).
      AddWarning(origin, fmt::format("Sweep {}", name), "SweepSpec",
                 "a Sweep spec is not a manifest (kpsim sweep runs it); skipped");
      return;
    }
    if (kind == "Scenario" && api_version == "kpsim.io/v1alpha1") {
      ReadScenario(v, origin, kind, DisplayName(std::nullopt, ns, name), root);
      return;
    }
    if (kind == "PodMetrics" && api_version == "metrics.k8s.io/v1beta1") {
      ReadPodMetrics(v, origin, kind, DisplayName(std::nullopt, ns, name), root);
      return;
    }
    if (const std::optional<WorkloadKind> workload = ModeledWorkloadKind(kind, api_version)) {
      ReadWorkload(v, origin, *workload, kind, ns, name);
      return;
    }
    const std::optional<ObjectKind> modeled = ModeledKind(kind, api_version);
    if (!modeled) {
      IgnoredObject ignored;
      ignored.kind = kind;
      ignored.api_version = api_version;
      ignored.name = DisplayName(std::nullopt, ns, name);
      ignored.source = Source(origin);
      out_.ignored.push_back(std::move(ignored));
      return;
    }

    Object object;
    object.kind = *modeled;
    object.source = Source(origin);
    try {
      object.value = DecodeModeled(*modeled, v, root);
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kind, DisplayName(modeled, ns, name), failure.field,
                     failure.message);
      return;
    } catch (const std::exception& e) {
      AddDecodeError(origin, 0, kind, DisplayName(modeled, ns, name), "",
                     fmt::format("internal decoding error: {}", e.what()));
      return;
    }
    if (const std::optional<RemovedApiVersion> removed = RemovedVersion(*modeled, api_version)) {
      WarnRemovedApiVersion(origin, object, api_version, *removed);
    }
    out_.objects.push_back(std::move(object));
  }

  template <typename V>
  static decltype(Object::value) DecodeModeled(ObjectKind kind, const V& v, const Path& p) {
    switch (kind) {
      case ObjectKind::kNode: return internal::DecodeNode(v, p);
      case ObjectKind::kPod: return internal::DecodePod(v, p);
      case ObjectKind::kPriorityClass: return internal::DecodePriorityClass(v, p);
      case ObjectKind::kPodDisruptionBudget: return internal::DecodePdb(v, p);
      case ObjectKind::kNamespace: return internal::DecodeNamespace(v, p);
      case ObjectKind::kPodGroup: return internal::DecodePodGroup(v, p, false);
      case ObjectKind::kCompositePodGroup: return internal::DecodePodGroup(v, p, true);
      case ObjectKind::kService: return internal::DecodeService(v, p);
      case ObjectKind::kResourceQuota: return internal::DecodeResourceQuota(v, p);
      case ObjectKind::kAdmissionConfiguration:
        return internal::DecodeQuotaAdmissionConfig(v, p, PeekString(v, "kind") == "ResourceQuotaConfiguration");
    }
    return internal::DecodePod(v, p);
  }

  // A Scenario step's `apply` object: any kind kpsim models or expands (a workload), decoded as
  // at the top level.
  template <typename V>
  void DecodeStepObject(const V& v, const Path& p, const Origin& origin, ScenarioStep& step) {
    const std::string kind = PeekString(v, "kind");
    const std::string api_version = PeekString(v, "apiVersion");
    if (const std::optional<WorkloadKind> workload = ModeledWorkloadKind(kind, api_version)) {
      Workload w = internal::DecodeWorkload(v, p, *workload);
      w.source = Source(origin);
      w.source.line = v.line();
      step.workload = std::move(w);
      return;
    }
    const std::optional<ObjectKind> modeled = ModeledKind(kind, api_version);
    if (!modeled) {
      internal::Fail(v, p.Field("kind"),
                     kind.empty() ? std::string("Required value: the applied object's kind")
                                  : fmt::format("a step applies Nodes, Pods, PriorityClasses, "
                                                "PodDisruptionBudgets, ResourceQuotas, Namespaces, Services, "
                                                "PodGroups and workloads (Deployments, ReplicaSets, "
                                                "StatefulSets, DaemonSets, Jobs); {} {} is not one of them",
                                                api_version, kind));
    }
    Object object;
    object.kind = *modeled;
    object.source = Source(origin);
    object.source.line = v.line();
    object.value = DecodeModeled(*modeled, v, p);
    step.object = std::move(object);
  }

  template <typename V>
  void ReadScenario(const V& v, const Origin& origin, const std::string& kind, const std::string& name,
                    const Path& root) {
    try {
      Scenario scenario = internal::DecodeScenario(
          v, root, [&](const V& item, const Path& p, ScenarioStep& step) { DecodeStepObject(item, p, origin, step); });
      scenario.source = Source(origin);
      for (ScenarioStep& step : scenario.steps) {
        const int line = step.source.line;
        step.source = scenario.source;
        if (line > 0) step.source.line = line;
      }
      out_.scenarios.push_back(std::move(scenario));
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kind, name, failure.field, failure.message);
    }
  }

  template <typename V>
  void ReadPodMetrics(const V& v, const Origin& origin, const std::string& kind, const std::string& name,
                      const Path& root) {
    try {
      PodMetrics metrics = internal::DecodePodMetrics(v, root);
      metrics.source = Source(origin);
      out_.pod_metrics.push_back(std::move(metrics));
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kind, name, failure.field, failure.message);
    }
  }

  // An object at an API version the API server no longer serves (`RemovedVersion`): read as
  // the replacement version, and said so.
  void WarnRemovedApiVersion(const Origin& origin, const Object& object,
                             std::string_view api_version, const RemovedApiVersion& removed) {
    std::string message = fmt::format(
        "apiVersion {} was removed in Kubernetes {} (use {}); read as {}, whose fields it shares",
        api_version, removed.removed_in, removed.replacement, removed.replacement);
    if (const auto* pdb = std::get_if<PodDisruptionBudget>(&object.value)) {
      if (pdb->selector && pdb->selector->IsEmpty()) {
        // policy/v1beta1 matched no pod with `selector: {}`, policy/v1 matches every pod of the
        // namespace (the disruption controller and eviction API); kube-scheduler's
        // filterPodsWithPDBViolation skips a nil or empty selector in both, so preemption is the
        // same either way.
        message +=
            ". Its empty selector matched no pods in policy/v1beta1 and matches every pod of the "
            "namespace in policy/v1; kube-scheduler's preemption ignores a PDB with an empty "
            "selector in both, so kpsim's decisions do not change";
      }
    }
    AddWarning(origin, fmt::format("{} {}", ObjectKindName(object.kind), object.DisplayName()),
               "RemovedAPIVersion", std::move(message));
  }

  // Decodes a Deployment, ReplicaSet, StatefulSet, DaemonSet or Job into `out_.workloads`,
  // remembering its place among the objects read so far.
  template <typename V>
  void ReadWorkload(const V& v, const Origin& origin, WorkloadKind workload_kind,
                    const std::string& kind, const std::string& ns, const std::string& name) {
    const std::string display =
        name.empty() ? std::string() : fmt::format("{}/{}", ns.empty() ? "default" : ns, name);
    try {
      Workload w = internal::DecodeWorkload(v, Path{}, workload_kind);
      w.source = Source(origin);
      w.position = out_.objects.size();
      out_.workloads.push_back(std::move(w));
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kind, display, failure.field, failure.message);
    } catch (const std::exception& e) {
      AddDecodeError(origin, 0, kind, display, "",
                     fmt::format("internal decoding error: {}", e.what()));
    }
  }

  SourceRef Source(const Origin& o) const {
    SourceRef ref;
    ref.file = file_;
    ref.document = o.document;
    ref.line = o.line;
    return ref;
  }

  // "ns/name" for namespaced kinds (an unset namespace shown as "default", as
  // `Object::DisplayName` does), "name" for cluster-scoped ones; unknown kinds show the
  // namespace only when given.
  static std::string DisplayName(std::optional<ObjectKind> kind, const std::string& ns,
                                 const std::string& name) {
    if (name.empty()) return {};
    if (kind) {
      if (IsClusterScoped(*kind)) return name;
      return fmt::format("{}/{}", ns.empty() ? "default" : ns, name);
    }
    return ns.empty() ? name : fmt::format("{}/{}", ns, name);
  }

  void AddDecodeError(const Origin& origin, int line, const std::string& kind,
                      const std::string& name, const std::string& field,
                      const std::string& message) {
    DecodeError e;
    e.kind = kind;
    e.name = name;
    e.source = Source(origin);
    e.field = field;
    std::string text = Location(origin, line);
    if (!kind.empty() || !name.empty()) {
      text += ": ";
      text += kind;
      if (!kind.empty() && !name.empty()) text += ' ';
      text += name;
    }
    if (!field.empty()) {
      text += ": ";
      text += field;
    }
    text += ": ";
    text += message;
    e.message = std::move(text);
    out_.errors.push_back(std::move(e));
  }

  const std::string& file_;
  ReadResult& out_;
  std::optional<FileKind> file_kind_;
  int streamed_items_ = 0;  // items of the List being streamed, so far
};

bool IsManifestFile(const std::filesystem::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

void AddPathError(ReadResult& out, const std::string& path, ErrorCode code,
                  const std::string& what) {
  Error e;
  e.code = code;
  e.file = path;
  e.message = fmt::format("{}: {}", path, what);
  out.file_errors.push_back(std::move(e));
}

// "1 GiB", "64 KiB" or "1000 bytes".
std::string SizeWords(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0) {
    return fmt::format("{} GiB", bytes >> 30);
  }
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0) {
    return fmt::format("{} MiB", bytes >> 20);
  }
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} KiB", bytes >> 10);
  return fmt::format("{} bytes", bytes);
}

void AddTooLarge(ReadResult& out, const std::string& path) {
  AddPathError(out, path, ErrorCode::kInvalidArgument,
               fmt::format("input is larger than {}, the most kpsim reads from one file or stdin "
                           "(split it into several files, or raise --max-input-size)",
                           SizeWords(internal::Limits().max_input_bytes)));
}

// Reads all of `in` into `text` in 1 MiB chunks, never past `Limits().max_input_bytes`
// (an endless stream such as /dev/zero stops there). A NUL byte, which neither YAML nor JSON
// allows (UTF-16 text, which starts with a byte order mark, aside), ends the read at once.
// `size_hint`: the file's size when known. Returns false after adding a file error.
bool ReadBounded(std::istream& in, const std::string& path, std::size_t size_hint,
                 std::string& text, ReadResult& out) {
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  const std::size_t cap = internal::Limits().max_input_bytes;
  if (size_hint > cap) {
    AddTooLarge(out, path);
    return false;
  }
  text.clear();
  text.reserve(size_hint + 1 + internal::kJsonPadding);
  bool utf16 = false;
  for (;;) {
    // One byte past the cap tells a stream at the cap from one beyond it.
    const std::size_t want = std::min(kChunk, cap + 1 - text.size());
    const std::size_t old = text.size();
    std::size_t got = 0;
    if (size_hint > 0 && old >= size_hint) {
      // The whole file is in: probe for its end without growing the text (growing would copy
      // it to twice its size).
      char probe[4096];
      const std::size_t n = std::min(want, sizeof probe);
      in.read(probe, static_cast<std::streamsize>(n));
      got = static_cast<std::size_t>(in.gcount());
      text.append(probe, got);
      if (got == n && got < want) got = want;  // more follows: keep reading
    } else {
      const std::size_t room =
          size_hint > old ? std::min(want, size_hint - old) : want;  // stop at the file's size
      if (text.capacity() < old + room) {
        text.reserve(std::min(std::max(old * 2, old + room), cap + 1));
      }
      text.resize(old + room);
      in.read(text.data() + old, static_cast<std::streamsize>(room));
      got = static_cast<std::size_t>(in.gcount());
      text.resize(old + got);
      if (got == room && room < want) got = want;  // the file's size reached: probe next
    }
    if (old == 0 && text.size() >= 2) {
      const auto b0 = static_cast<unsigned char>(text[0]);
      const auto b1 = static_cast<unsigned char>(text[1]);
      utf16 = (b0 == 0xff && b1 == 0xfe) || (b0 == 0xfe && b1 == 0xff);
    }
    if (!utf16) {
      const std::size_t nul = text.find('\0', old);
      if (nul != std::string::npos) {
        AddPathError(out, path, ErrorCode::kInvalidArgument,
                     fmt::format("byte {} is a NUL character: not a YAML or JSON text", nul + 1));
        return false;
      }
    }
    if (text.size() > cap) {
      AddTooLarge(out, path);
      return false;
    }
    if (got < want) break;
  }
  if (in.bad()) {
    AddPathError(out, path, ErrorCode::kInvalidArgument, "read error");
    return false;
  }
  return true;
}

// Reads `text` with the padding the JSON parser may read past its end.
void ReadPadded(const std::string& path, std::string& text, ReadResult& out) {
  const std::size_t size = text.size();
  text.append(internal::kJsonPadding, ' ');
  TextReader(path, out).Read(std::string_view(text.data(), size), true);
}

void ReadFile(const std::string& path, ReadResult& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    AddPathError(out, path, ErrorCode::kNotFound, "cannot open file");
    return;
  }
  std::error_code ec;
  std::size_t size_hint = 0;
  if (std::filesystem::is_regular_file(path, ec)) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec) size_hint = static_cast<std::size_t>(size);
  }
  std::string text;
  if (!ReadBounded(in, path, size_hint, text, out)) return;
  ReadPadded(path, text, out);
}

// Walks the paths of one command-line argument. A directory is read depth first: its manifest
// files (.yaml, .yml, .json) in bytewise name order, then its subdirectories in bytewise name
// order. Hidden entries (".git", ".kube") and files that are not manifests are skipped with a
// warning, aggregated per argument when many; a directory or file reached a second time
// (symlinks) is read once; `recursive` false reads only the directory's own files.
class PathWalker {
 public:
  PathWalker(const ReadOptions& options, ReadResult& out) : options_(options), out_(out) {}

  void Read(const std::string& path) {
    if (path == "-") {
      std::string text;
      if (!ReadBounded(std::cin, path, 0, text, out_)) return;
      ReadPadded(path, text, out_);
      return;
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec || !fs::exists(status)) {
      AddPathError(out_, path, ErrorCode::kNotFound, "no such file or directory");
      return;
    }
    if (!fs::is_directory(status)) {
      ReadFile(path, out_);
      return;
    }
    if (visited_dirs_.contains(Canonical(path))) {
      Warning w;
      w.source.file = path;
      w.code = "SkippedDirectory";
      w.message = "directory already read through another argument; read once";
      out_.warnings.push_back(std::move(w));
      return;
    }
    skipped_.clear();
    manifests_ = 0;
    WalkDir(fs::path(path), 0);
    ReportSkipped(path);
    if (manifests_ == 0) {
      Warning w;
      w.source.file = path;
      w.code = "NoManifests";
      w.message = options_.recursive
                      ? "the directory holds no manifest files (.yaml, .yml, .json) at any depth"
                      : "the directory holds no manifest files (.yaml, .yml, .json); its "
                        "subdirectories were not read (--no-recursive)";
      out_.warnings.push_back(std::move(w));
    }
  }

 private:
  // Deeper trees are not read (a bound, not a layout any dump tool writes).
  static constexpr int kMaxDepth = 64;
  // Up to this many skipped entries of one kind per argument get a warning each; beyond, one
  // warning counts them.
  static constexpr std::size_t kMaxSkippedWarnings = 5;

  struct Skipped {
    std::string path;
    std::string code;    // "SkippedFile" or "SkippedDirectory"
    std::string reason;  // the message, also the aggregation key
  };

  static std::string Canonical(const std::filesystem::path& p) {
    std::error_code ec;
    std::filesystem::path c = std::filesystem::canonical(p, ec);
    if (ec) return std::filesystem::absolute(p, ec).lexically_normal().string();
    return c.string();
  }

  void Skip(const std::filesystem::path& p, std::string code, std::string reason) {
    skipped_.push_back({p.string(), std::move(code), std::move(reason)});
  }

  void WalkDir(const std::filesystem::path& dir, int depth) {
    namespace fs = std::filesystem;
    if (!visited_dirs_.insert(Canonical(dir)).second) {
      Skip(dir, "SkippedDirectory",
           "directory already read (a symlink loop or a second path to it); read once");
      return;
    }
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      AddPathError(out_, dir.string(), ErrorCode::kInvalidArgument,
                   fmt::format("cannot list: {}", ec.message()));
      return;
    }
    std::vector<fs::path> files;
    std::vector<fs::path> dirs;
    std::vector<fs::path> other;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      other.push_back(it->path());
    }
    std::sort(other.begin(), other.end(), [](const fs::path& a, const fs::path& b) {
      return a.filename().string() < b.filename().string();  // bytewise
    });
    for (const fs::path& entry : other) {
      const std::string name = entry.filename().string();
      std::error_code type_ec;
      const fs::file_status st = fs::status(entry, type_ec);  // follows symlinks
      const bool is_dir = !type_ec && fs::is_directory(st);
      if (name.starts_with(".")) {
        Skip(entry, is_dir ? "SkippedDirectory" : "SkippedFile", "hidden entry; not read");
      } else if (type_ec || !fs::exists(st)) {
        Skip(entry, "SkippedFile", "cannot be read (a broken symlink?); skipped");
      } else if (is_dir) {
        dirs.push_back(entry);
      } else if (!fs::is_regular_file(st)) {
        Skip(entry, "SkippedFile", "not a regular file; not read");
      } else if (IsManifestFile(entry)) {
        files.push_back(entry);
      } else {
        Skip(entry, "SkippedFile", "not a manifest (.yaml, .yml or .json); skipped");
      }
    }
    for (const fs::path& file : files) {
      if (!read_files_.insert(Canonical(file)).second) {
        Skip(file, "SkippedFile", "file already read through another path; read once");
        continue;
      }
      ++manifests_;
      ReadFile(file.string(), out_);
    }
    for (const fs::path& sub : dirs) {
      if (!options_.recursive) {
        Skip(sub, "SkippedDirectory", "subdirectory not read (--no-recursive)");
      } else if (depth + 1 > kMaxDepth) {
        Skip(sub, "SkippedDirectory",
             fmt::format("deeper than {} levels; not read", kMaxDepth));
      } else {
        WalkDir(sub, depth + 1);
      }
    }
  }

  // One warning per skipped entry, or per reason when more than `kMaxSkippedWarnings` share it.
  void ReportSkipped(const std::string& root) {
    std::vector<std::string> reasons;  // first-seen order
    std::map<std::string, std::vector<const Skipped*>> by_reason;
    for (const Skipped& s : skipped_) {
      auto& group = by_reason[s.code + "\n" + s.reason];
      if (group.empty()) reasons.push_back(s.code + "\n" + s.reason);
      group.push_back(&s);
    }
    for (const std::string& key : reasons) {
      const std::vector<const Skipped*>& group = by_reason[key];
      if (group.size() <= kMaxSkippedWarnings) {
        for (const Skipped* s : group) {
          Warning w;
          w.source.file = s->path;
          w.code = s->code;
          w.message = s->reason;
          out_.warnings.push_back(std::move(w));
        }
        continue;
      }
      // Count by extension, e.g. "412 entries (.txt: 410, .log: 2)".
      std::map<std::string, int> by_ext;
      for (const Skipped* s : group) {
        const std::string ext = std::filesystem::path(s->path).extension().string();
        ++by_ext[ext.empty() ? "no extension" : ext];
      }
      std::string counts;
      for (const auto& [ext, n] : by_ext) {
        counts += fmt::format("{}{}: {}", counts.empty() ? "" : ", ", ext, n);
      }
      std::string examples;
      for (std::size_t i = 0; i < 3; ++i) {
        examples += fmt::format("{}{}", i == 0 ? "" : ", ", group[i]->path);
      }
      Warning w;
      w.source.file = root;
      w.code = group.front()->code;
      // The warning's place is `root`: the message does not name it again.
      w.message = fmt::format("{} entries: {} ({}; e.g. {})", group.size(), group.front()->reason,
                              counts, examples);
      out_.warnings.push_back(std::move(w));
    }
  }

  const ReadOptions& options_;
  ReadResult& out_;
  std::set<std::string> visited_dirs_;  // canonical paths, across all arguments
  std::set<std::string> read_files_;    // canonical paths of files read by directory walks
  std::vector<Skipped> skipped_;        // of the current argument
  int manifests_ = 0;                   // manifest files read for the current argument
};

}  // namespace

ReadResult ReadManifestText(std::string_view text, const std::string& file) {
  ReadResult out;
  try {
    TextReader(file, out).Read(text);
  } catch (const std::exception& e) {
    AddPathError(out, file, ErrorCode::kInternal, fmt::format("internal error: {}", e.what()));
  }
  return out;
}

ReadResult ReadManifestTexts(const std::vector<NamedText>& texts, const ReadOptions& options) {
  internal::ReadLimits limits = internal::Limits();
  if (options.max_input_bytes > 0) limits.max_input_bytes = options.max_input_bytes;
  const internal::ScopedReadLimits scoped(limits);
  ReadResult out;
  for (const NamedText& t : texts) {
    if (t.text.size() > limits.max_input_bytes) {
      AddTooLarge(out, t.name);
      continue;
    }
    try {
      std::string padded;
      padded.reserve(t.text.size() + internal::kJsonPadding);
      padded = t.text;
      ReadPadded(t.name, padded, out);
    } catch (const std::exception& e) {
      AddPathError(out, t.name, ErrorCode::kInternal, fmt::format("internal error: {}", e.what()));
    }
  }
  return out;
}

ReadResult ReadManifests(const std::vector<std::string>& paths) {
  return ReadManifests(paths, ReadOptions{});
}

ReadResult ReadManifests(const std::vector<std::string>& paths, const ReadOptions& options) {
  internal::ReadLimits limits = internal::Limits();
  if (options.max_input_bytes > 0) limits.max_input_bytes = options.max_input_bytes;
  const internal::ScopedReadLimits scoped(limits);
  ReadResult out;
  PathWalker walker(options, out);
  for (const std::string& path : paths) {
    try {
      walker.Read(path);
    } catch (const std::exception& e) {
      AddPathError(out, path, ErrorCode::kInternal, fmt::format("internal error: {}", e.what()));
    }
  }
  return out;
}

}  // namespace kpsim::io
