// The Sweep spec (kpsim.io/v1alpha1, `kpsim sweep`): one YAML or JSON document decoded into
// `SweepSpec` (kpsim/io.h). Stricter than the manifest decoders: a spec is written for kpsim
// alone, so an unknown field is a mistake and is refused with its path, not ignored.

#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "io/decode_objects.h"
#include "io/manifest_node.h"
#include "io/manifest_tree.h"
#include "kpsim/io.h"

namespace kpsim::io {
namespace {

using internal::DecodeFailure;
using internal::Fail;
using internal::FailType;
using internal::NodeType;
using internal::Path;
using internal::ScalarType;
using internal::TreeView;

constexpr std::string_view kApiVersion = "kpsim.io/v1alpha1";
constexpr std::size_t kMaxSpecBytes = std::size_t{16} << 20;

// Calls `f(key, value, path)` for each entry of the map `v`; a key not in `known` fails, naming
// the keys that are.
template <typename F>
void KnownFields(const TreeView& v, const Path& p, std::initializer_list<std::string_view> known,
                 F&& f) {
  internal::Fields(v, p, [&](std::string_view key, const TreeView& c, const Path& cp) {
    for (std::string_view k : known) {
      if (k == key) {
        f(key, c, cp);
        return;
      }
    }
    std::string names;
    for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
    Fail(c, cp, fmt::format("unknown field \"{}\" (known here: {})", key, names));
  });
}

// A list given explicitly must not be empty; null reads as absent.
void RequireItems(const TreeView& v, const Path& p) {
  if (v.type() == NodeType::kSeq) {
    bool any = false;
    v.ForEachItem([&any](int, const TreeView&) { any = true; });
    if (!any) Fail(v, p, "must not be empty (leave the field out for its default)");
  }
}

// A list of strings, each distinct (`what` words the repeat).
std::vector<std::string> DistinctStrings(const TreeView& v, const Path& p) {
  RequireItems(v, p);
  std::vector<std::string> out;
  std::set<std::string> seen;
  internal::Items(v, p, [&](const TreeView& item, const Path& ip) {
    std::string s = internal::Str(item, ip);
    if (!seen.insert(s).second) Fail(item, ip, fmt::format("Duplicate value: \"{}\"", s));
    out.push_back(std::move(s));
  });
  return out;
}

std::uint64_t Seed(const TreeView& v, const Path& p) {
  if (v.type() != NodeType::kScalar || v.scalar_type() != ScalarType::kInt) {
    FailType(v, p, "a whole number (a seed, 0 to 18446744073709551615)");
  }
  const std::string_view text = v.text_view();
  std::uint64_t seed = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc() || ptr != text.data() + text.size()) {
    Fail(v, p, fmt::format("Invalid value: {}: a seed is a decimal whole number from 0 to "
                           "18446744073709551615",
                           text));
  }
  return seed;
}

SweepScale DecodeScale(const TreeView& v, const Path& p) {
  SweepScale s;
  s.line = v.line();
  bool has_kind = false;
  bool has_replicas = false;
  KnownFields(v, p, {"kind", "name", "replicas"}, [&](std::string_view key, const TreeView& c, const Path& cp) {
    if (key == "kind") {
      const std::string kind = internal::Str(c, cp);
      if (kind == "Deployment") {
        s.kind = WorkloadKind::kDeployment;
      } else if (kind == "ReplicaSet") {
        s.kind = WorkloadKind::kReplicaSet;
      } else if (kind == "StatefulSet") {
        s.kind = WorkloadKind::kStatefulSet;
      } else if (kind == "Job") {
        s.kind = WorkloadKind::kJob;
      } else {
        Fail(c, cp, fmt::format("Unsupported value: \"{}\": supported values: \"Deployment\", "
                                "\"ReplicaSet\", \"StatefulSet\", \"Job\" (its parallelism)",
                                kind));
      }
      has_kind = true;
    } else if (key == "name") {
      std::string name = internal::Str(c, cp);
      const std::size_t slash = name.find('/');
      if (name.empty() || slash == 0 || (slash != std::string::npos && slash + 1 == name.size()) ||
          (slash != std::string::npos && name.find('/', slash + 1) != std::string::npos)) {
        Fail(c, cp, fmt::format("Invalid value: \"{}\": a workload as \"namespace/name\" or "
                                "\"name\" (namespace default)",
                                name));
      }
      s.name = slash == std::string::npos ? "default/" + name : std::move(name);
    } else {
      s.replicas = static_cast<std::int32_t>(internal::Int(c, cp, 0, 0x7fffffff));
      has_replicas = true;
    }
  });
  if (!has_kind) Fail(v, p.Field("kind"), "Required value");
  if (s.name.empty()) Fail(v, p.Field("name"), "Required value");
  if (!has_replicas) Fail(v, p.Field("replicas"), "Required value");
  return s;
}

SweepSpec DecodeSweep(const TreeView& v, const Path& p) {
  SweepSpec spec;
  if (v.type() != NodeType::kMap) FailType(v, p, "an object (a Sweep)");
  std::string api_version;
  std::string kind;
  bool has_spec = false;
  bool has_inputs = false;
  KnownFields(v, p, {"apiVersion", "kind", "metadata", "spec"},
              [&](std::string_view key, const TreeView& c, const Path& cp) {
    if (key == "apiVersion") {
      api_version = internal::Str(c, cp);
      if (api_version != kApiVersion) {
        Fail(c, cp, fmt::format("Unsupported value: \"{}\": a Sweep is {}", api_version, kApiVersion));
      }
    } else if (key == "kind") {
      kind = internal::Str(c, cp);
      if (kind != "Sweep") Fail(c, cp, fmt::format("Unsupported value: \"{}\": expected Sweep", kind));
    } else if (key == "metadata") {
      KnownFields(c, cp, {"name", "namespace"}, [&](std::string_view mk, const TreeView& m, const Path& mp) {
        (mk == "name" ? spec.name : spec.namespace_) = internal::Str(m, mp);
      });
    } else {
      has_spec = true;
      KnownFields(c, cp, {"inputs", "seeds", "profiles", "featureGates", "overlays", "settings"},
                  [&](std::string_view sk, const TreeView& f, const Path& fp) {
        if (sk == "inputs") {
          has_inputs = f.type() != NodeType::kNull;
          RequireItems(f, fp);
          std::set<std::string> names;
          internal::Items(f, fp, [&](const TreeView& item, const Path& ip) {
            SweepInput input;
            bool has_paths = false;
            KnownFields(item, ip, {"name", "paths"}, [&](std::string_view ik, const TreeView& g, const Path& gp) {
              if (ik == "name") {
                input.name = internal::Str(g, gp);
              } else {
                has_paths = g.type() != NodeType::kNull;
                RequireItems(g, gp);
                input.paths = internal::StringList(g, gp);
                for (std::size_t i = 0; i < input.paths.size(); ++i) {
                  if (input.paths[i].empty()) Fail(g, gp.Index(static_cast<int>(i)), "Required value: a path");
                }
              }
            });
            if (input.name.empty()) Fail(item, ip.Field("name"), "Required value");
            if (!has_paths) Fail(item, ip.Field("paths"), "Required value: files or directories");
            if (!names.insert(input.name).second) {
              Fail(item, ip.Field("name"), fmt::format("Duplicate value: \"{}\"", input.name));
            }
            spec.inputs.push_back(std::move(input));
          });
        } else if (sk == "seeds") {
          RequireItems(f, fp);
          std::set<std::uint64_t> seen;
          internal::Items(f, fp, [&](const TreeView& item, const Path& ip) {
            const std::uint64_t seed = Seed(item, ip);
            if (!seen.insert(seed).second) Fail(item, ip, fmt::format("Duplicate value: {}", seed));
            spec.seeds.push_back(seed);
          });
        } else if (sk == "profiles") {
          spec.profiles = DistinctStrings(f, fp);
        } else if (sk == "featureGates") {
          spec.feature_gates = DistinctStrings(f, fp);
        } else if (sk == "settings") {
          spec.settings = internal::StringList(f, fp);
        } else {
          RequireItems(f, fp);
          std::set<std::string> names;
          internal::Items(f, fp, [&](const TreeView& item, const Path& ip) {
            SweepOverlay overlay;
            KnownFields(item, ip, {"name", "add", "scale"}, [&](std::string_view ok, const TreeView& g, const Path& gp) {
              if (ok == "name") {
                overlay.name = internal::Str(g, gp);
              } else if (ok == "add") {
                overlay.add = internal::StringList(g, gp);
                for (std::size_t i = 0; i < overlay.add.size(); ++i) {
                  if (overlay.add[i].empty()) Fail(g, gp.Index(static_cast<int>(i)), "Required value: a path");
                }
              } else {
                internal::Items(g, gp, [&](const TreeView& s, const Path& sp) {
                  overlay.scale.push_back(DecodeScale(s, sp));
                });
              }
            });
            if (overlay.name.empty()) Fail(item, ip.Field("name"), "Required value");
            if (!names.insert(overlay.name).second) {
              Fail(item, ip.Field("name"), fmt::format("Duplicate value: \"{}\"", overlay.name));
            }
            spec.overlays.push_back(std::move(overlay));
          });
        }
      });
    }
  });
  if (api_version.empty()) Fail(v, p.Field("apiVersion"), fmt::format("Required value: {}", kApiVersion));
  if (kind.empty()) Fail(v, p.Field("kind"), "Required value: Sweep");
  if (spec.name.empty()) Fail(v, p.Field("metadata").Field("name"), "Required value");
  if (!has_spec || !has_inputs) Fail(v, p.Field("spec").Field("inputs"), "Required value");
  if (spec.seeds.empty()) spec.seeds = {1};
  if (spec.profiles.empty()) spec.profiles = {"default"};
  if (spec.feature_gates.empty()) spec.feature_gates = {""};
  if (spec.overlays.empty()) spec.overlays = {SweepOverlay{"none", {}, {}}};
  return spec;
}

// Every node's line under `p`, by its path (SweepSpec::lines). Called on a spec DecodeSweep
// took, whose depth its known fields bound.
void NoteLines(const TreeView& v, const Path& p, std::map<std::string, int>& lines) {
  lines.emplace(p.ToString(), v.line());
  if (v.type() == NodeType::kMap) {
    v.ForEachEntry([&](std::string_view key, const TreeView& c) { NoteLines(c, p.Field(key), lines); });
  } else if (v.type() == NodeType::kSeq) {
    v.ForEachItem([&](int i, const TreeView& c) { NoteLines(c, p.Index(i), lines); });
  }
}

Error SpecError(const std::string& file, int line, std::string message) {
  Error e = MakeError(ErrorCode::kInvalidArgument, "");
  e.file = file;
  e.line = line;
  e.message = line > 0 ? fmt::format("{}:{}: {}", file, line, message) : fmt::format("{}: {}", file, message);
  return e;
}

}  // namespace

