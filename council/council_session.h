// The council as a USI engine: a GUI (or `sashite csa`, or `sashite match`) talks USI to it on
// one side; on the other, every member gets the same position and go, and the council answers
// with the move its rule chooses from theirs (council_vote.h).
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include "council/council_config.h"

namespace council {

// Reads USI commands from `in` and answers on `out` until quit or the end of `in`, as
// engine::run_usi does for one engine (the same commands; errors as "info string error: ...",
// a bestmove for every go). The members start at once; `log` receives what the members and
// the council do (starts, restarts, faults, decisions' timing), one line at a time, from any
// thread. Returns the process exit code, 0.
//
// Time: the members are told the go's time less config.margin_ms, and the council answers by
// its own deadline (the clock's time less a third of the margin) with the members that have
// answered; once one has answered, the others get config.straggler_ms more at most (under a
// clock, at least as long again as the first took). A member
// that is late is stopped; one that crashes is started again (by its own thread); one that
// answers an illegal move is restarted; one that does not answer a stop within a second is
// restarted before the next search. Each is left out of that vote. With no vote at all the
// council plays the first legal move of a member's latest PV, else the first legal move: it
// never answers an illegal move.
int run_council(const CouncilConfig& config, std::istream& in, std::ostream& out,
                std::function<void(const std::string&)> log);

}  // namespace council
