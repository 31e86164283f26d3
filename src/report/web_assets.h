#pragma once

// The report template, embedded at build time from web/ by cmake/EmbedWeb.cmake (the definitions
// live in a generated source). Each function returns the file's bytes exactly as written.

#include <string_view>

namespace kpsim::report::web {

std::string_view IndexHtml();  // web/index.html: the page, with @KPSIM_...@ placeholders
std::string_view EmbeddedJs();  // web/embedded.js: reads an embedded JSON script (the serve page too)
std::string_view AppJs();      // web/app.js: draws the timeline from the embedded JSON
std::string_view StyleCss();   // web/style.css

}  // namespace kpsim::report::web