Expected<SweepSpec> ParseSweepSpec(std::string_view text, const std::string& file) {
  std::vector<internal::ParsedDocument> docs;
  const auto keep = [&docs](internal::ParsedDocument&& doc) { docs.push_back(std::move(doc)); };
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  try {
    if (first != std::string_view::npos && (text[first] == '{' || text[first] == '[')) {
      internal::ParseJsonStream(text, keep);
    } else {
      internal::ParseYamlDocuments(text, 0, keep);
    }
  } catch (const std::exception& e) {
    return SpecError(file, 0, fmt::format("internal error: {}", e.what()));
  }
  const internal::ParsedDocument* spec_doc = nullptr;
  for (const internal::ParsedDocument& doc : docs) {
    if (!doc.ok) return SpecError(file, doc.error.line, doc.error.message);
    if (TreeView(doc.tree, 0).type() == NodeType::kNull) continue;
    if (spec_doc != nullptr) {
      return SpecError(file, doc.line, "a Sweep spec is one document; this file has more");
    }
    spec_doc = &doc;
  }
  if (spec_doc == nullptr) return SpecError(file, 0, "empty: a Sweep spec is expected");
  try {
    SweepSpec spec = DecodeSweep(TreeView(spec_doc->tree, 0), Path{});
    spec.file = file;
    NoteLines(TreeView(spec_doc->tree, 0), Path{}, spec.lines);
    return spec;
  } catch (const DecodeFailure& failure) {
    return SpecError(file, failure.line,
                     failure.field.empty() ? failure.message
                                           : fmt::format("{}: {}", failure.field, failure.message));
  }
}

Expected<SweepSpec> ReadSweepSpec(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return SpecError(path, 0, "is a directory; a Sweep spec is one file");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return SpecError(path, 0, ec.message());
  if (size > kMaxSpecBytes) {
    return SpecError(path, 0, fmt::format("{} bytes: a Sweep spec is at most {} bytes", size, kMaxSpecBytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return SpecError(path, 0, "cannot be read");
  return ParseSweepSpec(text.str(), path);
}

}  // namespace kpsim::io
