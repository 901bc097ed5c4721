// sashite: the one binary; each subcommand is a tool of the system (app/command_table.cpp).
#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "app/command.h"
#include "base/version.h"

namespace {

// CLI11 answers a word that names no subcommand ("sashite bnech") with "A subcommand is
// required"; this names the word instead, with CLI11's exit code for an argument it did not
// expect (109). Returns 0 when every word before the first option names a subcommand.
int check_subcommand_words(const CLI::App& app, int argc, char** argv) {
  const CLI::App* at = &app;
  std::string path = "sashite";
  for (int i = 1; i < argc && argv[i][0] != '-'; ++i) {
    if (at->get_subcommands([](const CLI::App*) { return true; }).empty()) break;  // its arguments
    const CLI::App* next = nullptr;
    try {
      next = at->get_subcommand(argv[i]);
    } catch (const CLI::OptionNotFound&) {
    }
    if (!next) {
      std::cerr << path << ": unknown subcommand '" << argv[i]
                << "'\nRun with --help for more information.\n";
      return static_cast<int>(CLI::ExitCodes::ExtrasError);
    }
    path += " " + next->get_name();
    at = next;
  }
  return 0;
}

}  // namespace

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

  if (const int code = check_subcommand_words(app, argc, argv)) return code;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (const auto& [sub, run] : runs)
    if (sub->parsed()) return run();
  return 0;
}
