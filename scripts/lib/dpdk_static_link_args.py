#!/usr/bin/env python3
"""Print the link flags of a static DPDK (pkg-config --static --libs libdpdk) with the
--whole-archive run of archives joined into one -Wl, argument, so that a build tool that
reorders -l flags (meson does) cannot move the drivers out of it: without --whole-archive
the linker drops each driver's constructor, and the driver with it."""
import subprocess
import sys

flags = subprocess.run(["pkg-config", "--static", "--libs", "libdpdk"], check=True,
                       capture_output=True, text=True).stdout.split()
try:
    start = flags.index("-Wl,--whole-archive")
    end = flags.index("-Wl,--no-whole-archive", start)
except ValueError:
    sys.exit("dpdk_static_link_args.py: pkg-config --static --libs libdpdk has no "
             "-Wl,--whole-archive ... -Wl,--no-whole-archive run: " + " ".join(flags))
whole = "-Wl,--whole-archive," + ",".join(flags[start + 1:end]) + ",--no-whole-archive"
# --export-dynamic serves drivers loaded with the EAL's -d, which a static EAL cannot take
# anyway; it would make every function of the program visible to them, which keeps
# link-time optimisation from treating the program as whole (virtual time ran 9% slower).
rest = [f for f in flags[end + 1:] if f != "-Wl,--export-dynamic"]
print(" ".join(flags[:start] + [whole] + rest))
