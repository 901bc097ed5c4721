// sashite match: games between two USI engines (see tools/match/match_runner.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "tools/match/match_options.h"
#include "tools/match/match_runner.h"

int run_match_command(const tools::MatchOptions& options) {
  if (base::Status s = tools::validate_match_options(options); !s) {
    std::cerr << "sashite match: " << s.message() << "\n";
    return 2;
  }
  if (base::Status s = tools::run_match(options, std::cout); !s) {
    std::cerr << "sashite match: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

int run_match_command(int argc, char** argv) {
  CLI::App app{"play games between two USI engines", "sashite match"};
  tools::MatchOptions options;
  tools::add_match_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return run_match_command(options);
}
