#pragma once

// The `kpsim serve` page, embedded at build time from web/ by cmake/EmbedWeb.cmake (the
// definitions live in a generated source). Each function returns the file's bytes as written.

#include <string_view>

namespace kpsim::app::web {

std::string_view ServeHtml();  // web/serve.html: the app's page, with @KPSIM_SERVE_JS@ in it
std::string_view EmbeddedJs();  // web/embedded.js: the report's decoder of its embedded JSON
std::string_view ServeJs();    // web/serve.js: the editor, runs, diffs and toggles

}  // namespace kpsim::app::web
