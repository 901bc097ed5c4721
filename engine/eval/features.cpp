// Progress of the game, the sparse feature vector for learning, and feature names.
#include "engine/eval/features.h"

#include <algorithm>
#include <cstdlib>

#include "engine/eval/feature_visitor.h"
#include "engine/eval/weights.h"
#include "engine/names.h"

namespace engine::eval {

namespace {

// Collects (index, count) pairs, phase features once per phase set.
struct CollectingSink {
  FeatureVector& out;
  float opening_scale;
  float endgame_scale;
  void base(int index, int count) { out.emplace_back(index, float(count)); }
  void phase(int index, int count) {
    out.emplace_back(kOpeningOffset + index, float(count) * opening_scale);
    out.emplace_back(kEndgameOffset + index, float(count) * endgame_scale);
  }
  void king(Color, int, int, int, int) {}
};

}  // namespace

int progress_from_points(int points) {
  return std::min(kProgressOne, points * kProgressOne / kProgressFullRaw);
}

int progress_fixed(const Position& pos) {
  int points = 0;
  for (Color c : {kBlack, kWhite}) {
    for (Square s : pos.pieces(c)) points += detail::kProgressPoints[c][s];
    points += detail::hand_progress_points(pos.hand(c));
  }
  return progress_from_points(points);
}

double progress(const Position& pos) { return double(progress_fixed(pos)) / kProgressOne; }

void collect_features(const Position& pos, FeatureVector& out) {
  out.clear();
  const int p = progress_fixed(pos);
  CollectingSink sink{out, float(kProgressOne - p) / kProgressOne, float(p) / kProgressOne};
  detail::visit_features(pos, sink);
  std::sort(out.begin(), out.end(),
            [](const Feature& a, const Feature& b) { return a.first < b.first; });
  // Merge equal indices and drop zeros (a Black and a White feature cancelling, or p = 0).
  size_t kept = 0;
  for (size_t i = 0; i < out.size();) {
    Feature merged = out[i];
    for (++i; i < out.size() && out[i].first == merged.first; ++i) merged.second += out[i].second;
    if (merged.second != 0) out[kept++] = merged;
  }
  out.resize(kept);
}

double dot(const Weights& w, const FeatureVector& features) {
  double sum = 0;
  for (const Feature& f : features) sum += w.get(f.first) * f.second;
  return sum;
}

std::string feature_name(int index) {
  if (index < 0 || index >= kFeatureCount) return "invalid[" + std::to_string(index) + "]";
  const Section* section = &kSections[0];
  for (const Section& s : kSections)
    if (index >= s.offset) section = &s;
  const int i = index - section->offset;
  const std::string name = section->name;
  if (name == "material") return name + "[" + kPieceNames[i] + "]";
  if (name == "hand")
    return name + "[" + kPieceNames[i / kHandCountNb] + "][" +
           std::to_string(i % kHandCountNb + 1) + "]";
  if (name == "pin") return name + "[" + kKindNames[i] + "]";
  if (name == "tempo") return name;
  if (name.ends_with("_piece_square"))
    return name + "[" + kKindNames[i / (kFoldedFileNb * kRankNb)] +
           "][file=" + std::to_string(i / kRankNb % kFoldedFileNb) +
           "][rank=" + std::to_string(i % kRankNb) + "]";
  if (name.ends_with("_safety"))
    return name + "[" + kKindNames[i / (kSafetyBuckets * kSafetyBuckets)] +
           "][attackers=" + std::to_string(i / kSafetyBuckets % kSafetyBuckets) +
           "][defenders=" + std::to_string(i % kSafetyBuckets) + "]";
  if (name.ends_with("_threat")) return name + "[" + kKindNames[i] + "]";
  if (name.ends_with("_mobility"))
    return name + "[" + kSliderNames[i / kMobilityBuckets] + "][" +
           std::to_string(i % kMobilityBuckets) + "]";
  if (name.ends_with("_threatened"))
    return name + "[" + (i / (kThreatenedCountNb * kValueClassNb) ? "to_move" : "waiting") +
           "][count=" + std::to_string(i / kValueClassNb % kThreatenedCountNb) +
           "][class=" + std::to_string(i % kValueClassNb) + "]";
  if (section->rank == 3) {
    const int kind = i / (kDfNb * kDrNb), df = i / kDrNb % kDfNb, dr = i % kDrNb - 8;
    return name + "[" + kKindNames[kind] + "][df=" + std::to_string(df) +
           "][dr=" + (dr > 0 ? "+" : "") + std::to_string(dr) + "]";
  }
  if (section->rank == 2)  // king_drops
    return name + "[" + kPieceNames[i / kDropBuckets] +
           "][empty=" + std::to_string(i % kDropBuckets) + "]";
  return name + "[" + std::to_string(i) + "]";
}

}  // namespace engine::eval
