// Static evaluation from scratch over the active features, and its readable breakdown.
#include "engine/eval/evaluate.h"

#include <cstdint>
#include <cstdio>

#include "engine/eval/feature_visitor.h"
#include "engine/eval/features.h"
#include "engine/eval/value_sums.h"
#include "engine/names.h"

namespace engine::eval {

namespace {

// Sums per section, for describe().
struct DescribeSink {
  const int32_t* w;
  int64_t base_sums[4] = {};  // material, hand, pin, tempo
  int64_t opening_sums[kPhaseSectionNb] = {};
  int64_t endgame_sums[kPhaseSectionNb] = {};
  int king_counts[kColorNb][4] = {};
  bool has_king[kColorNb] = {false, false};

  static int section_of(int offset, int first, int count) {
    int found = first;
    for (int s = first; s < first + count; ++s)
      if (offset >= kSections[s].offset) found = s;
    return found - first;
  }
  void base(int index, int count) {
    base_sums[section_of(index, 0, 4)] += int64_t(w[index]) * count;
  }
  void phase(int index, int count) {
    const int s = section_of(kOpeningOffset + index, 4, kPhaseSectionNb);
    opening_sums[s] += int64_t(w[kOpeningOffset + index]) * count;
    endgame_sums[s] += int64_t(w[kEndgameOffset + index]) * count;
  }
  void king(Color c, int attacks, int defences, int controlled, int escapes) {
    has_king[c] = true;
    king_counts[c][0] = attacks;
    king_counts[c][1] = defences;
    king_counts[c][2] = controlled;
    king_counts[c][3] = escapes;
  }
};

std::string format(const char* fmt, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof(buffer), fmt, args...);
  return buffer;
}

}  // namespace

Value evaluate(const Position& pos, const Weights& w) {
  ValueSums sums;
  SumSink sink{w.units(), sums};
  const int progress_points = detail::visit_features(pos, sink);
  return value_of(sums, progress_points, pos.side_to_move());
}

std::string describe(const Position& pos, const Weights& w) {
  DescribeSink sink{w.units()};
  detail::visit_features(pos, sink);
  const int p = progress_fixed(pos);
  const double pe = double(p) / kProgressOne, po = 1 - pe;
  const double unit = Weights::kUnitsPerCentipawn;

  std::string text =
      format("progress %.3f: opening sets weigh %.3f, endgame sets %.3f\n", pe, po, pe);
  text += "centipawns from Black's point of view:\n";
  double black = 0;
  for (int s = 0; s < 4; ++s) {
    const double v = double(sink.base_sums[s]) / unit;
    black += v;
    text += format("  %-16s %+9.1f\n", kSections[s].name, v);
  }
  for (int s = 0; s < kPhaseSectionNb; ++s) {
    const double o = double(sink.opening_sums[s]) / unit, e = double(sink.endgame_sums[s]) / unit;
    const double blended = po * o + pe * e;
    black += blended;
    // The section name without its "opening_" prefix.
    text += format("  %-16s %+9.1f   (opening %+.1f, endgame %+.1f)\n", kSections[4 + s].name + 8,
                   blended, o, e);
  }
  for (Color c : {kBlack, kWhite}) {
    if (!sink.has_king[c]) continue;
    const int* k = sink.king_counts[c];
    text += format(
        "  %s king: %d enemy attacks and %d defences in its 5x5 box, %d squares "
        "controlled by the enemy, %d escape squares\n",
        c == kBlack ? "Black's" : "White's", k[0], k[1], k[2], k[3]);
  }
  text += format("total %+.1f for Black; %s to move: evaluate() = %d\n", black,
                 color_name(pos.side_to_move()), evaluate(pos, w));
  return text;
}

}  // namespace engine::eval
