// Units as types (style habit 3): Time in picoseconds, Bytes, Rate in bits per second.
//
// Time is one unsigned 64-bit count of picoseconds (2^64 ps is about 213 days), used for
// both instants and spans. Picoseconds, not nanoseconds: a 1,106-byte frame at 100 Gb/s
// lasts 88.48 ns, and rounding it to whole nanoseconds costs 0.5% of rate.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <ostream>

namespace rtb {

// 128-bit intermediate for exact unit conversions (a GCC/Clang extension).
__extension__ typedef unsigned __int128 u128;

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(uint64_t v) { return Time(v); }
  static constexpr Time ns(uint64_t v) { return Time(v * 1'000); }
  static constexpr Time us(uint64_t v) { return Time(v * 1'000'000); }
  static constexpr Time ms(uint64_t v) { return Time(v * 1'000'000'000); }
  static constexpr Time s(uint64_t v) { return Time(v * 1'000'000'000'000); }
  static constexpr Time zero() { return Time(0); }
  // "No deadline": compares later than every real time.
  static constexpr Time never() { return Time(std::numeric_limits<uint64_t>::max()); }

  constexpr uint64_t ps() const { return ps_; }
  constexpr uint64_t ns() const { return ps_ / 1'000; }  // truncated
  constexpr double us_f() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double s_f() const { return static_cast<double>(ps_) / 1e12; }
  constexpr bool is_never() const { return ps_ == never().ps_; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time& operator-=(Time o) { ps_ -= o.ps_; return *this; }
  constexpr Time operator*(uint64_t k) const { return Time(ps_ * k); }
  constexpr Time operator/(uint64_t k) const { return Time(ps_ / k); }
  constexpr uint64_t operator/(Time o) const { return ps_ / o.ps_; }
  constexpr Time operator%(Time o) const { return Time(ps_ % o.ps_); }
  // Saturating add: never() + x stays never().
  constexpr Time plus_sat(Time o) const {
    return ps_ > never().ps_ - o.ps_ ? never() : Time(ps_ + o.ps_);
  }

 private:
  constexpr explicit Time(uint64_t ps) : ps_(ps) {}
  uint64_t ps_ = 0;
};

class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(uint64_t n) : n_(n) {}
  static constexpr Bytes kb(uint64_t v) { return Bytes(v * 1'000); }
  static constexpr Bytes mb(uint64_t v) { return Bytes(v * 1'000'000); }
  static constexpr Bytes kib(uint64_t v) { return Bytes(v * 1'024); }
  static constexpr Bytes mib(uint64_t v) { return Bytes(v * 1'048'576); }

  constexpr uint64_t count() const { return n_; }
  constexpr uint64_t bits() const { return n_ * 8; }

  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const { return Bytes(n_ + o.n_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(n_ - o.n_); }
  constexpr Bytes& operator+=(Bytes o) { n_ += o.n_; return *this; }
  constexpr Bytes& operator-=(Bytes o) { n_ -= o.n_; return *this; }
  constexpr Bytes operator*(uint64_t k) const { return Bytes(n_ * k); }

 private:
  uint64_t n_ = 0;
};

class Rate {
 public:
  constexpr Rate() = default;
  static constexpr Rate bps(uint64_t v) { return Rate(v); }
  static constexpr Rate kbps(uint64_t v) { return Rate(v * 1'000); }
  static constexpr Rate mbps(uint64_t v) { return Rate(v * 1'000'000); }
  static constexpr Rate gbps(uint64_t v) { return Rate(v * 1'000'000'000); }
  static constexpr Rate zero() { return Rate(0); }

  constexpr uint64_t bps() const { return bps_; }
  constexpr double gbps_f() const { return static_cast<double>(bps_) / 1e9; }
  constexpr double mbps_f() const { return static_cast<double>(bps_) / 1e6; }

  constexpr auto operator<=>(const Rate&) const = default;
  constexpr Rate operator+(Rate o) const { return Rate(bps_ + o.bps_); }
  constexpr Rate operator-(Rate o) const { return Rate(bps_ - o.bps_); }

  // Time to serialize `b` at this rate, rounded down to a picosecond. Summing these over
  // many frames drifts; use SerialClock for a running total.
  constexpr Time time_for(Bytes b) const {
    return Time::ps(static_cast<uint64_t>(
        static_cast<u128>(b.bits()) * 1'000'000'000'000ULL / bps_));
  }
  // Bytes this rate moves in `t`, rounded down.
  constexpr Bytes bytes_in(Time t) const {
    return Bytes(static_cast<uint64_t>(static_cast<u128>(t.ps()) * bps_ /
                                       8'000'000'000'000ULL));
  }

 private:
  constexpr explicit Rate(uint64_t bps) : bps_(bps) {}
  uint64_t bps_ = 0;
};

// Serialization times at a fixed rate without drift: the sum of the spans returned equals
// floor(total_bits * 1e12 / rate) exactly, however many frames are summed, because the
// sub-picosecond remainder of each frame is carried into the next.
class SerialClock {
 public:
  constexpr explicit SerialClock(Rate rate)
      : rate_(rate), ps_per_byte_(exact_ps_per_byte(rate)) {}
  constexpr Time advance(Bytes b) {
    if (ps_per_byte_ != 0) return Time::ps(b.count() * ps_per_byte_);  // rem_ stays 0
    const u128 num =
        static_cast<u128>(b.bits()) * 1'000'000'000'000ULL + rem_;
    rem_ = static_cast<uint64_t>(num % rate_.bps());
    return Time::ps(static_cast<uint64_t>(num / rate_.bps()));
  }
  // Forget the carried remainder (the wire went idle: the next frame starts on a
  // picosecond boundary of its own).
  constexpr void reset() { rem_ = 0; }
  constexpr Rate rate() const { return rate_; }

 private:
  // A byte takes a whole number of picoseconds at the usual link rates (80 ps at 100 Gb/s,
  // 200 ps at 40 Gb/s): then no remainder ever arises and a multiply replaces the division.
  static constexpr uint64_t exact_ps_per_byte(Rate r) {
    constexpr uint64_t kBitPs = 8'000'000'000'000ULL;  // 8 bits x 1e12 ps per second
    return r.bps() != 0 && kBitPs % r.bps() == 0 ? kBitPs / r.bps() : 0;
  }

  Rate rate_;
  uint64_t ps_per_byte_;
  uint64_t rem_ = 0;
};

// For test failure messages and logs.
inline std::ostream& operator<<(std::ostream& os, Time t) { return os << t.ps() << "ps"; }
inline std::ostream& operator<<(std::ostream& os, Bytes b) { return os << b.count() << "B"; }
inline std::ostream& operator<<(std::ostream& os, Rate r) { return os << r.bps() << "bps"; }

}  // namespace rtb
