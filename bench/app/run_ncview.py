#!/usr/bin/python3
"""The peers' ncview driver (run_ncview.py in the shared peer benchmarks), with ncview's buttons
found on the screen instead of at the peers' fixed places.

The shared driver clicks ">" at (248, 198) from ncview's main window, where the button was with
the peers' fonts. With this machine's fonts the button row is higher: that place is the second
row's "M 1/3" (magnify), so every "step" enlarged the image (ncview's RSS grew to 450 MB, a
click took 0.1-1.7 s, and the animation stalled). Here the row is found among the main window's
X subwindows: five buttons of one size side by side ("<<", "<", "||", ">", ">>"), after "->1".
Everything else (the timing through the XPutImage shim, the reps, the JSON) is the shared
driver's own.

  DISPLAY=:77 /usr/bin/python3 run_ncview.py FILE --reps 5 --steps 60 --out res.json
  (PEERS=../shared/bench/peers by default)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.environ.get("PEERS", os.path.join(HERE, "..", "..", "..", "shared", "bench", "peers"))
sys.path.insert(0, PEERS)
import run_ncview as peer  # noqa: E402


def boxes_under(window, ox, oy, depth=0):
    """(x, y, w, h) of every subwindow, relative to the main window's origin."""
    out = []
    for c in window.query_tree().children:
        g = c.get_geometry()
        x, y = ox + g.x, oy + g.y
        out.append((x, y, g.width, g.height))
        if depth < 6:
            out += boxes_under(c, x, y, depth + 1)
    return out


def transport_buttons(boxes):
    """Centres of ncview's "->1", "||", ">" and ">>", or None when the row is not there."""
    rows = {}
    for b in boxes:
        rows.setdefault(b[1], []).append(b)
    for row in rows.values():
        row.sort()
        for i in range(len(row) - 4):
            run = row[i:i + 5]
            same = all(b[2:] == run[0][2:] for b in run)
            square = run[0][2] <= 1.5 * run[0][3]
            side_by_side = all(0 < b[0] - a[0] - a[2] <= 12 for a, b in zip(run, run[1:]))
            if same and square and side_by_side and i > 0:
                centre = lambda b: (b[0] + b[2] // 2, b[1] + b[3] // 2)  # noqa: E731
                return {"restart": centre(row[i - 1]), "pause": centre(run[2]),
                        "forward": centre(run[3]), "play": centre(run[4])}
    return None


def find_and_locate(d):
    w, geo = peer_find(d)
    if w is not None:
        found = transport_buttons(boxes_under(w, 0, 0))
        if found is None:
            raise SystemExit("run_ncview.py: ncview's button row (<< < || > >>) was not found")
        peer.BTN.update(found)
    return w, geo


peer_find = peer.find_main_window
peer.find_main_window = find_and_locate

if __name__ == "__main__":
    sys.exit(peer.main())
