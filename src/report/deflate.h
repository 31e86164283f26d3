#pragma once

// Deflate (zlib format) + base64 for the large JSON a report page embeds: a 5000-node run's
// 30 MB of JSON becomes about 1 MB of text, which the browser decodes with DecompressionStream
// ('deflate') much faster than it parses 30 MB of page (web/embedded.js).

#include <optional>
#include <string>
#include <string_view>

namespace kpsim::report {

// zlib's compress2 at level 6 (deterministic for one zlib version), then standard base64 with
// padding.
std::string DeflateBase64(std::string_view bytes);
// The inverse; nullopt for text that is not base64 of a zlib stream.
std::optional<std::string> InflateBase64(std::string_view text);

}  // namespace kpsim::report
