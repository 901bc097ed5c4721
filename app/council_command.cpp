// sashite council: a council of USI engines that speaks USI itself (council/council_session.h).
#include <CLI/CLI.hpp>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>

#include "app/command_error.h"
#include "app/commands.h"
#include "council/council_config.h"
#include "council/council_session.h"

namespace {

// "2026-12-05 15:40:01.123 " for the log's lines.
std::string log_time() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const int ms = int(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d.%03d ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

struct CouncilOptions {
  std::string config;
  std::string rule;
  std::string log;
};

}  // namespace

CommandRun add_council_options(CLI::App& sub) {
  auto options = std::make_shared<CouncilOptions>();
  sub.add_option("--config", options->config,
                 "the council's TOML file: its members (command, options, weight, scale) and "
                 "rule (example: config/council.toml)")
      ->required();
  sub.add_option("--rule", options->rule, "majority or optimistic (default: the config's)")
      ->check(CLI::IsMember({"majority", "optimistic"}));
  sub.add_option("--log", options->log,
                 "append what the members and the council do to this file (default: the "
                 "config's log_file, else standard error)");
  sub.footer(
      "Speaks USI on standard input and output, as `sashite usi` does: give it to a GUI, to "
      "`sashite csa` ([engine] command) or to `sashite match`.");
  return [options] {
    council::CouncilConfig config;
    if (base::Status st = council::load_council_config(options->config, config); !st)
      return command_failed("council", st.message());
    if (!options->rule.empty()) council::parse_council_rule(options->rule, config.rule);
    const std::string log_path = options->log.empty() ? config.log_file : options->log;
    auto file = std::make_shared<std::ofstream>();
    if (!log_path.empty()) {
      file->open(log_path, std::ios::app);
      if (!*file) return command_failed("council", "cannot open the log file " + log_path);
    }
    auto mutex = std::make_shared<std::mutex>();
    auto log = [file, mutex](const std::string& line) {
      std::lock_guard<std::mutex> lock(*mutex);
      std::ostream& out = file->is_open() ? static_cast<std::ostream&>(*file) : std::cerr;
      out << log_time() << line << '\n';
      out.flush();
    };
    return council::run_council(config, std::cin, std::cout, log);
  };
}
