"""`cmake --install` puts the package where Debian's Python looks (dist-packages under the
prefix), with the entry point that registers engine="strata"."""
import os
import subprocess
import sys
import sysconfig
import tempfile
import unittest

BUILD = os.environ.get("STRATA_BUILD_DIR")
DATA = os.environ.get("STRATA_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))


@unittest.skipUnless(BUILD, "STRATA_BUILD_DIR is not set")
class Install(unittest.TestCase):
    def test_installed_package_imports_and_registers_the_engine(self):
        prefix = tempfile.mkdtemp(prefix="strata-install-")
        subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
        # Where this Python looks under a prefix: Debian's posix_local scheme (dist-packages).
        scheme = "posix_local" if "posix_local" in sysconfig.get_scheme_names() else "posix_prefix"
        site = sysconfig.get_path("platlib", scheme, vars={"base": prefix, "platbase": prefix})
        if scheme == "posix_local":  # Debian's scheme adds "local" to the prefix itself
            site = site.replace(os.path.join(prefix, "local"), prefix)
        self.assertTrue(os.path.exists(os.path.join(site, "strata", "__init__.py")), site)
        if sys.executable == "/usr/bin/python3":  # with the default prefix it is on sys.path
            self.assertIn(site.replace(prefix, "/usr/local"), sys.path)
        env = dict(os.environ, PYTHONPATH=site)
        code = ("import strata, xarray as xr; print(strata.__file__); "
                f"ds = xr.open_dataset({os.path.join(DATA, 'reduced.nc')!r}, engine='strata', device='cpu'); "
                "print(sorted(ds.data_vars))")
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
        self.assertIn(site, out.splitlines()[0])  # the installed copy, not the build tree's
        self.assertIn("['anom', 'err', 'ice', 'sst']", out)


if __name__ == "__main__":
    unittest.main()
