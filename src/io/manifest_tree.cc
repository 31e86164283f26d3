// Builds `Tree`s from libyaml events (YAML) and simdjson On-Demand (JSON). See manifest_tree.h.

#include "io/manifest_tree.h"

#include <yaml.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include "fmt/format.h"
#include "io/manifest_node.h"
#include "nlohmann/json.hpp"
#include "simdjson.h"

namespace kpsim::io::internal {

ReadLimits& Limits() {
  // Per thread: kpsim serve reads requests on several workers at once, each with its own scope.
  thread_local ReadLimits limits;
  return limits;
}

// Appends nodes in document order; keeps the stack of open collections, alias expansion counts,
// and the first duplicate key (reported once the document is complete, so the message can name
// the object around it).
class TreeBuilder {
 public:
  struct Stats {
    std::uint64_t expanded = 1;  // nodes in the subtree, aliases expanded
    int height = 0;              // collection levels below and including this node
  };

  // `depth_offset`: the levels above the tree's root (an item streamed out of a List: 2).
  TreeBuilder(Tree& tree, bool yaml, int depth_offset = 0)
      : tree_(tree), depth_offset_(depth_offset) {
    tree_.yaml_ = yaml;
    tree_.nodes_.clear();
    tree_.arena_.clear();
  }

  // Strings inside `source` are referred to, not copied (JSON; REQUIRES: under 2 GiB).
  void SetSource(std::string_view source) { tree_.source_ = source; }

  // Room for a document of about `bytes` bytes (reserved, not touched).
  void Reserve(std::size_t bytes) {
    tree_.nodes_.reserve(bytes / 16 + 16);
    tree_.arena_.reserve(bytes / 2 + 16);
  }

  int depth() const { return static_cast<int>(open_.size()) + depth_offset_; }
  // Collections open in this tree.
  int open() const { return static_cast<int>(open_.size()); }
  // The key of the next entry of the open mapping, once set.
  std::string_view pending_key() const {
    const Frame& f = open_.back();
    return tree_.str(f.key_off, f.key_len);
  }
  bool expecting_key() const {
    return !open_.empty() && open_.back().map && open_.back().expect_key;
  }

  // The key of the next node of the open mapping.
  void SetKey(std::string_view key, std::uint32_t line) {
    Frame& f = open_.back();
    f.key_off = Append(key);
    f.key_len = static_cast<std::uint32_t>(key.size());
    f.key_line = line;
    f.expect_key = false;
  }

  std::uint32_t AddScalar(NodeType type, ScalarType scalar, std::string_view text,
                          std::uint32_t line) {
    const std::uint32_t i = Add(type, line);
    TreeNode& n = tree_.nodes_[i];
    n.scalar = scalar;
    n.text_off = Append(text);
    n.text_len = static_cast<std::uint32_t>(text.size());
    Count(Stats{});
    return i;
  }

  // An alias of the closed node `target` with `stats`. Returns an error message if it nests too
  // deep or expands past the document's alias budget.
  std::optional<std::string> AddAlias(std::uint32_t target, const Stats& stats,
                                      std::uint32_t line) {
    if (depth() + stats.height > Limits().max_depth) {
      return fmt::format("nesting is deeper than {} levels (through an alias)",
                         Limits().max_depth);
    }
    alias_nodes_ += stats.expanded;
    if (alias_nodes_ > Limits().max_alias_nodes) {
      return fmt::format(
          "document contains excessive aliasing: aliases expand to more than {} nodes",
          Limits().max_alias_nodes);
    }
    const std::uint32_t i = Add(tree_.nodes_[target].type, line);
    TreeNode& n = tree_.nodes_[i];
    n.flags = TreeNode::kAlias;
    n.first_child = target;
    Count(stats);
    return std::nullopt;
  }

  // Opens a mapping or sequence. `detached`: a complex mapping key, kept out of the tree.
  // Returns false when that would nest deeper than the limit.
  bool Open(NodeType type, std::uint32_t line, bool detached = false) {
    if (depth() >= Limits().max_depth) return false;
    std::uint32_t i;
    if (detached) {
      i = static_cast<std::uint32_t>(tree_.nodes_.size());
      tree_.nodes_.emplace_back();
      tree_.nodes_.back().type = type;
      tree_.nodes_.back().line = line;
    } else {
      i = Add(type, line);
    }
    Frame f;
    f.index = i;
    f.map = type == NodeType::kMap;
    f.detached = detached;
    open_.push_back(f);
    return true;
  }

  // Closes the innermost collection; returns its stats.
  Stats Close() {
    Frame f = open_.back();
    open_.pop_back();
    if (f.map && !duplicate_) CheckDuplicates(f.index);
    Stats s{1 + f.expanded, f.height + 1};
    if (f.detached) {
      if (!open_.empty()) SetKey({}, 0);
    } else {
      Count(s);
    }
    return s;
  }

