#!/usr/bin/python3
"""Serves a directory over HTTP on 127.0.0.1 for tst_zarr_http, misbehaving on request.

    zarr_http_server.py DIR LOG [--flaky] [--token T] [--slow SECONDS] [--hold]
                                [--chunk-status CODE[:TIMES]] [--stall SECONDS[:TIMES]]

Prints the port on the first line of stdout, then serves until killed. Each request is
logged to LOG as "<client port> <path> <auth: yes|no>" (never the token itself).
--flaky: for every path, the first request is dropped (the connection closed with no answer),
the second answered 503, the later ones served. --token: requests without
"Authorization: Bearer T" get 401. --slow: every answer waits this long first. --hold: the
answer to a chunk (a key that is not metadata) waits while the file DIR/HOLD exists; each chunk
sent in full is then logged as "done <path>" (a test that cancels sees none).
--chunk-status: a chunk's first TIMES requests (every one, without TIMES) are answered CODE.
--stall: a chunk's first TIMES answers (every one, without TIMES) send their headers and half
their body, then nothing for SECONDS.
"""
import http.server
import os
import sys
import threading
import time

root, log = sys.argv[1], sys.argv[2]
args = sys.argv[3:]
flaky = "--flaky" in args
token = args[args.index("--token") + 1] if "--token" in args else None
slow = float(args[args.index("--slow") + 1]) if "--slow" in args else 0.0
hold = "--hold" in args
chunk_status, status_times = None, None
if "--chunk-status" in args:
    spec = args[args.index("--chunk-status") + 1].split(":")
    chunk_status = int(spec[0])
    status_times = int(spec[1]) if len(spec) > 1 else None
stall, stall_times = 0.0, None
if "--stall" in args:
    spec = args[args.index("--stall") + 1].split(":")
    stall = float(spec[0])
    stall_times = int(spec[1]) if len(spec) > 1 else None
METADATA = (".zarray", ".zgroup", ".zattrs", ".zmetadata", "zarr.json")
seen = {}
lock = threading.Lock()


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: connections can be reused

    def __init__(self, *a, **kw):
        super().__init__(*a, directory=root, **kw)

    def log_message(self, *a):
        pass

    def do_GET(self):
        auth = self.headers.get("Authorization")
        with lock:
            n = seen.get(self.path, 0)
            seen[self.path] = n + 1
            with open(log, "a") as f:
                f.write("%d %s %s\n" % (self.client_address[1], self.path, "yes" if auth else "no"))
        if slow:
            time.sleep(slow)
        if hold and not self.path.endswith(METADATA):
            while os.path.exists(os.path.join(root, "HOLD")):
                time.sleep(0.05)
        if token is not None and auth != "Bearer " + token:
            self.send_error(401)
            return
        if flaky and n == 0:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if flaky and n == 1:
            self.send_error(503)
            return
        chunk = not self.path.endswith(METADATA)
        if chunk and chunk_status is not None and (status_times is None or n < status_times):
            self.send_error(chunk_status)
            return
        if chunk and stall and (stall_times is None or n < stall_times):
            path = self.translate_path(self.path)
            if not os.path.isfile(path):
                self.send_error(404)
                return
            with open(path, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(stall)
            self.close_connection = True
            return
        super().do_GET()
        if hold and not self.path.endswith(METADATA):
            with lock, open(log, "a") as f:
                f.write("done %s\n" % self.path)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
