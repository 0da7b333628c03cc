#!/usr/bin/env python3
"""Generates Strata's colour-map tables (resources/colormaps/<name>.txt).

Each table has 256 sRGB entries, one "r g b" line each (0..255), low values first.
The maps are rebuilt from their published anchor colours:

- viridis, magma, inferno, plasma: the nine evenly spaced colours of each map as published
  with the maps (van der Walt & Smith, 2015), interpolated in CIELAB;
- cividis: its five evenly spaced published colours (Nuñez, Anderton & Renslow, 2018),
  interpolated in CIELAB;
- turbo: fifteen evenly spaced colours of the published map (Mikhailov, 2019), interpolated
  in CIELAB;
- gray: black to white, linear in sRGB;
- RdBu: ColorBrewer's eleven-class RdBu scheme (Brewer), red for low values, interpolated in
  CIELAB;
- the other ColorBrewer schemes (Blues ... YlOrRd: nine classes; BrBG, PuOr, PiYG, RdYlBu,
  Spectral: eleven), interpolated in CIELAB;
- cmocean (Thyng et al., 2016; "cmo.<name>") and Crameri's Scientific colour maps 8.0 (batlow,
  roma, vik, ...): evenly spaced colours of each published table (entry round(i * (n - 1) / (k - 1))
  of n; k = 17, or 33 for the diverging maps, whose turn at the centre is sharp), interpolated in
  CIELAB.

resources/colormaps/NOTICE names each source and its licence (ColorBrewer: Apache-style;
cmocean and the Scientific colour maps: MIT).

Interpolating a handful of anchors reproduces each map to within a few sRGB levels (at most 7
for the cmocean and Crameri tables; cmocean's delta, whose centre jumps, is left out); the
tables are our own data, not copies of another project's tables.

Usage: scripts/gen_colormaps.py [output folder]   (default: resources/colormaps)
"""
import math
import os
import sys

N = 256

