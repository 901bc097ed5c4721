// sashite: the one binary; each subcommand is a tool of the system.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/book_command.h"
#include "app/book_query_command.h"
#include "app/book_think_command.h"
#include "app/commands.h"
#include "app/gensfen_command.h"
#include "app/learn_command.h"
#include "app/mate_command.h"
#include "app/nnue_command.h"
#include "app/sprt_command.h"
#include "app/svm_command.h"
#include "app/tune_command.h"
#include "base/version.h"
#include "client/csa_command.h"
#include "tools/match/match_options.h"
#include "tools/records/records_convert.h"
#include "tools/records/records_time_use.h"
#include "tools/server/csa_server.h"

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

  CLI::App* usi =
      app.add_subcommand("usi", "the engine, speaking USI on standard input and output (for GUIs)");
  bool list_options = false;
  usi->add_flag(
      "--list-options", list_options,
      "print the options as a Markdown table (name, type, default, range, meaning) and exit");

  PerftOptions perft_options;
  CLI::App* perft = app.add_subcommand("perft", "count the leaves of the legal move tree");
  perft->add_option("depth", perft_options.depth, "depth in plies")
      ->required()
      ->check(CLI::Range(0, 20));
  perft->add_option("--sfen", perft_options.sfen,
                    "start from this position (default: the start position)");
  perft->add_flag("--divide", perft_options.divide, "print the count under each root move");

  BenchOptions bench_options;
  CLI::App* bench = app.add_subcommand(
      "bench",
      "search benchmark: fixed positions, one thread, fixed depth (--perft: move generation)");
  bench->add_option("--depth", bench_options.depth, "search depth per position")
      ->check(CLI::Range(1, 64));
  bench->add_option("--option", bench_options.options, "engine option NAME=VALUE (repeatable)");
  CLI::Option* bench_perft = bench->add_flag("--perft", bench_options.perft,
                                             "run the perft suite instead (move generation speed)");
  bench
      ->add_option("--perft-file", bench_options.perft_file,
                   "with --perft: check and time every count of this reference file "
                   "(`sfen <SFEN> | <depth 1> <depth 2> ...` a line; tests/data/perft.txt)")
      ->needs(bench_perft);

  tools::MatchOptions match_options;
  CLI::App* match = app.add_subcommand("match", "play games between two USI engines");
  tools::add_match_options(*match, match_options);

  CsaCommandOptions csa_options;
  CLI::App* csa = app.add_subcommand(
      "csa", "play on a CSA server (floodgate, a championship, the local server)");
  add_csa_options(*csa, csa_options);

  tools::ServerOptions server_options;
  CLI::App* server = app.add_subcommand(
      "server",
      "a local CSA server (shogi-server rules) for tests, the demo and local tournaments");
  tools::add_server_options(*server, server_options);

  CLI::App* records = app.add_subcommand("records", "work on CSA and KIF record files");
  records->require_subcommand(1);
  std::vector<std::string> record_paths;
  CLI::App* records_check =
      records->add_subcommand("check", "parse and replay every .csa file under the paths");
  records_check->add_option("paths", record_paths, "files or directories (searched recursively)")
      ->required();
  tools::RecordsConvertOptions convert_options;
  CLI::App* records_convert = records->add_subcommand(
      "convert", "write each CSA record as KIF (.kifu, UTF-8) or each KIF record as CSA");
  records_convert->add_option("--to", convert_options.to, "the format to write: kif or csa")
      ->required()
      ->check(CLI::IsMember({"kif", "csa"}));
  records_convert->add_option("--out", convert_options.out_dir,
                              "write into this directory (default: beside each input)");
  records_convert
      ->add_option("paths", convert_options.paths,
                   "files (.csa, .kif, .kifu, else told by content) or directories (searched "
                   "recursively for the other format's files)")
      ->required();

  tools::TimeUseOptions time_use_options;
  CLI::App* records_time_use = records->add_subcommand(
      "time-use", "seconds per move by ply over CSA records, and the closest call to a time loss");
  records_time_use->add_option("--bucket", time_use_options.bucket, "plies per line")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  records_time_use->add_option("--player", time_use_options.player,
                               "count only the side whose name (N+ or N-) holds this text");
  records_time_use->add_option("--tc", time_use_options.time_control,
                               "the clock the games were played under (as sashite match --tc: "
                               "300+10, or 600 with --byoyomi): report the closest call");
  records_time_use->add_option("--byoyomi", time_use_options.byoyomi_ms,
                               "with --tc: byoyomi in ms");
  records_time_use
      ->add_option("paths", time_use_options.paths, "files or directories (searched recursively)")
      ->required();

  CLI::App* book =
      app.add_subcommand("book", "opening books: import, export, stats, query, think, merge");
  book->require_subcommand(1);
  add_book_store_commands(*book);
  add_book_query_commands(*book);
  add_book_think_commands(*book);
  add_mate_command(app);
  add_svm_command(app);
  add_learn_command(app);
  add_sprt_command(app);
  add_tune_command(app);
  add_gensfen_command(app);
  add_nnue_command(app);

  if (const int code = check_subcommand_words(app, argc, argv)) return code;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (usi->parsed()) return run_usi_command(list_options);
  if (perft->parsed()) return run_perft(perft_options);
  if (bench->parsed()) return run_bench(bench_options);
  if (csa->parsed()) return run_csa_command(csa_options);
  if (server->parsed()) return run_server_command(server_options);
  if (match->parsed()) return run_match_command(match_options);
  if (records_check->parsed()) return run_records_check(record_paths);
  if (records_convert->parsed()) return tools::run_records_convert(convert_options, std::cout);
  if (records_time_use->parsed()) return tools::run_records_time_use(time_use_options, std::cout);
  return 0;
}
