"""Build the `dtypeflow` package with the project's CMake (the only build description of the
core): configure without libtorch or tests, build the dtypeflow_python target, and place its
_core extension in the wheel. Used by `pip install .` (README)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        # ccache, when present, reuses what a build of the same tree already compiled.
        launcher = ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *generator, *launcher,
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                        "-DBUILD_TESTING=OFF", "-DDTF_WITH_TORCH=OFF", "-DDTF_WITH_PYTHON=ON",
                        f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        jobs = os.environ.get("DTF_JOBS", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "dtypeflow_python", "-j", jobs], check=True)
        built = next((build / "python" / "dtypeflow").glob("_core*.so"))
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, dest)


def version():
    m = re.search(r"project\(dtypeflow VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    return m.group(1)


setup(
    version=version(),
    packages=["dtypeflow"],
    package_dir={"dtypeflow": "python/dtypeflow"},
    ext_modules=[CMakeExtension("dtypeflow._core")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
