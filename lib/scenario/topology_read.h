// [topology]: nodes and links from one of three kinds (scenarios/README.md, "topology").
//
// Port numbering (deterministic, documented):
//   single_switch  sw0 port i <-> host i (link i).
//   leaf_spine     hosts h0.. leaf-major (host l*hosts_per_leaf + i on leaf l); leaf l port
//                  i <-> its host i, port hosts_per_leaf + s <-> spine s; spine s port l
//                  <-> leaf l. Links: every host link (host i = link i), then uplinks
//                  leaf-major. Switches: leaf0.., then spine0...
//   explicit       each node's ports are numbered in the order its links are listed.
// Hosts have exactly one port (port 0) and one link.
#pragma once

#include <string>

#include "scenario/scenario.h"
#include "scenario/toml_table.h"

namespace rtb::scenario {

inline constexpr uint32_t kNoLink = UINT32_MAX;

// Nodes and links only: switch configs have no ports or routes yet (switch_settings.h).
Topology read_topology(Table& topology);

void read_single_switch(Table& t, Topology& topo);
void read_leaf_spine(Table& t, Topology& topo);
void read_explicit(Table& t, Topology& topo);

// Builders shared by the three kinds.
uint32_t add_host(Topology& topo, std::string name, uint32_t ip);
uint32_t add_switch(Topology& topo, std::string name);
// Adds a link on the next free port of each end; returns its index. A host that already
// has a link returns kNoLink (the caller reports it at its line).
uint32_t connect(Topology& topo, NodeRef a, NodeRef b, Rate rate, Time propagation);

// A cable's one-way delay: `delay_key` (a time) or `length_key` (metres, 5 ns/m), not
// both; `default_m` metres when neither is given.
Time read_propagation(Table& t, std::string_view length_key, std::string_view delay_key, double default_m);

}  // namespace rtb::scenario
