// `kpsim serve` over cpp-httplib: exact routes for the page and the API, JSON errors for every
// other path or method, a cap on bodies, a worker pool so that one user's long run does not block
// another's request, and a clean stop on SIGINT/SIGTERM.

#include "app/server.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "app/serve_assets.h"

namespace kpsim::app {
namespace {

void Answer(httplib::Response& res, const ApiResponse& answer) {
  res.status = answer.status;
  res.set_content(answer.body, answer.content_type.c_str());
}

// The page: web/serve.html with web/embedded.js (the reports' decoder) and web/serve.js in place.
std::string Page() {
  std::string html(web::ServeHtml());
  constexpr std::string_view kScript = "@KPSIM_SERVE_JS@";
  if (const std::size_t at = html.find(kScript); at != std::string::npos) {
    html.replace(at, kScript.size(), std::string(web::EmbeddedJs()) + std::string(web::ServeJs()));
  }
  return html;
}

// Whether `host` (a request's Host header) names this server when it listens on loopback:
// localhost, 127.0.0.1, [::1] or the address it was given, with or without the port. A page of
// another site that rebinds its own name to 127.0.0.1 sends its own name, and is refused.
bool LoopbackHost(std::string_view host, const std::string& bound, int port) {
  const std::string with_port = fmt::format(":{}", port);
  if (host.size() > with_port.size() && host.substr(host.size() - with_port.size()) == with_port) {
    host.remove_suffix(with_port.size());
  }
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]" || host == bound ||
         host == "[" + bound + "]";
}

bool IsLoopback(const std::string& address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0;
}

std::string FilesJson(const std::vector<io::NamedText>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const io::NamedText& f : files) out.push_back({{"name", f.name}, {"content", f.text}});
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

int Serve(const ServeOptions& options) {
  // SIGINT and SIGTERM are taken by one thread (sigwait) that stops the server; every other
  // thread, the workers included, inherits the blocked mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server server;
  const std::size_t threads = options.threads > 0 ? options.threads : 1;
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(options.limits.max_body_bytes);
  server.set_read_timeout(10, 0);
  server.set_write_timeout(30, 0);
  // One request per connection: a browser's idle keep-alive connection does not hold a worker.
  server.set_keep_alive_max_count(1);
  std::atomic<bool> stopping{false};
  server.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"Cache-Control", "no-store"},
                              {"Referrer-Policy", "no-referrer"}});
  const std::string page = Page();
  const std::string files = FilesJson(options.files);
  ServeLimits limits = options.limits;
  limits.stopping = &stopping;
  int port = options.port;

  // Before a body is read: the body cap holds only for a declared Content-Length (cpp-httplib
  // 0.11 reads chunked and compressed bodies whole), so POSTs must declare one and send it plain;
  // they must be JSON (which a cross-site form cannot send without a preflight); and on loopback
  // the Host must be this machine's (no DNS rebinding).
  const bool loopback = IsLoopback(options.host);
  server.set_pre_routing_handler([&port, loopback, &options](const httplib::Request& req,
                                                            httplib::Response& res) {
    const auto refuse = [&res](int status, std::string_view message) {
      Answer(res, ErrorResponse(status, message));
      return httplib::Server::HandlerResponse::Handled;
    };
    if (loopback && !LoopbackHost(req.get_header_value("Host"), options.host, port)) {
      return refuse(403, "this server answers requests for localhost only (Host header)");
    }
    if (req.method != "POST") return httplib::Server::HandlerResponse::Unhandled;
    if (req.has_header("Transfer-Encoding") || req.has_header("Content-Encoding")) {
      return refuse(415, "send the body plain, with a Content-Length (no chunked or compressed bodies)");
    }
    if (!req.has_header("Content-Length")) return refuse(411, "a POST needs a Content-Length");
    if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0) {
      return refuse(415, "the body must be JSON (Content-Type: application/json)");
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });

  server.Get("/", [&page](const httplib::Request&, httplib::Response& res) {
    // The page and the reports it frames are self-contained: nothing is loaded from elsewhere.
    res.set_header("Content-Security-Policy",
                   "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                   "img-src data:; connect-src 'self'; frame-src 'self'; child-src 'self'");
    res.set_content(page, "text/html; charset=utf-8");
  });
  server.Get("/api/examples", [](const httplib::Request&, httplib::Response& res) {
    Answer(res, ExamplesResponse());
  });
  server.Get("/api/files", [&files](const httplib::Request&, httplib::Response& res) {
    res.set_content(files, "application/json");
  });
  for (const char* endpoint : {"simulate", "explain", "diff"}) {
    const std::string path = fmt::format("/api/{}", endpoint);
    server.Post(path, [endpoint, limits](const httplib::Request& req, httplib::Response& res) {
      Answer(res, HandleApi(endpoint, req.body, limits));
    });
    server.Get(path, [path](const httplib::Request&, httplib::Response& res) {
      res.set_header("Allow", "POST");
      Answer(res, ErrorResponse(405, fmt::format("{} takes POST", path)));
    });
  }
  // Every other answer of 400 and above (unknown paths, a body past the limit, a bad request
  // line) as JSON with the reason; an answer that has its own body keeps it.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    const std::string message =
        res.status == 404   ? fmt::format("no such path: {} (the page is /, the API /api/...)", req.path)
        : res.status == 413 ? std::string("the body is larger than the server's limit (kpsim serve --max-body)")
                            : fmt::format("HTTP {}", res.status);
    Answer(res, ErrorResponse(res.status, message));
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    Answer(res, ErrorResponse(500, "internal error"));
  });

  if (port == 0) {
    port = server.bind_to_any_port(options.host);
    if (port < 0) port = 0;
  } else if (!server.bind_to_port(options.host, port)) {
    port = 0;
  }
  if (port == 0) {
    std::fprintf(stderr, "kpsim: serve: cannot listen on %s:%d\n", options.host.c_str(), options.port);
    return 2;
  }
  // The stopper: on the first signal it cancels the runs in flight and stops the server, asking
  // again until listen() has returned (a signal during start-up comes before the server runs,
  // when stop() does nothing); a second signal then takes the default action (exit).
  std::atomic<bool> listening_done{false};
  std::thread stopper([&server, &stopping, &listening_done, stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    stopping.store(true);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
    while (!listening_done.load()) {
      server.stop();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  const bool ipv6 = options.host.find(':') != std::string::npos;
  std::fprintf(stderr, "kpsim serve: listening on http://%s%s%s:%d/\n", ipv6 ? "[" : "",
               options.host.c_str(), ipv6 ? "]" : "", port);
  std::fflush(stderr);
  server.listen_after_bind();
  listening_done.store(true);
  // A stop that did not come from a signal (listen() failing) must still end the stopper.
  if (!stopping.load()) pthread_kill(stopper.native_handle(), SIGTERM);
  stopper.join();
  return 0;
}

}  // namespace kpsim::app