ANCHORS = {
    "viridis": ["440154", "472d7b", "3b528b", "2c728e", "21908c", "27ad81", "5dc863", "aadc32", "fde725"],
    "magma": ["000004", "1d1147", "51127c", "822681", "b63679", "e65164", "fb8861", "fec287", "fcfdbf"],
    "inferno": ["000004", "1f0c48", "550f6d", "88226a", "ba3655", "e35932", "f98c0a", "f9c932", "fcffa4"],
    "plasma": ["0d0887", "4c02a1", "7e03a8", "a92395", "cc4678", "e56b5d", "f89441", "fdc328", "f0f921"],
    "cividis": ["00204d", "414d6b", "7c7b78", "bcaf6f", "ffea46"],
    "turbo": ["30123b", "4145ab", "4675ed", "39a2fc", "1bcfd4", "24eca6", "61fc6c", "a4fc3b",
              "d1e834", "f3c63a", "fe9b2d", "f36315", "d93806", "b11901", "7a0403"],
    "RdBu": ["67001f", "b2182b", "d6604d", "f4a582", "fddbc7", "f7f7f7",
             "d1e5f0", "92c5de", "4393c3", "2166ac", "053061"],
    "cmo.thermal": ["042333", "082e54", "19337c", "39339e", "563b9c", "6d4694", "83508f", "995889",
        "b15f82", "c76676", "de7065", "ef7e52", "f99242", "fcaa3c", "f9c441", "f3df4c", "e8fa5b"],
    "cmo.haline": ["2a186c", "2e1d93", "2034a2", "0f4a98", "0f5b90", "1c6a8c", "297789", "338588",
        "3c9387", "44a184", "4faf7e", "5fbe75", "78cb68", "9bd55c", "c1dd64", "e1e57c", "fdef9a"],
    "cmo.deep": ["fdfecc", "ddf2ba", "bbe6ac", "98daa4", "78cea3", "62bfa4", "55aea3", "4e9ea1", "488e9e",
        "437f9a", "3f6f97", "3e5f93", "404d8c", "413e76", "3b325c", "322643", "281a2c"],
    "cmo.dense": ["e6f1f1", "cbe4e8", "b1d6e3", "9ac8e2", "86b9e3", "79a9e4", "7397e4", "7584df", "7871d5",
        "7960c7", "784eb3", "753d9d", "6f2e85", "66216c", "5a1851", "491238", "360e24"],
    "cmo.amp": ["f1edec", "e9dad6", "e2c7bf", "ddb5a8", "d7a291", "d2907a", "cc7e64", "c66b4e", "c0583b",
        "b9452c", "af3024", "a11d25", "901029", "7b0e29", "650f24", "510d1c", "3c0912"],
    "cmo.tempo": ["fff6f4", "e9e7dd", "d2d9c7", "bacdb3", "a1c1a1", "86b693", "69ab89", "49a083", "2a937f",
        "16867c", "117777", "176870", "1b5968", "1c4b5f", "1b3c56", "182d4c", "151d44"],
    "cmo.ice": ["040613", "13132a", "212041", "2e2c5a", "383975", "3e478f", "3f57a3", "3e69b0", "427bb7",
        "4b8bbd", "579cc3", "67adc9", "79bed0", "92ced7", "afdde1", "cdecef", "eafdfd"],
    "cmo.balance": ["181c43", "20275b", "263276", "293c93", "2548b0", "1059be", "0f6abd", "237aba",
        "3888ba", "4e95ba", "65a2bc", "7eaebf", "98bac5", "b0c5cd", "c7d2d7", "dee0e1", "f1eceb", "eadcd8",
        "e3c9c1", "ddb6aa", "d8a493", "d2927c", "cd7f65", "c76d50", "c05a3c", "b9452c", "af3024", "a11d25",
        "901029", "7b0e29", "650f24", "510d1c", "3c0912"],
    "cmo.curl": ["151d44", "182d4c", "1b3c56", "1c4b5f", "1b5968", "176870", "117777", "16867c", "2c947f",
        "4ba183", "6bac8a", "88b794", "a3c2a2", "bcceb4", "d3dac8", "eae8de", "fef6f5", "f5e4dc", "eed0c1",
        "e8bca8", "e2a891", "dd947d", "d7806e", "cf6c65", "c45a61", "b74960", "a83a60", "982c61", "862060",
        "72185c", "5d1454", "481146", "340d35"],
    "batlow": ["011959", "0d315d", "114360", "175262", "226061", "356a59", "4d734d", "677b3e", "828231",
        "9f892b", "be9035", "db954b", "f19d6b", "fca890", "fdb4b4", "fcbfd6", "faccfa"],
    "lajolla": ["191900", "271e08", "372411", "4d2b1c", "67342a", "853e39", "a64644", "c54f4a", "d9604e",
        "e1744f", "e58751", "e99a52", "ecac54", "f1c159", "f7d971", "fcef9f", "fffecb"],
    "oslo": ["010101", "0a121b", "0e1e2e", "112b44", "15395b", "1c4873", "26578c", "3767a6", "507bbc",
        "678bc7", "7b98ca", "8ea4c9", "a2b0ca", "b6becd", "ced1d7", "e6e7e9", "ffffff"],
    "davos": ["00054a", "081c61", "143277", "214789", "2f5a96", "3e6b9c", "4e799d", "5d8499", "6c8e93",
        "7a978d", "8ba388", "a0b289", "bbc794", "d9dfad", "eff0cb", "faf9e6", "fefefe"],
    "roma": ["7e1700", "862c06", "8f3c0c", "964b12", "9d5818", "a3651e", "a97223", "b07f2a", "b68c32",
        "bd9b3c", "c4aa4a", "cbba5d", "d0ca72", "d2d78a", "d1e2a1", "cbe8b4", "c0eac3", "b3e9cd", "a2e5d4",
        "8eddd7", "79d2d7", "64c6d5", "53b8d1", "44abcc", "399dc7", "3190c1", "2b84bc", "2677b7", "226ab1",
        "1e5dab", "194fa5", "11409f", "033198"],
    "vik": ["001261", "021f69", "022b71", "023779", "034481", "055189", "0c5e92", "1c6d9c", "307da6",
        "488db2", "619ebd", "7aaec8", "94bed2", "adcddd", "c6dbe6", "dee6e9", "ece5e0", "eedbd0", "e9ccba",
        "e3bca5", "dcac90", "d69d7c", "cf8e68", "c98056", "c37243", "bd6431", "b3531f", "a5400f", "942f06",
        "832106", "741506", "670a07", "590008"],
    "berlin": ["9eb0ff", "8caef6", "79abed", "65a7e2", "519fd3", "4194c1", "3685ad", "2e7699", "286886",
        "225973", "1d4b61", "183d4f", "14303e", "11242e", "111a20", "121214", "190c09", "210b03", "2a0e01",
        "340f00", "3f1201", "4b1602", "591c07", "6a2510", "7b321c", "8c402c", "9c4f3d", "ac5e4f", "bc6d61",
        "cc7d73", "dd8d86", "ee9d9a", "ffadad"],
    "cork": ["2c194c", "2b2659", "2a3265", "283f72", "284b7e", "2d598a", "386695", "47739e", "567fa6",
        "668baf", "7798b8", "8aa6c2", "9eb5cc", "b2c5d7", "c8d5e2", "dce5eb", "e6edec", "e0eae1", "cfdfcf",
        "bcd3bc", "a9c5a8", "95b895", "82ab81", "6f9f6f", "5d935d", "4d884c", "3d7d3c", "2d702c", "20631e",
        "185414", "14450e", "113709", "0f2903"],
    "Blues": ["f7fbff", "deebf7", "c6dbef", "9ecae1", "6baed6", "4292c6", "2171b5", "08519c", "08306b"],
    "Greens": ["f7fcf5", "e5f5e0", "c7e9c0", "a1d99b", "74c476", "41ab5d", "238b45", "006d2c", "00441b"],
    "Reds": ["fff5f0", "fee0d2", "fcbba1", "fc9272", "fb6a4a", "ef3b2c", "cb181d", "a50f15", "67000d"],
    "Greys": ["ffffff", "f0f0f0", "d9d9d9", "bdbdbd", "969696", "737373", "525252", "252525", "000000"],
    "YlOrRd": ["ffffcc", "ffeda0", "fed976", "feb24c", "fd8d3c", "fc4e2a", "e31a1c", "bd0026", "800026"],
    "YlGnBu": ["ffffd9", "edf8b1", "c7e9b4", "7fcdbb", "41b6c4", "1d91c0", "225ea8", "253494", "081d58"],
    "PuBu": ["fff7fb", "ece7f2", "d0d1e6", "a6bddb", "74a9cf", "3690c0", "0570b0", "045a8d", "023858"],
    "BrBG": ["543005", "8c510a", "bf812d", "dfc27d", "f6e8c3", "f5f5f5", "c7eae5", "80cdc1", "35978f",
        "01665e", "003c30"],
    "PuOr": ["7f3b08", "b35806", "e08214", "fdb863", "fee0b6", "f7f7f7", "d8daeb", "b2abd2", "8073ac",
        "542788", "2d004b"],
    "PiYG": ["8e0152", "c51b7d", "de77ae", "f1b6da", "fde0ef", "f7f7f7", "e6f5d0", "b8e186", "7fbc41",
        "4d9221", "276419"],
    "RdYlBu": ["a50026", "d73027", "f46d43", "fdae61", "fee090", "ffffbf", "e0f3f8", "abd9e9", "74add1",
        "4575b4", "313695"],
    "Spectral": ["9e0142", "d53e4f", "f46d43", "fdae61", "fee08b", "ffffbf", "e6f598", "abdda4", "66c2a5",
        "3288bd", "5e4fa2"],
}

