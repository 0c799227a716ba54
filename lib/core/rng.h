// Seeded randomness that gives the same numbers on every machine and library version.
//
// One generator per stage, derived from the scenario seed and the stage id, so adding a
// stage does not change another stage's stream. The distributions are written here rather
// than taken from <random>: std:: distributions may produce different values in another
// standard library, and rte_rand is a process-wide, unseeded-by-scenario generator.
//
// Generator: xoshiro256** 1.0 (Blackman & Vigna, 2018); seeding with SplitMix64, as the
// authors recommend.
#pragma once

#include <cstdint>

namespace rtb {

class Rng {
 public:
  // A generator for one stream of a run: `seed` is the scenario seed, `stream` names the
  // user of the stream (a stage id, or a stage id combined with a purpose).
  Rng(uint64_t seed, uint64_t stream);

  uint64_t next_u64();
  // Uniform integer in [0, n), n > 0, unbiased (Lemire 2019, "Fast random integer
  // generation in an interval").
  uint64_t uniform_int(uint64_t n);
  // Uniform double in [0, 1) with 53 random bits.
  double uniform();
  // Exponential with the given mean (inverse transform: -mean * ln(1 - u)).
  double exponential(double mean);
  // True with probability p (p <= 0: never, p >= 1: always).
  bool bernoulli(double p);

 private:
  uint64_t s_[4];
};

// SplitMix64 step (Steele, Lea, Flood 2014): also a good 64-bit mixer for hashing ids.
uint64_t splitmix64(uint64_t& state);

}  // namespace rtb
