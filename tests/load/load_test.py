#!/usr/bin/env python3
"""A bounded load test of `kpsim serve` on loopback.

    load_test.py <path-to-kpsim> <manifest> [--clients 8] [--requests 400] [--seconds 60]

Starts the server on a free loopback port, then
  1. 8 concurrent clients POST small runs (/api/simulate of the manifest, seeds varying) until
     --requests are answered or --seconds pass; prints requests/s and latency percentiles, and
     checks every answer is 200 and equals `kpsim simulate -o json` of the same seed;
  2. bad requests get clean 4xx answers: a body past --max-body, malformed JSON, a body that is
     not a request, unknown options, an unknown path, `..` paths, GET on a POST endpoint;
  3. the server still answers a good request afterwards, and stops on SIGTERM.
Exit status 0 when everything holds.
"""

import argparse
import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time


def start(kpsim, args):
    proc = subprocess.Popen([kpsim, "serve", "--addr", "127.0.0.1:0", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        sys.exit(f"kpsim serve did not start: {line!r}")
    return proc, int(m.group(1))


def request(port, method, path, body=None, raw=None, timeout=60):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    headers = {"Content-Type": "application/json"} if data is not None else {}
    conn.request(method, path, body=data, headers=headers)
    res = conn.getresponse()
    out = res.status, res.read().decode("utf-8", "replace")
    conn.close()
    return out


def raw_request(port, text):
    """Sends `text` as it is (a request line http.client would normalise) and returns the status."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(text.encode())
        reply = s.recv(4096).decode("latin-1")
    m = re.match(r"HTTP/1\.[01] (\d+)", reply)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kpsim")
    ap.add_argument("manifest")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=400)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    content = open(args.manifest, encoding="utf-8").read()
    failures = []

    expected = {}
    for seed in range(1, 5):
        expected[seed] = subprocess.run([args.kpsim, "simulate", "-o", "json", "--seed", str(seed), args.manifest],
                                        capture_output=True, text=True, check=True).stdout

    proc, port = start(args.kpsim, ["--max-body", "1Mi", "--threads", str(args.clients)])
    try:
        latencies = []
        lock = threading.Lock()
        counter = {"sent": 0}
        deadline = time.monotonic() + args.seconds

        def client():
            while True:
                with lock:
                    if counter["sent"] >= args.requests or time.monotonic() > deadline:
                        return
                    counter["sent"] += 1
                    seed = counter["sent"] % 4 + 1
                body = {"files": [{"name": args.manifest, "content": content}], "options": {"seed": seed}}
                t0 = time.monotonic()
                status, text = request(port, "POST", "/api/simulate", body)
                dt = time.monotonic() - t0
                with lock:
                    latencies.append(dt)
                    if status != 200 or text != expected[seed]:
                        failures.append(f"simulate seed {seed}: status {status}, same as the CLI: {text == expected[seed]}")

        t0 = time.monotonic()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        n = len(latencies)
        lat = sorted(latencies)
        pct = lambda p: lat[min(n - 1, int(p * n))] * 1000
        print(f"{n} requests from {args.clients} clients in {wall:.2f} s: {n / wall:.1f} requests/s; "
              f"latency p50 {pct(0.5):.1f} ms, p95 {pct(0.95):.1f} ms, max {lat[-1] * 1000:.1f} ms, "
              f"mean {statistics.mean(lat) * 1000:.1f} ms")
        if n == 0:
            failures.append("no request was answered")

        bad = [
            ("a body past --max-body (1Mi)", "POST", "/api/simulate", None, b"x" * (2 << 20), 413),
            ("malformed JSON", "POST", "/api/simulate", None, b"{not json", 400),
            ("a body that is not a request", "POST", "/api/simulate", [1, 2], None, 400),
            ("an unknown option", "POST", "/api/simulate",
             {"files": [{"name": "a.yaml", "content": content}], "options": {"colour": "blue"}}, None, 400),
            ("a bad seed", "POST", "/api/simulate",
             {"files": [{"name": "a.yaml", "content": content}], "options": {"seed": "-1"}}, None, 400),
            ("explain without a pod", "POST", "/api/explain",
             {"files": [{"name": "a.yaml", "content": content}]}, None, 400),
            ("an unknown path", "GET", "/nope", None, None, 404),
            ("an encoded .. path", "GET", "/%2e%2e/%2e%2e/etc/passwd", None, None, 404),
            ("an API .. path", "GET", "/api/../../etc/passwd", None, None, 404),
            ("GET on a POST endpoint", "GET", "/api/simulate", None, None, 405),
        ]
        for name, method, path, body, raw, want in bad:
            status, text = request(port, method, path, body, raw)
            ok = status == want
            try:
                ok = ok and "error" in json.loads(text)
            except ValueError:
                ok = False
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {status} {text.strip()[:100]}")
            if not ok:
                failures.append(f"{name}: {status} (want {want} with a JSON error) {text[:200]!r}")
        small = json.dumps({"files": [{"name": "a.yaml", "content": content}]})
        host = f"Host: 127.0.0.1:{port}\r\n"
        for name, line, want in [
                ("a raw ../ request line", "GET /../../etc/passwd HTTP/1.1\r\n" + host + "\r\n", 404),
                ("garbage instead of HTTP", "\x00\x01hello\r\n\r\n", 400),
                ("another site's Host (DNS rebinding)", "GET /api/files HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n", 403),
                ("a POST without Content-Type JSON", f"POST /api/simulate HTTP/1.1\r\n{host}Content-Type: text/plain\r\n"
                 f"Content-Length: {len(small)}\r\n\r\n{small}", 415),
                ("a chunked POST (no Content-Length)", f"POST /api/simulate HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 415),
                ("a compressed POST", f"POST /api/simulate HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                 "Content-Encoding: gzip\r\nContent-Length: 4\r\n\r\nabcd", 415),
                ("a POST without Content-Length", f"POST /api/simulate HTTP/1.1\r\n{host}Content-Type: application/json\r\n\r\n", 411),
        ]:
            status = raw_request(port, line)
            ok = status == want
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {status}")
            if not ok:
                failures.append(f"{name}: status {status}")

        status, text = request(port, "POST", "/api/simulate",
                               {"files": [{"name": args.manifest, "content": content}], "options": {"seed": 1}})
        if status != 200 or text != expected[1]:
            failures.append(f"the server stopped serving after the bad requests: {status}")
        else:
            print("ok   still serving after the bad requests")
    finally:
        proc.terminate()
        try:
            code = proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = None
        if code != 0:
            failures.append(f"kpsim serve did not stop cleanly on SIGTERM (exit {code})")
    # A stop signal at once, during start-up, still stops it.
    early = subprocess.Popen([args.kpsim, "serve", "--addr", "127.0.0.1:0"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    early.terminate()
    try:
        early.wait(timeout=10)
        print("ok   a stop signal during start-up stops it")
    except subprocess.TimeoutExpired:
        early.kill()
        failures.append("kpsim serve did not stop on a SIGTERM sent during start-up")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