SOURCES = {
    "viridis": "9 published anchors, CIELAB interpolation",
    "magma": "9 published anchors, CIELAB interpolation",
    "inferno": "9 published anchors, CIELAB interpolation",
    "plasma": "9 published anchors, CIELAB interpolation",
    "cividis": "5 published anchors, CIELAB interpolation",
    "RdBu": "ColorBrewer RdBu (11 classes), CIELAB interpolation",
    "turbo": "15 published anchors, CIELAB interpolation",
    "gray": "linear black to white in sRGB",
}
for _name in ["thermal", "haline", "deep", "dense", "amp", "tempo", "ice", "balance", "curl"]:
    SOURCES["cmo." + _name] = "cmocean %s (Thyng et al., MIT), %d samples, CIELAB interpolation" % (
        _name, 33 if _name in ("balance", "curl") else 17)
for _name in ["batlow", "lajolla", "oslo", "davos", "roma", "vik", "berlin", "cork"]:
    SOURCES[_name] = "Scientific colour maps 8.0 %s (Crameri, MIT), %d samples, CIELAB interpolation" % (
        _name, 33 if _name in ("roma", "vik", "berlin", "cork") else 17)
for _name in ["Blues", "Greens", "Reds", "Greys", "YlOrRd", "YlGnBu", "PuBu"]:
    SOURCES[_name] = "ColorBrewer %s (9 classes, Brewer), CIELAB interpolation" % _name