  // The first duplicate key: the mapping, the repeated entry and the first one.
  struct Duplicate {
    std::uint32_t map = 0;
    std::uint32_t first = 0;
    std::uint32_t second = 0;
  };
  const std::optional<Duplicate>& duplicate() const { return duplicate_; }

  // Where the duplicate is, as "Kind ns/name: field.path: " (the parts known), for messages.
  std::string DuplicateContext() const;

 private:
  struct Frame {
    std::uint32_t index = 0;
    std::uint32_t last_child = TreeNode::kNone;
    std::uint32_t key_off = 0;
    std::uint32_t key_len = 0;
    std::uint32_t key_line = 0;
    std::uint64_t expanded = 0;
    int height = 0;
    bool map = false;
    bool expect_key = true;
    bool detached = false;
  };

  std::uint32_t Append(std::string_view s) {
    const std::string_view src = tree_.source_;
    if (!s.empty() && s.data() >= src.data() && s.data() + s.size() <= src.data() + src.size()) {
      return static_cast<std::uint32_t>(s.data() - src.data()) | Tree::kInSource;
    }
    const auto off = static_cast<std::uint32_t>(tree_.arena_.size());
    tree_.arena_.append(s);
    return off;
  }

  std::uint32_t Add(NodeType type, std::uint32_t line) {
    const auto i = static_cast<std::uint32_t>(tree_.nodes_.size());
    tree_.nodes_.emplace_back();
    TreeNode& n = tree_.nodes_.back();
    n.type = type;
    n.line = line;
    if (!open_.empty()) {
      Frame& parent = open_.back();
      if (parent.map) {
        n.key_off = parent.key_off;
        n.key_len = parent.key_len;
        n.key_line = parent.key_line;
        parent.key_len = 0;
        parent.expect_key = true;
      }
      if (parent.last_child == TreeNode::kNone) {
        tree_.nodes_[parent.index].first_child = i;
      } else {
        tree_.nodes_[parent.last_child].next_sibling = i;
      }
      parent.last_child = i;
    }
    return i;
  }

  void Count(const Stats& s) {
    if (open_.empty()) return;
    open_.back().expanded += s.expanded;
    open_.back().height = std::max(open_.back().height, s.height);
  }

