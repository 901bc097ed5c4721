// CouncilConfig: the members of a council of USI engines and how they vote, read from TOML
// (config/council.toml is the example with every key).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace council {

// How the council turns its members' answers into one move.
enum class CouncilRule {
  kMajority,    // the move with the most vote weight; a tie goes to the larger summed value
  kOptimistic,  // the move of the member reporting the highest value (on the council's scale)
};
const char* council_rule_name(CouncilRule rule);
// "majority" or "optimistic"; false for anything else.
bool parse_council_rule(const std::string& text, CouncilRule& out);

// One member: a USI engine run as a child process. A member on another machine is a command
// too ("ssh -T host /path/to/engine").
struct CouncilMemberConfig {
  std::string name;               // shown in the council's reports; default "member N"
  std::string command;            // the command line (required)
  std::vector<std::string> args;  // more arguments, taken as they are
  std::string working_dir;        // where it runs; "" = the council's directory
  std::vector<std::pair<std::string, std::string>> options;  // setoption, in order
  double weight = 1.0;                                       // its vote in the majority rule
  // Its values times `scale` are on the council's scale (centipawns of the first member):
  // programs evaluate on different scales.
  double scale = 1.0;
  std::string stderr_path;  // where its stderr goes; "" discards it
};

struct CouncilConfig {
  CouncilRule rule = CouncilRule::kMajority;
  // Taken from every time limit the members are given, and the council answers by its own
  // deadline (the clock's less this): the council's relaying and deciding, the pipes.
  int margin_ms = 300;
  // Once a member has answered, how long the others may still take (0: until the deadline);
  // under a clock at least as long again as the first member took. Bounds a silent member when
  // the go has no clock (nodes, depth) or a long one.
  int straggler_ms = 5000;
  // How long the members may take to start (usi ... usiok, isready ... readyok); a member not
  // ready by then is left out until it is.
  int startup_timeout_ms = 60000;
  // What the members (and their restarts) write about themselves: "" = the council's stderr.
  std::string log_file;
  std::vector<CouncilMemberConfig> members;
};

// Reads a council configuration; every error names the file, the key and the line.
base::Status load_council_config(const std::string& path, CouncilConfig& out);
base::Status parse_council_config(const std::string& text, const std::string& name,
                                  CouncilConfig& out);

}  // namespace council
