#pragma once

// `kpsim serve`: the local web app over HTTP (cpp-httplib). It serves its own page, the JSON API
// of api.h and nothing else.

#include <cstddef>
#include <string>
#include <vector>

#include "app/api.h"
#include "kpsim/io.h"

namespace kpsim::app {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 8080;                  // 0: any free port (printed on stderr)
  ServeLimits limits;
  std::size_t threads = 8;  // concurrent requests; more wait for a free worker
  // Files given on the command line, offered to the page's editor (GET /api/files).
  std::vector<io::NamedText> files;
};

// Serves until SIGINT or SIGTERM. Prints "kpsim serve: listening on http://HOST:PORT/" on stderr
// once it accepts connections. Returns the exit status: 0 after a signal, 2 when it cannot bind.
int Serve(const ServeOptions& options);

}  // namespace kpsim::app