  void CheckDuplicates(std::uint32_t map) {
    std::vector<std::uint32_t> children;
    for (std::uint32_t c = tree_.nodes_[map].first_child; c != TreeNode::kNone;
         c = tree_.nodes_[c].next_sibling) {
      children.push_back(c);
    }
    const auto key = [&](std::uint32_t c) { return tree_.key(tree_.nodes_[c]); };
    if (children.size() <= 16) {
      for (std::size_t b = 1; b < children.size(); ++b) {
        for (std::size_t a = 0; a < b; ++a) {
          if (key(children[a]) == key(children[b])) {
            duplicate_ = Duplicate{map, children[a], children[b]};
            return;
          }
        }
      }
      return;
    }
    std::stable_sort(children.begin(), children.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
    for (std::size_t b = 1; b < children.size(); ++b) {
      if (key(children[b - 1]) == key(children[b])) {
        const std::uint32_t first = std::min(children[b - 1], children[b]);
        const std::uint32_t second = std::max(children[b - 1], children[b]);
        if (!duplicate_ || second < duplicate_->second) duplicate_ = Duplicate{map, first, second};
      }
    }
  }

  Tree& tree_;
  int depth_offset_ = 0;
  std::vector<Frame> open_;
  std::uint64_t alias_nodes_ = 0;
  std::optional<Duplicate> duplicate_;
};

namespace {

// The child of map `m` at `key`, resolved through aliases.
const TreeNode* Child(const Tree& t, const TreeNode& m, std::string_view key) {
  if (m.type != NodeType::kMap) return nullptr;
  for (std::uint32_t c = m.first_child; c != TreeNode::kNone; c = t.node(c).next_sibling) {
    if (t.key(t.node(c)) == key) return &t.resolved(c);
  }
  return nullptr;
}

std::string_view ChildText(const Tree& t, const TreeNode* m, std::string_view key) {
  if (m == nullptr) return {};
  const TreeNode* c = Child(t, *m, key);
  if (c == nullptr || c->type != NodeType::kScalar) return {};
  return t.text(*c);
}

}  // namespace

std::string TreeBuilder::DuplicateContext() const {
  // The chain root -> ... -> the mapping holding the duplicate, found by descent (nodes are in
  // document order, so a node's subtree is the index range up to its next sibling).
  const Tree& t = tree_;
  const std::uint32_t target = duplicate_->map;
  std::vector<std::uint32_t> chain{0};
  while (chain.back() != target) {
    std::uint32_t next = TreeNode::kNone;
    for (std::uint32_t c = t.node(chain.back()).first_child; c != TreeNode::kNone;
         c = t.node(c).next_sibling) {
      if (c > target) break;
      next = c;
    }
    if (next == TreeNode::kNone || (t.node(next).flags & TreeNode::kAlias) != 0) break;
    chain.push_back(next);
  }
  // The innermost object (a mapping with `kind`) on the chain names the message.
  std::size_t object = chain.size();
  for (std::size_t i = chain.size(); i-- > 0;) {
    if (!ChildText(t, &t.node(chain[i]), "kind").empty()) {
      object = i;
      break;
    }
  }
  std::string out;
  std::size_t field_from = 1;
  if (object < chain.size()) {
    const TreeNode& o = t.node(chain[object]);
    const TreeNode* meta = Child(t, o, "metadata");
    const std::string_view ns = ChildText(t, meta, "namespace");
    const std::string_view name = ChildText(t, meta, "name");
    out = std::string(ChildText(t, &o, "kind"));
    if (!name.empty()) {
      out += ' ';
      if (!ns.empty()) out += fmt::format("{}/", ns);
      out += name;
    }
    out += ": ";
    field_from = object + 1;
  }
  std::string field;
  for (std::size_t i = field_from; i < chain.size(); ++i) {
    const TreeNode& parent = t.node(chain[i - 1]);
    if (parent.type == NodeType::kMap) {
      if (!field.empty()) field += '.';
      field += t.key(t.node(chain[i]));
    } else {
      int index = 0;
      for (std::uint32_t c = parent.first_child; c != chain[i]; c = t.node(c).next_sibling) {
        ++index;
      }
      field += fmt::format("[{}]", index);
    }
  }
  if (!field.empty()) out += field + ": ";
  return out;
}

// --- YAML ------------------------------------------------------------------------------------

namespace {

constexpr std::string_view kYamlTagPrefix = "tag:yaml.org,2002:";

// Types a plain scalar as go-yaml v2's resolve() does (for the subset manifest_node.h documents).
std::pair<NodeType, ScalarType> ResolvePlain(std::string_view s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") {
    return {NodeType::kNull, ScalarType::kString};
  }
  if (YamlBool(s)) return {NodeType::kScalar, ScalarType::kBool};
  if (IsYamlIntSyntax(s)) return {NodeType::kScalar, ScalarType::kInt};
  if (IsYamlFloat(s)) return {NodeType::kScalar, ScalarType::kFloat};
  return {NodeType::kScalar, ScalarType::kString};
}

std::pair<NodeType, ScalarType> ScalarKind(const yaml_event_t& e, std::string_view value) {
  const char* tag = reinterpret_cast<const char*>(e.data.scalar.tag);
  if (tag != nullptr) {
    // An explicit core tag types the value; any other tag (and `!`) keeps it a string.
    std::string_view t(tag);
    if (t.starts_with(kYamlTagPrefix)) {
      t.remove_prefix(kYamlTagPrefix.size());
      if (t == "null") return {NodeType::kNull, ScalarType::kString};
      if (t == "int" || t == "bool" || t == "float") return ResolvePlain(value);
    }
    return {NodeType::kScalar, ScalarType::kString};
  }
  if (e.data.scalar.style != YAML_PLAIN_SCALAR_STYLE) return {NodeType::kScalar, ScalarType::kString};
  return ResolvePlain(value);
}

struct Anchor {
  std::uint32_t index = 0;
  TreeBuilder::Stats stats;
  bool closed = false;
};

class YamlParser {
 public:
  YamlParser(std::string_view text, int first_line) : text_(text), first_line_(first_line) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
  }
  ~YamlParser() { yaml_parser_delete(&parser_); }
  YamlParser(const YamlParser&) = delete;
  YamlParser& operator=(const YamlParser&) = delete;

