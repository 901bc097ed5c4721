// sashite records check | convert | time-use: the command lines of tools/records/.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/records/records_check.h"
#include "tools/records/records_convert.h"
#include "tools/records/records_time_use.h"

CommandRun add_records_check_options(CLI::App& sub) {
  auto paths = std::make_shared<std::vector<std::string>>();
  sub.add_option("paths", *paths, "files or directories (searched recursively)")->required();
  return [paths] { return tools::run_records_check(*paths); };
}

CommandRun add_records_convert_options(CLI::App& sub) {
  auto o = std::make_shared<tools::RecordsConvertOptions>();
  sub.add_option("--to", o->to, "the format to write: kif or csa")
      ->required()
      ->check(CLI::IsMember({"kif", "csa"}));
  sub.add_option("--out", o->out_dir, "write into this directory (default: beside each input)");
  sub.add_option("paths", o->paths,
                 "files (.csa, .kif, .kifu, else told by content) or directories (searched "
                 "recursively for the other format's files)")
      ->required();
  return [o] { return tools::run_records_convert(*o, std::cout); };
}

CommandRun add_records_time_use_options(CLI::App& sub) {
  auto o = std::make_shared<tools::TimeUseOptions>();
  sub.add_option("--bucket", o->bucket, "plies per line")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub.add_option("--player", o->player,
                 "count only the side whose name (N+ or N-) holds this text");
  sub.add_option("--tc", o->time_control,
                 "the clock the games were played under (as sashite match --tc: "
                 "300+10, or 600 with --byoyomi): report the closest call");
  sub.add_option("--byoyomi", o->byoyomi_ms, "with --tc: byoyomi in ms");
  sub.add_option("paths", o->paths, "files or directories (searched recursively)")->required();
  return [o] {
    if (base::Status s = tools::validate_time_use_options(*o); !s)
      return command_failed("records time-use", s.message(), kExitCommandLine);
    return tools::run_records_time_use(*o, std::cout);
  };
}
