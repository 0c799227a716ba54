-- Wireshark / tshark postdissector for rocetb's HPCC INT trailer (lib/wire/README.md,
-- "HPCC INT records"): hop records after the ICRC of RoCEv2 frames, ended by a 4-byte
-- descriptor 'I' 'N' <slots> <hops> that closes the IPv4 packet.
--
--   tshark -X lua_script:scripts/hpcc_int.lua -d udp.port==4791,infiniband -r capture.pcapng \
--          -Y hpcc_int -T fields -e hpcc_int.hops -e hpcc_int.time_ns -e hpcc_int.qlen_bytes
--
-- Each record is a big-endian 64-bit word (the HPCC simulator's IntHop): rate code (3 bits),
-- timestamp ns mod 2^24 (24), tx bytes / 128 mod 2^20 (20), queue bytes / 80 (17). The
-- InfiniBand dissector still shows the trailer's last 4 bytes as the invariant CRC.

local p = Proto("hpcc_int", "HPCC INT trailer (rocetb)")

local rates_gbps = { [0] = 25, [1] = 50, [2] = 100, [3] = 200, [4] = 400, [5] = 800, [6] = 10, [7] = 40 }

local f = {
  slots = ProtoField.uint8("hpcc_int.slots", "Hop slots"),
  hops = ProtoField.uint8("hpcc_int.hops", "Hops written"),
  hop = ProtoField.uint64("hpcc_int.hop", "Hop record", base.HEX),
  rate_code = ProtoField.uint8("hpcc_int.rate_code", "Link rate code"),
  rate_gbps = ProtoField.uint32("hpcc_int.rate_gbps", "Link rate (Gb/s)"),
  time_ns = ProtoField.uint32("hpcc_int.time_ns", "Timestamp (ns mod 2^24)"),
  tx_units = ProtoField.uint32("hpcc_int.tx_units", "Tx bytes / 128 (mod 2^20)"),
  tx_bytes = ProtoField.uint64("hpcc_int.tx_bytes", "Tx bytes (mod 2^27)"),
  qlen_units = ProtoField.uint32("hpcc_int.qlen_units", "Queue / 80 bytes"),
  qlen_bytes = ProtoField.uint32("hpcc_int.qlen_bytes", "Queue bytes"),
}
p.fields = { f.slots, f.hops, f.hop, f.rate_code, f.rate_gbps, f.time_ns, f.tx_units, f.tx_bytes,
             f.qlen_units, f.qlen_bytes }

local ip_len_f = Field.new("ip.len")
local ip_hdr_len_f = Field.new("ip.hdr_len")
local udp_dport_f = Field.new("udp.dstport")

-- Integer arithmetic on the two 32-bit halves, so that any Lua version of Wireshark works.
local function fields_of(hi, lo)
  return {
    rate = math.floor(hi / 2 ^ 29),
    time = math.floor(hi / 32) % 2 ^ 24,
    tx = (hi % 32) * 2 ^ 15 + math.floor(lo / 2 ^ 17),
    qlen = lo % 2 ^ 17,
  }
end

function p.dissector(tvb, pinfo, tree)
  local dport, ip_len, ihl = udp_dport_f(), ip_len_f(), ip_hdr_len_f()
  if dport == nil or ip_len == nil or ihl == nil or dport.value ~= 4791 then return end
  local ip_start = ip_len.offset - 2
  local stop = ip_start + ip_len.value
  local udp_payload = ip_len.value - ihl.value - 8
  if stop > tvb:len() or udp_payload < 12 + 4 + 4 then return end
  local d = stop - 4
  if tvb(d, 2):uint() ~= 0x494E then return end  -- 'IN'
  local slots, hops = tvb(d + 2, 1):uint(), tvb(d + 3, 1):uint()
  local first = d - 8 * slots
  -- the trailer follows at least a BTH and an ICRC
  if hops > slots or slots == 0 or first < ip_start + ihl.value + 8 + 12 + 4 then return end
  local t = tree:add(p, tvb(first, stop - first))
  t:add(f.slots, tvb(d + 2, 1))
  t:add(f.hops, tvb(d + 3, 1))
  for i = 0, hops - 1 do
    local r = tvb(first + 8 * i, 8)
    local v = fields_of(tvb(first + 8 * i, 4):uint(), tvb(first + 8 * i + 4, 4):uint())
    local h = t:add(f.hop, r)
    h:append_text(string.format(" (hop %d: %d ns, %d B sent, %d B queued, %d Gb/s)", i, v.time,
                                v.tx * 128, v.qlen * 80, rates_gbps[v.rate]))
    h:add(f.rate_code, r, v.rate)
    h:add(f.rate_gbps, r, rates_gbps[v.rate])
    h:add(f.time_ns, r, v.time)
    h:add(f.tx_units, r, v.tx)
    h:add(f.tx_bytes, r, UInt64(v.tx * 128))
    h:add(f.qlen_units, r, v.qlen)
    h:add(f.qlen_bytes, r, v.qlen * 80)
  end
end

register_postdissector(p)