  void Run(const std::function<void(ParsedDocument&&)>& f, ItemStream* stream) {
    std::optional<ParsedDocument> doc;
    std::optional<TreeBuilder> builder;
    std::unordered_map<std::string, Anchor> anchors;
    std::vector<std::string> open_anchors;  // anchor name per open collection ("" if none)
    // Streaming (`stream`): the root mapping's `items` go one by one into `item`.
    bool items_seen = false;   // the root mapping's `items` sequence was reached
    bool streaming = false;    // ... and its items are being streamed
    bool streamed = false;     // ... and were streamed, in this document
    Tree item;
    std::optional<TreeBuilder> item_builder;  // set while an item is being built
    for (;;) {
      Event e;
      if (!yaml_parser_parse(&parser_, &e.event)) {
        ParsedDocument failed;
        failed.ok = false;
        failed.error.line = Line(parser_.problem_mark);
        std::string what = parser_.problem != nullptr ? parser_.problem : "invalid YAML";
        if (parser_.context != nullptr) what = fmt::format("{} {}", parser_.context, what);
        failed.error.message = fmt::format("YAML syntax error: {}", what);
        f(std::move(failed));
        return;
      }
      const yaml_event_t& ev = e.event;
      const std::uint32_t line = Line(ev.start_mark);
      std::optional<std::string> error;
      // A new item of the streamed `items` starts with this event.
      if (streaming && !item_builder && builder->open() == 2 &&
          (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_ALIAS_EVENT ||
           ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT)) {
        item_builder.emplace(item, true, 2);
      }
      // Aliases may name nodes of items already handed over: not streamable.
      if (streaming && (ev.type == YAML_ALIAS_EVENT ||
                        (ev.type == YAML_SCALAR_EVENT && ev.data.scalar.anchor != nullptr) ||
                        (ev.type == YAML_MAPPING_START_EVENT &&
                         ev.data.mapping_start.anchor != nullptr) ||
                        (ev.type == YAML_SEQUENCE_START_EVENT &&
                         ev.data.sequence_start.anchor != nullptr))) {
        stream->bailed = true;
        return;
      }
      TreeBuilder* b = item_builder ? &*item_builder : builder ? &*builder : nullptr;
      Tree* tree = item_builder ? &item : doc ? &doc->tree : nullptr;
      switch (ev.type) {
        case YAML_STREAM_START_EVENT:
          break;
        case YAML_STREAM_END_EVENT:
          return;
        case YAML_DOCUMENT_START_EVENT:
          doc.emplace();
          doc->line = static_cast<int>(line);
          builder.emplace(doc->tree, true);
          anchors.clear();
          open_anchors.clear();
          items_seen = false;
          streaming = false;
          streamed = false;
          break;
        case YAML_DOCUMENT_END_EVENT:
          if (builder->duplicate()) {
            const TreeBuilder::Duplicate& d = *builder->duplicate();
            const TreeNode& second = doc->tree.node(d.second);
            doc->ok = false;
            doc->error.line = static_cast<int>(second.key_line);
            doc->error.message = fmt::format(
                "{}mapping key \"{}\" already defined at line {}", builder->DuplicateContext(),
                doc->tree.key(second), doc->tree.node(d.first).key_line);
          }
          doc->streamed = streamed;
          if (!doc->ok || doc->tree.size() > 0) f(std::move(*doc));
          doc.reset();
          builder.reset();
          break;
        case YAML_ALIAS_EVENT: {
          const std::string name = reinterpret_cast<const char*>(ev.data.alias.anchor);
          const auto it = anchors.find(name);
          if (it == anchors.end()) {
            error = fmt::format("unknown anchor \"{}\" referenced", name);
          } else if (!it->second.closed) {
            error = fmt::format("anchor \"{}\" value contains itself", name);
          } else if (b->expecting_key()) {
            const TreeNode& target = tree->node(it->second.index);
            b->SetKey(target.type == NodeType::kScalar ? std::string(tree->text(target))
                                                       : std::string(),
                      line);
          } else {
            error = b->AddAlias(it->second.index, it->second.stats, line);
          }
          break;
        }
        case YAML_SCALAR_EVENT: {
          const std::string_view value(reinterpret_cast<const char*>(ev.data.scalar.value),
                                       ev.data.scalar.length);
          if (b->expecting_key()) {
            b->SetKey(value, line);
            break;
          }
          const auto [type, scalar] = ScalarKind(ev, value);
          const std::uint32_t i = b->AddScalar(type, scalar, value, line);
          if (ev.data.scalar.anchor != nullptr) {
            anchors[reinterpret_cast<const char*>(ev.data.scalar.anchor)] =
                Anchor{i, TreeBuilder::Stats{}, true};
          }
          break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
          const bool map = ev.type == YAML_MAPPING_START_EVENT;
          const unsigned char* anchor =
              map ? ev.data.mapping_start.anchor : ev.data.sequence_start.anchor;
          const bool key = b->expecting_key();
          const auto index = static_cast<std::uint32_t>(tree->size());
          // The root mapping's `items` (the first: a second one is a duplicate key).
          const bool items = stream != nullptr && !map && !key && !item_builder &&
                             !items_seen && builder->open() == 1 &&
                             doc->tree.node(0).type == NodeType::kMap &&
                             builder->pending_key() == "items";
          if (!b->Open(map ? NodeType::kMap : NodeType::kSeq, line, key)) {
            error = fmt::format("nesting is deeper than {} levels", Limits().max_depth);
            break;
          }
          open_anchors.emplace_back(anchor != nullptr ? reinterpret_cast<const char*>(anchor)
                                                      : "");
          if (anchor != nullptr) anchors[open_anchors.back()] = Anchor{index, {}, false};
          if (items) {
            items_seen = true;
            streaming = streamed = anchors.empty() && stream->plan(doc->tree, false);
          }
          break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: {
          const TreeBuilder::Stats stats = b->Close();
          if (!open_anchors.back().empty()) {
            Anchor& a = anchors[open_anchors.back()];
            a.stats = stats;
            a.closed = true;
          }
          open_anchors.pop_back();
          if (streaming && !item_builder && builder->open() == 1) streaming = false;
          break;
        }
        case YAML_NO_EVENT:
          break;
      }
      if (error) {
        ParsedDocument failed;
        failed.ok = false;
        failed.error.line = static_cast<int>(line);
        failed.error.message = *error;
        f(std::move(failed));
        return;
      }
      if (item_builder && item_builder->open() == 0 && item.size() > 0) {
        // The item is complete. A duplicate key is reported by the reading without streaming,
        // which names the object around it.
        if (item_builder->duplicate()) {
          stream->bailed = true;
          return;
        }
        item_builder.reset();
        stream->item(item);
      }
    }
  }

 private:
  struct Event {
    // Not zeroed here: yaml_parser_parse clears the event first thing (a hot path: one per node).
    yaml_event_t event;
    Event() = default;
    ~Event() { yaml_event_delete(&event); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
  };

  std::uint32_t Line(const yaml_mark_t& mark) const {
    return static_cast<std::uint32_t>(mark.line) + 1 + static_cast<std::uint32_t>(first_line_);
  }

  yaml_parser_t parser_{};
  std::string_view text_;
  int first_line_ = 0;
};

}  // namespace

void ParseYamlDocuments(std::string_view text, int first_line,
                        const std::function<void(ParsedDocument&&)>& f, ItemStream* items) {
  YamlParser(text, first_line).Run(f, items);
}

// --- JSON ------------------------------------------------------------------------------------

namespace {

namespace od = simdjson::ondemand;

// RFC 8259's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?. Sets `integer` when
// there is neither fraction nor exponent.
bool IsJsonNumber(std::string_view s, bool& integer) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return false;
  }
  integer = true;
  if (i < s.size() && s[i] == '.') {
    ++i;
    integer = false;
    if (digits() == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    integer = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' ||
                        s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Accepts every event; remembers where the first error is (nlohmann reports byte positions and
// readable messages, simdjson neither: used only once simdjson has refused a document).
struct ErrorFinder : nlohmann::json_sax<nlohmann::json> {
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    byte = position;
    message = ex.what();
    const std::size_t bracket = message.find("] ");
    if (message.starts_with("[json.exception") && bracket != std::string::npos) {
      message = message.substr(bracket + 2);
    }
    // "parse error at line 1, column 5: ..." counts from the document start: the reader names
    // the file line itself.
    if (message.starts_with("parse error at line ")) {
      const std::size_t colon = message.find(": ");
      if (colon != std::string::npos) message = message.substr(colon + 2);
    }
    return false;
  }
  std::size_t byte = 0;
  std::string message;
};

class JsonParser {
 public:
  static_assert(kJsonPadding >= simdjson::SIMDJSON_PADDING);
  explicit JsonParser(std::string_view text) : text_(text) {}

  void Run(const std::function<void(ParsedDocument&&)>& f, bool padded, ItemStream* items) {
    padded_ = padded;
    stream_ = items;
    simdjson::padded_string copy;
    if (!padded) copy = simdjson::padded_string(text_);
    base_ = padded ? text_.data() : copy.data();
    od::parser parser;
    od::document_stream stream;
    const std::size_t batch =
        std::max<std::size_t>(text_.size(), simdjson::dom::MINIMAL_BATCH_SIZE);
    if (auto error = parser.iterate_many(base_, text_.size(), batch).get(stream);
        error != simdjson::SUCCESS) {
      Fail(f, 0, error);
      return;
    }
    int count = 0;
    for (auto it = stream.begin(); it != stream.end(); ++it) {
      const std::size_t start = it.current_index();
      ParsedDocument doc;
      doc.line = LineAt(start);
      od::document_reference ref;
      simdjson::error_code error = (*it).get(ref);
      streaming_ = false;
      if (error == simdjson::SUCCESS && stream_ != nullptr) {
        // A root mapping with `items`: a pre-scan of its entries (the values skipped) lets the
        // caller decide whether to stream them before any is read.
        od::json_type type;
        if (ref.type().get(type) == simdjson::SUCCESS && type == od::json_type::object) {
          const std::string_view source = count == 0 ? it.source() : std::string_view();
          const bool followed =
              count > 0 ||
              !TrimRight(text_.substr(std::min(start + source.size(), text_.size()))).empty();
          const std::size_t saved_offset = line_offset_;
          const std::uint32_t saved_line = line_;
          bool has_items = false;
          if (PreScan(ref, doc.tree, has_items) != simdjson::SUCCESS) {
            stream_->bailed = true;
            return;
          }
          line_offset_ = saved_offset;
          line_ = saved_line;
          streaming_ = has_items && stream_->plan(doc.tree, followed);
          ref.rewind();
        }
      }
      TreeBuilder builder(doc.tree, false);
      if (!streaming_) builder.Reserve(text_.size() - std::min(start, text_.size()));
      if (padded_ && text_.size() < Tree::kInSource) builder.SetSource(text_);
      builder_ = root_builder_ = &builder;
      if (error == simdjson::SUCCESS) error = Document(ref);
      builder_ = nullptr;
      if (bailed_) {
        stream_->bailed = true;
        return;
      }
      doc.streamed = streaming_;
      if (error != simdjson::SUCCESS) {
        Fail(f, start, error);
        return;
      }
      if (builder.duplicate()) {
        const TreeNode& second = doc.tree.node(builder.duplicate()->second);
        doc.ok = false;
        doc.error.line = static_cast<int>(second.key_line);
        doc.error.message = fmt::format("{}duplicate field \"{}\"", builder.DuplicateContext(),
                                        doc.tree.key(second));
      }
      ++count;
      f(std::move(doc));
    }
    if (stream.truncated_bytes() > 0 || (count == 0 && !TrimRight(text_).empty())) {
      Fail(f, text_.size() - std::min(stream.truncated_bytes(), text_.size()),
           simdjson::INCOMPLETE_ARRAY_OR_OBJECT);
    }
  }

 private:
  std::uint32_t LineAt(std::size_t offset) {
    offset = std::min(offset, text_.size());
    if (offset < line_offset_) {  // only on error paths: count afresh
      line_offset_ = 0;
      line_ = 1;
    }
    line_ += static_cast<std::uint32_t>(
        std::count(text_.begin() + static_cast<std::ptrdiff_t>(line_offset_),
                   text_.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
    line_offset_ = offset;
    return line_;
  }
  std::uint32_t LineOf(const char* token) {
    last_offset_ = static_cast<std::size_t>(token - base_);
    return LineAt(last_offset_);
  }

  // A syntax error: nlohmann finds its position and words it; else simdjson's message at the
  // last value read.
  void Fail(const std::function<void(ParsedDocument&&)>& f, std::size_t start,
            simdjson::error_code error) {
    ParsedDocument failed;
    failed.ok = false;
    ErrorFinder finder;
    const std::string_view rest = text_.substr(std::min(start, text_.size()));
    if (error == simdjson::DEPTH_ERROR) {
      failed.error.line = static_cast<int>(LineAt(last_offset_));
      failed.error.message = fmt::format("nesting is deeper than {} levels", Limits().max_depth);
    } else if (!nlohmann::json::sax_parse(rest.begin(), rest.end(), &finder,
                                          nlohmann::json::input_format_t::json, false) &&
               !finder.message.empty()) {
      const std::size_t byte = start + (finder.byte > 0 ? finder.byte - 1 : 0);
      failed.error.line = static_cast<int>(LineAt(byte));
      failed.error.message = fmt::format("JSON syntax error: {}", finder.message);
    } else {
      failed.error.line = static_cast<int>(LineAt(std::max(start, last_offset_)));
      failed.error.message = fmt::format("JSON syntax error: {}", simdjson::error_message(error));
    }
    f(std::move(failed));
  }

  // The root mapping's entries into `tree`, collections without their contents (skipped).
  // `items`: there is one `items` entry holding a list, and no duplicate key.
  simdjson::error_code PreScan(od::document_reference& doc, Tree& tree, bool& items) {
    TreeBuilder builder(tree, false);
    if (padded_ && text_.size() < Tree::kInSource) builder.SetSource(text_);
    builder_ = &builder;
    const simdjson::error_code error = PreScanObject(doc, items);
    builder_ = nullptr;
    if (builder.duplicate()) items = false;
    return error;
  }
  simdjson::error_code PreScanObject(od::document_reference& doc, bool& items) {
    od::object object;
    if (auto error = doc.get_object().get(object); error != simdjson::SUCCESS) return error;
    builder_->Open(NodeType::kMap, 0);
    for (auto field_result : object) {
      od::field field;
      if (auto error = std::move(field_result).get(field); error != simdjson::SUCCESS) return error;
      std::string_view key;
      if (auto error = RawString(field.key().raw(), key); error != simdjson::SUCCESS) return error;
      builder_->SetKey(key, 0);
      od::value& v = field.value();
      od::json_type type;
      if (auto error = v.type().get(type); error != simdjson::SUCCESS) return error;
      if (type == od::json_type::object || type == od::json_type::array) {
        builder_->Open(type == od::json_type::object ? NodeType::kMap : NodeType::kSeq, 0);
        builder_->Close();
        if (key == "items" && type == od::json_type::array) items = true;
      } else {
        const std::string_view raw = v.raw_json_token();
        if (auto error = Scalar(v, type, raw); error != simdjson::SUCCESS) return error;
      }
    }
    builder_->Close();
    return simdjson::SUCCESS;
  }

  // The items of the root mapping's `items` list, each into `item_` and handed to `stream_`.
  simdjson::error_code StreamItems(od::value& v, std::uint32_t line) {
    od::array array;
    if (auto error = v.get_array().get(array); error != simdjson::SUCCESS) return error;
    if (!builder_->Open(NodeType::kSeq, line)) return simdjson::DEPTH_ERROR;
    TreeBuilder* const root = builder_;
    for (auto item_result : array) {
      od::value item;
      if (auto error = std::move(item_result).get(item); error != simdjson::SUCCESS) return error;
      TreeBuilder builder(item_, false, 2);
      // An item's tree is read before this parse ends: it may refer to the padded copy too.
      if (text_.size() < Tree::kInSource) builder.SetSource(std::string_view(base_, text_.size()));
      builder_ = &builder;
      const simdjson::error_code error = Value(item);
      builder_ = root;
      if (error != simdjson::SUCCESS) return error;
      if (builder.duplicate()) {  // reported by the reading without streaming
        bailed_ = true;
        return simdjson::UNINITIALIZED;
      }
      stream_->item(item_);
    }
    builder_->Close();
    return simdjson::SUCCESS;
  }

  simdjson::error_code Document(od::document_reference& doc) {
    od::json_type type;
    if (auto error = doc.type().get(type); error != simdjson::SUCCESS) return error;
    if (type == od::json_type::object || type == od::json_type::array) {
      od::value v;
      if (auto error = doc.get_value().get(v); error != simdjson::SUCCESS) return error;
      return Value(v);
    }
    std::string_view raw;
    if (auto error = doc.raw_json_token().get(raw); error != simdjson::SUCCESS) return error;
    return Scalar(doc, type, raw);
  }

  simdjson::error_code Value(od::value& v) {
    od::json_type type;
    if (auto error = v.type().get(type); error != simdjson::SUCCESS) return error;
    const std::string_view raw = v.raw_json_token();
    const std::uint32_t line = LineOf(raw.data());
    switch (type) {
      case od::json_type::object: {
        od::object object;
        if (auto error = v.get_object().get(object); error != simdjson::SUCCESS) return error;
        if (!builder_->Open(NodeType::kMap, line)) return simdjson::DEPTH_ERROR;
        for (auto field_result : object) {
          od::field field;
          if (auto error = std::move(field_result).get(field); error != simdjson::SUCCESS) return error;
          const char* key_raw = field.key().raw();
          std::string_view key;
          if (auto error = RawString(key_raw, key); error != simdjson::SUCCESS) return error;
          builder_->SetKey(key, LineOf(key_raw));
          if (streaming_ && key == "items" && builder_->open() == 1 &&
              builder_ == root_builder_) {
            od::value& items = field.value();
            od::json_type items_type;
            if (auto error = items.type().get(items_type); error != simdjson::SUCCESS) return error;
            if (items_type == od::json_type::array) {
              const std::uint32_t items_line = LineOf(items.raw_json_token().data());
              if (auto error = StreamItems(items, items_line); error != simdjson::SUCCESS) {
                return error;
              }
              continue;
            }
          }
          if (auto error = Value(field.value()); error != simdjson::SUCCESS) return error;
        }
        builder_->Close();
        return simdjson::SUCCESS;
      }
      case od::json_type::array: {
        od::array array;
        if (auto error = v.get_array().get(array); error != simdjson::SUCCESS) return error;
        if (!builder_->Open(NodeType::kSeq, line)) return simdjson::DEPTH_ERROR;
        for (auto item_result : array) {
          od::value item;
          if (auto error = std::move(item_result).get(item); error != simdjson::SUCCESS) return error;
          if (auto error = Value(item); error != simdjson::SUCCESS) return error;
        }
        builder_->Close();
        return simdjson::SUCCESS;
      }
      default:
        return Scalar(v, type, raw);
    }
  }

  // The string whose text starts at `p` (after its opening quote): a view of the input when it
  // has no escapes (nearly always), else unescaped into `unescaped_`. Stage 1 has validated the
  // structure and UTF-8, so the closing quote is there.
  simdjson::error_code RawString(const char* p, std::string_view& out) {
    const char* q = p;
#if defined(__SSE2__)
    // 16 bytes at a time to the first quote, backslash or control character (the text is
    // padded: reading past the string's end stays inside the padding).
    for (;;) {
      const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
      const __m128i special = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(chunk, _mm_set1_epi8('"')),
                       _mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\'))),
          _mm_cmpeq_epi8(_mm_max_epu8(chunk, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f)));
      const int mask = _mm_movemask_epi8(special);
      if (mask != 0) {
        q += __builtin_ctz(static_cast<unsigned>(mask));
        break;
      }
      q += 16;
    }
#endif
    while (*q != '"' && *q != '\\') {
      if (static_cast<unsigned char>(*q) < 0x20) return simdjson::UNESCAPED_CHARS;
      ++q;
    }
    if (*q == '"') {
      out = std::string_view(p, static_cast<std::size_t>(q - p));
      return simdjson::SUCCESS;
    }
    unescaped_.assign(p, q);
    const auto hex4 = [](const char* h, std::uint32_t& cp) {
      cp = 0;
      for (int k = 0; k < 4; ++k) {
        const char c = h[k];
        cp <<= 4;
        if (c >= '0' && c <= '9') {
          cp |= static_cast<std::uint32_t>(c - '0');
        } else if (c >= 'a' && c <= 'f') {
          cp |= static_cast<std::uint32_t>(c - 'a' + 10);
        } else if (c >= 'A' && c <= 'F') {
          cp |= static_cast<std::uint32_t>(c - 'A' + 10);
        } else {
          return false;
        }
      }
      return true;
    };
    for (;;) {
      const char c = *q;
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) return simdjson::UNESCAPED_CHARS;
      if (c != '\\') {
        unescaped_ += c;
        ++q;
        continue;
      }
      const char e = q[1];
      q += 2;
      switch (e) {
        case '"': unescaped_ += '"'; break;
        case '\\': unescaped_ += '\\'; break;
        case '/': unescaped_ += '/'; break;
        case 'b': unescaped_ += '\b'; break;
        case 'f': unescaped_ += '\f'; break;
        case 'n': unescaped_ += '\n'; break;
        case 'r': unescaped_ += '\r'; break;
        case 't': unescaped_ += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(q, cp)) return simdjson::STRING_ERROR;
          q += 4;
          if (cp >= 0xd800 && cp < 0xdc00) {  // a high surrogate: its low half must follow
            std::uint32_t low = 0;
            if (q[0] != '\\' || q[1] != 'u' || !hex4(q + 2, low) || low < 0xdc00 || low > 0xdfff) {
              return simdjson::STRING_ERROR;
            }
            q += 6;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            return simdjson::STRING_ERROR;
          }
          if (cp < 0x80) {
            unescaped_ += static_cast<char>(cp);
          } else if (cp < 0x800) {
            unescaped_ += static_cast<char>(0xc0 | (cp >> 6));
            unescaped_ += static_cast<char>(0x80 | (cp & 0x3f));
          } else if (cp < 0x10000) {
            unescaped_ += static_cast<char>(0xe0 | (cp >> 12));
            unescaped_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            unescaped_ += static_cast<char>(0x80 | (cp & 0x3f));
          } else {
            unescaped_ += static_cast<char>(0xf0 | (cp >> 18));
            unescaped_ += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
            unescaped_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            unescaped_ += static_cast<char>(0x80 | (cp & 0x3f));
          }
          break;
        }
        default:
          return simdjson::STRING_ERROR;
      }
    }
    out = unescaped_;
    return simdjson::SUCCESS;
  }

  template <typename T>
  simdjson::error_code Scalar(T& v, od::json_type type, std::string_view raw) {
    const std::uint32_t line = LineOf(raw.data());
    switch (type) {
      case od::json_type::string: {
        od::raw_json_string rs;
        if (auto error = v.get_raw_json_string().get(rs); error != simdjson::SUCCESS) return error;
        std::string_view s;
        if (auto error = RawString(rs.raw(), s); error != simdjson::SUCCESS) return error;
        builder_->AddScalar(NodeType::kScalar, ScalarType::kString, s, line);
        return simdjson::SUCCESS;
      }
      case od::json_type::number: {
        const std::string_view token = TrimRight(raw);
        bool integer = false;
        if (!IsJsonNumber(token, integer)) return simdjson::NUMBER_ERROR;
        builder_->AddScalar(NodeType::kScalar, integer ? ScalarType::kInt : ScalarType::kFloat,
                            token, line);
        return simdjson::SUCCESS;
      }
      case od::json_type::boolean: {
        bool b = false;
        if (auto error = v.get_bool().get(b); error != simdjson::SUCCESS) return error;
        builder_->AddScalar(NodeType::kScalar, ScalarType::kBool, TrimRight(raw), line);
        return simdjson::SUCCESS;
      }
      case od::json_type::null: {
        bool is_null = false;
        if (auto error = v.is_null().get(is_null); error != simdjson::SUCCESS) return error;
        if (!is_null) return simdjson::N_ATOM_ERROR;
        builder_->AddScalar(NodeType::kNull, ScalarType::kString, {}, line);
        return simdjson::SUCCESS;
      }
      default:
        return simdjson::TAPE_ERROR;
    }
  }

  std::string_view text_;
  const char* base_ = nullptr;
  TreeBuilder* builder_ = nullptr;
  TreeBuilder* root_builder_ = nullptr;  // the document's (not an item's)
  ItemStream* stream_ = nullptr;
  bool streaming_ = false;  // this document's items are streamed
  bool bailed_ = false;
  Tree item_;
  std::size_t line_offset_ = 0;
  std::uint32_t line_ = 1;
  std::size_t last_offset_ = 0;
  bool padded_ = false;
  std::string unescaped_;
};

}  // namespace

void ParseJsonStream(std::string_view text, const std::function<void(ParsedDocument&&)>& f,
                     bool padded, ItemStream* items) {
  JsonParser(text).Run(f, padded, items);
}

}  // namespace kpsim::io::internal
