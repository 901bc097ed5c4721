// The council's rules (see council_vote.h).
#include "council/council_vote.h"

#include <cmath>
#include <cstdio>
#include <map>

namespace council {

const char* member_outcome_name(MemberOutcome outcome) {
  switch (outcome) {
    case MemberOutcome::kAnswered:
      return "answered";
    case MemberOutcome::kLate:
      return "late";
    case MemberOutcome::kCrashed:
      return "crashed";
    case MemberOutcome::kIllegal:
      return "illegal";
    case MemberOutcome::kNotRunning:
      return "not running";
  }
  return "?";
}

std::optional<double> council_value(const MemberAnswer& a) {
  if (!a.score) return std::nullopt;
  const usi::SearchScore& s = *a.score;
  if (s.is_mate) {
    // A mate without a distance counts as the longest one.
    const double plies = s.mate_plies >= 0 ? s.mate_plies : 1000;
    return s.mating ? kMateValue - plies : -(kMateValue - plies);
  }
  return s.cp * a.scale;
}

namespace {

bool votes(const MemberAnswer& a) { return a.outcome == MemberOutcome::kAnswered; }

// A member's value for comparisons: one without a score ranks below every scored one.
double ranked_value(const MemberAnswer& a) {
  const std::optional<double> v = council_value(a);
  if (v) return *v;
  return a.move == "resign" ? -2 * kMateValue : -1.5 * kMateValue;
}

// A proven win: a declaration (entering king, 入玉宣言) before any mate, shorter mates first.
// -1 when no member has one.
int proven_win(const std::vector<MemberAnswer>& answers) {
  int best = -1;
  double best_rank = 0;
  for (size_t i = 0; i < answers.size(); ++i) {
    const MemberAnswer& a = answers[i];
    if (!votes(a)) continue;
    double rank;
    if (a.move == "win")
      rank = 3 * kMateValue;
    else if (a.move != "resign" && a.score && a.score->is_mate && a.score->mating)
      rank = *council_value(a);
    else
      continue;
    if (best < 0 || rank > best_rank || (rank == best_rank && a.weight > answers[best].weight)) {
      best = int(i);
      best_rank = rank;
    }
  }
  return best;
}

}  // namespace

CouncilDecision decide(CouncilRule rule, const std::vector<MemberAnswer>& answers) {
  CouncilDecision d;
  std::map<std::string, double> weight_of;  // per move
  std::map<std::string, double> value_of;   // summed values per move
  for (const MemberAnswer& a : answers) {
    if (!votes(a)) continue;
    ++d.voters;
    d.weight_all += a.weight;
    weight_of[a.move] += a.weight;
    value_of[a.move] += council_value(a).value_or(0);
  }
  if (d.voters == 0) return d;

  auto better = [&](int i, int j) {  // is answers[i] a better choice than answers[j]?
    if (j < 0) return true;
    return ranked_value(answers[size_t(i)]) > ranked_value(answers[size_t(j)]);
  };
  if (int win = proven_win(answers); win >= 0) {
    d.chosen = win;
    d.how = answers[size_t(win)].move == "win" ? "declaration" : "mate";
  } else if (rule == CouncilRule::kOptimistic) {
    for (size_t i = 0; i < answers.size(); ++i) {
      if (!votes(answers[i])) continue;
      const int c = d.chosen;
      if (c < 0 || better(int(i), c) ||
          (ranked_value(answers[i]) == ranked_value(answers[size_t(c)]) &&
           weight_of[answers[i].move] > weight_of[answers[size_t(c)].move]))
        d.chosen = int(i);
    }
    d.how = "optimistic";
  } else {
    // The most weight; a tie goes to the larger summed value, then to the earlier member.
    std::string best;
    bool tie = false;
    for (const MemberAnswer& a : answers) {
      if (!votes(a) || a.move == best) continue;
      if (best.empty() || weight_of[a.move] > weight_of[best]) {
        best = a.move;
        tie = false;
      } else if (weight_of[a.move] == weight_of[best]) {
        tie = true;
        if (value_of[a.move] > value_of[best]) best = a.move;
      }
    }
    // Among the members that chose it, the one with the highest value speaks for the move.
    for (size_t i = 0; i < answers.size(); ++i)
      if (votes(answers[i]) && answers[i].move == best && better(int(i), d.chosen))
        d.chosen = int(i);
    d.how = tie ? "tie broken by values" : "majority";
  }
  const MemberAnswer& c = answers[size_t(d.chosen)];
  d.move = c.move;
  d.value = council_value(c).value_or(0);
  d.weight_for = weight_of[c.move];
  for (const MemberAnswer& a : answers)
    if (votes(a) && a.move == c.move) ++d.agreeing;
  return d;
}

namespace {

std::string value_text(const MemberAnswer& a) {
  if (!a.score) return "-";
  if (a.score->is_mate) {
    std::string s = a.score->mating ? "+M" : "-M";
    if (a.score->mate_plies >= 0) s += std::to_string(a.score->mate_plies);
    return s;
  }
  return std::to_string(std::lround(*council_value(a)));
}

std::string weight_text(double w) {
  if (w == std::floor(w)) return std::to_string(int64_t(w));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", w);
  return buf;
}

}  // namespace

std::string format_council_vote(CouncilRule rule, const CouncilDecision& d,
                                const std::vector<MemberAnswer>& answers) {
  std::string s;
  if (d.chosen < 0) {
    s = std::string(council_rule_name(rule)) + ": no member answered";
  } else {
    s = d.how == "majority" || d.how == "tie broken by values" ? std::string("majority") : d.how;
    s += " " + d.move + " " + std::to_string(d.agreeing) + "/" + std::to_string(d.voters);
    if (rule == CouncilRule::kMajority)
      s += " (weight " + weight_text(d.weight_for) + "/" + weight_text(d.weight_all) +
           (d.how == "tie broken by values" ? ", tie broken by values" : "") + ")";
    s += " from " + answers[size_t(d.chosen)].name;
  }
  const char* sep = "; ";
  for (const MemberAnswer& a : answers) {
    s += sep;
    sep = ", ";
    s += a.name;
    if (a.outcome == MemberOutcome::kAnswered)
      s += " " + a.move + " " + value_text(a);
    else
      s += std::string(" ") + member_outcome_name(a.outcome) +
           (a.outcome == MemberOutcome::kIllegal ? " " + a.move : "");
  }
  return s;
}

}  // namespace council
