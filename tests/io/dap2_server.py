#!/usr/bin/python3
"""A tiny DAP2 server for tst_opendap: one dataset, "fixture", built here with NumPy, answered as
.dds, .das and .dods (with hyperslab constraints), the way netCDF-C's DAP2 client asks for it.

    dap2_server.py OUTDIR

Writes the values each variable is meant to hold to OUTDIR/<name>.bin (C order, native byte
order: the test's oracle), prints the port on the first line of stdout and serves
http://127.0.0.1:PORT/fixture until killed; any other path is 404. Requests are logged to
OUTDIR/requests.txt.
"""
import http.server
import os
import re
import struct
import sys
import urllib.parse

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
i = np.arange(3 * 4 * 5, dtype=np.float64)
VARS = {  # name: (DAP type, dims, values)
    "time": ("Float64", ["time"], np.array([0.0, 31.0, 59.0])),
    "lat": ("Float32", ["lat"], np.array([-45, -15, 15, 45], dtype=np.float32)),
    "lon": ("Float32", ["lon"], np.array([0, 72, 144, 216, 288], dtype=np.float32)),
    "temp": ("Float32", ["time", "lat", "lon"], (270 + 0.25 * i + np.sin(i)).astype(np.float32).reshape(3, 4, 5)),
    "count": ("Int16", ["lat", "lon"], (np.arange(20, dtype=np.int16) * 7 - 50).reshape(4, 5)),
}
ATTRS = {
    "time": {"units": "days since 2000-01-01", "calendar": "standard"},
    "lat": {"units": "degrees_north"},
    "lon": {"units": "degrees_east"},
    "temp": {"units": "K", "long_name": "air temperature"},
    "count": {"long_name": "a count"},
}
XDR = {"Float64": ">f8", "Float32": ">f4", "Int32": ">i4", "Int16": ">i4"}  # XDR sends 16-bit as 32
for name, (_, _, v) in VARS.items():
    v.tofile(os.path.join(out, name + ".bin"))


def dds(parts):
    lines = ["Dataset {"]
    for name, slices in parts:
        kind, dims, v = VARS[name]
        shape = v[tuple(slices)].shape
        lines.append("    %s %s%s;" % (kind, name, "".join("[%s = %d]" % (d, n) for d, n in zip(dims, shape))))
    lines.append("} fixture;")
    return "\n".join(lines) + "\n"


def das():
    lines = ["Attributes {"]
    for name, attrs in ATTRS.items():
        lines.append("    %s {" % name)
        lines += ['        String %s "%s";' % (k, v) for k, v in attrs.items()]
        lines.append("    }")
    lines += ["    NC_GLOBAL {", '        String title "Strata DAP2 fixture";', "    }", "}"]
    return "\n".join(lines) + "\n"


def parse(query):
    """The constraint's projections: [(name, [slice per dim])]; all variables when empty."""
    if not query:
        return [(n, [slice(None)] * len(VARS[n][1])) for n in VARS]
    parts = []
    for proj in urllib.parse.unquote(query).split("&")[0].split(","):
        m = re.fullmatch(r"([A-Za-z_][\w.]*)((?:\[[0-9:]+\])*)", proj.strip())
        if not m or m.group(1).split(".")[-1] not in VARS:
            raise KeyError(proj)
        name = m.group(1).split(".")[-1]
        slices = []
        for s in re.findall(r"\[([0-9:]+)\]", m.group(2)):
            f = [int(x) for x in s.split(":")]
            start, step, stop = (f[0], 1, f[0]) if len(f) == 1 else (f[0], 1, f[1]) if len(f) == 2 else f
            slices.append(slice(start, stop + 1, step))
        slices += [slice(None)] * (len(VARS[name][1]) - len(slices))
        parts.append((name, slices))
    return parts


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def answer(self, body, ctype):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("XDODS-Server", "dods/3.2")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path, _, query = self.path.partition("?")
        with open(os.path.join(out, "requests.txt"), "a") as f:
            f.write(self.path + "\n")
        try:
            parts = parse(query)
        except KeyError:
            self.send_error(400)
            return
        if path == "/fixture.dds":
            self.answer(dds(parts).encode(), "text/plain")
        elif path == "/fixture.das":
            self.answer(das().encode(), "text/plain")
        elif path == "/fixture.dods":
            body = bytearray((dds(parts) + "\nData:\n").encode())
            for name, slices in parts:
                kind, _, v = VARS[name]
                sel = np.ascontiguousarray(v[tuple(slices)])
                body += struct.pack(">II", sel.size, sel.size)
                body += sel.astype(XDR[kind]).tobytes()
            self.answer(bytes(body), "application/octet-stream")
        else:
            self.send_error(404)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
