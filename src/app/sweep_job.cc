// `kpsim sweep --emit-job` (sweep.h): the spec and its files as a ConfigMap, the sweep's shards as
// the pods of an Indexed Job.

#include "app/sweep.h"
#include "app/run.h"
#include "app/sweep_json.h"

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kpsim::app {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// A file the Job's pods need: where it lies here and where it goes under /sweep.
struct ShipFile {
  std::string local;
  fs::path rel;  // relative to the spec's directory, normalised (may start with "..")
};

// Lists a directory's manifest files as io::ReadManifests walks it: its .yaml/.yml/.json files in
// bytewise name order, then its subdirectories in bytewise name order, hidden entries skipped,
// each directory once.
Result ListDirectory(const fs::path& dir, const fs::path& rel, std::set<std::string>& visited,
                     std::vector<ShipFile>& out) {
  std::error_code ec;
  const std::string canonical = fs::canonical(dir, ec).string();
  if (ec) return UsageError(fmt::format("{}: {}", dir.string(), ec.message()));
  if (!visited.insert(canonical).second) return {};
  std::vector<std::string> files;
  std::vector<std::string> dirs;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code type_ec;
    if (it->is_directory(type_ec)) {
      dirs.push_back(name);
    } else if (const std::string ext = it->path().extension().string();
               it->is_regular_file(type_ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json")) {
      files.push_back(name);
    }
  }
  if (ec) return UsageError(fmt::format("{}: {}", dir.string(), ec.message()));
  std::sort(files.begin(), files.end());
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& f : files) out.push_back(ShipFile{(dir / f).string(), (rel / f).lexically_normal()});
  for (const std::string& d : dirs) KPSIM_RETURN_IF_ERROR(ListDirectory(dir / d, rel / d, visited, out));
  return {};
}

bool ValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80) {
      n = 0;
    } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
      n = 1;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
    } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
      n = 3;
    } else {
      return false;
    }
    if (n > 0 && i + n >= s.size()) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n + 1;
  }
  return true;
}

// A YAML double-quoted scalar (a JSON string is one).
std::string Quote(std::string_view s) { return DumpLine(Json(std::string(s))); }

// A ConfigMap value: a literal block when the text reads back exactly as one (ends in one
// newline, no carriage returns or other control characters, no line of blanks only, first line
// not indented), else a double-quoted scalar. `indent`: the block's indentation.
std::string YamlText(const std::string& text, const std::string& indent) {
  bool block = !text.empty() && text.back() == '\n' && (text.size() < 2 || text[text.size() - 2] != '\n') &&
               text[0] != ' ' && text[0] != '\n';
  for (std::size_t i = 0; block && i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) block = false;
  }
  for (std::size_t start = 0; block && start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    if (!line.empty() && line.find_first_not_of(" \t") == std::string_view::npos) block = false;
    start = end + 1;
  }
  if (text.starts_with("\xEF\xBB\xBF")) block = false;
  if (!block) return Quote(text) + "\n";
  std::string out = "|\n";
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    const std::string_view line(text.data() + start, end - start);
    out += line.empty() ? "\n" : indent + std::string(line) + "\n";
    start = end + 1;
  }
  return out;
}

// A ConfigMap key from a file name: [-._a-zA-Z0-9]+.
std::string Key(std::size_t index, const fs::path& rel) {
  std::string name = rel.filename().string();
  for (char& ch : name) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                    ch == '.' || ch == '_';
    if (!ok) ch = '_';
  }
  return fmt::format("f{:03}-{}", index, name.substr(0, 200));
}

