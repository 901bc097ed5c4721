// The one way a subcommand ends on an error: its message on standard error, and an exit code.
#pragma once

#include <iostream>
#include <string_view>

// The exit codes, one rule for every subcommand (docs/commands.md): 0 done; kExitFailed, the
// run failed (an input missing, unreadable or malformed, an output that cannot be written, an
// engine that does not start, a check that found errors); kExitCommandLine, the command line
// is wrong in a way CLI11 does not check (an option's value we parse ourselves, options that
// do not go together). CLI11's own checks exit 104 to 109 (tests/cli_commands_test.cpp lists
// them). `sashite csa` adds its own for a session (client/csa_command.h).
inline constexpr int kExitFailed = 1;
inline constexpr int kExitCommandLine = 2;

// Prints "sashite COMMAND: MESSAGE" on standard error and returns exit_code.
inline int command_failed(std::string_view command, std::string_view message,
                          int exit_code = kExitFailed) {
  std::cerr << "sashite " << command << ": " << message << '\n';
  return exit_code;
}
