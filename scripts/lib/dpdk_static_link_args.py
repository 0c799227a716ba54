#!/usr/bin/env python3
"""Print the link flags of a static DPDK (pkg-config --static --libs libdpdk) with the
--whole-archive run of archives joined into one -Wl, argument, so that a build tool that
reorders -l flags (meson does) cannot move the drivers out of it: without --whole-archive
the linker drops each driver's constructor, and the driver with it.

Only the drivers rocetb can use are linked: the buses, mempool handlers and Ethernet PMDs
of NICs found in PCs, servers and clouds, and the virtual devices. Crypto, compression,
regex, vDPA, event, baseband, raw and DMA drivers, and the PMDs of system-on-chip
families (NXP DPAA, Marvell CNXK/OCTEON, Cavium ThunderX, Intel FPGA), would each be
loaded, registered and probed at every start, with the shared libraries they need
(IPSec_MB, OpenSSL's libcrypto, libjansson, libfdt), for nothing."""
import re
import subprocess
import sys

# Archive names (librte_<name>.a) left out.
UNUSED_DRIVERS = re.compile(
    r"^(crypto|compress|regex|vdpa|event|baseband|raw|dma)_"
    r"|^(common_(cpt|dpaax|octeontx|cnxk|qat)|bus_(dpaa|fslmc|ifpga)"
    r"|mempool_(cnxk|dpaa|dpaa2|octeontx)"
    r"|net_(cnxk|dpaa|dpaa2|octeontx|octeon_ep|pfe|enetc|enetfec|ipn3ke|thunderx|liquidio|avp|softnic))$")


def archive_name(flag):
    m = re.fullmatch(r"-l:librte_(\w+)\.a", flag)
    return m.group(1) if m else None


flags = subprocess.run(["pkg-config", "--static", "--libs", "libdpdk"], check=True,
                       capture_output=True, text=True).stdout.split()
try:
    start = flags.index("-Wl,--whole-archive")
    end = flags.index("-Wl,--no-whole-archive", start)
except ValueError:
    sys.exit("dpdk_static_link_args.py: pkg-config --static --libs libdpdk has no "
             "-Wl,--whole-archive ... -Wl,--no-whole-archive run: " + " ".join(flags))
archives = [f for f in flags[start + 1:end]
            if archive_name(f) is None or not UNUSED_DRIVERS.search(archive_name(f))]
for needed in ("bus_pci", "bus_vdev", "mempool_ring", "net_null", "net_ring", "net_pcap",
               "net_memif", "net_af_packet", "net_mlx5"):
    if f"-l:librte_{needed}.a" not in archives:
        sys.exit(f"dpdk_static_link_args.py: this DPDK has no static librte_{needed}.a, "
                 "which rocetb needs (Debian: apt-get install libdpdk-dev)")
whole = "-Wl,--whole-archive," + ",".join(archives) + ",--no-whole-archive"
# --export-dynamic serves drivers loaded with the EAL's -d, which a static EAL cannot take
# anyway; it would make every function of the program visible to them, which keeps
# link-time optimisation from treating the program as whole (virtual time ran 9% slower).
# --as-needed before every library (pkg-config puts IPSec_MB, rt and atomic ahead of its
# own): a library no linked driver uses is not loaded at start.
rest = [f for f in flags[end + 1:] if f != "-Wl,--export-dynamic"]
print(" ".join(flags[:start] + [whole, "-Wl,--as-needed"] + rest))
