"""A rocetb results folder read into plain values (summary.json: lib/results/README.md).

Every problem is a ResultsError with a one-line message naming the folder or file.
"""
import json
import os

import numpy as np


# summary.json "schema_version" these tools read (lib/results summary.h kSchemaVersion);
# a folder written before versions has none and reads as version 1.
SCHEMA_VERSION = 1


class ResultsError(Exception):
    """A folder that is not a readable results folder (one line: what and why)."""


def _read_json(path, required):
    if not os.path.exists(path):
        if required:
            raise ResultsError(f"{path}: missing (not a rocetb results folder, or the run did not finish)")
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ResultsError(f"{path}: cannot be read as JSON: {e}") from None


class Series:
    """A CSV time series as numpy columns: `cols[name]` is a float array."""

    def __init__(self, path):
        self.path = path
        self.names = []
        self.cols = {}
        if not os.path.exists(path):
            return
        with open(path, encoding="utf-8") as f:
            header = f.readline().strip()
        if not header:
            return
        self.names = header.split(",")
        try:
            data = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2, dtype=np.float64)
        except ValueError as e:
            raise ResultsError(f"{path}: not a rocetb time series: {e}") from None
        if data.size and data.shape[1] != len(self.names):
            raise ResultsError(f"{path}: {data.shape[1]} columns, the header names {len(self.names)}")
        for i, n in enumerate(self.names):
            self.cols[n] = data[:, i] if data.size else np.empty(0)

    def __len__(self):
        return len(self.cols[self.names[0]]) if self.names else 0

    def has(self, name):
        return name in self.cols


class Folder:
    """One results folder: summary, effective, run (dicts), flows and queues (Series)."""

    def __init__(self, path):
        if not os.path.isdir(path):
            raise ResultsError(f"{path}: not a folder")
        self.path = path
        self.name = os.path.basename(os.path.normpath(path))
        self.summary = _read_json(os.path.join(path, "summary.json"), True)
        if not isinstance(self.summary, dict) or "totals" not in self.summary:
            raise ResultsError(f"{os.path.join(path, 'summary.json')}: not a rocetb run's summary (no \"totals\")")
        version = self.summary.get("schema_version", 1)
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise ResultsError(f"{os.path.join(path, 'summary.json')}: schema_version = {version!r}: expected "
                               f"{SCHEMA_VERSION} or lower (written by a newer rocetb: read it with that one)")
        self.effective = _read_json(os.path.join(path, "effective.json"), False) or {}
        self.run = _read_json(os.path.join(path, "run.json"), False) or {}
        self.replay = _read_json(os.path.join(path, "replay.json"), False)
        self._flows = None
        self._queues = None
        warnings_path = os.path.join(path, "warnings.txt")
        self.warnings = []
        if os.path.exists(warnings_path):
            with open(warnings_path, encoding="utf-8", errors="replace") as f:
                self.warnings = [line.rstrip("\n") for line in f if line.strip()]

    @property
    def flows(self):
        if self._flows is None:
            self._flows = Series(os.path.join(self.path, "flows.csv"))
        return self._flows

    @property
    def queues(self):
        if self._queues is None:
            self._queues = Series(os.path.join(self.path, "queues.csv"))
        return self._queues

    def switch_name(self, index):
        switches = self.effective.get("topology", {}).get("switches", [])
        index = int(index)
        if index < len(switches):
            return switches[index].get("name", f"switch{index}")
        summary_switches = self.summary.get("switches", [])
        if index < len(summary_switches):
            return summary_switches[index].get("name", f"switch{index}")
        return f"switch{index}"

    def port_name(self, sw, port):
        sw, port = int(sw), int(port)
        for source in (self.effective.get("topology", {}).get("switches", []), self.summary.get("switches", [])):
            if sw < len(source):
                ports = source[sw].get("ports", [])
                if port < len(ports) and "name" in ports[port]:
                    return ports[port]["name"]
        return f"port{port}"

    def switch_config(self, sw):
        switches = self.effective.get("topology", {}).get("switches", [])
        return switches[int(sw)] if int(sw) < len(switches) else None