bool Dns1123Label(std::string_view s) {
  if (s.empty() || s.size() > 63 || s.front() == '-' || s.back() == '-') return false;
  return std::all_of(s.begin(), s.end(), [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-'; });
}

}  // namespace

Expected<std::string> EmitSweepJob(const io::SweepSpec& spec, const SweepJobOptions& options) {
  const std::string base = "kpsim-sweep-" + spec.name;
  if (!Dns1123Label(spec.name) || base.size() > 52) {
    return UsageError(fmt::format("{}: metadata.name: \"{}\" cannot name the Job {}: use lowercase letters, digits "
                                  "and '-' (at most 40 characters)",
                                  spec.file, spec.name, base));
  }
  if (!spec.namespace_.empty() && !Dns1123Label(spec.namespace_)) {
    return UsageError(fmt::format("{}: metadata.namespace: \"{}\" is not a namespace name", spec.file, spec.namespace_));
  }
  if (options.image.empty()) return UsageError("--emit-job needs --image IMAGE (an image with kpsim on its PATH)");
  const int parallelism = options.parallelism > 0 ? options.parallelism : options.shards;
  // 1) The files: the spec, then each input's paths, each overlay's `add` and the files settings
  // name (nodeTemplate=FILE), as the runs read them.
  std::vector<ShipFile> files;
  const auto add_path = [&spec, &files](const std::string& field, const std::string& path) -> Result {
    if (fs::path(path).is_absolute()) {
      return UsageError(fmt::format("{}: {}: \"{}\" is absolute; --emit-job ships files by their path relative to "
                                    "the spec: write it relative",
                                    spec.file, field, path));
    }
    const std::string local = SweepPath(spec, path);
    std::error_code ec;
    if (fs::is_directory(local, ec)) {
      // Each path walked on its own: a directory two paths reach under different names (a
      // symlink) must exist under both in the pods; the same file twice is placed once below.
      std::set<std::string> visited;
      return ListDirectory(local, fs::path(path), visited, files);
    }
    if (!fs::exists(local, ec)) return UsageError(fmt::format("{}: {}: {}: no such file or directory", spec.file, field, local));
    files.push_back(ShipFile{local, fs::path(path).lexically_normal()});
    return {};
  };
  const fs::path spec_name = fs::path(spec.file).filename();
  files.push_back(ShipFile{spec.file, spec_name});
  for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
    for (std::size_t j = 0; j < spec.inputs[i].paths.size(); ++j) {
      KPSIM_RETURN_IF_ERROR(add_path(fmt::format("spec.inputs[{}].paths[{}]", i, j), spec.inputs[i].paths[j]));
    }
  }
  for (std::size_t i = 0; i < spec.overlays.size(); ++i) {
    for (std::size_t j = 0; j < spec.overlays[i].add.size(); ++j) {
      KPSIM_RETURN_IF_ERROR(add_path(fmt::format("spec.overlays[{}].add[{}]", i, j), spec.overlays[i].add[j]));
    }
  }
  for (std::size_t i = 0; i < spec.settings.size(); ++i) {
    if (const std::optional<std::string> path = SweepSettingPath(spec.settings[i])) {
      KPSIM_RETURN_IF_ERROR(add_path(fmt::format("spec.settings[{}]", i), *path));
    }
  }
  // 2) Where they go: the spec's directory is /sweep/<up>, where <up> is as many of its own last
  // directory names as the paths climb out of it with "..", so that every path stays below /sweep.
  std::size_t climb = 0;
  for (const ShipFile& f : files) {
    std::size_t up = 0;
    for (const fs::path& part : f.rel) {
      if (part != "..") break;
      ++up;
    }
    climb = std::max(climb, up);
  }
  fs::path up;
  // What an image must hold instead of the ConfigMap: the spec's directory, or the directory its
  // "../" paths climb to.
  std::string bake = "the spec's directory";
  if (climb > 0) {
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(spec.file), ec).parent_path().lexically_normal();
    std::vector<fs::path> parts(dir.begin(), dir.end());
    // parts[0] is the root "/"; the names above it are what "../" climbs over.
    if (ec || parts.size() < climb + 1) {
      return UsageError(fmt::format("{}: the paths climb above the root directory", spec.file));
    }
    fs::path top;
    for (std::size_t k = 0; k < parts.size() - climb; ++k) top /= parts[k];
    for (std::size_t k = parts.size() - climb; k < parts.size(); ++k) up /= parts[k];
    bake = fmt::format("{}, which the spec's ../ paths climb to,", top.string());
  }
  // 3) The ConfigMap's entries, each file once, and its size against the ConfigMap's limit.
  struct Entry {
    std::string key;
    std::string path;  // under /sweep
    std::string text;
  };
  std::vector<Entry> entries;
  std::set<std::string> placed;
  std::size_t bytes = 0;
  constexpr std::size_t kConfigMapLimit = std::size_t{1} << 20;  // 1 MiB: keys and values together
  for (const ShipFile& f : files) {
    const std::string path = (up / f.rel).lexically_normal().generic_string();
    if (!placed.insert(path).second) continue;
    std::ifstream in(f.local, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) return UsageError(fmt::format("{}: cannot be read", f.local));
    Entry e{Key(entries.size(), f.rel), path, text.str()};
    if (!ValidUtf8(e.text)) {
      return UsageError(fmt::format("{}: not UTF-8 text, which a ConfigMap's data holds; bake the files into the "
                                    "image instead (copy {} into it, keeping its layout)",
                                    f.local, bake));
    }
    bytes += e.key.size() + e.text.size();
    entries.push_back(std::move(e));
  }
  if (bytes > kConfigMapLimit) {
    return UsageError(fmt::format(
        "the spec and its {} files come to {} bytes, more than a ConfigMap holds ({} bytes); bake them into the "
        "image instead (copy {} into it, keeping its layout, and run kpsim sweep SPEC --shards N there as the "
        "Job's command)",
        entries.size(), bytes, kConfigMapLimit, bake));
  }
  const std::string spec_path = "/sweep/" + (up / spec_name).generic_string();
  // 4) The YAML.
  std::string meta_ns = spec.namespace_.empty() ? "" : fmt::format("  namespace: {}\n", spec.namespace_);
  const std::string labels = fmt::format("    app.kubernetes.io/name: kpsim-sweep\n    kpsim.io/sweep: {}\n", spec.name);
  std::string out;
  out += fmt::format("# kpsim sweep --emit-job: sweep {} ({} runs) as {} shard{} of an Indexed Job.\n", spec.name,
                     SweepRunCount(spec, kMaxSweepRuns), options.shards, options.shards == 1 ? "" : "s");
  // kubectl's client-side apply copies the object into its last-applied-configuration annotation,
  // which the API server caps at 256 KiB: a ConfigMap of up to 1 MiB goes in with create.
  out += "# Create it with kubectl create -f (or kubectl apply --server-side): a client-side apply fails once\n"
         "# the ConfigMap passes 256 KiB (metadata.annotations: Too long).\n";
  out += options.results_claim.empty()
             ? "# Each pod prints its shard's lines: kubectl logs, then kpsim sweep merge (see the README).\n"
             : fmt::format("# Each pod writes /results/shard-<index>.jsonl on the claim {}; then kpsim sweep merge.\n",
                           options.results_claim);
  out += "apiVersion: v1\nkind: ConfigMap\nmetadata:\n";
  out += fmt::format("  name: {}\n", base) + meta_ns + "  labels:\n" + labels + "data:\n";
  for (const Entry& e : entries) out += fmt::format("  {}: {}", e.key, YamlText(e.text, "    "));
  out += "---\napiVersion: batch/v1\nkind: Job\nmetadata:\n";
  out += fmt::format("  name: {}\n", base) + meta_ns + "  labels:\n" + labels;
  out += "spec:\n  completionMode: Indexed\n";
  out += fmt::format("  completions: {}\n  parallelism: {}\n", options.shards, parallelism);
  out += "  template:\n    metadata:\n      labels:\n" +
         fmt::format("        app.kubernetes.io/name: kpsim-sweep\n        kpsim.io/sweep: {}\n", spec.name);
  out += "    spec:\n      restartPolicy: Never\n      containers:\n      - name: kpsim\n";
  out += fmt::format("        image: {}\n", Quote(options.image));
  out += "        command: [\"kpsim\"]\n";
  std::vector<std::string> args{"sweep", spec_path, "--shards", std::to_string(options.shards), "--jobs", "1"};
  if (options.results_claim.empty()) {
    args.push_back("--quiet");  // stdout is the result: keep the log free of diagnostics
  } else {
    args.insert(args.end(), {"--results", "/results/shard-$(JOB_COMPLETION_INDEX).jsonl"});
  }
  std::string joined;
  for (const std::string& a : args) joined += (joined.empty() ? "" : ", ") + Quote(a);
  out += "        args: [" + joined + "]\n";
  out += "        env:\n        - name: JOB_COMPLETION_INDEX\n          valueFrom:\n            fieldRef:\n"
         "              fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']\n";
  out += "        resources:\n          requests:\n            cpu: \"1\"\n";
  out += "        volumeMounts:\n        - name: sweep\n          mountPath: /sweep\n          readOnly: true\n";
  if (!options.results_claim.empty()) out += "        - name: results\n          mountPath: /results\n";
  out += "      volumes:\n      - name: sweep\n        configMap:\n";
  out += fmt::format("          name: {}\n          items:\n", base);
  for (const Entry& e : entries) out += fmt::format("          - key: {}\n            path: {}\n", e.key, Quote(e.path));
  if (!options.results_claim.empty()) {
    out += fmt::format("      - name: results\n        persistentVolumeClaim:\n          claimName: {}\n",
                       Quote(options.results_claim));
  }
  return out;
}

}  // namespace kpsim::app