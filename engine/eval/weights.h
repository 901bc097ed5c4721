// Weights: the evaluation's weight vector, with its text file format (load and save).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "engine/eval/feature_layout.h"
#include "engine/names.h"

namespace engine::eval {

// One weight per feature (feature_layout.h), in centipawns, kept in fixed point with
// kUnitsPerCentipawn units per centipawn: set() rounds to the nearest unit, so a weight
// is always k / 32 cp for an integer k and load(save(w)) gives w back exactly.
// A plain value type; not thread-safe for writing, safe to read from many threads.
//
// The file format (version kFormatVersion), text, one item per line:
//   sashite-eval 1
//   # free header lines, kept as header() ("# hand-set weights (not learned): ...")
//   features 10264
//   section material 14
//   90 315 405 ...             numbers of the section, in row-major order, any line breaks
//   section hand 7 18
//   ...                        every section of kSections, in that order
// After the features line, lines starting with '#' and blank lines are ignored: save()
// writes a comment before each block saying what its rows and columns are.
class Weights {
 public:
  static constexpr int kFormatVersion = 1;
  static constexpr int kUnitsPerCentipawn = 32;
  // The largest accepted magnitude, in centipawns (keeps the sums within 32 bits).
  static constexpr double kMaxAbsCentipawns = 30000;

  // All weights 0, empty header.
  Weights();

  // Weights set by formula (hand_set_weights.cpp), not learned: Bonanza-like piece values
  // (pawn 90 .. dragon 1395), golds and silvers near their own king and pieces near the
  // enemy king worth a bonus, king-safety penalties growing with the attackers.
  static Weights hand_set();

  static constexpr int size() { return kFeatureCount; }
  // The file format version the weights follow (always kFormatVersion once loaded).
  int version() const { return version_; }
  // Free text kept in the file's leading '#' lines (without the "# "), lines joined by '\n':
  // where the weights come from. The learning tool records its run there.
  const std::string& header() const { return header_; }
  // Trailing newlines are dropped.
  void set_header(std::string header) {
    while (!header.empty() && header.back() == '\n') header.pop_back();
    header_ = std::move(header);
  }

  // REQUIRES: 0 <= index < size(). set() clamps to +-kMaxAbsCentipawns and rounds.
  double get(int index) const { return double(units_[index]) / kUnitsPerCentipawn; }
  void set(int index, double centipawns);
  // The fixed-point weights, for evaluate(): units_[i] / kUnitsPerCentipawn centipawns.
  const int32_t* units() const { return units_.data(); }

  // Reads a weight file. On error *this is unchanged and the message names the file and
  // the line: "data/weights/x.eval: line 7: 'abc' is not a number (section 'hand', ...)".
  Status load(const std::string& path);
  // Writes the weights, overwriting the file. Errors name the file.
  Status save(const std::string& path) const;
  // The same from and to streams; source_name stands for the path in messages.
  Status read(std::istream& in, const std::string& source_name);
  void write(std::ostream& out) const;

  bool operator==(const Weights&) const = default;

 private:
  int version_ = kFormatVersion;
  std::string header_;
  std::vector<int32_t> units_;
};

}  // namespace engine::eval
