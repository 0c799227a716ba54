// The peer process of the memif test: a memif client that echoes every frame it receives
// back to the server, until it has echoed the number it was told or its time runs out,
// then waits (bounded) for the server to close the link before it exits.
//
//   ethport_test --memif-peer <socket path> <frames>
//
// Exit codes: 0 all frames echoed; 2 the EAL or the port did not start; 3 the link never
// came up; 4 the frames did not all arrive in time;
// 5 mbufs leaked. Every wait is bounded.
#pragma once

namespace rtb::ethport::testing {

inline constexpr const char* kMemifPeerFlag = "--memif-peer";
// Its own lcore: the test process runs on lcore 0.
int memif_peer_main(int argc, char** argv);

}  // namespace rtb::ethport::testing