for _name in ["BrBG", "PuOr", "PiYG", "RdYlBu", "Spectral"]:
    SOURCES[_name] = "ColorBrewer %s (11 classes, Brewer), CIELAB interpolation" % _name

# sRGB (D65) <-> CIE XYZ <-> CIELAB.
WHITE = (0.95047, 1.0, 1.08883)
M = [(0.4124564, 0.3575761, 0.1804375), (0.2126729, 0.7151522, 0.0721750), (0.0193339, 0.1191920, 0.9503041)]
MINV = [(3.2404542, -1.5371385, -0.4985314), (-0.9692660, 1.8760108, 0.0415560), (0.0556434, -0.2040259, 1.0572252)]


def to_linear(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def to_srgb(c):
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def lab_f(t):
    d = 6 / 29
    return t ** (1 / 3) if t > d ** 3 else t / (3 * d * d) + 4 / 29


def lab_finv(t):
    d = 6 / 29
    return t ** 3 if t > d else 3 * d * d * (t - 4 / 29)


def hex_to_lab(h):
    rgb = [to_linear(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4)]
    xyz = [sum(M[r][c] * rgb[c] for c in range(3)) for r in range(3)]
    fx, fy, fz = (lab_f(xyz[i] / WHITE[i]) for i in range(3))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def lab_to_rgb8(lab):
    L, a, b = lab
    fy = (L + 16) / 116
    xyz = (WHITE[0] * lab_finv(fy + a / 500), WHITE[1] * lab_finv(fy), WHITE[2] * lab_finv(fy - b / 200))
    rgb = [sum(MINV[r][c] * xyz[c] for c in range(3)) for r in range(3)]
    return tuple(int(round(to_srgb(v) * 255)) for v in rgb)


def from_anchors(hexes):
    labs = [hex_to_lab(h) for h in hexes]
    out = []
    for i in range(N):
        t = i / (N - 1) * (len(labs) - 1)
        k = min(int(math.floor(t)), len(labs) - 2)
        f = t - k
        lab = tuple(labs[k][j] * (1 - f) + labs[k + 1][j] * f for j in range(3))
        out.append(lab_to_rgb8(lab))
    # The ends are the anchors themselves, exactly.
    out[0] = tuple(int(hexes[0][i:i + 2], 16) for i in (0, 2, 4))
    out[-1] = tuple(int(hexes[-1][i:i + 2], 16) for i in (0, 2, 4))
    return out


def gray():
    return [(i, i, i) for i in range(N)]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "resources",
                                                                "colormaps")
    os.makedirs(folder, exist_ok=True)
    tables = {name: from_anchors(h) for name, h in ANCHORS.items()}
    tables["gray"] = gray()
    for name in sorted(tables):
        path = os.path.join(folder, name + ".txt")
        with open(path, "w") as f:
            f.write(f"# {name}: {N} sRGB entries (r g b, 0..255), low values first\n")
            f.write(f"# generated by scripts/gen_colormaps.py: {SOURCES[name]}\n")
            for r, g, b in tables[name]:
                f.write(f"{r} {g} {b}\n")
        print(path)


if __name__ == "__main__":
    main()
