"""The compiled parts, built where a C compiler is found: the open-hand search's core and the strategy checker.

Everything else about the package is in pyproject.toml. Both extensions are
optional: without a compiler (or with ``CPSOLVER_PURE=1``) the build goes on
without them, and the pure-Python search and checker, their references, do
the work.
"""

import os
from glob import glob

from setuptools import Extension, setup

core = Extension(
    "cpsolver.endgame._core",
    sources=["cpsolver/endgame/_core.c"],
    # One translation unit: _core.c includes its parts, so a change to one rebuilds it.
    depends=sorted(glob("cpsolver/endgame/core_c/*.h")),
    extra_compile_args=["-O2"] if os.name != "nt" else [],
    optional=True,
)

checker = Extension(
    "cpsolver.verify._strategy",
    sources=["cpsolver/verify/_strategy.c"],
    depends=sorted(glob("cpsolver/verify/strategy_c/*.h")),
    extra_compile_args=["-O2"] if os.name != "nt" else [],
    optional=True,
)

setup(ext_modules=[] if os.environ.get("CPSOLVER_PURE") else [core, checker])
