// The council's decision: its members' answers to one position turned into one move by the
// majority or the optimistic rule, and the report of the vote. Pure: values in, a decision out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "council/council_config.h"
#include "usi/usi_info.h"

namespace council {

// What became of one member's search.
enum class MemberOutcome {
  kAnswered,    // a legal bestmove in time
  kLate,        // no bestmove by the council's deadline
  kCrashed,     // the engine exited during the search
  kIllegal,     // its bestmove is not legal in the position
  kNotRunning,  // not ready when the search began (starting, restarting)
};
const char* member_outcome_name(MemberOutcome outcome);

// One member's answer. Only kAnswered answers vote.
struct MemberAnswer {
  std::string name;
  double weight = 1.0;
  double scale = 1.0;
  MemberOutcome outcome = MemberOutcome::kNotRunning;
  std::string move;                       // the word after bestmove: "7g7f", "resign", "win"
  std::string ponder;                     // the move it expects in reply, "" when none
  std::optional<usi::SearchScore> score;  // its last report, its own point of view and scale
  std::optional<int> depth;
  int64_t nodes = 0;
  std::vector<std::string> pv;  // its last principal variation
  int64_t elapsed_ms = 0;       // from the go to its bestmove
};

// A value on the council's scale: centipawns times the member's scale, mates beyond any of
// those (kMateValue less the plies, the shorter the larger).
constexpr double kMateValue = 1e6;
// The member's value on the council's scale; nullopt when it reported no score.
std::optional<double> council_value(const MemberAnswer& answer);

struct CouncilDecision {
  int chosen = -1;   // the member whose move, PV and ponder move are played; -1: none voted
  std::string move;  // "" when no member voted
  std::string how;   // "majority", "tie broken by values", "optimistic", "mate", "declaration"
  double value = 0;  // the chosen member's value on the council's scale (0 without a score)
  int voters = 0;    // members that answered
  int agreeing = 0;  // of them, those that answered the chosen move
  double weight_for = 0, weight_all = 0;  // the chosen move's vote weight and all voters'
};

// Decides by `rule`. Whatever the rule, a member's proven win comes first: a declaration
// ("win") before a mate, the shortest mate first. REQUIRES: the answers' moves were checked
// (outcome kIllegal for an illegal one).
CouncilDecision decide(CouncilRule rule, const std::vector<MemberAnswer>& answers);

// "majority 7g7f 2/3 (weight 2/3) from alpha; alpha 7g7f 35, beta 7g7f 20, gamma 2g2f 41,
// delta late": the decision and every member's move and value, for the council's info string
// and the records' comments. Values on the council's scale; mates as +M5 / -M4.
std::string format_council_vote(CouncilRule rule, const CouncilDecision& decision,
                                const std::vector<MemberAnswer>& answers);

}  // namespace council
