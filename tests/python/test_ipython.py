"""strata.show in a real IPython session (Debian's IPython, its prompt_toolkit prompt on a
pseudo-terminal, under Xvfb): show returns with the window open, the prompt goes on running
code, and while it waits for input the window's events run (Strata's input hook): frames asked
for by show and by update reach the screen with no call that pumps Qt's events itself."""
import os
import pty
import subprocess
import sys
import tempfile
import threading
import unittest

try:
    import IPython  # noqa: F401
except ImportError:  # scripts/setup.sh installs python3-ipython
    IPython = None


class Terminal:
    """IPython on the slave end of a pty; what it writes is gathered from the master end."""

    def __init__(self):
        self.master, slave = pty.openpty()
        home = tempfile.mkdtemp(prefix="strata-ipython-")
        env = dict(os.environ, TERM="dumb", PROMPT_TOOLKIT_NO_CPR="1", IPYTHONDIR=home,
                   XDG_CONFIG_HOME=home, PYTHONUNBUFFERED="1")
        self.child = subprocess.Popen(
            [sys.executable, "-m", "IPython", "--no-banner", "--no-confirm-exit", "--colors=NoColor",
             "--HistoryManager.hist_file=:memory:"],
            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.text = ""
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the child has gone
                chunk = b""
            with self.changed:
                if not chunk:
                    self.text += "\n<EOF>"
                    self.changed.notify_all()
                    return
                self.text += chunk.decode("utf-8", "replace")
                self.changed.notify_all()

    def send(self, line):
        os.write(self.master, (line + "\n").encode())

    def wait_for(self, marker, failure_bound=120):
        """Until `marker` is written (the bound only ends a run that has already failed)."""
        with self.changed:
            if not self.changed.wait_for(lambda: marker in self.text or "<EOF>" in self.text,
                                         timeout=failure_bound) or marker not in self.text:
                raise AssertionError(f"{marker!r} never came; the session wrote:\n{self.text[-3000:]}")

    def close(self):
        if self.child.poll() is None:
            self.child.kill()
        self.child.wait()
        os.close(self.master)


@unittest.skipIf(IPython is None, "no IPython (Debian's python3-ipython)")
class InIPython(unittest.TestCase):
    def test_prompt_runs_code_while_the_window_shows_frames(self):
        t = Terminal()
        try:
            t.send("import numpy as np, strata")
            # The markers are printed as 'FR' + 'AME' so that the terminal's echo of the
            # commands never matches them.
            t.send("v = strata.show(np.arange(600, dtype='float32').reshape(20, 30), dims=('y', 'x')); "
                   "v.on_frame(lambda: print('FR' + 'AME', v._window.frames_shown, flush=True)); "
                   "print('SH' + 'OWN', v._window.frames_shown, v.is_open)")
            # show returned with the window open and nothing on the screen yet; the frame then
            # comes while the prompt waits, from Qt's events run by the input hook.
            t.wait_for("SHOWN 0 True")
            t.wait_for("FRAME 1")
            # The prompt runs code with the window open.
            t.send("print('SU' + 'M', int(np.arange(10).sum()), v.is_open, v.view['x'])")
            t.wait_for("SUM 45 True x")
            # New data: again shown while the prompt waits, by the hook alone.
            t.send("v.update(np.full((20, 30), 7, dtype='float32'), dims=('y', 'x')); "
                   "print('UP' + 'DATED', v._window.frames_shown)")
            t.wait_for("UPDATED 1")
            t.wait_for("FRAME 2")
            t.send("print('VAL' + 'UE', float(v.frame()[19, 29]), v._window.frames_shown)")
            t.wait_for("VALUE 7.0 2")
            t.send("v.close(); print('CLO' + 'SED', v.is_open)")
            t.wait_for("CLOSED False")
            t.send("exit")
            self.assertEqual(t.child.wait(timeout=120), 0, t.text[-3000:])
            self.assertNotIn("Traceback", t.text)
        finally:
            t.close()


if __name__ == "__main__":
    unittest.main()
