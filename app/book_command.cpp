// sashite book import | export | stats: the command lines of tools/book/book_store.h.
#include <CLI/CLI.hpp>
#include <memory>

#include "app/command_error.h"
#include "app/commands.h"
#include "tools/book/book_store.h"

CommandRun add_book_import_options(CLI::App& sub) {
  auto import_options = std::make_shared<tools::BookImportOptions>();
  sub.add_option("--format", import_options->format, "input format")
      ->required()
      ->check(CLI::IsMember({"gps-tsv", "joseki-dat", "yaneuraou", "csa"}));
  sub.add_option("--book", import_options->book, "the book directory (LevelDB)")->required();
  sub.add_option("paths", import_options->paths,
                 "input files (csa: files or directories, searched recursively)")
      ->required();
  sub.add_option("--max-ply", import_options->max_ply, "csa: keep moves up to this ply (0: all)")
      ->check(CLI::NonNegativeNumber);
  sub.add_option("--result", import_options->result,
                 "csa: all games, decisive games only, or only the winner's moves")
      ->check(CLI::IsMember({"all", "decisive", "winner"}));
  sub.add_option("--player", import_options->player,
                 "csa: keep only the moves of players whose name contains this");
  sub.add_flag("--quiet", import_options->quiet, "do not print warnings");
  return [import_options] {
    if (const base::Status s = tools::run_book_import(*import_options); !s)
      return command_failed("book import", s.message());
    return 0;
  };
}

CommandRun add_book_export_options(CLI::App& sub) {
  auto export_options = std::make_shared<tools::BookExportOptions>();
  sub.add_option("--format", export_options->format, "output format")
      ->check(CLI::IsMember({"yaneuraou"}));
  sub.add_option("--book", export_options->book, "the book directory")->required();
  sub.add_option("--out", export_options->out, "output file (default: standard output)");
  return [export_options] {
    if (const base::Status s = tools::run_book_export(*export_options); !s)
      return command_failed("book export", s.message());
    return 0;
  };
}

CommandRun add_book_stats_options(CLI::App& sub) {
  auto stats_options = std::make_shared<tools::BookStatsOptions>();
  sub.add_option("--book", stats_options->book, "the book directory")->required();
  return [stats_options] {
    if (const base::Status s = tools::run_book_stats(*stats_options); !s)
      return command_failed("book stats", s.message());
    return 0;
  };
}
