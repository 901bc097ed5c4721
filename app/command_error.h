// The one way a subcommand ends on an error: its message on standard error, and an exit code.
#pragma once

#include <iostream>
#include <string_view>

// Prints "sashite COMMAND: MESSAGE" on standard error and returns exit_code, the process's
// exit code (1: the run failed; 2: the options or the input were wrong).
inline int command_failed(std::string_view command, std::string_view message, int exit_code = 1) {
  std::cerr << "sashite " << command << ": " << message << '\n';
  return exit_code;
}
