// How a subcommand ends on an error: its message on standard error, then exit code 1.
#pragma once

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

// Prints "sashite COMMAND: MESSAGE" and throws CLI::RuntimeError(1), which app.exit() turns
// into exit code 1 without a message of its own.
[[noreturn]] inline void fail_command(const std::string& command, const std::string& message) {
  std::cerr << "sashite " << command << ": " << message << '\n';
  throw CLI::RuntimeError(1);
}
