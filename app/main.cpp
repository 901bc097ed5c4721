// sashite: the one binary; each subcommand is a tool of the system (app/command_table.cpp).
#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/command.h"
#include "base/version.h"

int main(int argc, char** argv) {
  CLI::App app{"sashite: a computer-shogi system (engine, CSA client, book and tools)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("sashite ") + base::build_version());

  // Each row becomes a subcommand of `sashite` or of its group; each that runs keeps its run.
  std::map<std::string_view, CLI::App*> groups;
  std::vector<std::pair<CLI::App*, CommandRun>> runs;
  for (const Command& command : command_table()) {
    const size_t space = command.path.rfind(' ');
    const bool top = space == std::string_view::npos;
    CLI::App& parent = top ? app : *groups.at(command.path.substr(0, space));
    CLI::App* sub = parent.add_subcommand(std::string(command.path.substr(top ? 0 : space + 1)),
                                          std::string(command.description));
    if (command.add_options) {
      runs.emplace_back(sub, command.add_options(*sub));
    } else {
      sub->require_subcommand(1);
      groups[command.path] = sub;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (const auto& [sub, run] : runs)
    if (sub->parsed()) return run();
  return 0;
}
