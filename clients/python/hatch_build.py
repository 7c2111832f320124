"""Wheel tag: the wheel carries the `sentience` binary (the Agent's own
server) when pkg-scripts/build.sh staged one, so it is then a platform
wheel: manylinux_2_<glibc of the build machine> (the binary cannot need a
newer glibc than the one it was linked on); without it, py3-none-any."""

import os
import platform

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version, build_data):
        binary = os.path.join(self.root, "src", "sentience_sdk", "_bin", "sentience")
        if not os.path.isfile(binary):
            return
        libc, libc_version = platform.libc_ver()
        machine = platform.machine()
        if libc == "glibc" and libc_version:
            major, minor = libc_version.split(".")[:2]
            plat = f"manylinux_{major}_{minor}_{machine}"
        else:
            plat = f"{platform.system().lower()}_{machine}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{plat}"
