// How a subcommand ends on an error: its message on standard error, then a non-zero exit code.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

// Prints "sashite COMMAND: MESSAGE" and throws CLI::RuntimeError(exit_code), which app.exit()
// turns into that exit code without a message of its own (2: the options were wrong).
[[noreturn]] inline void fail_command(const std::string& command, const std::string& message,
                                      int exit_code = 1) {
  std::cerr << "sashite " << command << ": " << message << '\n';
  throw CLI::RuntimeError(exit_code);
}
