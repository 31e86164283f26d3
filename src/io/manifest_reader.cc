// `ReadManifests` / `ReadManifestText`: files, directories and stdin to api objects.
//
// Pipeline per input text: detect the format (JSON for `.json` files or text starting with `{` or
// `[`, YAML otherwise), split YAML into documents, parse each, then walk each document (and the
// items of `List`s) and decode it with decode_objects.h. Exceptions from yaml-cpp, nlohmann-json
// and the decoders stop here: nothing escapes this file.

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/decode_objects.h"
#include "io/manifest_node.h"
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
  if (kind == "PodGroup" && IsWorkloadApiVersion(api_version)) return ObjectKind::kPodGroup;
  if (kind == "CompositePodGroup" && IsWorkloadApiVersion(api_version)) {
    return ObjectKind::kCompositePodGroup;
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

// Reads one input text and appends to a `ReadResult`.
class TextReader {
 public:
  TextReader(const std::string& file, ReadResult& out) : file_(file), out_(out) {}

  void Read(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool json = file_.ends_with(".json") || (first != std::string_view::npos &&
                                                   (text[first] == '{' || text[first] == '['));
    if (json) {
      ReadJson(text);
    } else {
      ReadYaml(text);
    }
  }

 private:
  // Where the object being decoded came from, and how to name it in messages.
  struct Origin {
    int document = 0;
    int line = 0;
    bool yaml = false;
  };

  std::string Location(const Origin& o, int line) const {
    if (o.yaml) {
      return fmt::format("{}:{} (document {})", file_, line > 0 ? line : o.line, o.document);
    }
    if (o.document > 0) return fmt::format("{} (item {})", file_, o.document);
    return file_;
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
    // error loses only its own document, an empty document does not end the stream (as
    // yaml-cpp's LoadAll would), and line numbers map back by a fixed offset.
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
      YAML::Node root;
      try {
        root = YAML::Load(std::string(chunk.text));
      } catch (const YAML::Exception& e) {
        const int line = e.mark.is_null() ? 0 : e.mark.line + 1 + chunk.first_line;
        AddFileError(ErrorCode::kInvalidArgument, document, line,
                     fmt::format("YAML syntax error: {}", e.msg));
        continue;
      } catch (const std::exception& e) {
        AddFileError(ErrorCode::kInvalidArgument, document, 0,
                     fmt::format("YAML syntax error: {}", e.what()));
        continue;
      }
      YamlView view(root, chunk.first_line);
      if (view.type() == NodeType::kNull) continue;  // empty document
      Origin origin{document, view.line(), true};
      WalkTop(view, origin);
    }
  }

  // --- JSON ---------------------------------------------------------------------------------

  void ReadJson(std::string_view text) {
    internal::JsonDoc doc;
    std::size_t error_byte = 0;
    std::string what;
    if (!doc.Parse(text, error_byte, what)) {
      if (what.empty()) what = "empty input";
      const std::size_t byte =
          std::min<std::size_t>(error_byte > 0 ? error_byte - 1 : 0, text.size());
      const auto line = static_cast<int>(
          1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
      const std::size_t bracket = what.find("] ");
      if (what.starts_with("[json.exception") && bracket != std::string::npos) {
        what = what.substr(bracket + 2);
      }
      AddFileError(ErrorCode::kInvalidArgument, 0, line,
                   fmt::format("JSON syntax error: {}", what));
      return;
    }
    JsonView view(doc, 0);
    if (view.type() == NodeType::kSeq) {
      // A bare array of objects: treat like the items of a `List`.
      view.ForEachItem([&](int index, const JsonView& item) {
        Origin origin{index + 1, 0, false};
        WalkObject(item, origin, {}, {});
      });
      return;
    }
    Origin origin{0, 0, false};
    WalkTop(view, origin);
  }

  // --- Objects ------------------------------------------------------------------------------

  // A top-level document: a List, a typed list, or one object.
  template <typename V>
  void WalkTop(const V& v, const Origin& origin) {
    WalkObject(v, origin, {}, {});
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
    if (kind.empty()) kind = std::string(default_kind);
    if (api_version.empty()) api_version = std::string(default_api_version);

    std::string name;
    std::string ns;
    if (std::optional<V> meta = v.Get("metadata")) {
      name = PeekString(*meta, "name");
      ns = PeekString(*meta, "namespace");
    }

    if (kind.empty()) {
      AddDecodeError(origin, v.line(), "", DisplayName(std::nullopt, ns, name), "kind",
                     "Object 'Kind' is missing");
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
      items->ForEachItem([&](int index, const V& item) {
        Origin item_origin = origin;
        if (origin.yaml) {
          item_origin.line = item.line();
        } else {
          item_origin.document = index + 1;
        }
        WalkObject(item, item_origin, item_kind, item_api_version);
      });
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
      switch (*modeled) {
        case ObjectKind::kNode:
          object.value = internal::DecodeNode(v, root);
          break;
        case ObjectKind::kPod:
          object.value = internal::DecodePod(v, root);
          break;
        case ObjectKind::kPriorityClass:
          object.value = internal::DecodePriorityClass(v, root);
          break;
        case ObjectKind::kPodDisruptionBudget:
          object.value = internal::DecodePdb(v, root);
          break;
        case ObjectKind::kNamespace:
          object.value = internal::DecodeNamespace(v, root);
          break;
        case ObjectKind::kPodGroup:
          object.value = internal::DecodePodGroup(v, root, false);
          break;
        case ObjectKind::kCompositePodGroup:
          object.value = internal::DecodePodGroup(v, root, true);
          break;
      }
    } catch (const DecodeFailure& failure) {
      AddDecodeError(origin, failure.line, kind, DisplayName(modeled, ns, name), failure.field,
                     failure.message);
      return;
    } catch (const std::exception& e) {
      AddDecodeError(origin, 0, kind, DisplayName(modeled, ns, name), "",
                     fmt::format("internal decoding error: {}", e.what()));
      return;
    }
    out_.objects.push_back(std::move(object));
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

void ReadFile(const std::string& path, ReadResult& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    AddPathError(out, path, ErrorCode::kNotFound, "cannot open file");
    return;
  }
  // Read in one go: a character-by-character copy costs more than parsing a large JSON List.
  std::string text;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size > 0) {
    text.resize(static_cast<std::size_t>(size));
    in.seekg(0, std::ios::beg);
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<std::size_t>(in.gcount()));
  } else {
    in.clear();
    in.seekg(0, std::ios::beg);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (in.bad()) {
    AddPathError(out, path, ErrorCode::kInvalidArgument, "read error");
    return;
  }
  TextReader(path, out).Read(text);
}

void ReadPath(const std::string& path, ReadResult& out) {
  if (path == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    TextReader(path, out).Read(text);
    return;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    AddPathError(out, path, ErrorCode::kNotFound, "no such file or directory");
    return;
  }
  if (!fs::is_directory(status)) {
    ReadFile(path, out);
    return;
  }
  std::vector<fs::path> files;
  fs::directory_iterator it(path, ec);
  if (ec) {
    AddPathError(out, path, ErrorCode::kInvalidArgument,
                 fmt::format("cannot list: {}", ec.message()));
    return;
  }
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::error_code type_ec;
    if (IsManifestFile(it->path()) && it->is_regular_file(type_ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  for (const fs::path& file : files) ReadFile(file.string(), out);
}

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

ReadResult ReadManifests(const std::vector<std::string>& paths) {
  ReadResult out;
  for (const std::string& path : paths) {
    try {
      ReadPath(path, out);
    } catch (const std::exception& e) {
      AddPathError(out, path, ErrorCode::kInternal, fmt::format("internal error: {}", e.what()));
    }
  }
  return out;
}

}  // namespace kpsim::io
